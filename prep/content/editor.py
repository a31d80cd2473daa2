"""Instructor editing: validate a draft against the stored explanations, and write files
atomically (``prep content export``).

No Flask here; :mod:`.drafts` gives these the stored explanations and saves to the database.
"""
from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path


from ..skills import load_taxonomy
from .check import check_docs, missing_key_points, unclosed_blocks
from .document import ExplanationDoc, parse_document
from .errors import N_, Problem, problem

AREA_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,59}")  # always used with fullmatch

NEW_TEMPLATE = """---
title: {title}
slug: {slug}
tags: []
skills: []
questions:
{questions}
difficulty: 2
lang: {lang}
related: []
# key_points: the drill's checklist, 3 to 6 short points a full answer must cover, one per line:
#   - First point
---
In an interview, say: …

## The idea

Explain it here. Code, tables, math ($a^2 + b^2$) and cross-links to other explanations
(`[[their-slug]]`) work.
"""


def new_draft(question_text: str | None = None, lang: str = "en", taken: Collection[str] = ()) -> str:
    """The starting text of a new explanation, pre-filled with a question when given; its
    ``slug:`` made from the title (:func:`suggested_slug`), one not in ``taken``."""
    title = (question_text or "New explanation").replace("\n", " ").strip()[:120]
    quoted = title.replace('"', '\\"')
    questions = f'  - "{question_text.strip()}"' if question_text else "  - What question does this answer?"
    slug = suggested_slug(title, taken) or "new-explanation"
    return NEW_TEMPLATE.format(title=f'"{quoted}"', slug=slug, questions=questions, lang=lang)


def slugify(title: str) -> str:
    """A file-name slug from a title: ASCII letters and digits joined by hyphens."""
    words = re.findall(r"[a-z0-9]+", title.casefold().replace("+", "p"))
    return "-".join(words)[:80].strip("-")


def _pinyin(text: str) -> list[str]:
    """``text`` with its Chinese characters as pinyin without tones; pypinyin's dictionaries (a
    quarter of a second to load) are read only when the text holds a Chinese character."""
    if not re.search(r"[\u3400-\u9fff\uf900-\ufaff]", text):
        return [text]
    from pypinyin import Style, lazy_pinyin  # here: its dictionaries load on import

    return lazy_pinyin(text, style=Style.NORMAL, errors="default")


#: The longest slug :func:`suggested_slug` makes (cut between words).
SUGGESTED_SLUG_CHARS = 60


def suggested_slug(title: str, taken: Collection[str] = ()) -> str:
    """A slug for a title: its English words, Chinese as pinyin without tones (环形 → huan-xing),
    cut between words at :data:`SUGGESTED_SLUG_CHARS`; ``-2``, ``-3``… added while it is in
    ``taken``. Empty when the title has neither."""
    words: list[str] = []
    for part in _pinyin(title[:200]):
        words.extend(re.findall(r"[a-z0-9]+", part.casefold().replace("+", "p")))
    slug = ""
    for word in words:
        longer = f"{slug}-{word}" if slug else word
        if len(longer) > SUGGESTED_SLUG_CHARS:
            break
        slug = longer
    if not slug:
        return ""
    candidate, number = slug, 2
    while candidate in taken:
        candidate, number = f"{slug}-{number}", number + 1
    return candidate


def relative_path(area: str, doc: ExplanationDoc) -> str:
    suffix = ".zh.md" if doc.lang == "zh" else ".md"
    return f"{area}/{doc.slug}{suffix}"


@dataclass
class DraftCheck:
    doc: ExplanationDoc | None
    problems: list[Problem]
    rel_path: str
    #: Shown, but do not stop a save (see :func:`.check.unclosed_blocks`).
    warnings: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.doc is not None and not self.problems


def check_draft(text: str, others: list[ExplanationDoc], *, area: str, existing_path: str | None = None,
                existing_slug: str | None = None, taxonomy=None) -> DraftCheck:
    """Every problem of ``text`` as the explanation it would become, checked against ``others``
    (the stored explanations: slug, language, path and questions are enough, paths relative)."""
    problems: list[Problem] = []
    if not AREA_RE.fullmatch(area or ""):
        problems.append(Problem("area", 1, N_("the area must be lower-case letters, digits and hyphens")))
    provisional = existing_path or f"{area or 'draft'}/draft.md"
    parsed = parse_document(text, provisional, lenient=True)
    problems.extend(parsed.problems)
    doc = parsed.doc
    if doc is None:
        return DraftCheck(None, sorted(problems), provisional)
    if existing_path is None and "slug" not in doc.field_lines:
        derived = suggested_slug(doc.title)
        if not derived:
            problems.append(Problem(provisional, 1, N_("add a 'slug:' line (the title has no letters to make one)")))
            return DraftCheck(None, sorted(problems), provisional)
        doc.slug = derived
    rel = existing_path or relative_path(area, doc)
    extra = [p for p in problems if p.path == "area"]
    if existing_slug is not None and doc.slug != existing_slug:
        extra.append(problem(rel, doc.line_of("slug"), N_("the slug cannot be changed here (it is '%(slug)s')"),
                             slug=existing_slug))
    parsed = parse_document(text, rel, lenient=True)  # problems named by the real path
    doc = parsed.doc
    problems = extra + list(parsed.problems)
    if doc is None:
        return DraftCheck(None, sorted(problems), rel)
    if existing_path is None:
        taken = next((o for o in others if o.path == rel or (o.slug, o.lang) == (doc.slug, doc.lang)), None)
        if taken is not None:
            problems.append(problem(rel, doc.line_of("slug"), N_("slug '%(slug)s' is already used by %(path)s"),
                                    slug=doc.slug, path=taken.path))
    others = [d for d in others if d.path != rel]
    if taxonomy is None:
        taxonomy = load_taxonomy()
    problems.extend(p for p in check_docs([*others, doc], taxonomy)
                    if p.path == rel and "duplicate slug" not in p.message)
    return DraftCheck(doc if not problems else None, sorted(set(problems)), rel,
                      sorted(unclosed_blocks(doc) + missing_key_points(doc)))


