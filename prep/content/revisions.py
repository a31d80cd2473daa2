"""Revisions of explanations: every text an explanation had (from a file sync, the browser
editor, a restore, the migration) is kept in the database with who saved it and when.

The Explanation row holds the current text and its rendered HTML; :func:`apply_doc` is the one
place that changes it, and it always adds a revision. The sync (:mod:`.sync`), the editor's
save and the restore buttons all go through here.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from flask import current_app
from sqlalchemy import delete, func, select

from ..extensions import db
from ..questions.models import LinkOrigin, Question, QuestionExplanation, Source
from ..questions.normalize import normalize_question
from ..questions import translations
from ..questions.matcher import default_matcher
from ..questions.service import add_question, adopt_listed, merge_tags
from .document import ExplanationDoc, parse_document
from .models import Explanation, ExplanationRevision, Origin, live
from .render import render_markdown


class RevisionError(ValueError):
    """A restore that cannot be done (the revision no longer parses, or names another slug)."""


def live_slugs() -> set[str]:
    return set(db.session.scalars(select(Explanation.slug).where(live())))


def add_revision(row: Explanation, source: str, html: str, digest: str, *, origin: Origin,
                 author_id: int | None, now: datetime) -> ExplanationRevision:
    """Append a revision to ``row`` (flushed); the row's current text is not changed here."""
    if row.id is None:
        db.session.flush()
    else:  # two hosts saving the same explanation at once take turns (PostgreSQL; SQLite has one writer)
        db.session.execute(select(Explanation.id).where(Explanation.id == row.id).with_for_update())
    last = db.session.scalar(select(func.max(ExplanationRevision.number)).where(
        ExplanationRevision.explanation_id == row.id)) or 0
    revision = ExplanationRevision(explanation_id=row.id, number=last + 1, source=source, html=html,
                                   content_hash=digest, origin=origin.value, author_id=author_id, created_at=now)
    db.session.add(revision)
    db.session.flush()
    return revision


def apply_doc(row: Explanation | None, doc: ExplanationDoc, path: str, *, origin: Origin,
              author_id: int | None, now: datetime,
              slug_exists: Callable[[str], bool] | None = None) -> Explanation:
    """Make ``doc`` the current text of ``row`` (a new explanation when None): fields, HTML,
    bank questions and links, and a new revision. The caller commits."""
    old_questions: list[str] = []
    if row is None:
        row = Explanation(path=path, slug=doc.slug, lang=doc.lang, title=doc.title)
        db.session.add(row)
    else:
        old_questions = list(row.questions or []) if row.removed_at is None else []
    if slug_exists is None:
        slug_exists = (live_slugs() | {doc.slug}).__contains__
    rendered = render_markdown(doc.body, slug_exists=slug_exists)
    row.path, row.removed_at = path, None
    row.slug, row.lang, row.title, row.area = doc.slug, doc.lang, doc.title, doc.area
    row.tags, row.skills, row.related = list(doc.tags), list(doc.skills), list(doc.related)
    row.difficulty, row.body_md, row.content_hash = doc.difficulty, doc.body, doc.content_hash
    row.questions, row.key_points = list(doc.questions), list(doc.key_points)
    row.html, row.source, row.origin = rendered.html, doc.source, origin.value
    row.toc = [{"level": t.level, "anchor": t.anchor, "text": t.text} for t in rendered.toc]
    db.session.flush()
    row.revision = add_revision(row, doc.source, rendered.html, doc.content_hash, origin=origin,
                                author_id=author_id, now=now).number
    sync_questions(doc, old_questions)
    return row


def remove_softly(row: Explanation, now: datetime) -> None:
    """Hide ``row`` (its file was deleted): kept with its history, restorable. Automatic and
    content links to its slug go unless another language of it stays; hand links stay."""
    row.removed_at = now
    remaining = db.session.scalar(select(Explanation.id).where(
        Explanation.slug == row.slug, Explanation.id != row.id, live()).limit(1))
    if remaining is None:
        db.session.execute(delete(QuestionExplanation).where(
            QuestionExplanation.slug == row.slug, QuestionExplanation.origin != LinkOrigin.manual))


