"""Shared reports in the database: share (pending), an instructor's approval or return, the
author's withdrawal, and what candidates browse. Nothing reaches another account before an
instructor approves it; every change is a :class:`~prep.postings.models.ShareEvent`.

These functions flush but never commit: the caller commits.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, select

from ..content.lookup import explanations_for
from ..extensions import db
from ..postings.bank import HistoryEntry, event_history
from ..postings.canonical_company import by_slug, company_key
from ..postings.models import Posting, PostingQuestion, SharedReport, ShareEvent, ShareStatus
from .anonymise import Anonymised, anonymise, month_of
from .errors import AlreadyPublished, EmptyShare, NotAReport, NotPending, ReasonMissing, ShareTooLong

#: The longest text a shared report may have (a long 面经 is a few thousand characters).
MAX_SHARE_CHARS = 50_000
#: The longest reason an instructor may give when returning a report.
MAX_REASON_CHARS = 500
#: Shared reports per page of the list.
PAGE_SIZE = 20


@dataclass(frozen=True)
class SharePreview:
    """What others would see of a report, before the author edits and sends it."""

    text: str
    found: dict[str, int]
    company: str | None
    role: str | None
    rounds: list[str]
    interview_month: str | None


@dataclass(frozen=True)
class SharedQuestion:
    """One question of a shared report as others see it: its wording anonymised like the text."""

    text: str
    lang: str
    kind: str
    round: str | None
    explanations: list[Any]


def shared_questions(posting: Posting | None, lang: str) -> list[SharedQuestion]:
    """The report's questions, each worded as asked (anonymised) with its explanations in ``lang``."""
    if posting is None:
        return []
    return [SharedQuestion(anonymise(pq.text or pq.question.text).text, pq.question.lang, pq.kind, pq.round,
                           explanations_for(pq.question, lang=lang)) for pq in posting.questions]


def studyable_ids(posting: Posting, user_id: int) -> tuple[list[int], int]:
    """The report's questions a reader can study (those in the shared bank, or their own), and
    how many questions it has: the author's new questions stay theirs until the bank takes them."""
    ids = [pq.question_id for pq in posting.questions if pq.question.is_visible_to(user_id)]
    return list(dict.fromkeys(ids)), len(posting.questions)


def share_of(posting: Posting) -> SharedReport | None:
    """The report's share row (any status), if it was ever shared."""
    return db.session.scalar(select(SharedReport).where(SharedReport.posting_id == posting.id))


def preview(posting: Posting) -> SharePreview:
    """The report anonymised (:func:`.anonymise.anonymise`); a report shared before starts from
    the text its author sent then."""
    if not posting.is_report:
        raise NotAReport()
    earlier = share_of(posting)
    result = Anonymised(earlier.text) if earlier is not None else anonymise(posting.raw_text)
    return SharePreview(text=result.text, found=result.found, company=posting.company, role=posting.title,
                        rounds=list(posting.rounds or []), interview_month=month_of(posting.interview_date))


def share(posting: Posting, text: str, now: datetime) -> SharedReport:
    """Send the author's report, as ``text``, to the instructors' review: pending, seen by nobody
    else yet. A report waiting for review gets the new text; a returned or withdrawn one goes back
    to review; a published one must be withdrawn first (:class:`.errors.AlreadyPublished`)."""
    if not posting.is_report or posting.user_id is None:
        raise NotAReport()
    cleaned = clean_text(text)
    row = share_of(posting)
    if row is not None and row.status == ShareStatus.published:
        raise AlreadyPublished()
    if row is None:
        row = SharedReport(posting_id=posting.id, author_id=posting.user_id, text=cleaned, status=ShareStatus.pending)
        db.session.add(row)
    row.text, row.content_hash, row.shared_at, row.reason = cleaned, posting.content_hash, now, ""
    row.company, row.role, row.rounds = posting.company, posting.title, list(posting.rounds or [])
    row.interview_month = month_of(posting.interview_date)
    row.move(ShareStatus.pending, posting.user_id, now)
    db.session.flush()
    return row


def clean_text(text: str) -> str:
    """The text as others will read it: control characters removed, line ends kept; refused when
    empty or over :data:`MAX_SHARE_CHARS`."""
    cleaned = "".join(ch for ch in (text or "").replace("\r\n", "\n").replace("\r", "\n") if ch >= " " or ch in "\n\t")
    cleaned = "\n".join(line.rstrip() for line in cleaned.strip().split("\n"))
    if not cleaned:
        raise EmptyShare()
    if len(cleaned) > MAX_SHARE_CHARS:
        raise ShareTooLong(MAX_SHARE_CHARS)
    return cleaned


def withdraw(row: SharedReport, actor_id: int | None, now: datetime) -> None:
    """The author takes a shared report back: it leaves others' lists and counts at once; their
    own report is untouched, and they may share it again."""
    if row.status in (ShareStatus.pending, ShareStatus.published):
        row.move(ShareStatus.withdrawn, actor_id, now)
        db.session.flush()