def light_doc(slug: str, lang: str, path: str, questions: list[str]) -> ExplanationDoc:
    """A stored explanation as :func:`check_draft` needs it (no body: only the draft's is checked)."""
    return ExplanationDoc(slug=slug, title=slug, tags=[], skills=[], questions=list(questions or []),
                          difficulty=None, lang=lang, related=[], body="", body_start_line=1, path=path,
                          area="", content_hash="")


class UnsafePathError(OSError):
    """A write would leave the content folder or go through a symbolic link."""


def _relative_parts(rel_path: str) -> tuple[str, ...]:
    rel = Path(rel_path)
    if rel.is_absolute() or not rel.parts or any(part in ("", ".", "..") for part in rel.parts) \
            or "\x00" in rel_path or "\\" in rel_path:
        raise UnsafePathError(f"{rel_path}: not a path inside the content folder")
    return rel.parts


def safe_target(root: Path, rel_path: str) -> Path:
    """``root / rel_path``, refusing ``..``, absolute paths and any symbolic link under the
    folder (an area, the file): a write never lands outside the content folder. The folder
    itself is the one configured and may be a link. A check for a clear message only: the
    write (:func:`write_inside`) refuses links again as it opens each folder."""
    parts = _relative_parts(rel_path)
    real_root = root.resolve()
    current = root
    for part in parts:
        current = current / part
        if current.is_symlink():
            raise UnsafePathError(f"{rel_path}: {current.relative_to(root).as_posix()} is a symbolic link")
    if not current.resolve().is_relative_to(real_root):
        raise UnsafePathError(f"{rel_path}: outside the content folder")
    return current


def write_inside(root: Path, rel_path: str, text: str, *, exact: bool = False) -> Path:
    """Write ``text`` to ``root / rel_path`` atomically (a temporary file, then a rename; a
    failure such as a full disk leaves the old file whole), never through a symbolic link.

    Each folder is opened relative to the one before with ``O_NOFOLLOW``, and the temporary
    file is created and renamed inside that open folder, so a link put in place between a
    check and the write cannot redirect it (no check-then-write race). Missing folders are
    created. Raises :class:`UnsafePathError` for a link or a path leaving the folder. ``exact``
    writes the text byte for byte (no newline added, line ends kept)."""
    parts = _relative_parts(rel_path)
    *folders, name = parts
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    root.mkdir(parents=True, exist_ok=True)
    fds = [os.open(root, os.O_RDONLY | os.O_DIRECTORY)]
    try:
        for i, folder in enumerate(folders):
            try:
                os.mkdir(folder, 0o755, dir_fd=fds[-1])
            except FileExistsError:
                pass
            try:
                fds.append(os.open(folder, os.O_RDONLY | os.O_DIRECTORY | nofollow, dir_fd=fds[-1]))
            except OSError as err:
                if err.errno in (errno.ELOOP, errno.ENOTDIR):
                    where = "/".join(parts[:i + 1])
                    raise UnsafePathError(f"{rel_path}: {where} is a symbolic link or not a folder") from None
                raise
        parent = fds[-1]
        try:
            existing = os.stat(name, dir_fd=parent, follow_symlinks=False)
        except FileNotFoundError:
            existing = None
        if existing is not None and not stat.S_ISREG(existing.st_mode):
            raise UnsafePathError(f"{rel_path}: is a symbolic link or not a regular file")
        tmp = f".{name}.{secrets.token_hex(6)}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | nofollow, 0o644, dir_fd=parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="" if exact else "\n") as fh:
                fh.write(text if exact or text.endswith("\n") else text + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, name, src_dir_fd=parent, dst_dir_fd=parent)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=parent)
            except FileNotFoundError:
                pass
            raise
    finally:
        for fd in reversed(fds):
            os.close(fd)
    return root.joinpath(*parts)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename, refusing a symbolic
    link at ``path`` (see :func:`write_inside`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_inside(path.parent, path.name, text)
