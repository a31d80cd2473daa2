"""Importing a posting: decode, extract, merge each question into the bank, link and tag, store.

These functions flush but never commit: the caller commits once, so an import is one
transaction, and a refused input (:class:`PostingInputError`, raised before anything is
written) or a refused import (:class:`PostingLimitError`) leaves the database as it was.
"""
from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import lazyload

from ..content.sync import current_linker, link_question
from ..drill.queue import study_day
from ..extensions import db
from ..questions.models import Publication, Question, Source
from ..questions.matcher import default_matcher
from ..questions.normalize import normalize_question
from ..questions.service import add_question
from ..skills import load_taxonomy
from .bank import BankCheck, bank_check, bank_index, own_candidates
from .decode import decode_posting_bytes, decode_posting_text, read_posting_file
from . import interview_dates
from .errors import PostingError, PostingInputError
from .extract import KINDS, ExtractionResult, extract_posting
from .merge import Candidate, CandidateIndex, find_duplicate, find_match, is_same_question
from .models import Posting, PostingQuestion
from .tagging import tag_questions

#: How many postings one candidate may keep.
MAX_POSTINGS_PER_USER = 200
#: Target roles a candidate without a posting can start from (``roles/<slug>.txt``).
ROLES_DIR = Path(__file__).resolve().parent / "roles"


class PostingLimitError(PostingError):
    """The candidate already has as many postings as allowed; the message says what to do."""

    def __init__(self, message: str, limit: int = 0) -> None:
        super().__init__(message)
        self.limit = limit


@dataclass
class ImportResult:
    """What an import did: the posting (new, or the one already stored) and its questions."""

    posting: Posting
    created: bool
    new_questions: list[Question] = field(default_factory=list)
    merged_questions: list[Question] = field(default_factory=list)

    def summary(self) -> str:
        """One line for a flash message or the CLI."""
        if not self.created:
            return f"{self.posting.display_name} was already imported; nothing new was added."
        n = len(self.posting.questions)
        line = (f"Imported {self.posting.display_name}: {n} question{'' if n == 1 else 's'} "
                f"({len(self.new_questions)} new, {len(self.merged_questions)} already in the bank), "
                f"{len(self.posting.skills)} skill{'' if len(self.posting.skills) == 1 else 's'}.")
        if not self.posting.recognised_sections:
            line += " No sections were recognised, so no questions were extracted."
        return line


@dataclass(frozen=True)
class ReviewedQuestion:
    """A question as the candidate kept it in the review checklist (wording possibly edited)."""

    text: str
    kind: str = "concept"
    round: str | None = None
    section: str = ""
    match_id: int | None = None  # the bank question the review page proposed and the candidate kept
    separate: bool = False       # the candidate keeps it apart from that bank question


@dataclass(frozen=True)
class Review:
    """What the candidate confirmed on the review page: these replace what the engine found."""

    company: str | None
    title: str | None
    kind: str
    questions: list[ReviewedQuestion]
    interview_date: date | None = None


@dataclass
class Preview:
    """An import looked at before anything is stored: the decoded text, and either the posting
    already stored with the same text or what extraction found."""

    text: str
    existing: Posting | None = None
    result: ExtractionResult | None = None
    #: For each question found: the bank question it is, if any (:func:`bank_matches`).
    matches: list[BankMatch | None] = field(default_factory=list)


def preview_posting(user: Any, data: str | bytes, *, limit: int | None = None) -> Preview:
    """Decode and extract a posting without writing anything (the review page's first step).

    Raises :class:`PostingInputError` for input that cannot be a posting and
    :class:`PostingLimitError` when the candidate has as many postings as allowed.
    """
    limit = MAX_POSTINGS_PER_USER if limit is None else limit
    text = decode_posting_bytes(data) if isinstance(data, bytes) else decode_posting_text(data)
    result = extract_posting(text)  # before any query: nothing slow inside a transaction
    existing = find_posting_by_hash(user.id if user is not None else None, posting_hash(text))
    if existing is not None:
        return Preview(text, existing=existing)
    if user is not None and count_postings(user) >= limit:
        raise PostingLimitError(f"You have reached the limit of {limit} postings; "
                                "delete one you no longer need to import another.", limit)
    return Preview(text, result=result, matches=bank_matches(user, [q.text for q in result.questions]))


