"""Load the content tree into the database: new and changed files by content hash (each a
revision), deleted ones removed softly, question ids kept stable across edits, and questions
linked to explanations. The database is the source of truth; files are one way in.

Nothing is rendered for an unchanged file: its stored HTML is keyed by the file's hash.
A file with problems keeps its previous version in the database (or stays out of it).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.exc import SQLAlchemyError

from .. import clock
from ..extensions import db
from ..questions.models import LinkOrigin, Question, QuestionExplanation
from ..questions.service import QuestionError
from ..skills import load_taxonomy
from .check import check_tree
from .document import ExplanationDoc, content_hash
from .linker import Linker
from .models import FILE_ORIGINS, Explanation, ExplanationRevision, Origin, live
from .render import render_markdown
from .revisions import add_revision, apply_doc, remove_softly

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
    #: Files changed while the browser also saved the explanation since the last sync.
    conflicts: list[str] = field(default_factory=list)
    #: The folder has no explanation file while the database has explanations: nothing was done.
    empty_folder: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed)

    @property
    def refused(self) -> bool:
        return bool(self.kept) or self.empty_folder

    def summary(self) -> str:
        line = (f"content: {len(self.added)} added, {len(self.updated)} updated, {len(self.removed)} removed, "
                f"{self.unchanged} unchanged, {len(self.problems)} problem(s)")
        if self.conflicts:
            line += f"; {len(self.conflicts)} conflict(s) with browser edits (both kept: see their history)"
        if self.kept:
            line += f"; {len(self.kept)} kept although their files are missing (see above)"
        return line


#: A sync removes at most this share of the stored explanations (and at least MIN_REMOVALS)
#: unless told to prune: more looks like a wrong path or a half-finished checkout.
MAX_REMOVED_SHARE = 0.10
MIN_REMOVALS = 3


def removal_limit(stored: int) -> int:
    return max(MIN_REMOVALS, int(stored * MAX_REMOVED_SHARE))


def _read_files(root: Path) -> dict[str, tuple[str, float]]:
    """Every explanation file under ``root``: its sha256 (of the exact text) and its mtime."""
    out: dict[str, tuple[str, float]] = {}
    for path in sorted(root.rglob("*.md")):
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(root).parts):
            rel = path.relative_to(root).as_posix()
            try:
                out[rel] = (content_hash(path.read_bytes().decode("utf-8")), path.stat().st_mtime)
            except (OSError, UnicodeDecodeError):
                out[rel] = ("", 0.0)
    return out


def _relative(display_path: str, root: Path) -> str:
    path = Path(display_path)
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def _nothing_to_do(files: dict[str, tuple[str, float]]) -> bool:
    """True when every file is as last synced and no file-owned explanation lost its file
    (two short columns read: nothing parsed, rendered or loaded)."""
    rows = db.session.execute(select(Explanation.path, Explanation.file_hash, Explanation.origin,
                                     Explanation.content_hash).where(live())).all()
    by_path = {r.path: r for r in rows}
    for path, (digest, _mtime) in files.items():
        row = by_path.get(path)
        if row is None or row.file_hash != digest or (row.origin == Origin.migration.value
                                                        and row.content_hash != digest):
            return False
    return all(r.path in files or r.origin not in FILE_ORIGINS for r in rows)


def sync_tree(root: Path | str, *, relink: bool = True, prune: bool = False) -> SyncReport:
    """Bring the explanations in line with the files at ``root`` (the caller commits).

    New and changed files add revisions (origin file). A file changed while the browser also
    saved the explanation since the last sync is a conflict: both texts are kept as revisions,
    the newer is shown and the explanation is flagged. Files gone from the tree remove (softly:
    restorable) only explanations whose current text came from a file, and only a few at a time:
    when more than :func:`removal_limit` would go (a wrong path), nothing is removed and
    ``report.kept`` names them, unless ``prune``. A missing or empty folder changes nothing."""
    root = Path(root)
    report = SyncReport()
    if not root.is_dir():
        report.problems.append(f"{root}: content directory not found; nothing was changed")
        return report
    files = _read_files(root)
    if not files and db.session.scalar(select(func.count(Explanation.id)).where(live())):
        report.kept = sorted(db.session.scalars(select(Explanation.path).where(
            live(), Explanation.origin.in_(FILE_ORIGINS))))
        report.problems.append(f"{root}: no explanation files here; nothing was removed. "
                               "Check the content folder, or run 'prep content sync --prune' to remove them.")
        if not prune:
            report.empty_folder = True
            return report
    if files and _nothing_to_do(files):
        report.unchanged = len(files)
        return report
    now = clock.now()
    rows = list(db.session.scalars(select(Explanation)))
    stored = {e.path: e for e in rows}
    by_key = {(e.slug, e.lang): e for e in rows}

    checked = check_tree(root, load_taxonomy())
    report.problems = checked.lines()
    good = {_relative(d.path, root): d for d in checked.docs}
    all_slugs = {d.slug for d in checked.all_docs} | {e.slug for e in rows if e.removed_at is None}

    for path, doc in sorted(good.items()):
        row = stored.get(path)
        moved = by_key.get((doc.slug, doc.lang))
        if row is None and moved is not None and moved.path not in files:
            row = moved  # the file was moved or renamed: the same explanation, history kept
        # One savepoint per file: a file the database refuses is reported and skipped (its old
        # version stays), and every other file is still synced.
        savepoint = db.session.begin_nested()
        try:
            _sync_file(doc, path, row, files[path][1], all_slugs, report, now)
            savepoint.commit()
        except (SQLAlchemyError, QuestionError) as err:
            savepoint.rollback()
            log.error("content sync: %s could not be stored: %s", path, err)
            for done in (report.added, report.updated, report.conflicts):
                if path in done:
                    done.remove(path)
            report.problems.append(f"{path}:1: could not be stored ({type(err).__name__}); the old version is kept")

    # Files gone from the tree: their explanations go softly, if their text came from a file.
    # Files present but broken keep their old version; browser work is never removed here.
    live_rows = [e for e in rows if e.removed_at is None]
    gone = sorted(e.path for e in live_rows
                  if e.path not in files and e.origin in FILE_ORIGINS and e.path not in report.added)
    if gone and len(gone) > removal_limit(len(live_rows)) and not prune:
        report.kept = gone
        shown = ", ".join(gone[:5]) + (f" and {len(gone) - 5} more" if len(gone) > 5 else "")
        report.problems.append(
            f"{root}: {len(gone)} of {len(live_rows)} explanations have no file here ({shown}); nothing was removed. "
            "Check the content folder, or run 'prep content sync --prune' to remove them.")
        gone = []
    for path in gone:
        report.removed.append(path)
        remove_softly(stored[path], now)
    db.session.flush()
    if relink and report.changed:
        report.links = relink_questions()
    return report


def _sync_file(doc: ExplanationDoc, path: str, row: Explanation | None, mtime: float, all_slugs: set[str],
               report: SyncReport, now: datetime) -> None:
    digest = doc.content_hash
    if row is None or row.removed_at is not None:
        (report.added if row is None else report.updated).append(path)
        row = apply_doc(row, doc, path, origin=Origin.file, author_id=None, now=now,
                        slug_exists=all_slugs.__contains__)
        row.file_hash = digest
        return
    if row.path != path:
        row.path = path
    if row.file_hash == digest or row.content_hash == digest:
        # The file is as last synced (browser work since then stays), or it already holds the current text.
        if row.origin == Origin.migration.value and row.content_hash != digest and row.file_hash == digest:
            _repair_migrated(row, doc)
        row.file_hash = digest
        report.unchanged += 1
        return
    if row.origin in FILE_ORIGINS:
        report.updated.append(path)
        apply_doc(row, doc, path, origin=Origin.file, author_id=None, now=now, slug_exists=all_slugs.__contains__)
        row.file_hash = digest
        return
    # Both the file and the browser changed it since the last sync: keep both, show the newer.
    report.conflicts.append(path)
    current = db.session.scalar(select(ExplanationRevision.created_at).where(
        ExplanationRevision.explanation_id == row.id, ExplanationRevision.number == row.revision))
    if current is None or datetime.fromtimestamp(mtime, timezone.utc) > current:
        report.updated.append(path)
        apply_doc(row, doc, path, origin=Origin.file, author_id=None, now=now, slug_exists=all_slugs.__contains__)
    else:
        html = render_markdown(doc.body, slug_exists=all_slugs.__contains__).html
        add_revision(row, doc.source, html, digest, origin=Origin.file, author_id=None, now=now)
    row.file_hash, row.conflict = digest, True


def _repair_migrated(row: Explanation, doc: ExplanationDoc) -> None:
    """The migration rebuilt this text from the stored fields (its file was not at hand): the
    unchanged file gives the exact bytes, in the explanation and its first revision."""
    first = db.session.scalar(select(ExplanationRevision).where(
        ExplanationRevision.explanation_id == row.id, ExplanationRevision.origin == Origin.migration.value))
    row.source, row.content_hash = doc.source, doc.content_hash
    if first is not None:
        first.source, first.content_hash = doc.source, doc.content_hash


_LINKER_CACHE: dict[str, tuple[tuple, Linker]] = {}


def linker_key_query() -> Select[Any]:
    """(count, newest update, highest id) of the live explanations: what :func:`current_linker`
    compares (a caller may read it inside a larger statement and pass the row as ``key``)."""
    return select(func.count(Explanation.id), func.max(Explanation.updated_at),
                  func.max(Explanation.id)).where(live())


def current_linker(key: tuple[Any, ...] | None = None) -> Linker:
    """A linker over the explanations in the database, rebuilt only when they changed
    (count, newest update or id differ): building the index costs seconds at 1,000 explanations.
    ``key``: :func:`linker_key_query`'s row, read in this transaction (saves the statement)."""
    key = tuple(db.session.execute(linker_key_query()).one()) if key is None else tuple(key)
    url = db.engine.url.render_as_string(hide_password=True)
    cached = _LINKER_CACHE.get(url)
    if cached is not None and cached[0] == key:
        return cached[1]
    linker = Linker(list(db.session.scalars(select(Explanation).where(live()))), load_taxonomy())
    _LINKER_CACHE[url] = (key, linker)
    return linker


