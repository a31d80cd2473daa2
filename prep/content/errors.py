"""Problems and errors of the content pipeline.

A :class:`Problem` is one validation finding, printed as ``path:line: message``; validation
collects every problem of a file (and of a tree) instead of stopping at the first.
:class:`ContentError` is raised by callers that need a valid document or nothing.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


def N_(msgid: str) -> str:
    """Mark a message for the catalogs (babel extracts ``N_``); it is translated at the edge."""
    return msgid


@dataclass(frozen=True, order=True)
class Problem:
    """One finding in a content file; ``line`` is 1-based (1 for whole-file problems).

    ``message`` is English (the CLI, logs, tests). ``msgid`` and ``params``, when set, are the
    message before its values were put in, so a page shows it in the reader's language
    (``gettext(msgid, **dict(params))``); a message without them is its own msgid."""

    path: str
    line: int
    message: str
    msgid: str = field(default="", compare=False)
    params: tuple[tuple[str, str | int], ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


#: Values that are words of the message itself ("a number", " (put it in quotes)"), not data
#: (names, slugs, paths): the edge translates these too; "detail" is a YAML error's description,
#: translated when the catalogs hold it (the fixed ones) and otherwise shown as PyYAML wrote it.
TRANSLATED_PARAMS = frozenset({"kind", "hint", "detail"})


def problem(path: str, line: int, msgid: str, /, **params: str | int) -> Problem:
    """A problem whose message is ``msgid % params`` (wrap ``msgid`` in :func:`N_`)."""
    return Problem(path, line, msgid % params if params else msgid, msgid, tuple(sorted(params.items())))


class ContentError(ValueError):
    """A content file (or text) is not a valid explanation; carries every problem found."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: list[Problem] = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems) or "invalid content")


class FieldSetError(ValueError):
    """A field-set file (``prep content coverage --field``) cannot be read or is not one."""

    def __init__(self, path: object, cause: Exception) -> None:
        self.path = str(path)
        super().__init__(f"{path}: not a field-set file ({{\"questions\": [{{\"q\": ..., \"topic\": ...}}]}}): {cause}")