def review_summary(text: str) -> ExtractionResult | None:
    """What extraction finds in a previewed posting's text (the review page's summary when the
    page is shown again); None for text that cannot be a posting."""
    try:
        return extract_posting(decode_posting_text(text))
    except PostingInputError:
        return None


def matched_questions(user: Any, ids: Iterable[int]) -> dict[int, Question]:
    """The bank questions the review page shows as matches, by id (those the user may see)."""
    wanted = sorted({i for i in ids if i})
    if not wanted:
        return {}
    rows = db.session.scalars(select(Question).where(Question.id.in_(wanted), Question.visible_to(user.id)))
    return {q.id: q for q in rows}


def normalise_posting_text(text: str) -> str:
    """The text a posting's identity is computed from: NFKC, lines stripped, blank lines dropped."""
    lines = (" ".join(line.split()) for line in unicodedata.normalize("NFKC", text).splitlines())
    return "\n".join(line for line in lines if line)


def posting_hash(text: str) -> str:
    """sha256 (hex) of the normalised text: re-pasting with other spacing is the same posting."""
    return hashlib.sha256(normalise_posting_text(text).encode("utf-8")).hexdigest()


def _owner_clause(owner_id: int | None) -> Any:
    return Posting.user_id == owner_id if owner_id is not None else Posting.user_id.is_(None)


def find_posting_by_hash(owner_id: int | None, content_hash: str) -> Posting | None:
    return db.session.scalar(select(Posting).where(_owner_clause(owner_id),
                                                   Posting.content_hash == content_hash).limit(1))


def count_postings(user: Any) -> int:
    return db.session.scalar(select(func.count(Posting.id)).where(Posting.user_id == user.id)) or 0


def import_posting(user: Any, data: str | bytes, now: datetime, *, linker: Any = None,
                   limit: int | None = None, review: Review | None = None) -> ImportResult:
    """Store a posting for ``user`` (``None``: a shared sample) from pasted text or file bytes.

    Decodes and checks the input (raising :class:`PostingInputError` before any write),
    returns the stored posting unchanged when the same text was imported before, else extracts
    it, merges each question into the bank (same normalised text or a near-duplicate), links
    the new ones to explanations, and tags them with the skills they are about (:func:`.tagging.tag_questions`:
    never the posting's skills just because they are the posting's).
    ``review`` (from the review checklist) replaces the extracted questions, company, title and
    kind, and sets the interview date (today to a year ahead, else :class:`InterviewDateError`).
    ``limit`` defaults to :data:`MAX_POSTINGS_PER_USER`.
    """
    limit = MAX_POSTINGS_PER_USER if limit is None else limit
    if review is not None and user is not None:  # the review form checks it first; this holds for every caller
        interview_dates.check(review.interview_date, study_day(now, user.timezone, user.day_start_hour).day)
    text = decode_posting_bytes(data) if isinstance(data, bytes) else decode_posting_text(data)
    result = extract_posting(text)  # the slow part runs before the first query (and its lock)
    owner_id = user.id if user is not None else None
    content_hash = posting_hash(text)
    existing = find_posting_by_hash(owner_id, content_hash)
    if existing is not None:
        return ImportResult(existing, created=False)
    if user is not None and count_postings(user) >= limit:
        raise PostingLimitError(f"You have reached the limit of {limit} postings; "
                                "delete one you no longer need to import another.", limit)

    if review is None:
        asked_list = [ReviewedQuestion(q.text, q.kind, q.round, q.section) for q in result.questions]
        company, title, kind = result.company, result.title, result.doc_kind
    else:
        asked_list = list(review.questions)
        company, title, kind = review.company, review.title, review.kind
    skills = list(result.skills)
    weights = dict(result.skill_weights)
    if review is not None:  # a question the candidate added may name a skill the text did not
        taxonomy = load_taxonomy()
        for asked in asked_list:
            for skill in taxonomy.find_skills(asked.text):
                if skill not in weights:
                    skills.append(skill)
                    weights[skill] = 1.0
    rounds = list(dict.fromkeys(q.round for q in asked_list if q.round)) or list(result.rounds)
    posting = Posting(user_id=owner_id, company=_cut(company, 200), title=_cut(title, 300),
                      location=_cut(result.location, 200), raw_text=text, content_hash=content_hash,
                      sections=dict(result.sections), skills=skills,
                      recognised_sections=result.recognised_sections or bool(asked_list), created_at=now,
                      kind=kind if kind in ("posting", "report") else "posting",
                      rounds=[_cut(r, 60) for r in rounds], skill_weights=weights,
                      interview_date=review.interview_date if review is not None and owner_id is not None else None)
    posting.questions = []  # a new posting: nothing to load

    outcome = ImportResult(posting, created=True)
    chosen = _choose_questions(asked_list, owner_id, linker)
    seen: set[int] = set()
    for asked, question, created in chosen:
        # A new question has no id before the flush: its own group, which no other question is in.
        group = question.group_id if question.id is not None else id(question)
        if group in seen:
            continue  # two phrasings of one question in the same posting (or a wording and its translation)
        seen.add(group)
        (outcome.new_questions if created else outcome.merged_questions).append(question)
        posting.questions.append(PostingQuestion(
            question=question, section=_cut(asked.section or asked.round or "", 120) or "",
            position=len(posting.questions), text=asked.text,
            kind=asked.kind if asked.kind in KINDS else "concept", round=_cut(asked.round, 60)))
    db.session.add(posting)
    db.session.flush()  # the posting, its new questions, their tags and links, in one flush
    return outcome


