"""Check a content tree: every file parses, slugs are unique, links resolve, skills are known.

:func:`check_tree` walks ``**/*.md`` under a root, parses each file on its own (a bad file
never takes the others down), then runs the cross-file checks. Every finding is a
:class:`~prep.content.errors.Problem` printed as ``path:line: message``; paths are the
walked paths (``root / relative``), so a relative root gives relative paths.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from ..questions.normalize import normalize_question  # the bank's identity, as the sync stores it
from ..skills import load_taxonomy
from .document import MAX_PATH_CHARS, ExplanationDoc, parse_document
from .errors import N_, Problem, problem
from .markdown_rules import ADMONITION_KINDS, SLUG_RE

_CROSS_LINK_RE = re.compile(r"\[\[([^\[\]\|\n]{1,200})(?:\|[^\[\]\n]{0,500})?\]\]")
_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN_RE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_DOUBLE_DOLLAR_RE = re.compile(r"(?<!\\)\$\$")
_ADMONITION_RE = re.compile(r"^\s*(?:!!!|\?\?\?\+?)\s+([^\s\"]+)")


class TaxonomyLike(Protocol):
    """What the checker needs of :class:`prep.skills.Taxonomy`."""

    @property
    def names(self) -> set[str]: ...

    def canonical(self, term: str) -> str | None: ...


@dataclass
class CheckReport:
    """The outcome of checking a tree.

    ``docs``: documents of files without problems (safe to load); ``all_docs``: best-effort
    documents of every file whose front matter could be read; ``problems``: sorted findings;
    ``files``: number of ``.md`` files seen.
    """

    docs: list[ExplanationDoc] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    files: int = 0
    all_docs: list[ExplanationDoc] = field(default_factory=list)
    #: Findings that do not stop a file from loading (an unclosed code fence or $$ block).
    warnings: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no problem was found."""
        return not self.problems

    def lines(self) -> list[str]:
        """Each problem as one ``path:line: message`` line, sorted, then each warning as
        ``path:line: warning: message``."""
        return [str(p) for p in self.problems] + [f"{w.path}:{w.line}: warning: {w.message}" for w in self.warnings]


def read_text(path: Path, display: str) -> tuple[str | None, Problem | None]:
    """Read a file as UTF-8; an unreadable or undecodable file becomes a problem."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, Problem(display, 1, f"cannot read file: {exc.strerror or exc}")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return None, Problem(
            display, line, f"not valid UTF-8 (byte 0x{data[exc.start]:02x}); save the file as UTF-8")


def body_lines(doc: ExplanationDoc) -> list[tuple[int, str]]:
    """The body's prose lines with their file line numbers: fenced code removed, code spans blanked."""
    return _scan_body(doc)[0]


def _scan_body(doc: ExplanationDoc) -> tuple[list[tuple[int, str]], int | None]:
    """:func:`body_lines`, and the file line of a code fence left open at the end (None if none)."""
    out: list[tuple[int, str]] = []
    fence: str | None = None
    opened = 0
    for offset, line in enumerate(doc.body.split("\n")):
        number = doc.body_start_line + offset
        match = _FENCE_RE.match(line)
        if fence is not None:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
                    and not line.strip()[len(match.group(1)):].strip():
                fence = None
            continue
        if match:
            fence, opened = match.group(1), number
            continue
        out.append((number, _CODE_SPAN_RE.sub(lambda m: " " * len(m.group(0)), line)))
    return out, (opened if fence is not None else None)


def unclosed_blocks(doc: ExplanationDoc) -> list[Problem]:
    """Warnings: a code fence or a ``$$`` math block opened and never closed. The text is still
    valid (it renders), but the rest of it shows as code, or the math as plain text."""
    prose, open_fence = _scan_body(doc)
    warnings = []
    math_open: int | None = None
    for number, line in prose:
        for _ in _DOUBLE_DOLLAR_RE.finditer(line):
            math_open = number if math_open is None else None
    if math_open is not None:
        warnings.append(Problem(doc.path, math_open, N_("this $$ math block is never closed: add a closing $$, "
                                                        "or the formula shows as plain text")))
    if open_fence is not None:
        warnings.append(Problem(doc.path, open_fence, N_("this code block (```) is never closed: add a closing ``` "
                                                         "line, or everything after it shows as code")))
    return sorted(warnings)


def missing_key_points(doc: ExplanationDoc) -> list[Problem]:
    """A warning when the page has no ``key_points``: the drill then gives no checklist to grade
    an answer by. The page still saves (``prep content check`` reports it as a problem)."""
    if doc.key_points:
        return []
    return [Problem(doc.path, 1, N_("no key_points: add 3 to 6 short points a full answer must cover "
                                    "(the drill's checklist to grade an answer by)"))]


def _walk(root: Path) -> list[tuple[Path, str]]:
    files = []
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        files.append((path, (root / rel).as_posix()))
    return files


