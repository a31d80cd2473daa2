"""What every document format is: a name, a sniff and a reader, behind one small interface.

A format module (``text``, ``html``, ``jsonld``, ``pdf``, ``docx`` …) defines two plain
functions and one :class:`DocumentFormat` built from them; :mod:`prep.postings.formats` lists
the formats in the order they are tried. Adding a format is one new module, its tests and one
line in that list.

Pure module: no Flask, no database.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import N_, PostingInputError


@dataclass(frozen=True)
class DocumentFormat:
    """One kind of document a posting or an interview report can arrive as.

    ``sniff(data, filename)`` says whether ``data`` (the file's bytes; ``filename`` may be
    ``None``) is of this format, from its first bytes and, as a hint only, its name.
    ``to_text(data, limit)`` returns the document's plain text, one block per line, raising
    :class:`~prep.postings.errors.PostingInputError` for what cannot be read; ``limit`` bounds
    the text it may produce, in characters. ``from_text``, for the formats that are text
    themselves (plain text, HTML, JSON-LD), reads pasted text the same way.
    """

    name: str
    description: str  # "a PDF document": how messages name it
    extensions: tuple[str, ...]
    sniff: Callable[[bytes, str | None], bool]
    to_text: Callable[[bytes, int], str]
    from_text: Callable[[str], str] | None = None

    @property
    def is_text(self) -> bool:
        """Whether pasted text may be of this format (it has a ``from_text``)."""
        return self.from_text is not None


def has_extension(filename: str | None, extensions: tuple[str, ...]) -> bool:
    """Whether ``filename`` ends with one of ``extensions`` (case-insensitive; no name: no)."""
    return bool(filename) and filename.lower().endswith(extensions)  # type: ignore[union-attr]


class TextBudget:
    """Collects a document's lines and refuses to grow past ``limit`` characters (a line and its
    newline), with the same words as any posting that is too long."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.lines: list[str] = []
        self.size = -1  # no newline after the last line

    def add(self, line: str) -> None:
        self.size += len(line) + 1
        if self.size > self.limit:
            raise PostingInputError(N_("the posting is too long: over %(limit)s characters; split the document "
                                       "or paste a part"), limit=f"{self.limit:,}")
        self.lines.append(line)

    def text(self) -> str:
        return "\n".join(self.lines)
