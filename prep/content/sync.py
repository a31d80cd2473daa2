"""Load the content tree into the database: new and changed files by content hash, deleted
ones removed, question ids kept stable across edits, and questions linked to explanations.

Nothing is rendered for an unchanged file: its stored HTML is keyed by the file's hash.
A file with problems keeps its previous version in the database (or stays out of it).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import delete, func, select
from sqlalchemy.exc import SQLAlchemyError

from ..extensions import db
from ..questions.models import LinkOrigin, Question, QuestionExplanation, Source
from ..questions.normalize import normalize_question
from ..questions.service import QuestionError, add_question
from ..skills import load_taxonomy
from .check import check_tree
from .document import ExplanationDoc, content_hash
from .linker import Linker
from .models import Explanation
from .render import render_markdown

log = logging.getLogger(__name__)


@dataclass
class SyncReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    problems: list[str] = field(default_factory=list)
    rendered: int = 0
    links: int = 0
    #: Explanations whose files are missing but which were kept: the removal looked like a mistake.
    kept: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed)

    @property
    def refused(self) -> bool:
        return bool(self.kept)

    def summary(self) -> str:
        line = (f"content: {len(self.added)} added, {len(self.updated)} updated, {len(self.removed)} removed, "
                f"{self.unchanged} unchanged, {len(self.problems)} problem(s)")
        if self.kept:
            line += f"; {len(self.kept)} kept although their files are missing (see above)"
        return line


#: A sync removes at most this share of the stored explanations (and at least MIN_REMOVALS)
#: unless told to prune: more looks like a wrong path or a half-finished checkout.
MAX_REMOVED_SHARE = 0.10
MIN_REMOVALS = 3


def removal_limit(stored: int) -> int:
    return max(MIN_REMOVALS, int(stored * MAX_REMOVED_SHARE))


def _file_hashes(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*.md")):
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(root).parts):
            try:
                out[path.relative_to(root).as_posix()] = content_hash(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                out[path.relative_to(root).as_posix()] = ""
    return out


def _relative(display_path: str, root: Path) -> str:
    path = Path(display_path)
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def sync_tree(root: Path | str, *, relink: bool = True, prune: bool = False) -> SyncReport:
    """Bring the explanations table in line with the tree at ``root`` (the caller commits).

    Files gone from the tree remove their explanations, but only a few at a time: when more
    than :func:`removal_limit` would go (an empty folder, a wrong path), nothing is removed and
    ``report.kept`` names them, unless ``prune``."""
    root = Path(root)
    report = SyncReport()
    if not root.is_dir():
        report.problems.append(f"{root}: content directory not found")
        return report
    hashes = _file_hashes(root)
    # The fast path reads two short columns, not the rows (HTML, Markdown, JSON): nothing parsed,
    # nothing rendered, nothing loaded when no file changed.
    stored_hashes = dict(db.session.execute(select(Explanation.path, Explanation.content_hash)).all())
    if hashes and stored_hashes == hashes:
        report.unchanged = len(hashes)
        return report
    stored = {e.path: e for e in db.session.scalars(select(Explanation))}

    checked = check_tree(root, load_taxonomy())
    report.problems = checked.lines()
    good = {_relative(d.path, root): d for d in checked.docs}
    all_slugs = {d.slug for d in checked.all_docs} | {e.slug for e in stored.values()}

    for path, doc in sorted(good.items()):
        row = stored.get(path)
        if row is not None and row.content_hash == doc.content_hash:
            report.unchanged += 1
            continue
        # One savepoint per file: a file the database refuses is reported and skipped (its old
        # version stays), and every other file is still synced.
        savepoint = db.session.begin_nested()
        try:
            _store(doc, path, row, all_slugs, report)
            savepoint.commit()
        except (SQLAlchemyError, QuestionError) as err:
            savepoint.rollback()
            log.error("content sync: %s could not be stored: %s", path, err)
            for done in (report.added, report.updated):
                if path in done:
                    done.remove(path)
            report.problems.append(f"{path}:1: could not be stored ({type(err).__name__}); the old version is kept")

    # Files gone from the tree: remove them. Files present but broken keep their old version.
    gone = sorted(path for path in stored if path not in hashes)
    if len(gone) > removal_limit(len(stored)) and not prune:
        report.kept = gone
        shown = ", ".join(gone[:5]) + (f" and {len(gone) - 5} more" if len(gone) > 5 else "")
        report.problems.append(
            f"{root}: {len(gone)} of {len(stored)} explanations have no file here ({shown}); nothing was removed. "
            "Check the content folder, or run 'prep content sync --prune' to remove them.")
        gone = []
    for path in gone:
        row = stored[path]
        report.removed.append(path)
        remaining = db.session.scalar(select(Explanation.id).where(
            Explanation.slug == row.slug, Explanation.id != row.id).limit(1))
        if remaining is None:
            db.session.execute(delete(QuestionExplanation).where(
                QuestionExplanation.slug == row.slug,
                QuestionExplanation.origin != LinkOrigin.manual))
        db.session.delete(row)
    db.session.flush()
    if relink and report.changed:
        report.links = relink_questions()
    return report


def _store(doc: ExplanationDoc, path: str, row: Explanation | None, all_slugs: set[str], report: SyncReport) -> None:
    if row is None:
        row = Explanation(path=path, slug=doc.slug, lang=doc.lang, title=doc.title)
        db.session.add(row)
        report.added.append(path)
        old_questions: list[str] = []
    else:
        report.updated.append(path)
        old_questions = list(row.questions or [])
    rendered = render_markdown(doc.body, slug_exists=all_slugs.__contains__)
    report.rendered += 1
    row.slug, row.lang, row.title, row.area = doc.slug, doc.lang, doc.title, doc.area
    row.tags, row.skills, row.related = list(doc.tags), list(doc.skills), list(doc.related)
    row.difficulty, row.body_md, row.content_hash = doc.difficulty, doc.body, doc.content_hash
    row.questions, row.key_points = list(doc.questions), list(doc.key_points)
    row.html = rendered.html
    row.toc = [{"level": t.level, "anchor": t.anchor, "text": t.text} for t in rendered.toc]
    db.session.flush()
    _sync_questions(doc, old_questions)


def _sync_questions(doc: ExplanationDoc, old: list[str]) -> None:
    """Make a bank question for each phrasing, keeping ids stable: a phrasing edited in place
    (same position, new text) updates the existing question, so its cards and history stay."""
    new_norms = [normalize_question(q) for q in doc.questions]
    old_norms = [normalize_question(q) for q in old]
    kept = set(new_norms) & set(old_norms)
    for index, text in enumerate(doc.questions):
        norm = new_norms[index]
        if norm in kept or not norm:
            continue
        existing = db.session.scalar(select(Question).where(Question.norm == norm, Question.owner_id.is_(None)))
        if existing is None and index < len(old) and old_norms[index] not in set(new_norms):
            previous = db.session.scalar(select(Question).where(Question.norm == old_norms[index],
                                                                Question.owner_id.is_(None)))
            if previous is not None:  # rename in place
                previous.text, previous.norm = text.strip(), norm
                old_norms[index] = norm
    for text in doc.questions:
        question = add_question(text, source=Source.content, tags=[*doc.skills, *doc.tags][:10])
        _link(question, doc.slug, 1.0, LinkOrigin.content)
    # Phrasings dropped from the file lose their content link (the questions and cards remain).
    dropped = [n for n in old_norms if n not in set(new_norms)]
    if dropped:
        ids = db.session.scalars(select(Question.id).where(Question.norm.in_(dropped),
                                                           Question.owner_id.is_(None))).all()
        if ids:
            db.session.execute(delete(QuestionExplanation).where(
                QuestionExplanation.question_id.in_(ids), QuestionExplanation.slug == doc.slug,
                QuestionExplanation.origin == LinkOrigin.content))


def _link(question: Question, slug: str, score: float, origin: LinkOrigin) -> None:
    link = next((lk for lk in question.links if lk.slug == slug), None)
    if link is None:
        question.links.append(QuestionExplanation(slug=slug, score=score, origin=origin))
    elif link.origin is not LinkOrigin.manual:  # a hand decision wins
        link.score, link.origin = score, origin
    db.session.flush()


_LINKER_CACHE: dict[str, tuple[tuple, Linker]] = {}


def current_linker() -> Linker:
    """A linker over the explanations in the database, rebuilt only when they changed
    (count, newest update or id differ): building the index costs seconds at 1,000 explanations."""
    key = tuple(db.session.execute(select(func.count(Explanation.id), func.max(Explanation.updated_at),
                                          func.max(Explanation.id))).one())
    url = db.engine.url.render_as_string(hide_password=True)
    cached = _LINKER_CACHE.get(url)
    if cached is not None and cached[0] == key:
        return cached[1]
    linker = Linker(list(db.session.scalars(select(Explanation))), load_taxonomy())
    _LINKER_CACHE[url] = (key, linker)
    return linker


def link_question(question: Question, linker: Linker | None = None) -> int:
    """(Re)compute the automatic links of one question; manual and content links stay."""
    linker = linker or current_linker()
    for link in list(question.links):
        if link.origin is LinkOrigin.auto:
            question.links.remove(link)
    db.session.flush()
    have = {lk.slug for lk in question.links}
    added = 0
    for ranked in linker.rank(question.text, limit=3):
        if ranked.slug not in have:
            question.links.append(QuestionExplanation(slug=ranked.slug, score=float(ranked.score),
                                                      origin=LinkOrigin.auto))
            added += 1
    db.session.flush()
    return added


def relink_questions() -> int:
    """Recompute automatic links for every public question that has no content link."""
    linker = current_linker()
    total = 0
    questions = db.session.scalars(select(Question).where(Question.owner_id.is_(None))).all()
    for question in questions:
        if any(lk.origin is LinkOrigin.content and not lk.rejected for lk in question.links):
            continue
        total += link_question(question, linker)
    return total
