"""The shared question bank as postings see it: the questions a new posting question may merge
into (cached per database), and the admission of a candidate's private questions (by enough
accounts, or by an instructor's decision).

These functions flush but never commit: the caller commits.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app
from sqlalchemy import Integer, Select, bindparam, case, func, select, true
from sqlalchemy.orm import aliased

from ..content.models import Explanation, live
from ..content.sync import link_question
from ..extensions import db
from ..questions.models import Question, Source
from ..questions.service import add_question, find_public_question
from .merge import Candidate, CandidateIndex
from .models import BankDecision

#: Distinct accounts whose own postings or reports must ask a question before it joins the
#: shared bank by itself (an instructor can admit it earlier: see :func:`admit_to_bank`).
BANK_ADMIT_ACCOUNTS = 3


def _bank_filter() -> tuple[Any, ...]:
    return Question.owner_id.is_(None), Question.source.in_([Source.posting, Source.content])


def database_key() -> str:
    """The database a process-wide cache entry belongs to (its URL, without the password)."""
    return db.engine.url.render_as_string(hide_password=True)


def questions_fingerprint(*where: Any) -> tuple[int, int | None, str | None]:
    """(count, highest id, that row's normalised text) of the questions matching ``where``: the
    bank only grows between imports, so a cache of them is still good while these agree. One
    statement."""
    count, max_id, last_norm = db.session.execute(_fingerprint_statement(*where)).one()
    return count, max_id, last_norm


def _fingerprint_statement(*where: Any) -> Select[Any]:
    """:func:`questions_fingerprint`'s statement (also a part of :func:`_bank_check_statement`)."""
    counted = select(func.count(Question.id).label("count"), func.max(Question.id).label("max_id")) \
        .where(*where).subquery()
    last = aliased(Question)
    return (select(counted.c.count, counted.c.max_id, last.norm.label("last_norm"))
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

    bank: tuple[int, int | None, str | None]
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
    return BankCheck(bank=tuple(row[0:3]), since_id=since_id, since_norm=row[3],  # type: ignore[arg-type]
                     content=tuple(row[4:6]), linker_key=tuple(row[6:9]))


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

    Cached in the process: the bank only grows between imports, so a cached list whose count,
    highest id and that row's text still agree is topped up with the newer rows. Anything else
    (a deletion, a database emptied or restored, or a content sync, the one place a public
    question's text is edited: it changes the explanations) loads the list again. ``check``: a
    :func:`bank_check` read in this transaction (else one is read)."""
    url = database_key()
    cached = _CANDIDATE_CACHE.get(url)
    if check is None or (cached is not None and check.since_id != cached[0][1]):
        check = bank_check()
    count, max_id, last_norm = check.bank
    content = check.content
    key = (count, max_id, last_norm, content)
    if cached is not None and cached[0] == key:
        return list(cached[1])
    if cached is not None and cached[0][3] == content and max_id is not None and max_id > (cached[0][1] or 0) \
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


def pending_accounts(norm: str) -> int:
    """How many accounts hold a private posting question with this normalised text."""
    return db.session.scalar(select(func.count(func.distinct(Question.owner_id))).where(
        Question.norm == norm, Question.source == Source.posting, Question.owner_id.is_not(None))) or 0


def admit_if_asked(question: Question, tags: Sequence[str], linker: Any) -> Question | None:
    """Put a candidate's question into the shared bank once enough independent accounts ask it
    (their own copies stay theirs); None while it stays private."""
    try:
        threshold = int(current_app.config.get("BANK_ADMIT_ACCOUNTS", BANK_ADMIT_ACCOUNTS))
    except RuntimeError:  # outside an app context
        threshold = BANK_ADMIT_ACCOUNTS
    if find_public_question(question.text) is not None or pending_accounts(question.norm) < threshold:
        return None
    if db.session.get(BankDecision, question.norm) is not None:
        return None  # an instructor decided already
    return admit_to_bank(question.text, tags, linker)


@dataclass(frozen=True)
class PendingQuestion:
    """A question candidates imported privately, waiting for the shared bank."""

    question_id: int  # one of the private copies (the oldest)
    text: str
    accounts: int


def pending_questions(limit: int = 50, offset: int = 0) -> tuple[list[PendingQuestion], int]:
    """Privately imported questions not in the bank and not rejected, most accounts first."""
    public_norms = select(Question.norm).where(Question.owner_id.is_(None))
    rejected = select(BankDecision.norm)
    grouped = (select(Question.norm, func.min(Question.id).label("first"),
                      func.count(func.distinct(Question.owner_id)).label("accounts"))
               .where(Question.source == Source.posting, Question.owner_id.is_not(None),
                      Question.norm.not_in(public_norms), Question.norm.not_in(rejected))
               .group_by(Question.norm))
    total = db.session.scalar(select(func.count()).select_from(grouped.subquery())) or 0
    sub = grouped.subquery()
    rows = db.session.execute(select(sub.c.first, sub.c.accounts, Question.text)
                              .join(Question, Question.id == sub.c.first)
                              .order_by(sub.c.accounts.desc(), sub.c.first).limit(limit).offset(offset)).all()
    return [PendingQuestion(first, text, accounts) for first, accounts, text in rows], total


def reject_from_bank(norm: str, instructor_id: int | None, now: datetime) -> None:
    """Keep a privately imported question out of the shared bank (its private copies stay)."""
    decide(norm, "rejected", instructor_id, now)


def decide(norm: str, decision: str, instructor_id: int | None, now: datetime) -> None:
    """Record an instructor's decision on a pending question ("rejected" or "approved"): it
    leaves the queue, and the account threshold no longer acts on it."""
    row = db.session.get(BankDecision, norm)
    if row is None:
        db.session.add(BankDecision(norm=norm, decision=decision, decided_by=instructor_id, decided_at=now))
    else:
        row.decision, row.decided_by, row.decided_at = decision, instructor_id, now
    db.session.flush()


def admit_to_bank(text: str, tags: Sequence[str] = (), linker: Any = None) -> Question:
    """The shared bank's question for ``text`` (created and linked if it is not there yet)."""
    existing = find_public_question(text)
    if existing is not None:
        return existing
    public = add_question(_clean_public_text(text), source=Source.posting, tags=tags)
    link_question(public, linker)
    return public


def _clean_public_text(text: str) -> str:
    """Text other users will see: control characters removed, at most 1,000 characters."""
    cleaned = "".join(ch for ch in text if ch >= " " or ch in "\n\t")
    return " ".join(cleaned.split())[:1000]