def link_question(question: Question, linker: Linker | None = None, *, flush: bool = True) -> int:
    """(Re)compute the automatic links of one question; manual and content links stay.
    ``flush=False`` (a question not yet flushed, with no links): the caller's next flush writes them."""
    linker = linker or current_linker()
    for link in list(question.links):
        if link.origin is LinkOrigin.auto:
            question.links.remove(link)
    if flush:
        db.session.flush()
    have = {lk.slug for lk in question.links}
    added = 0
    for ranked in linker.rank(question.text, limit=3):
        if ranked.slug not in have:
            question.links.append(QuestionExplanation(slug=ranked.slug, score=float(ranked.score),
                                                      origin=LinkOrigin.auto))
            added += 1
    if flush:
        db.session.flush()
    return added


_ORIGIN_ORDER = {LinkOrigin.content: 0, LinkOrigin.manual: 1, LinkOrigin.auto: 2}


def ranked_links(question: Question) -> list[tuple[QuestionExplanation, bool]]:
    """A question's links as instructors review them, each with whether its explanation's own
    ``questions:`` say this question: the explanation's own links first, hand decisions next,
    then the automatic ones, those whose page lists the question before the others, by score;
    rejected ones last."""
    listed = {link.slug for link in current_linker().rank(question.text, limit=10) if link.listed}

    def own(link: QuestionExplanation) -> bool:
        return link.origin is LinkOrigin.content or link.slug in listed

    ordered = sorted(question.links, key=lambda lk: (lk.rejected, _ORIGIN_ORDER.get(lk.origin, 3), not own(lk), -lk.score))
    return [(link, own(link)) for link in ordered]


def relink_questions() -> int:
    """Recompute automatic links for every public question that has no content link."""
    linker = current_linker()
    total = 0
    # Chosen in the query: the questions an explanation lists (most of the bank) are not loaded.
    content_link = select(QuestionExplanation.id).where(
        QuestionExplanation.question_id == Question.id, QuestionExplanation.origin == LinkOrigin.content,
        QuestionExplanation.rejected.is_(False)).exists()
    questions = db.session.scalars(select(Question).where(Question.owner_id.is_(None), ~content_link)).all()
    for question in questions:
        total += link_question(question, linker)
    return total
