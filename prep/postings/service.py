"""Postings in the database: import (extract, merge, link, tag), look up, study, delete.

These functions flush but never commit: the caller commits once, so an import is one
transaction, and a refused input (:class:`PostingInputError`, raised before anything is
written) or a refused import (:class:`PostingLimitError`) leaves the database as it was.
"""
from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, or_, select

from ..content.sync import current_linker, link_question
from ..drill import service as drill_service
from ..extensions import db
from ..questions.models import Question, Source
from ..questions.normalize import normalize_question
from ..questions.service import add_question, find_public_question
from ..skills import load_taxonomy
from .decode import decode_posting_bytes, decode_posting_text, read_posting_file
from .errors import PostingError, PostingInputError
from .extract import KINDS, ExtractionResult, extract_posting
from .merge import Candidate, find_duplicate
from .models import BankDecision, Posting, PostingQuestion

#: How many postings one candidate may keep.
MAX_POSTINGS_PER_USER = 200
#: A posting question is tagged with the skills it names plus the posting's leading skills
#: (the ones a job board lists first), at most :data:`MAX_QUESTION_TAGS` in all.
LEADING_SKILL_TAGS = 3
MAX_QUESTION_TAGS = 10
#: Where the sample postings ``prep init`` loads are shipped.
SAMPLES_DIR = Path(__file__).resolve().parent / "samples"
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


@dataclass(frozen=True)
class Review:
    """What the candidate confirmed on the review page: these replace what the engine found."""

    company: str | None
    title: str | None
    kind: str
    questions: list[ReviewedQuestion]


@dataclass
class Preview:
    """An import looked at before anything is stored: the decoded text, and either the posting
    already stored with the same text or what extraction found."""

    text: str
    existing: Posting | None = None
    result: ExtractionResult | None = None


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
    return Preview(text, result=result)


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


def question_tags(question_text: str, posting_skills: Sequence[str]) -> list[str]:
    """The posting's skills to tag one of its questions with: those the question names, then the
    posting's leading ones (so a question naming no skill still files under the posting's field)."""
    named = set(load_taxonomy().find_skills(question_text))
    tags = [s for s in posting_skills if s in named]
    tags += [s for s in posting_skills[:LEADING_SKILL_TAGS] if s not in tags]
    return tags[:MAX_QUESTION_TAGS]


def _bank_filter() -> tuple[Any, ...]:
    return Question.owner_id.is_(None), Question.source.in_([Source.posting, Source.content])


def _load_candidates(*where: Any) -> list[Candidate]:
    rows = db.session.execute(select(Question.id, Question.text, Question.lang)
                              .where(*_bank_filter(), *where).order_by(Question.id)).all()
    return [Candidate(id=row.id, text=row.text, lang=row.lang) for row in rows]


# Per database: (fingerprint, candidates). A Candidate keeps its normalised text and bigrams, which
# cost more to compute for the whole bank than the near-duplicate search itself.
_CANDIDATE_CACHE: dict[str, tuple[tuple[Any, ...], list[Candidate]]] = {}


def _bank_candidates() -> list[Candidate]:
    """Public posting and content questions, which a new posting question may merge into (a
    fresh list; its Candidates are shared).

    Cached in the process: the bank only grows between imports, so a cached list whose count,
    highest id and that row's text still agree is topped up with the newer rows. Anything else
    (a deletion, a database emptied or restored, or a content sync, the one place a public
    question's text is edited: it changes the explanations) loads the list again."""
    from ..content.models import Explanation

    count, max_id = db.session.execute(select(func.count(Question.id), func.max(Question.id))
                                       .where(*_bank_filter())).one()
    last_norm = db.session.scalar(select(Question.norm).where(Question.id == max_id)) if max_id else None
    content = tuple(db.session.execute(select(func.count(Explanation.id), func.max(Explanation.updated_at))).one())
    key = (count, max_id, last_norm, content)
    url = db.engine.url.render_as_string(hide_password=True)
    cached = _CANDIDATE_CACHE.get(url)
    if cached is not None and cached[0] == key:
        return list(cached[1])
    if cached is not None and cached[0][3] == content and max_id is not None and max_id > (cached[0][1] or 0) \
            and (cached[0][1] is None
                 or db.session.scalar(select(Question.norm).where(Question.id == cached[0][1])) == cached[0][2]):
        newer = _load_candidates(Question.id > (cached[0][1] or 0))
        if cached[0][0] + len(newer) == count:
            candidates = cached[1] + newer
            _CANDIDATE_CACHE[url] = (key, candidates)
            return list(candidates)
    candidates = _load_candidates()
    _CANDIDATE_CACHE[url] = (key, candidates)
    return list(candidates)


