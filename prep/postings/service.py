"""Postings in the database: look up, study, delete, the shipped samples, likely questions; and
the one place the views, the CLI and the tests import postings operations from (importing
lives in :mod:`.importing`, the shared bank's side in :mod:`.bank`).

These functions flush but never commit: the caller commits once.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import case, func, select, update

from ..content.models import Explanation, live
from ..drill.cards import add_to_study
from ..extensions import db
from ..questions.models import Question, QuestionExplanation
from ..questions.translations import grouped_ids
from ..skills import load_taxonomy
from .canonical_company import company_key
from .role_family import role_family
from .bank import (PendingQuestion, WithdrawnQuestion, approve, awaiting_review, database_key, decide,
                   explanations_fingerprint, history, keep_out, pending_questions, questions_fingerprint, restore,
                   withdraw, withdrawn_questions)
from .decode import read_posting_file
from .errors import PostingInputError
from .importing import (MAX_POSTINGS_PER_USER, ROLES_DIR, ImportResult, PostingLimitError, Preview, Review,
                        ReviewedQuestion, count_postings, find_posting_by_hash, import_posting, import_role,
                        matched_questions, normalise_posting_text, posting_hash, preview_posting, review_summary,
                        role_choices)
from .likely import DEFAULT_LIMIT, BankQuestion, rank_likely
from .models import Posting, PostingQuestion, SharedReport, ShareStatus

__all__ = [  # what the views, the CLI and the tests call, wherever it is written
    "MAX_POSTINGS_PER_USER", "ROLES_DIR", "SAMPLES_DIR", "ImportResult", "PendingQuestion", "PostingLimitError",
    "Preview", "Review", "ReviewedQuestion", "WithdrawnQuestion", "approve", "awaiting_review", "companies_of",
    "count_postings", "decide", "delete_posting", "find_posting_by_hash", "history", "import_posting",
    "import_role", "keep_out", "likely_questions", "load_sample_postings", "matched_questions",
    "normalise_posting_text",
    "pending_questions", "posting_for", "posting_hash", "postings_asking", "postings_for", "preview_posting",
    "rekey_postings", "restore", "review_summary", "role_choices", "sample_postings", "study_posting", "withdraw",
    "withdrawn_questions",
]

#: Where the sample postings ``prep init`` loads are shipped.
SAMPLES_DIR = Path(__file__).resolve().parent / "samples"


def postings_for(user: Any) -> list[Posting]:
    """The candidate's own postings, newest first."""
    return list(db.session.scalars(select(Posting).where(Posting.user_id == user.id)
                                   .order_by(Posting.created_at.desc(), Posting.id.desc())))


def sample_postings() -> list[Posting]:
    return list(db.session.scalars(select(Posting).where(Posting.user_id.is_(None)).order_by(Posting.id)))


def posting_for(user: Any, posting_id: int) -> Posting | None:
    """The posting if ``user`` may read it (their own, or a sample), else None."""
    return db.session.scalar(select(Posting).where(Posting.id == posting_id, Posting.owned_or_sample(user.id)))


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
        .where(PostingQuestion.question_id.in_(ids), Posting.owned_or_sample(user.id))
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


def rekey_postings(batch: int = 1000) -> str:
    """Derive every posting's company and role keys again from its company and title with the
    current rules (a company or a name added to ``companies.toml``, a role family's words);
    only rows whose keys change are written. Returns a report line."""
    changed = last = 0
    while True:
        rows = db.session.execute(
            select(Posting.id, Posting.company, Posting.title, Posting.company_key, Posting.role_key)
            .where(Posting.id > last).order_by(Posting.id).limit(batch)).all()
        if not rows:
            break
        for row in rows:
            keys = {"company_key": company_key(row.company), "role_key": role_family(row.title)}
            if (row.company_key, row.role_key) != (keys["company_key"], keys["role_key"]):
                db.session.execute(update(Posting).where(Posting.id == row.id).values(**keys)
                                   .execution_options(synchronize_session=False))
                changed += 1
        last = rows[-1].id
    db.session.flush()
    return f"company and role keys: {changed} postings updated"


def study_posting(user: Any, posting: Posting, now: datetime) -> int:
    """Add every question of the posting to the user's study; returns how many cards were new."""
    return add_to_study(user, [pq.question_id for pq in posting.questions], now)