#: Ids given to this import's new questions in its candidate index until they are flushed:
#: above any real id, so a tie between a new question and a stored one goes to the stored one.
_PENDING_ID = 1 << 62


@dataclass(frozen=True)
class BankMatch:
    """The bank question an asked question is: the same text (``exact``), or the same question
    reworded or translated (``score``: the matcher's, 1.0 for a near-duplicate)."""

    question_id: int
    exact: bool = False
    score: float = 1.0


class _Finder:
    """Finds an asked question in the bank: the owner's copy of its text, the shared bank's,
    then (the candidate index built when first needed, the bank's shared) a near-duplicate,
    then the same question in other words or the other language."""

    def __init__(self, owner_id: int | None, norms: list[str]) -> None:
        self.owner_id = owner_id
        self.own, self.public = _by_norm(owner_id, [n for n in norms if n])  # one query for every exact match
        self.check: BankCheck | None = None  # the caches' fingerprints, one statement for the bank's and the linker's
        self._index: CandidateIndex | None = None

    def exact(self, norm: str) -> Question | None:
        question = self.own.get(norm) if self.owner_id is not None else None
        return question or self.public.get(norm)

    @property
    def index(self) -> CandidateIndex:
        if self._index is None:
            self.check = bank_check()
            own_rows = own_candidates(self.owner_id) if self.owner_id is not None else []
            self._index = CandidateIndex(own_rows, parent=bank_index(self.check))  # the bank's index is shared
        return self._index

    def similar(self, text: str) -> tuple[Candidate, float] | None:
        """A near-duplicate (score 1.0), else the best match by meaning."""
        duplicate = find_duplicate(text, self.index)
        return (duplicate, 1.0) if duplicate is not None else find_match(text, self.index)

    def find(self, text: str, norm: str) -> BankMatch | None:
        question = self.exact(norm)
        if question is not None:
            return BankMatch(question.id, exact=True)
        found = self.similar(text)
        return BankMatch(found[0].id, score=round(found[1], 3)) if found is not None else None


def bank_matches(user: Any, texts: Sequence[str]) -> list[BankMatch | None]:
    """For the review page: the bank question each text is, if any (nothing is written)."""
    norms = [normalize_question(text) for text in texts]
    finder = _Finder(user.id if user is not None else None, norms)
    return [finder.find(text, norm) if norm else None for text, norm in zip(texts, norms)]


def _confirmed(asked: ReviewedQuestion, owner_id: int | None) -> Question | None:
    """The bank question the candidate confirmed on the review page for ``asked``, if it is one
    they can see and still the same question as the (possibly edited) wording."""
    if asked.match_id is None or asked.separate:
        return None
    question = db.session.get(Question, asked.match_id)
    if question is None or not question.is_visible_to(owner_id):
        return None
    matcher = default_matcher()
    if any(is_same_question(asked.text, q.text) or matcher.same(asked.text, q.text) for q in question.group()):
        return question
    return None