def import_posting(user: Any, data: str | bytes, now: datetime, *, linker: Any = None,
                   limit: int | None = None, review: Review | None = None) -> ImportResult:
    """Store a posting for ``user`` (``None``: a shared sample) from pasted text or file bytes.

    Decodes and checks the input (raising :class:`PostingInputError` before any write),
    returns the stored posting unchanged when the same text was imported before, else extracts
    it, merges each question into the bank (same normalised text or a near-duplicate), links
    the new ones to explanations, and tags them with the posting's skills (:func:`question_tags`).
    ``review`` (from the review checklist) replaces the extracted questions, company, title and
    kind. ``limit`` defaults to :data:`MAX_POSTINGS_PER_USER`.
    """
    limit = MAX_POSTINGS_PER_USER if limit is None else limit
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
                      rounds=[_cut(r, 60) for r in rounds], skill_weights=weights)
    db.session.add(posting)
    db.session.flush()

    outcome = ImportResult(posting, created=True)
    candidates: list[Candidate] | None = None
    seen: set[int] = set()
    for asked in asked_list:
        norm = normalize_question(asked.text)
        if not norm:
            continue
        # The candidate's own copy first, then the shared bank (same text, then a near-duplicate).
        question = _own_question(owner_id, norm) if owner_id is not None else None
        question = question or find_public_question(asked.text)
        created = False
        if question is None:
            if candidates is None:
                candidates = _bank_candidates() + (_own_candidates(owner_id) if owner_id is not None else [])
            duplicate = find_duplicate(asked.text, candidates)
            if duplicate is not None:
                question = db.session.get(Question, duplicate.id)
        tags = question_tags(asked.text, posting.skills)
        if question is None:
            # A candidate's new question is theirs alone until the bank admits it (see _admit).
            question = add_question(asked.text, source=Source.posting, tags=tags, owner_id=owner_id)
            created = True
            if linker is None:
                linker = current_linker()
            link_question(question, linker)
            if candidates is not None:
                candidates.append(Candidate(id=question.id, text=question.text, lang=question.lang))
            if owner_id is not None:
                _admit(question, tags, linker)
        elif user is None:
            # A shipped sample: its tags are merged into the shared question's own.
            question = add_question(question.text, source=question.source, tags=tags)
        # A candidate's private import never re-tags a question other users see.
        if question.id in seen:
            continue  # two phrasings of one question in the same posting
        seen.add(question.id)
        (outcome.new_questions if created else outcome.merged_questions).append(question)
        posting.questions.append(PostingQuestion(
            question_id=question.id, section=_cut(asked.section or asked.round or "", 120) or "",
            position=len(posting.questions), text=asked.text,
            kind=asked.kind if asked.kind in KINDS else "concept", round=_cut(asked.round, 60)))
    db.session.flush()
    return outcome


#: Distinct accounts whose own postings or reports must ask a question before it joins the
#: shared bank by itself (an instructor can admit it earlier: see :func:`admit_to_bank`).
BANK_ADMIT_ACCOUNTS = 3


def _own_question(owner_id: int, norm: str) -> Question | None:
    return db.session.scalar(select(Question).where(Question.owner_id == owner_id, Question.norm == norm).limit(1))


def _own_candidates(owner_id: int) -> list[Candidate]:
    rows = db.session.execute(select(Question.id, Question.text, Question.lang).where(
        Question.owner_id == owner_id, Question.source == Source.posting).order_by(Question.id)).all()
    return [Candidate(id=row.id, text=row.text, lang=row.lang) for row in rows]


def pending_accounts(norm: str) -> int:
    """How many accounts hold a private posting question with this normalised text."""
    return db.session.scalar(select(func.count(func.distinct(Question.owner_id))).where(
        Question.norm == norm, Question.source == Source.posting, Question.owner_id.is_not(None))) or 0


def _admit(question: Question, tags: Sequence[str], linker: Any) -> Question | None:
    """Put a candidate's question into the shared bank once enough independent accounts ask it
    (their own copies stay theirs); None while it stays private."""
    try:
        from flask import current_app

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


def _cut(value: str | None, length: int) -> str | None:
    return value[:length] if value else value


def _visible_to(user: Any) -> Any:
    return or_(Posting.user_id == user.id, Posting.user_id.is_(None))


def postings_for(user: Any) -> list[Posting]:
    """The candidate's own postings, newest first."""
    return list(db.session.scalars(select(Posting).where(Posting.user_id == user.id)
                                   .order_by(Posting.created_at.desc(), Posting.id.desc())))