def delete_posting(posting: Posting, now: datetime) -> None:
    """Remove a posting; its questions stay in the bank and the cards stay in people's study. A
    shared report is withdrawn first (its share's history stays)."""
    share = db.session.scalar(select(SharedReport).where(SharedReport.posting_id == posting.id))
    if share is not None and share.status in (ShareStatus.pending, ShareStatus.published):
        share.move(ShareStatus.withdrawn, posting.user_id, now)
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
                delete_posting(posting, now)
                removed += 1
    return [*problems, f"sample postings: {added} added, {unchanged} unchanged, {removed} removed"]


# Per database: (fingerprint, the explained public questions with their skills). Reading every
# explanation and bank question and finding the skills each names cost more than the ranking.
_LIKELY_CACHE: dict[str, tuple[tuple[Any, ...], list[tuple[int, str, frozenset[str], str]]]] = {}


def _links_fingerprint() -> tuple[Any, ...]:
    """(count, highest id, rejected ones, total score) of the question-explanation links: an
    instructor's decision or a relink changes which explanation a question has."""
    return tuple(db.session.execute(select(
        func.count(QuestionExplanation.id), func.max(QuestionExplanation.id),
        func.sum(case((QuestionExplanation.rejected.is_(True), 1), else_=0)),
        func.sum(QuestionExplanation.score))).one())


def _explained_bank() -> list[tuple[int, str, frozenset[str], str, int, str]]:
    """``(id, text, skills, slug, translation group, language)`` of every public question with
    an explanation (its best link's slug; skills from that explanation and the question's text).

    Cached in the process like :func:`.bank.bank_candidates`: read again when the public
    questions (count, highest id and that row's text), the explanations (count, newest update)
    or the links (count, highest id, rejected ones, total score) change."""
    key = (questions_fingerprint(Question.shared()), explanations_fingerprint(), _links_fingerprint())
    url = database_key()
    cached = _LIKELY_CACHE.get(url)
    if cached is not None and cached[0] == key:
        return cached[1]
    skills_by_slug: dict[str, set[str]] = {}
    for slug, skills in db.session.execute(select(Explanation.slug, Explanation.skills).where(live())):
        skills_by_slug.setdefault(slug, set()).update(skills or [])
    rows = db.session.execute(
        select(Question.id, Question.text, QuestionExplanation.slug, Question.group_of(), Question.lang)
        .join(QuestionExplanation, QuestionExplanation.question_id == Question.id)
        .where(Question.shared(), QuestionExplanation.rejected.is_(False))
        .order_by(Question.id, QuestionExplanation.score.desc())).all()
    taxonomy = load_taxonomy()
    bank: dict[int, tuple[int, str, frozenset[str], str, int, str]] = {}
    for question_id, text, slug, group, lang in rows:
        if question_id in bank:
            continue
        skills = set(skills_by_slug.get(slug, ())) | set(taxonomy.find_skills(text))
        bank[question_id] = (question_id, text, frozenset(skills), slug, group, lang)
    explained = list(bank.values())
    _LIKELY_CACHE[url] = (key, explained)
    return explained


def likely_questions(posting: Posting, limit: int | None = None, lang: str | None = None) -> list[Any]:
    """The bank's questions this posting is likely to lead to (see :mod:`prep.postings.likely`),
    excluding the ones it asks (and their other wordings), each with its explanation's slug;
    ``lang``: the reader's language (a question's wording in it is preferred)."""
    weights = posting.skill_weights or {s: 1.0 for s in posting.skills}
    if not weights:
        return []
    asked = dict(db.session.execute(select(PostingQuestion.question_id, func.count(PostingQuestion.id))
                                    .group_by(PostingQuestion.question_id)).all())
    bank = [BankQuestion(question_id, text, skills, asked.get(question_id, 0), slug, group, question_lang)
            for question_id, text, skills, slug, group, question_lang in _explained_bank()]
    asked_here = {pq.question_id for pq in posting.questions}
    groups = set(grouped_ids(sorted(asked_here)).values())
    return rank_likely(weights, bank, exclude=asked_here, exclude_groups=groups,
                       exclude_texts=[pq.text for pq in posting.questions], lang=lang,
                       limit=DEFAULT_LIMIT if limit is None else limit)
