"""Problems and errors of the content pipeline.

A :class:`Problem` is one validation finding, printed as ``path:line: message``; validation
collects every problem of a file (and of a tree) instead of stopping at the first.
:class:`ContentError` is raised by callers that need a valid document or nothing.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One finding in a content file; ``line`` is 1-based (1 for whole-file problems)."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class ContentError(ValueError):
    """A content file (or text) is not a valid explanation; carries every problem found."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: list[Problem] = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems) or "invalid content")