def sample_postings() -> list[Posting]:
    return list(db.session.scalars(select(Posting).where(Posting.user_id.is_(None)).order_by(Posting.id)))


def posting_for(user: Any, posting_id: int) -> Posting | None:
    """The posting if ``user`` may read it (their own, or a sample), else None."""
    return db.session.scalar(select(Posting).where(Posting.id == posting_id, _visible_to(user)))


def postings_asking(question_ids: Iterable[int], user: Any) -> dict[int, list[Posting]]:
    """For each question id, the postings ``user`` can read (own and samples) that ask it.

    Other candidates' postings are private, so they are not counted.
    """
    ids = sorted(set(question_ids))
    out: dict[int, list[Posting]] = {qid: [] for qid in ids}
    if not ids:
        return out
    rows = db.session.execute(
        select(PostingQuestion.question_id, Posting).join(Posting, PostingQuestion.posting_id == Posting.id)
        .where(PostingQuestion.question_id.in_(ids), _visible_to(user))
        .order_by(Posting.created_at, Posting.id)).all()
    for question_id, posting in rows:
        out[question_id].append(posting)
    return out


def companies_of(postings: Sequence[Posting]) -> list[str]:
    """The distinct company names of some postings, in order."""
    seen: dict[str, None] = {}
    for posting in postings:
        if posting.company:
            seen.setdefault(posting.company, None)
    return list(seen)


def study_posting(user: Any, posting: Posting, now: datetime) -> int:
    """Add every question of the posting to the user's study; returns how many cards were new."""
    return drill_service.add_to_study(user, [pq.question_id for pq in posting.questions], now)


def delete_posting(posting: Posting) -> None:
    """Remove a posting; its questions stay in the bank and the cards stay in people's study."""
    db.session.delete(posting)
    db.session.flush()


def load_sample_postings(directory: Path | str = SAMPLES_DIR, *, now: datetime) -> list[str]:
    """Import the shipped sample postings as shared postings (idempotent); returns report lines.

    Sample postings whose file is gone or changed are removed (their questions stay).
    """
    directory = Path(directory)
    if not directory.is_dir():
        return [f"no sample postings at {directory}; skipped"]
    added = unchanged = 0
    problems: list[str] = []
    hashes: set[str] = set()
    for path in sorted(directory.glob("*.txt")):
        try:
            text = read_posting_file(path)
        except PostingInputError as err:
            problems.append(f"{path.name}: {err}")
            continue
        outcome = import_posting(None, text, now)
        hashes.add(outcome.posting.content_hash)
        if outcome.created:
            added += 1
        else:
            unchanged += 1
    removed = 0
    if not problems:  # never drop samples because one file could not be read
        for posting in sample_postings():
            if posting.content_hash not in hashes:
                delete_posting(posting)
                removed += 1
    return [*problems, f"sample postings: {added} added, {unchanged} unchanged, {removed} removed"]


def likely_questions(posting: Posting, limit: int | None = None) -> list[Any]:
    """The bank's questions this posting is likely to lead to (see :mod:`prep.postings.likely`),
    excluding the ones it asks, each with its explanation's slug."""
    from ..questions.models import QuestionExplanation
    from .likely import DEFAULT_LIMIT, BankQuestion, rank_likely

    weights = posting.skill_weights or {s: 1.0 for s in posting.skills}
    if not weights:
        return []
    from ..content.models import Explanation

    skills_by_slug: dict[str, set[str]] = {}
    for slug, skills in db.session.execute(select(Explanation.slug, Explanation.skills)):
        skills_by_slug.setdefault(slug, set()).update(skills or [])
    asked = dict(db.session.execute(select(PostingQuestion.question_id, func.count(PostingQuestion.id))
                                    .group_by(PostingQuestion.question_id)).all())
    rows = db.session.execute(
        select(Question.id, Question.text, QuestionExplanation.slug)
        .join(QuestionExplanation, QuestionExplanation.question_id == Question.id)
        .where(Question.owner_id.is_(None), QuestionExplanation.rejected.is_(False))
        .order_by(Question.id, QuestionExplanation.score.desc())).all()
    taxonomy = load_taxonomy()
    bank: dict[int, BankQuestion] = {}
    for question_id, text, slug in rows:
        if question_id in bank:
            continue
        skills = set(skills_by_slug.get(slug, ())) | set(taxonomy.find_skills(text))
        bank[question_id] = BankQuestion(question_id, text, frozenset(skills), asked.get(question_id, 0), slug)
    asked_here = {pq.question_id for pq in posting.questions}
    return rank_likely(weights, bank.values(), exclude=asked_here,
                       limit=DEFAULT_LIMIT if limit is None else limit)


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