def _doc_of(source: str, row: Explanation) -> ExplanationDoc:
    parsed = parse_document(source, row.path)
    if parsed.doc is None:
        raise RevisionError("; ".join(p.message for p in parsed.problems) or "the text does not parse")
    if (parsed.doc.slug, parsed.doc.lang) != (row.slug, row.lang):
        raise RevisionError(f"that revision is for '{parsed.doc.slug}' ({parsed.doc.lang})")
    return parsed.doc


def restore_revision(row: Explanation, number: int, *, author_id: int | None, now: datetime) -> Explanation:
    """Make revision ``number`` current again, as a new revision (origin restore)."""
    revision = db.session.scalar(select(ExplanationRevision).where(
        ExplanationRevision.explanation_id == row.id, ExplanationRevision.number == number))
    if revision is None:
        raise LookupError(number)
    row = apply_doc(row, _doc_of(revision.source, row), row.path, origin=Origin.restore,
                    author_id=author_id, now=now)
    row.conflict = False
    return row


def restore_removed(row: Explanation, *, author_id: int | None, now: datetime) -> Explanation:
    """Bring back a removed explanation with its current text (a new revision, origin restore:
    a later sync will not remove it again because its file is missing)."""
    return apply_doc(row, _doc_of(row.source, row), row.path, origin=Origin.restore, author_id=author_id, now=now)


@dataclass
class DiffLine:
    kind: str  # "add" | "del" | "ctx" | "hunk"
    text: str


def diff_lines(old: str, new: str) -> list[DiffLine]:
    """A unified diff of two texts as plain lines (the template escapes them)."""
    out: list[DiffLine] = []
    for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=3):
        if line.startswith(("---", "+++")):
            continue
        kind = {"@": "hunk", "+": "add", "-": "del"}.get(line[:1], "ctx")
        out.append(DiffLine(kind, line))
    return out


def revisions_of(row: Explanation) -> list[ExplanationRevision]:
    return list(db.session.scalars(select(ExplanationRevision).where(
        ExplanationRevision.explanation_id == row.id).order_by(ExplanationRevision.number.desc())))


def revision_diff(row: Explanation, number: int) -> tuple[ExplanationRevision, list[DiffLine]]:
    """Revision ``number`` and its diff against the one before it (against nothing for the first)."""
    pair = db.session.scalars(select(ExplanationRevision).where(
        ExplanationRevision.explanation_id == row.id, ExplanationRevision.number <= number)
        .order_by(ExplanationRevision.number.desc()).limit(2)).all()
    if not pair or pair[0].number != number:
        raise LookupError(number)
    return pair[0], diff_lines(pair[1].source if len(pair) > 1 else "", pair[0].source)


def sync_questions(doc: ExplanationDoc, old: list[str]) -> None:
    """Make a bank question for each phrasing, keeping ids stable: a phrasing edited in place
    (same position, new text) updates the existing question, so its cards and history stay."""
    new_norms = [normalize_question(q) for q in doc.questions]
    old_norms = [normalize_question(q) for q in old]
    kept = set(new_norms) & set(old_norms)
    for index, text in enumerate(doc.questions):
        norm = new_norms[index]
        if norm in kept or not norm or index >= len(old) or old_norms[index] in kept:
            continue
        existing = db.session.scalar(select(Question).where(Question.norm == norm, Question.owner_id.is_(None)))
        if existing is None:
            previous = db.session.scalar(select(Question).where(Question.norm == old_norms[index],
                                                                Question.owner_id.is_(None)))
            if previous is not None:  # rename in place
                previous.text, previous.norm = text.strip(), norm
                old_norms[index] = norm
    adopt_listed(doc.questions)  # candidates' questions this explanation answers become the bank's
    # The bank's questions for these phrasings in one query (one flush at the end, not one a question).
    norms = {n for n in new_norms if n}
    bank = {q.norm: q for q in db.session.scalars(select(Question).where(
        Question.norm.in_(norms), Question.owner_id.is_(None)))} if norms else {}
    tags, known = [*doc.skills, *doc.tags][:10], {}
    listed = []
    for text, norm in zip(doc.questions, new_norms):
        question = bank.get(norm) if norm else None
        if question is None:  # new to the bank (an empty phrasing: add_question raises EmptyQuestion)
            question = bank[norm] = add_question(text, source=Source.content, tags=tags, known_tags=known,
                                                 new=True, flush=False)
        else:
            merge_tags(question, tags, known)
        link_to(question, doc.slug, 1.0, LinkOrigin.content)
        _drop_weak_automatic_links(question)
        listed.append(question)
    db.session.flush()
    mine = [question.id for question in listed]
    if doc.questions_paired:
        _pair_with_other_language(doc, mine)
    _group_wordings(doc.slug)
    _check_candidates_links(doc)
    # Phrasings dropped from the file lose their content link (the questions and cards remain).
    dropped = [n for n in old_norms if n not in set(new_norms)]
    if dropped:
        ids = db.session.scalars(select(Question.id).where(Question.norm.in_(dropped),
                                                           Question.owner_id.is_(None))).all()
        if ids:
            db.session.execute(delete(QuestionExplanation).where(
                QuestionExplanation.question_id.in_(ids), QuestionExplanation.slug == doc.slug,
                QuestionExplanation.origin == LinkOrigin.content))


