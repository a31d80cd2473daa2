"""The shared question bank as postings see it: the questions a new posting question may merge
into (cached per database), and its publication rule: a question a candidate wrote reaches other
accounts only through an instructor's approval. How many accounts imported it ranks the review
queue (:func:`pending_questions`) and never publishes it; an instructor can withdraw a published
question (:func:`withdraw`, restorable with :func:`restore`), and every change is a
:class:`.models.BankEvent` (who, when, why).

These functions flush but never commit: the caller commits.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app
from sqlalchemy import ColumnElement, Integer, Select, and_, bindparam, case, func, null, or_, select, true
from sqlalchemy.orm import aliased

from ..accounts.models import User
from ..content.models import Explanation, live
from ..content.sync import link_question
from ..extensions import db
from ..questions.models import Publication, Question, Source
from ..questions.normalize import normalize_question
from ..questions.service import add_question, find_public_question
from .merge import Candidate, CandidateIndex
from .models import BankDecision, BankEvent, Posting, PostingQuestion
from .tagging import retag_question


def _bank_filter() -> tuple[Any, ...]:
    return Question.shared(), Question.source.in_([Source.posting, Source.content])


def database_key() -> str:
    """The database a process-wide cache entry belongs to (its URL, without the password)."""
    return db.engine.url.render_as_string(hide_password=True)


def questions_fingerprint(*where: Any) -> tuple[int, int | None, str | None, int | None]:
    """(count, highest id, that row's normalised text, the newest bank event) of the questions
    matching ``where``: the bank grows between imports and changes otherwise only by an
    instructor's approval, withdrawal or restoration (each a :class:`.models.BankEvent`), so a
    cache of them is still good while these agree. One statement."""
    count, max_id, last_norm, events = db.session.execute(_fingerprint_statement(*where)).one()
    return count, max_id, last_norm, events


def _fingerprint_statement(*where: Any) -> Select[Any]:
    """:func:`questions_fingerprint`'s statement (also a part of :func:`_bank_check_statement`)."""
    counted = select(func.count(Question.id).label("count"), func.max(Question.id).label("max_id")) \
        .where(*where).subquery()
    last = aliased(Question)
    events = select(func.max(BankEvent.id)).scalar_subquery()
    return (select(counted.c.count, counted.c.max_id, last.norm.label("last_norm"), events.label("events"))
            .select_from(counted.outerjoin(last, last.id == counted.c.max_id)))


def explanations_fingerprint() -> tuple[Any, ...]:
    """(count, newest update) of the explanations: a content sync, the one place a public
    question's text is edited, changes them."""
    return tuple(db.session.execute(select(func.count(Explanation.id), func.max(Explanation.updated_at))).one())


@dataclass(frozen=True)
class BankCheck:
    """What an import compares its process-wide caches with, read in one statement: the bank's
    fingerprint (:func:`questions_fingerprint` of :func:`_bank_filter`), the normalised text now
    at the cached list's highest id (``since_id``), :func:`explanations_fingerprint`, and the
    linker's key (:func:`.content.sync.linker_key_query`, for :func:`.content.sync.current_linker`)."""

    bank: tuple[int, int | None, str | None, int | None]
    since_id: int | None
    since_norm: str | None
    content: tuple[Any, ...]
    linker_key: tuple[Any, ...]


def bank_check() -> BankCheck:
    """Read a :class:`BankCheck` now (in the caller's transaction: a sync or an editor's save
    earlier in it is seen, as by the separate checks)."""
    cached = _CANDIDATE_CACHE.get(database_key())
    since_id = cached[0][1] if cached is not None else None
    row = db.session.execute(_bank_check_statement(), {"since_id": since_id or 0}).one()
    return BankCheck(bank=tuple(row[0:4]), since_id=since_id, since_norm=row[4],  # type: ignore[arg-type]
                     content=tuple(row[5:7]), linker_key=tuple(row[7:10]))


@functools.cache
def _bank_check_statement() -> Select[Any]:
    """:func:`bank_check`'s statement (built once: building it cost more than running it)."""
    fingerprint = _fingerprint_statement(*_bank_filter()).subquery()
    # Every explanation, and the live ones as linker_key_query counts them, in one pass over the table.
    is_live = live()
    content = select(func.count(Explanation.id), func.max(Explanation.updated_at),
                     func.count(case((is_live, Explanation.id))), func.max(case((is_live, Explanation.updated_at))),
                     func.max(case((is_live, Explanation.id)))).subquery()
    since = aliased(Question)
    return (select(*fingerprint.c, since.norm, *content.c)
            .select_from(fingerprint.join(content, true())
                         .outerjoin(since, since.id == bindparam("since_id", type_=Integer))))


def _load_candidates(*where: Any) -> list[Candidate]:
    rows = db.session.execute(select(Question.id, Question.text, Question.lang)
                              .where(*_bank_filter(), *where).order_by(Question.id)).all()
    return [Candidate(id=row.id, text=row.text, lang=row.lang) for row in rows]


# Per database: (fingerprint, candidates). A Candidate keeps its normalised text and bigrams, which
# cost more to compute for the whole bank than the near-duplicate search itself.
_CANDIDATE_CACHE: dict[str, tuple[tuple[Any, ...], list[Candidate]]] = {}


def bank_candidates(check: BankCheck | None = None) -> list[Candidate]:
    """Public posting and content questions, which a new posting question may merge into (a
    fresh list; its Candidates are shared).

    Cached in the process: the bank grows between imports, so a cached list whose count, highest
    id and that row's text still agree is topped up with the newer rows. Anything else (a
    deletion, a database emptied or restored, an instructor's approval, withdrawal or restoration:
    a new bank event, or a content sync, the one place a public question's text is edited: it
    changes the explanations) loads the list again. ``check``: a :func:`bank_check` read in this
    transaction (else one is read)."""
    url = database_key()
    cached = _CANDIDATE_CACHE.get(url)
    if check is None or (cached is not None and check.since_id != cached[0][1]):
        check = bank_check()
    count, max_id, last_norm, events = check.bank
    content = check.content
    key = (count, max_id, last_norm, content, events)
    if cached is not None and cached[0] == key:
        return list(cached[1])
    if cached is not None and cached[0][3:] == (content, events) and max_id is not None \
            and max_id > (cached[0][1] or 0) \
            and (cached[0][1] is None or check.since_norm == cached[0][2]):
        newer = _load_candidates(Question.id > (cached[0][1] or 0))
        if cached[0][0] + len(newer) == count:
            candidates = cached[1] + newer
            _CANDIDATE_CACHE[url] = (key, candidates)
            return list(candidates)
    candidates = _load_candidates()
    _CANDIDATE_CACHE[url] = (key, candidates)
    return list(candidates)


# Per database: the cached candidate list an index was built on, and the index (layered: each
# top-up of the list adds a layer with the newer rows; rebuilt flat past a few layers).
_INDEX_CACHE: dict[str, tuple[list[Candidate], CandidateIndex]] = {}
_MAX_INDEX_LAYERS = 8


def bank_index(check: BankCheck | None = None) -> CandidateIndex:
    """:func:`bank_candidates` as a :class:`.merge.CandidateIndex` shared by the imports of this
    process (built once, not per import: an import layers its own candidates on it, never
    appending to this one)."""
    bank_candidates(check)  # checks (and tops up) the cached list
    url = database_key()
    listed = _CANDIDATE_CACHE[url][1]
    cached = _INDEX_CACHE.get(url)
    if cached is not None and cached[0] is listed:
        return cached[1]
    if cached is not None and cached[1].depth < _MAX_INDEX_LAYERS and len(cached[0]) < len(listed) \
            and all(a is b for a, b in zip(cached[0], listed)):
        index = CandidateIndex(listed[len(cached[0]):], parent=cached[1])  # the rows added since
    else:
        index = CandidateIndex(listed)
    _INDEX_CACHE[url] = (listed, index)
    return index


def own_question(owner_id: int, norm: str) -> Question | None:
    """The candidate's own question with this normalised text, if they have one."""
    return db.session.scalar(select(Question).where(Question.owner_id == owner_id, Question.norm == norm).limit(1))


def own_candidates(owner_id: int) -> list[Candidate]:
    """The candidate's own posting questions, which their new one may merge into."""
    rows = db.session.execute(select(Question.id, Question.text, Question.lang).where(
        Question.owner_id == owner_id, Question.source == Source.posting).order_by(Question.id)).all()
    return [Candidate(id=row.id, text=row.text, lang=row.lang) for row in rows]


def awaiting_review() -> ColumnElement[bool]:
    """The questions an instructor may approve or keep out, as a query condition: a candidate's
    private copy from a posting or report, or a public question waiting for review."""
    return or_(and_(Question.owner_id.is_not(None), Question.source == Source.posting),
               and_(Question.owner_id.is_(None), Question.publication == Publication.pending))


@dataclass(frozen=True)
class PendingQuestion:
    """A question candidates imported, waiting for an instructor before the shared bank."""

    question_id: int  # the public question waiting for review, else the oldest private copy
    text: str
    accounts: int     # distinct accounts that imported it


def pending_questions(limit: int = 50, offset: int = 0) -> tuple[list[PendingQuestion], int]:
    """The review queue: the wordings candidates imported that no instructor has decided on and
    that are not public, and the public questions waiting for review; most importing accounts
    first. The count only ranks the queue: nothing here is published."""
    private = select(Question.norm.label("norm"), Question.owner_id.label("account"), Question.id.label("qid")) \
        .where(Question.owner_id.is_not(None), Question.source == Source.posting)
    waiting = and_(Question.owner_id.is_(None), Question.publication == Publication.pending)
    held = (select(Question.norm, Posting.user_id, Question.id)  # candidates' postings asking a waiting question
            .join(PostingQuestion, PostingQuestion.question_id == Question.id)
            .join(Posting, Posting.id == PostingQuestion.posting_id)
            .where(waiting, Posting.user_id.is_not(None)))
    public = select(Question.norm, null(), Question.id).where(waiting)
    rows = private.union_all(held, public).subquery()
    decided = or_(rows.c.norm.in_(select(Question.norm).where(Question.owner_id.is_(None), ~waiting)),
                  rows.c.norm.in_(select(BankDecision.norm)))
    shown = func.coalesce(func.max(case((rows.c.account.is_(None), rows.c.qid))), func.min(rows.c.qid))
    grouped = (select(shown.label("shown"), func.count(func.distinct(rows.c.account)).label("accounts"))
               .where(~decided).group_by(rows.c.norm))
    total = db.session.scalar(select(func.count()).select_from(grouped.subquery())) or 0
    sub = grouped.subquery()
    page = db.session.execute(select(sub.c.shown, sub.c.accounts, Question.text)
                              .join(Question, Question.id == sub.c.shown)
                              .order_by(sub.c.accounts.desc(), sub.c.shown).limit(limit).offset(offset)).all()
    return [PendingQuestion(shown_id, text, accounts) for shown_id, accounts, text in page], total


def decide(norm: str, decision: str, instructor_id: int | None, now: datetime) -> None:
    """Record an instructor's decision on a wording in the queue ("rejected" or "approved"): it
    leaves the queue."""
    row = db.session.get(BankDecision, norm)
    if row is None:
        db.session.add(BankDecision(norm=norm, decision=decision, decided_by=instructor_id, decided_at=now))
    else:
        row.decision, row.decided_by, row.decided_at = decision, instructor_id, now
    db.session.flush()


def _move(question: Question, to: Publication, instructor_id: int | None, now: datetime, reason: str = "") -> None:
    """Move a public question to ``to`` and write the history row."""
    question.publication = to
    db.session.add(BankEvent(question_id=question.id, action=to.value, actor_id=instructor_id, at=now,
                             reason=reason.strip()[:MAX_REASON_CHARS]))
    db.session.flush()


def approve(question: Question, text: str, instructor_id: int | None, now: datetime, linker: Any = None) -> Question:
    """An instructor's approval of a question in the queue (:func:`awaiting_review`), in the
    wording ``text`` (edited or not): the published question every account sees. A public
    question waiting for review is published as it is (its wording edited unless another public
    question has the new one); a private copy's wording becomes a public question (created and
    linked, or the public one that has it). The owners keep their own copies and cards."""
    cleaned = _clean_public_text(text)
    if not normalize_question(cleaned):
        cleaned = question.text
    decide(question.norm, "approved", instructor_id, now)
    public = find_public_question(cleaned)
    if question.owner_id is None and (public is None or public.id == question.id):
        edited = cleaned != question.text
        public, question.text, question.norm = question, cleaned, normalize_question(cleaned)
        if edited:
            retag_question(public)  # tagged with what the new wording asks
    elif public is None:
        public = add_question(cleaned, source=Source.posting, tags=[t.name for t in question.tags])
        link_question(public, linker)
        retag_question(public)
        public.publication = Publication.pending  # published just below, with its history row
    if public.publication is not Publication.published:
        _move(public, Publication.published, instructor_id, now)
    return public


def keep_out(question: Question, instructor_id: int | None, now: datetime) -> None:
    """An instructor's "keep out" on a question in the queue: its wording leaves the queue; a
    public question waiting for review is withdrawn (restorable). Private copies stay their owners'."""
    decide(question.norm, "rejected", instructor_id, now)
    if question.owner_id is None and question.publication is Publication.pending:
        _move(question, Publication.withdrawn, instructor_id, now)


#: Longest reason kept with a withdrawal.
MAX_REASON_CHARS = 500


def withdraw(question: Question, instructor_id: int | None, reason: str, now: datetime) -> None:
    """Take a published question out of the shared bank: no other account sees it any more
    (bank, search, explanation pages, likely questions, merges of new imports). Nothing is
    deleted: cards and postings keep pointing to it, and :func:`restore` puts it back."""
    if question.owner_id is None and question.publication is Publication.published:
        _move(question, Publication.withdrawn, instructor_id, now, reason)


def restore(question: Question, instructor_id: int | None, now: datetime) -> None:
    """Publish a withdrawn question again."""
    if question.owner_id is None and question.publication is Publication.withdrawn:
        _move(question, Publication.published, instructor_id, now)


@dataclass(frozen=True)
class WithdrawnQuestion:
    """A withdrawn question with its withdrawal: when, by whom (None: no account), why."""

    question_id: int
    text: str
    at: datetime
    by: str | None
    reason: str


def withdrawn_questions(limit: int = 50, offset: int = 0) -> tuple[list[WithdrawnQuestion], int]:
    """The withdrawn questions, most recently withdrawn first."""
    latest = (select(BankEvent.question_id, func.max(BankEvent.id).label("event_id"))
              .where(BankEvent.action == Publication.withdrawn.value).group_by(BankEvent.question_id).subquery())
    stmt = (select(Question.id, Question.text, BankEvent.at, User.display_name, User.email, BankEvent.reason)
            .join(latest, latest.c.question_id == Question.id)
            .join(BankEvent, BankEvent.id == latest.c.event_id)
            .outerjoin(User, User.id == BankEvent.actor_id)
            .where(Question.owner_id.is_(None), Question.publication == Publication.withdrawn))
    total = db.session.scalar(select(func.count()).select_from(stmt.subquery())) or 0
    rows = db.session.execute(stmt.order_by(BankEvent.id.desc()).limit(limit).offset(offset)).all()
    return [WithdrawnQuestion(qid, text, at, (name or email) if email else None, reason)
            for qid, text, at, name, email, reason in rows], total


@dataclass(frozen=True)
class HistoryEntry:
    """One change of a public question's place in the bank."""

    action: str  # a Publication value
    at: datetime
    by: str | None
    reason: str


def history(question_id: int) -> list[HistoryEntry]:
    """A public question's bank history, newest first."""
    return event_history(BankEvent, BankEvent.question_id == question_id)


def event_history(event: Any, *where: Any) -> list[HistoryEntry]:
    """The rows of an event table (``action``, ``at``, ``actor_id``, ``reason``: :class:`.models.BankEvent`,
    :class:`.models.ShareEvent`) matching ``where``, newest first, each with its actor's name."""
    rows = db.session.execute(select(event.action, event.at, User.display_name, User.email, event.reason)
                              .outerjoin(User, User.id == event.actor_id)
                              .where(*where).order_by(event.id.desc())).all()
    return [HistoryEntry(action, at, (name or email) if email else None, reason)
            for action, at, name, email, reason in rows]


def _clean_public_text(text: str) -> str:
    """Text other users will see: control characters removed, at most 1,000 characters."""
    cleaned = "".join(ch for ch in text if ch >= " " or ch in "\n\t")
    return " ".join(cleaned.split())[:1000]
