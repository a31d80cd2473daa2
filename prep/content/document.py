"""Parse one explanation file: YAML front matter (with line numbers for every problem) + Markdown.

The front matter is read and its fields type-checked by :mod:`.front_matter`; this module
checks the fields' values, the body and the file's name and folder.

The format (see CONTRIBUTING.md, "Writing an explanation")::

    ---
    title: Ring AllReduce            # required
    slug: ring-allreduce             # optional; default: the file name
    tags: [NCCL, AllReduce, 集合通信]
    skills: [NCCL, MPI]
    questions:
      - How does ring AllReduce work, step by step?
    difficulty: 2                    # 1–5, optional
    lang: en                         # en | zh, optional; default from a .zh.md suffix, else en
    related: [nccl-algorithms]
    key_points:                      # 3–6 short points a full answer covers (the drill's checklist)
      - Reduce-scatter, then all-gather, each N−1 steps
    ---
    Markdown body…

:func:`parse_document` never raises: every problem (YAML syntax, unknown or mis-typed fields,
missing title, bad slug…) comes back as a :class:`~prep.content.errors.Problem` with the line
of the offending key or item. Front-matter values are plain text; the renderer escapes them.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import PurePath

from .errors import N_, Problem, problem
from .front_matter import (MAX_KEY_POINTS, MAX_SLUG_CHARS, MIN_KEY_POINTS, check_list, check_string,
                           load_front_matter)
from .markdown_rules import MAX_BLOCK_NESTING, SLUG_RE
from .render import MAX_RENDER_CHARS, block_nesting_overflow

LANGS = ("en", "zh")
DEFAULT_LANG = "en"
LIST_FIELDS = ("tags", "skills", "questions", "related", "key_points")
KNOWN_FIELDS = ("title", "slug", "tags", "skills", "questions", "difficulty", "lang", "related", "key_points",
                "questions_paired")
_FENCE = "---"
_CLOSERS = ("---", "...")

# Limits, the same as the database columns and the renderer: a file that passes the check is
# stored and rendered whole (``prep content check`` and a save run this same parse).
MAX_BODY_CHARS = MAX_RENDER_CHARS
MAX_TITLE_CHARS = 300
#: The longest area (folder) name and relative file path the database stores.
MAX_AREA_CHARS = 80
MAX_PATH_CHARS = 500


@dataclass
class ExplanationDoc:
    """A parsed explanation: its front matter fields and Markdown body.

    ``body_start_line`` is the 1-based file line of the body's first line; ``area`` is the
    name of the folder holding the file; ``content_hash`` is the sha256 of the whole file text.
    ``field_lines`` / ``item_lines`` give the file line of each front-matter key / list item.
    """

    slug: str
    title: str
    tags: list[str]
    skills: list[str]
    questions: list[str]
    difficulty: int | None
    lang: str
    related: list[str]
    body: str
    body_start_line: int
    path: str
    area: str
    content_hash: str
    #: The points a full answer must cover, in the page's language (the drill's checklist).
    key_points: list[str] = field(default_factory=list)
    #: ``questions_paired: true``: item i of ``questions`` words the same question as item i of
    #: the other language's file of this slug (the sync links them as translations: one card).
    questions_paired: bool = False
    field_lines: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    item_lines: dict[str, list[int]] = field(default_factory=dict, repr=False, compare=False)
    #: The whole file text exactly as read (front matter and body): what a revision stores.
    source: str = field(default="", repr=False, compare=False)

    def line_of(self, name: str, index: int | None = None) -> int:
        """The file line of front-matter key ``name`` (or of its list item ``index``); 1 if unknown."""
        if index is not None:
            lines = self.item_lines.get(name, [])
            if 0 <= index < len(lines):
                return lines[index]
        return self.field_lines.get(name, 1)


@dataclass
class ParsedDocument:
    """The outcome of parsing one file: a document (None when invalid) and its problems."""

    doc: ExplanationDoc | None
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the file has no problems."""
        return not self.problems


def content_hash(text: str) -> str:
    """The sha256 hex digest of a file's text (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def slug_and_lang_from_path(path: str) -> tuple[str, str | None]:
    """The default slug and the language suffix of a file name.

    ``ring-allreduce.zh.md`` → ``("ring-allreduce", "zh")``; ``rdma.md`` → ``("rdma", None)``.
    """
    name = PurePath(path).name
    stem = name[:-3] if name.lower().endswith(".md") else PurePath(name).stem
    base, dot, suffix = stem.rpartition(".")
    if dot and suffix.lower() in LANGS and base:
        return base, suffix.lower()
    return stem, None


def _split(text: str) -> tuple[list[str], int | None]:
    """The file's lines and the index of the closing front-matter fence (None if unclosed)."""
    lines = text.split("\n")
    for i in range(1, len(lines)):
        if lines[i].rstrip() in _CLOSERS:
            return lines, i
    return lines, None