def _group_wordings(slug: str) -> None:
    """The questions an explanation lists that are one question (a translation, or the same
    question reworded) become one translation group: one card, shown in the reader's language."""
    listed = db.session.scalars(select(QuestionExplanation.question_id).join(Question).where(
        QuestionExplanation.slug == slug, QuestionExplanation.origin == LinkOrigin.content,
        QuestionExplanation.rejected.is_(False), Question.owner_id.is_(None))).all()
    translations.link_by_meaning(list(listed))


def _check_candidates_links(doc: ExplanationDoc) -> None:
    """A candidate's own question the linker suggested this explanation for, that says one of
    the questions it lists in other words or the other language: the explanation answers it,
    so the link is the explanation's own (checked), no longer a suggestion."""
    links = db.session.scalars(select(QuestionExplanation).join(Question).where(
        QuestionExplanation.slug == doc.slug, QuestionExplanation.origin == LinkOrigin.auto,
        Question.owner_id.is_not(None))).all()
    if not links:
        return
    matcher = default_matcher()
    listed = [matcher.concepts(text) for text in doc.questions]
    for link in links:
        asked = matcher.concepts(link.question.text)
        if any(matcher.same(asked, other) for other in listed):
            link.origin, link.score = LinkOrigin.content, 1.0
    db.session.flush()


def _drop_weak_automatic_links(question: Question) -> None:
    """The page written for a question replaces the linker's weak guesses for it (automatic links
    under ``LINK_MIN_SCORE``, which candidates see as suggestions); confident ones and hand
    decisions stay."""
    min_score = current_app.config["LINK_MIN_SCORE"]
    for link in list(question.links):
        if link.origin is LinkOrigin.auto and link.score < min_score:
            question.links.remove(link)


def _pair_with_other_language(doc: ExplanationDoc, mine: list[int]) -> None:
    """``questions_paired``: item i here and item i of the other language's file are one question."""
    other = db.session.scalar(select(Explanation).where(Explanation.slug == doc.slug, Explanation.lang != doc.lang,
                                                        live()).limit(1))
    if other is None or len(other.questions or []) != len(mine):
        return
    norms = [normalize_question(q) for q in other.questions]
    found = dict(db.session.execute(select(Question.norm, Question.id).where(
        Question.norm.in_(norms), Question.owner_id.is_(None))).all())
    pairs = [(found[n], qid) for n, qid in zip(norms, mine) if n in found]
    translations.link_pairs(pairs)


def link_to(question: Question, slug: str, score: float, origin: LinkOrigin) -> None:
    """Link the question to the explanation (stored at the caller's next flush)."""
    link = next((lk for lk in question.links if lk.slug == slug), None)
    if link is None:
        question.links.append(QuestionExplanation(slug=slug, score=score, origin=origin))
    elif link.origin is not LinkOrigin.manual:  # a hand decision wins
        link.score, link.origin = score, origin
