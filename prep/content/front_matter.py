"""An explanation's front matter read safely, with the file line of every key and list item,
and the checks of its text and list fields (each problem with its line).

YAML without anchors, aliases or deep nesting (composing is linear in the text); every value
is constructed by PyYAML's safe loader. :mod:`.document` parses a whole file with this.

Pure module: no Flask, no database.
"""
from __future__ import annotations

from typing import Any

import yaml

from ..questions.normalize import normalize_question
from .errors import N_, Problem, problem
from .markdown_rules import SLUG_RE

# Limits, the same as the database columns: a file that passes the check is stored whole.
MAX_FRONT_MATTER_CHARS = 20_000
MAX_SLUG_CHARS = 120
MAX_ITEMS = 100
#: A key point is one short line a full answer must cover (the drill's self-grading checklist).
MAX_KEY_POINT_CHARS = 120
MIN_KEY_POINTS, MAX_KEY_POINTS = 3, 6
MAX_ITEM_CHARS = {"tags": 80, "skills": 80, "questions": 1000, "related": MAX_SLUG_CHARS,
                  "key_points": MAX_KEY_POINT_CHARS}
MAX_YAML_DEPTH = 20

#: What to do about the YAML errors people make most, by the start of PyYAML's description.
#: Each hint starts with "; " so the message reads the same with or without one (a page
#: translates the hint, a message word, and keeps PyYAML's own description as it is).
_YAML_HINTS = (
    ("mapping values are not allowed", N_("; if a value contains ': ', put it in quotes")),
    ("found character '\\t'", N_("; indent with spaces, not tabs")),
    ("expected ',' or ']'", N_("; a [list] must end with ']'")),
    ("expected ',' or '}'", N_("; a {mapping} must end with '}'")),
    ("found unexpected end of stream", N_("; a quoted value must end with the same quote")),
)
#: PyYAML descriptions with no values in them, and this module's own: a page shows them in the
#: reader's language (the catalogs hold them); any other description stays as PyYAML wrote it.
_FIXED_DETAILS = (
    N_("mapping values are not allowed here"),
    N_("could not find expected ':'"),
    N_("did not find expected key"),
    N_("did not find expected '-' indicator"),
    N_("found unexpected end of stream"),
    N_("syntax error"),
)
_NO_ALIASES = N_("anchors and aliases (&name, *name) are not allowed in front matter")
_TOO_DEEP = N_("values nest more than 20 levels deep")
assert str(MAX_YAML_DEPTH) in _TOO_DEEP


def _yaml_problem(path: str, line: int, what: str, description: str | None) -> Problem:
    """``invalid YAML in front matter: <what>[; <hint>]``, its hint a translatable message word."""
    hint = next((h for start, h in _YAML_HINTS if (description or "").startswith(start)), "")
    return problem(path, line, N_("invalid YAML in front matter: %(detail)s%(hint)s"), detail=what, hint=hint)


def _bad_character(path: str, line: int, character: int) -> Problem:
    return problem(path, line, N_("invalid YAML in front matter: character #x%(code)s is not allowed"),
                   code=f"{character:04x}")


class _StrictLoader(yaml.SafeLoader):
    """YAML without anchors and aliases ("billion laughs": a few lines expanding to millions of
    items) and without deep nesting; composing is then linear in the text."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise yaml.composer.ComposerError(
                None, None, _NO_ALIASES, event.start_mark)
        self._depth = getattr(self, "_depth", 0) + 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, _TOO_DEEP, event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _type_name(value: object) -> str:
    if value is None:
        return N_("nothing")
    return {bool: N_("a boolean"), int: N_("a number"), float: N_("a number"), list: N_("a list"),
            dict: N_("a mapping"), str: N_("text")}.get(type(value), type(value).__name__)


class FrontMatter:
    """Front-matter fields with the file line of every key and list item."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.key_lines: dict[str, int] = {}
        self.item_lines: dict[str, list[int]] = {}