def _check_body(doc: ExplanationDoc, slugs: set[str], problems: list[Problem]) -> None:
    for number, line in body_lines(doc):
        for match in _CROSS_LINK_RE.finditer(line):
            target = match.group(1).strip()
            if not SLUG_RE.fullmatch(target):
                problems.append(Problem(
                    doc.path, number,
                    f"malformed cross-link '{match.group(0)}': a slug is lower-case letters, "
                    "digits and hyphens"))
            elif target not in slugs:
                problems.append(problem(doc.path, number, N_("cross-link target '%(target)s' does not exist"), target=target))
        admonition = _ADMONITION_RE.match(line)
        if admonition and admonition.group(1).lower() not in ADMONITION_KINDS:
            problems.append(problem(
                doc.path, number, N_("unknown admonition kind '%(kind)s' (use %(kinds)s)"),
                kind=admonition.group(1), kinds=", ".join(ADMONITION_KINDS)))


def check_docs(
    docs: list[ExplanationDoc], taxonomy: TaxonomyLike | None
) -> list[Problem]:
    """The cross-file checks over parsed documents (unsorted)."""
    problems: list[Problem] = []
    slugs = {d.slug for d in docs if SLUG_RE.fullmatch(d.slug)}

    by_key: dict[tuple[str, str], list[ExplanationDoc]] = defaultdict(list)
    for doc in docs:
        by_key[(doc.slug, doc.lang)].append(doc)
    for (slug, lang), group in by_key.items():
        group.sort(key=lambda d: d.path)
        for dup in group[1:]:
            problems.append(problem(
                dup.path, dup.line_of("slug"),
                N_("duplicate slug '%(slug)s' (lang %(lang)s): also used by %(path)s"), slug=slug, lang=lang,
                path=group[0].path))

    seen_questions: dict[str, tuple[ExplanationDoc, int]] = {}
    for doc in sorted(docs, key=lambda d: d.path):
        for i, target in enumerate(doc.related):
            if target not in slugs:
                problems.append(problem(
                    doc.path, doc.line_of("related", i), N_("related explanation '%(target)s' does not exist"),
                    target=target))
        if taxonomy is not None:
            for i, skill in enumerate(doc.skills):
                if skill in taxonomy.names:
                    continue
                canonical = taxonomy.canonical(skill)
                message = (f"skill '{skill}' is not the canonical name: use '{canonical}'"
                           if canonical else f"unknown skill '{skill}' (not in the skills taxonomy)")
                problems.append(Problem(doc.path, doc.line_of("skills", i), message))
        for i, question in enumerate(doc.questions):
            key = normalize_question(question)
            line = doc.line_of("questions", i)
            first = seen_questions.get(key)
            if first is None:
                seen_questions[key] = (doc, line)
            elif first[0].slug != doc.slug:
                problems.append(problem(
                    doc.path, line, N_("question also listed by '%(slug)s' (%(path)s:%(line)s)"),
                    slug=first[0].slug, path=first[0].path, line=first[1]))
        _check_body(doc, slugs, problems)
    return problems


MISSING_KEY_POINTS = "missing key_points: list the 3 to 6 short points a full answer must cover"


def check_tree(root: Path, taxonomy: TaxonomyLike | None = None, *,
               require_key_points: bool = False) -> CheckReport:
    """Check every ``.md`` file under ``root``; ``taxonomy`` defaults to the shipped one.

    ``require_key_points`` also reports a file without ``key_points`` (``prep content check``
    does by default; a sync and the editor load such files)."""
    if taxonomy is None:
        taxonomy = load_taxonomy()
    root = Path(root)
    report = CheckReport()
    problems: list[Problem] = []
    clean_paths: set[str] = set()
    for path, display in _walk(root):
        report.files += 1
        rel = path.relative_to(root).as_posix()
        if len(rel) > MAX_PATH_CHARS:
            problems.append(Problem(display, 1, f"the path inside the content folder is over {MAX_PATH_CHARS} "
                                                "characters; move the file up"))
            continue
        text, problem = read_text(path, display)
        if problem is not None:
            problems.append(problem)
            continue
        assert text is not None
        parsed = parse_document(text, display, lenient=True)
        problems.extend(parsed.problems)
        if require_key_points and parsed.doc is not None and "key_points" not in parsed.doc.field_lines:
            problems.append(Problem(display, 1, MISSING_KEY_POINTS))
        if parsed.doc is not None:
            report.all_docs.append(parsed.doc)
            if not parsed.problems:
                clean_paths.add(display)
    problems.extend(check_docs(report.all_docs, taxonomy))
    bad_paths = {p.path for p in problems}
    report.docs = [d for d in report.all_docs if d.path in clean_paths and d.path not in bad_paths]
    report.problems = sorted(set(problems))
    report.warnings = sorted(w for d in report.all_docs for w in unclosed_blocks(d))
    return report