def _choose_questions(asked_list: Sequence[ReviewedQuestion], owner_id: int | None,
                      linker: Any) -> list[tuple[ReviewedQuestion, Question, bool]]:
    """Each asked question's bank question (found, or added unflushed: the caller flushes them
    all at once, tagged with the skills it is about), and whether it is new. The question the candidate confirmed on the
    review page; else the candidate's own copy, then the shared bank (same text, a
    near-duplicate, the same question reworded or translated), then a question added earlier in
    this import. A question the candidate kept separate is only merged with the same text."""
    norms = [normalize_question(asked.text) for asked in asked_list]
    finder = _Finder(owner_id, norms)
    mine = finder.own if owner_id is not None else finder.public
    pending: dict[int, Question] = {}
    out = []
    with db.session.no_autoflush:  # the new rows wait for the caller's one flush
        for asked, norm in ((a, n) for a, n in zip(asked_list, norms) if n):
            question = _confirmed(asked, owner_id) or finder.exact(norm)
            created = False
            if question is None and not asked.separate:
                found = finder.similar(asked.text)
                if found is not None:
                    question = pending.get(found[0].id) or db.session.get(Question, found[0].id,
                                                                          options=_unread(owner_id))
            if question is None:
                # A candidate's new question is theirs alone until an instructor approves it (see :func:`.bank.approve`).
                question = add_question(asked.text, source=Source.posting, owner_id=owner_id,
                                        new=norm not in mine, flush=False)  # tagged below
                mine.setdefault(question.norm, question)
                created = True
                if linker is None:
                    linker = current_linker(finder.check.linker_key if finder.check is not None else None)
                link_question(question, linker, flush=False)
                if not asked.separate:
                    temp_id = _PENDING_ID + len(pending)
                    pending[temp_id] = question
                    finder.index.append(Candidate(id=temp_id, text=question.text, lang=question.lang))
            out.append((asked, question, created))
        # New questions get their tags; a shipped sample's are merged into the shared question's
        # own too (a candidate's private import never re-tags a question other users see).
        new = {id(q): q for _, q, created in out if created}
        found = {id(q): q for _, q, created in out if not created and owner_id is None and id(q) not in new}
        tag_questions(list(new.values()), list(found.values()))
    return out


def _by_norm(owner_id: int | None, norms: list[str]) -> tuple[dict[str, Question], dict[str, Question]]:
    """The owner's questions and the public ones with these normalised texts (one query; the
    lowest id first for a text two rows share), as ``(own, public)`` by norm. A candidate's import
    finds only published public questions; a shared sample's (no owner) finds every public one."""
    own: dict[str, Question] = {}
    public: dict[str, Question] = {}
    if not norms:
        return own, public
    owners = Question.owner_id.is_(None) if owner_id is None else or_(Question.owner_id.is_(None),
                                                                        Question.owner_id == owner_id)
    for question in db.session.scalars(select(Question).where(Question.norm.in_(sorted(set(norms))), owners)
                                       .order_by(Question.id).options(*_unread(owner_id))):
        if owner_id is not None and question.owner_id is None and question.publication is not Publication.published:
            continue  # waiting for review or withdrawn: the candidate gets their own copy
        (public if question.owner_id is None else own).setdefault(question.norm, question)
    return own, public


def _unread(owner_id: int | None) -> list[Any]:
    """Loader options for the bank questions an import finds: only a shared sample merges tags into
    them, and nothing reads their links (loaded when read, as before: a commit expires them anyway)."""
    return [lazyload(Question.links)] + ([lazyload(Question.tags)] if owner_id is not None else [])


def _cut(value: str | None, length: int) -> str | None:
    return value[:length] if value else value


def role_choices(directory: Path = ROLES_DIR) -> list[tuple[str, str]]:
    """``(slug, title)`` of each shipped target role, by title."""
    out = []
    for path in sorted(directory.glob("*.txt")):
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        out.append((path.stem, lines[1] if len(lines) > 1 else path.stem))
    return sorted(out, key=lambda pair: pair[1].casefold())


def import_role(user: Any, slug: str, now: datetime, directory: Path = ROLES_DIR) -> ImportResult:
    """A posting for a target role (a shipped ``roles/<slug>.txt``): no questions of its own, its
    skills drive the likely questions. Raises :class:`PostingInputError` for an unknown role."""
    titles = dict(role_choices(directory))
    if slug not in titles:
        raise PostingInputError("unknown role")
    text = read_posting_file(directory / f"{slug}.txt")
    return import_posting(user, text, now, review=Review(company=None, title=titles[slug], kind="posting",
                                                          questions=[]))