def load_front_matter(
    fm_text: str, first_line: int, path: str, problems: list[Problem]
) -> FrontMatter | None:
    """Compose the YAML (keeping marks) and construct each value; None if it is not a mapping."""
    if len(fm_text) > MAX_FRONT_MATTER_CHARS:
        problems.append(problem(path, first_line, N_("front matter is over %(max)s characters"),
                                max=f"{MAX_FRONT_MATTER_CHARS:,}"))
        return None
    try:
        loader = _StrictLoader(fm_text)
    except yaml.reader.ReaderError as exc:
        line = first_line + fm_text[: exc.position].count("\n")
        problems.append(_bad_character(path, line, exc.character))
        return None
    try:
        node = loader.get_single_node()
        if node is None:
            return FrontMatter()
        if not isinstance(node, yaml.MappingNode):
            problems.append(Problem(path, first_line + node.start_mark.line,
                                    N_("front matter must be a mapping of fields (key: value)")))
            return None
        fm = FrontMatter()
        for key_node, value_node in node.value:
            line = first_line + key_node.start_mark.line
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                problems.append(problem(path, line, N_("unknown field %(key)s"), key=repr(key)))
                continue
            if key in fm.key_lines:
                problems.append(problem(
                    path, line, N_("duplicate field '%(key)s' (first on line %(line)s)"), key=key, line=fm.key_lines[key]))
                continue
            fm.key_lines[key] = line
            fm.values[key] = loader.construct_object(value_node, deep=True)
            if isinstance(value_node, yaml.SequenceNode):
                fm.item_lines[key] = [first_line + n.start_mark.line for n in value_node.value]
        return fm
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = first_line + mark.line if mark is not None else first_line
        what = exc.problem or exc.context or "syntax error"
        if exc.problem and exc.context and exc.context_mark is not None:
            started = first_line + exc.context_mark.line
            if started != line:
                what += f" ({exc.context} started on line {started})"
        problems.append(_yaml_problem(path, line, what, exc.problem))
        return None
    except yaml.reader.ReaderError as exc:
        line = first_line + fm_text[: exc.position].count("\n")
        problems.append(_bad_character(path, line, exc.character))
        return None
    except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
        problems.append(_yaml_problem(path, first_line, str(exc), None))
        return None
    finally:
        loader.dispose()


def check_string(name: str, value: object, line: int, path: str, problems: list[Problem]) -> str | None:
    """Field ``name``'s text, stripped; None (and a problem) when it is not text."""
    if not isinstance(value, str):
        hint = N_(" (put it in quotes)") if isinstance(value, (bool, int, float)) else ""
        problems.append(problem(path, line, N_("%(name)s must be text, not %(kind)s%(hint)s"), name=name, kind=_type_name(value), hint=hint))
        return None
    return value.strip()


def check_list(
    name: str, value: object, fm: FrontMatter, path: str, problems: list[Problem]
) -> list[str]:
    """Field ``name``'s list items, stripped; a problem for each item that is not a valid one."""
    line = fm.key_lines[name]
    if value is None:
        return []
    if not isinstance(value, list):
        problems.append(problem(
            path, line, N_("%(name)s must be a list of text items, not %(kind)s"), name=name, kind=_type_name(value)))
        return []
    lines = fm.item_lines.get(name, [])
    items: list[str] = []
    if len(value) > MAX_ITEMS:
        problems.append(problem(path, line, N_("%(name)s has %(num)s items; at most %(max)s"), name=name, num=len(value), max=MAX_ITEMS))
        return []
    longest = MAX_ITEM_CHARS[name]
    for i, item in enumerate(value):
        item_line = lines[i] if i < len(lines) else line
        if not isinstance(item, str):
            hint = N_(" (put it in quotes)") if isinstance(item, (bool, int, float)) else ""
            problems.append(problem(
                path, item_line, N_("%(name)s item must be text, not %(kind)s%(hint)s"), name=name,
                kind=_type_name(item), hint=hint))
            continue
        if not item.strip():
            problems.append(problem(path, item_line, N_("%(name)s item must not be empty"), name=name))
            continue
        if len(item.strip()) > longest:
            problems.append(problem(path, item_line, N_("%(name)s item is over %(max)s characters"), name=name, max=longest))
            continue
        if name == "questions" and not normalize_question(item):
            problems.append(problem(path, item_line, N_("questions item %(item)s has no words in it"), item=repr(item.strip())))
            continue
        if name == "related" and not SLUG_RE.fullmatch(item.strip()):
            problems.append(problem(path, item_line, N_("related item '%(item)s' is not a valid slug"), item=item.strip()))
            continue
        items.append(item.strip())
    return items