def approve(row: SharedReport, instructor_id: int | None, now: datetime) -> None:
    """An instructor publishes a pending report: every candidate can read it."""
    if row.status != ShareStatus.pending or row.posting_id is None:
        raise NotPending()
    row.move(ShareStatus.published, instructor_id, now)
    db.session.flush()


def reject(row: SharedReport, instructor_id: int | None, reason: str, now: datetime) -> None:
    """An instructor returns a report to its author with a reason (required): a pending one, or a
    published one found wanting later (it leaves others' lists and counts at once)."""
    if row.status not in (ShareStatus.pending, ShareStatus.published):
        raise NotPending()
    reason = " ".join((reason or "").split())[:MAX_REASON_CHARS]
    if not reason:
        raise ReasonMissing()
    row.reason = reason
    row.move(ShareStatus.rejected, instructor_id, now, reason)
    db.session.flush()


def pending(limit: int = 50, offset: int = 0) -> tuple[list[SharedReport], int]:
    """The reports waiting for an instructor, oldest first."""
    stmt = select(SharedReport).where(SharedReport.status == ShareStatus.pending, SharedReport.posting_id.is_not(None))
    total = db.session.scalar(select(func.count()).select_from(stmt.subquery())) or 0
    rows = db.session.scalars(stmt.order_by(SharedReport.shared_at, SharedReport.id).limit(limit).offset(offset))
    return list(rows), total


@dataclass(frozen=True)
class Filters:
    """The browse list's filters (empty: any)."""

    company: str = ""
    role: str = ""
    round: str = ""


def _listed() -> Select[Any]:
    """Published reports, one per content hash (the first shared)."""
    first = (select(func.min(SharedReport.id)).where(SharedReport.status == ShareStatus.published)
             .group_by(SharedReport.content_hash))
    return select(SharedReport).where(SharedReport.id.in_(first), SharedReport.posting_id.is_not(None))


def published(filters: Filters) -> Select[Any]:
    """The browse list's statement, newest published first, filtered by company (any of its
    names: 字节, 字节跳动 and ByteDance are one company), role (part of the title, any case) and
    round (a round the report's questions were asked in)."""
    stmt = _listed()
    if filters.company:
        key = company_key(filters.company)
        stmt = stmt.where(SharedReport.posting_id.in_(select(Posting.id).where(Posting.company_key == key)))
    if filters.role:
        stmt = stmt.where(func.lower(SharedReport.role).contains(filters.role.lower(), autoescape=True))
    if filters.round:
        has_round = (select(PostingQuestion.id).where(PostingQuestion.posting_id == SharedReport.posting_id,
                                                      PostingQuestion.round == filters.round).exists())
        stmt = stmt.where(has_round)
    return stmt.order_by(SharedReport.published_at.desc(), SharedReport.id.desc())


def choices(lang: str) -> dict[str, list[tuple[str, str]]]:
    """The companies (by key, named in ``lang`` when prep knows them), roles and rounds the
    published reports name: (value, label) pairs for the filters' lists."""
    rows = db.session.execute(select(Posting.company_key, SharedReport.company, SharedReport.role, Posting.id)
                              .join(Posting, Posting.id == SharedReport.posting_id)
                              .where(SharedReport.id.in_(_listed().with_only_columns(SharedReport.id)))).all()
    companies: dict[str, str] = {}
    for key, company, _role, _id in rows:
        if key:
            known = by_slug(key)
            companies.setdefault(key, known.name(lang) if known else (company or key))
    rounds = db.session.scalars(select(PostingQuestion.round).distinct().where(
        PostingQuestion.posting_id.in_([row[3] for row in rows]), PostingQuestion.round.is_not(None)))
    return {"company": sorted(companies.items(), key=lambda item: item[1]),
            "role": [(role, role) for role in sorted({row[2] for row in rows if row[2]})],
            "round": [(name, name) for name in sorted(set(rounds))]}


def readable(share_id: int, user: Any) -> Select[Any]:
    """The statement for a shared report ``user`` may read: published ones for everyone, the
    author's own in any status, and any for instructors (who review them)."""
    stmt = select(SharedReport).where(SharedReport.id == share_id, SharedReport.posting_id.is_not(None))
    if getattr(user, "is_instructor", False):
        return stmt
    return stmt.where((SharedReport.status == ShareStatus.published) | (SharedReport.author_id == user.id))


def own(share_id: int, user: Any) -> Select[Any]:
    """The statement for the user's own shared report."""
    return select(SharedReport).where(SharedReport.id == share_id, SharedReport.author_id == user.id,
                                      SharedReport.posting_id.is_not(None))


def history(row: SharedReport) -> list[HistoryEntry]:
    """A share's history, newest first: who moved it where, when and why."""
    return event_history(ShareEvent, ShareEvent.share_id == row.id)


def published_share_id_or_404(posting_id: int) -> int:
    """The id of the published share of a posting (for a link to another candidate's report), or a 404."""
    return db.first_or_404(select(SharedReport.id).where(SharedReport.posting_id == posting_id,
                                                         SharedReport.status == ShareStatus.published))