def parse_document(text: str, path: str, *, lenient: bool = False) -> ParsedDocument:
    """Parse one content file's ``text``; ``path`` is used for messages, the slug and the area.

    Returns the document and every problem found. ``doc`` is None when there is any problem,
    unless ``lenient``: then a best-effort document (defaults for bad fields) is returned
    whenever the front matter could be read, so a checker can go on checking it.
    """
    problems: list[Problem] = []
    digest = content_hash(text)
    clean = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines, close = _split(clean)
    if not lines or lines[0].rstrip() != _FENCE:
        problems.append(Problem(path, 1, N_("missing front matter: the file must start with a '---' line")))
        return ParsedDocument(None, problems)
    if close is None:
        problems.append(Problem(path, 1, N_("front matter is not closed: add a '---' line after it")))
        return ParsedDocument(None, problems)

    fm = load_front_matter("\n".join(lines[1:close]), 2, path, problems)
    if fm is None:
        return ParsedDocument(None, problems)

    for key, line in fm.key_lines.items():
        if key not in KNOWN_FIELDS:
            problems.append(problem(
                path, line, N_("unknown field '%(key)s' (known: %(known)s)"), key=key, known=", ".join(KNOWN_FIELDS)))

    values = fm.values
    title = ""
    if "title" not in values:
        problems.append(Problem(path, 1, N_("missing required field 'title'")))
    else:
        checked = check_string("title", values["title"], fm.key_lines["title"], path, problems)
        if checked is not None:
            if not checked:
                problems.append(Problem(path, fm.key_lines["title"], N_("title must not be empty")))
            elif len(checked) > MAX_TITLE_CHARS:
                problems.append(problem(path, fm.key_lines["title"], N_("title is over %(max)s characters"), max=MAX_TITLE_CHARS))
                checked = checked[:MAX_TITLE_CHARS]
            title = checked

    default_slug, name_lang = slug_and_lang_from_path(path)
    slug = default_slug
    if "slug" in values:
        checked = check_string("slug", values["slug"], fm.key_lines["slug"], path, problems)
        if checked is not None:
            slug = checked
            if len(slug) > MAX_SLUG_CHARS:
                problems.append(problem(path, fm.key_lines["slug"], N_("slug is over %(max)s characters"), max=MAX_SLUG_CHARS))
            elif not SLUG_RE.fullmatch(slug):
                problems.append(problem(
                    path, fm.key_lines["slug"],
                    N_("slug '%(slug)s' is invalid: use lower-case letters, digits and hyphens"), slug=slug))
    elif len(slug) > MAX_SLUG_CHARS or not SLUG_RE.fullmatch(slug):
        problems.append(problem(
            path, 1, N_("file name '%(name)s' is not a valid slug: rename the file "
                        "(lower-case letters, digits, hyphens) or set 'slug'"), name=default_slug))

    lang = name_lang or DEFAULT_LANG
    if "lang" in values:
        checked = check_string("lang", values["lang"], fm.key_lines["lang"], path, problems)
        if checked is not None:
            if checked not in LANGS:
                problems.append(problem(
                    path, fm.key_lines["lang"], N_("lang must be one of %(langs)s, not '%(lang)s'"),
                    langs=", ".join(LANGS), lang=checked))
            elif name_lang and checked != name_lang:
                problems.append(problem(
                    path, fm.key_lines["lang"],
                    N_("lang '%(lang)s' contradicts the file name suffix '.%(suffix)s'"), lang=checked, suffix=name_lang))
            else:
                lang = checked

    paired = values.get("questions_paired", False)
    if not isinstance(paired, bool):
        problems.append(Problem(path, fm.key_lines["questions_paired"], N_("questions_paired must be true or false")))
        paired = False

    difficulty: int | None = None
    if values.get("difficulty") is not None:
        raw = values["difficulty"]
        if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= 5:
            problems.append(problem(
                path, fm.key_lines["difficulty"],
                N_("difficulty must be a whole number from 1 to 5, not %(value)s"), value=repr(raw)))
        else:
            difficulty = raw

    lists = {
        name: check_list(name, values[name], fm, path, problems) if name in values else []
        for name in LIST_FIELDS
    }

    raw_points = values.get("key_points", [None] * MIN_KEY_POINTS)
    if raw_points is None or (isinstance(raw_points, list)
                              and not MIN_KEY_POINTS <= len(raw_points) <= MAX_KEY_POINTS):
        problems.append(problem(path, fm.key_lines["key_points"],
                                N_("key_points has %(num)s items; give %(low)s to %(high)s short points"),
                                num=len(raw_points or []), low=MIN_KEY_POINTS, high=MAX_KEY_POINTS))

    body_lines = lines[close + 1:]
    body = "\n".join(body_lines)
    body_start_line = close + 2
    if not body.strip():
        problems.append(Problem(path, close + 1, N_("the explanation body is empty")))
    elif len(body) > MAX_BODY_CHARS:
        problems.append(problem(path, body_start_line, N_("the explanation body is over %(max)s characters; "
                                                          "split it into several explanations"),
                                max=f"{MAX_BODY_CHARS:,}"))
    else:
        nul = body.find("\x00")
        if nul >= 0:  # PostgreSQL stores no NUL in text
            problems.append(Problem(path, body_start_line + body.count("\n", 0, nul),
                                    N_("the body contains a NUL character (\\x00); remove it")))
        deep = block_nesting_overflow(body)
        if deep is not None:
            problems.append(problem(path, body_start_line + deep,
                                    N_("lists and quotes nest more than %(max)s levels deep here "
                                       "(a list level counts two); the rest would not be shown"), max=MAX_BLOCK_NESTING))
    area = PurePath(path).parent.name
    if len(area) > MAX_AREA_CHARS:
        problems.append(problem(path, 1, N_("the folder name '%(name)s…' is over %(max)s characters"), name=area[:40],
                                max=MAX_AREA_CHARS))

    doc = ExplanationDoc(
        slug=slug,
        title=title,
        tags=lists["tags"],
        skills=lists["skills"],
        questions=lists["questions"],
        difficulty=difficulty,
        lang=lang,
        related=lists["related"],
        body=body,
        body_start_line=body_start_line,
        path=path,
        area=area,
        content_hash=digest,
        key_points=lists["key_points"],
        questions_paired=paired,
        field_lines=dict(fm.key_lines),
        item_lines={k: list(v) for k, v in fm.item_lines.items()},
        source=text,
    )
    problems.sort()
    if problems and not lenient:
        return ParsedDocument(None, problems)
    return ParsedDocument(doc, problems)
