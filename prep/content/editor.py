"""Instructor editing: validate a draft file against the tree, and write it atomically.

No Flask here; the routes call these and then sync the tree into the database.
"""
from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .check import check_docs, check_tree
from .document import ExplanationDoc, parse_document
from .errors import Problem

AREA_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,59}")  # always used with fullmatch

NEW_TEMPLATE = """---
title: {title}
tags: []
skills: []
questions:
{questions}
difficulty: 2
lang: {lang}
related: []
---
In an interview, say: …

## The idea

Explain it here. Code, tables, math ($a^2 + b^2$) and [[slug]] cross-links work.
"""


def new_draft(question_text: str | None = None, lang: str = "en") -> str:
    """The starting text of a new explanation, pre-filled with a question when given."""
    title = (question_text or "New explanation").replace("\n", " ").strip()[:120]
    quoted = title.replace('"', '\\"')
    questions = f'  - "{question_text.strip()}"' if question_text else "  - What question does this answer?"
    return NEW_TEMPLATE.format(title=f'"{quoted}"', questions=questions, lang=lang)


def slugify(title: str) -> str:
    """A file-name slug from a title: ASCII letters and digits joined by hyphens."""
    words = re.findall(r"[a-z0-9]+", title.casefold().replace("+", "p"))
    return "-".join(words)[:80].strip("-")


def relative_path(area: str, doc: ExplanationDoc) -> str:
    suffix = ".zh.md" if doc.lang == "zh" else ".md"
    return f"{area}/{doc.slug}{suffix}"


@dataclass
class DraftCheck:
    doc: ExplanationDoc | None
    problems: list[Problem]
    rel_path: str

    @property
    def ok(self) -> bool:
        return self.doc is not None and not self.problems


def check_draft(text: str, content_dir: Path, *, area: str, existing_path: str | None = None,
                existing_slug: str | None = None, taxonomy=None) -> DraftCheck:
    """Every problem of ``text`` as the file it would become, checked against the rest of the tree."""
    problems: list[Problem] = []
    if not AREA_RE.fullmatch(area or ""):
        problems.append(Problem("area", 1, "the area must be lower-case letters, digits and hyphens"))
    provisional = existing_path or f"{area or 'draft'}/draft.md"
    parsed = parse_document(text, provisional, lenient=True)
    problems.extend(parsed.problems)
    doc = parsed.doc
    if doc is None:
        return DraftCheck(None, sorted(problems), provisional)
    if existing_path is None and "slug" not in doc.field_lines:
        derived = slugify(doc.title)
        if not derived:
            problems.append(Problem(provisional, 1, "add a 'slug:' line (the title has no Latin letters to make one)"))
            return DraftCheck(None, sorted(problems), provisional)
        doc.slug = derived
    rel = existing_path or relative_path(area, doc)
    extra = [p for p in problems if p.path == "area"]
    if existing_slug is not None and doc.slug != existing_slug:
        extra.append(Problem(rel, doc.line_of("slug"),
                             f"the slug cannot be changed here (it is '{existing_slug}')"))
    parsed = parse_document(text, rel, lenient=True)  # problems named by the real path
    doc = parsed.doc
    problems = extra + list(parsed.problems)
    if doc is None:
        return DraftCheck(None, sorted(problems), rel)
    others = [d for d in check_tree(content_dir, taxonomy).all_docs if _rel(d.path, content_dir) != rel]
    if existing_path is None and (content_dir / rel).exists():
        problems.append(Problem(rel, doc.line_of("slug"), f"a file {rel} already exists"))
    for other in others:
        if other.slug == doc.slug and other.lang == doc.lang:
            problems.append(Problem(rel, doc.line_of("slug"),
                                    f"slug '{doc.slug}' is already used by {_rel(other.path, content_dir)}"))
    if taxonomy is None:
        from prep.skills import load_taxonomy

        taxonomy = load_taxonomy()
    mine = doc.path
    problems.extend(p for p in check_docs([*others, doc], taxonomy)
                    if p.path == mine and "duplicate slug" not in p.message)
    return DraftCheck(doc if not problems else None, sorted(set(problems)), rel)


def _rel(display: str, root: Path) -> str:
    try:
        return Path(display).relative_to(root).as_posix()
    except ValueError:
        return Path(display).as_posix()


class UnsafePathError(OSError):
    """A write would leave the content folder or go through a symbolic link."""


def safe_target(root: Path, rel_path: str) -> Path:
    """``root / rel_path``, refusing ``..``, absolute paths and any symbolic link on the way (the
    folder, the area, the file): a write never lands outside the content folder."""
    rel = Path(rel_path)
    if rel.is_absolute() or not rel.parts or any(part in ("", ".", "..") for part in rel.parts):
        raise UnsafePathError(f"{rel_path}: not a path inside the content folder")
    if root.is_symlink():
        raise UnsafePathError(f"{root}: the content folder is a symbolic link")
    real_root = root.resolve()
    current = root
    for part in rel.parts:
        current = current / part
        if current.is_symlink():
            raise UnsafePathError(f"{rel_path}: {current.relative_to(root).as_posix()} is a symbolic link")
    if not current.resolve().is_relative_to(real_root):
        raise UnsafePathError(f"{rel_path}: outside the content folder")
    return current


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: a failure (disk full)
    leaves the old file whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text if text.endswith("\n") else text + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
