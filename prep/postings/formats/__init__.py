"""The document formats a posting or an interview report is read from, registered in one place.

Each format is a small module (:mod:`.pdf`, :mod:`.docx`, :mod:`.jsonld`, :mod:`.html`,
:mod:`.text`) exposing one :class:`~.base.DocumentFormat`: ``sniff(data, filename)`` and
``to_text(data, limit)`` (plus ``from_text`` for the formats pasted text can be in).
:data:`FORMATS` lists them in the order they are tried: the formats recognised by their bytes
first, plain text last (it takes whatever is left). Adding a format is a new module, its tests
and one line here; :mod:`prep.postings.decode` (size limits, refusals) needs no change.

Pure package: no Flask, no database.
"""
from __future__ import annotations

from . import docx, html, jsonld, pdf, text
from .base import DocumentFormat

FORMATS: dict[str, DocumentFormat] = {fmt.name: fmt for fmt in (
    pdf.FORMAT,
    docx.FORMAT,
    jsonld.FORMAT,
    html.FORMAT,
    text.FORMAT,
)}
"""Every format by name, in the order :func:`find_format` tries them."""


def find_format(data: bytes, filename: str | None = None) -> DocumentFormat:
    """The first registered format that recognises ``data`` (plain text when none does)."""
    for fmt in FORMATS.values():
        if fmt.sniff(data, filename):
            return fmt
    return text.FORMAT


def find_text_format(pasted: str) -> DocumentFormat:
    """The format of pasted text: the first text format that recognises it."""
    head = pasted[: text.SNIFF_CHARS].encode("utf-8", "surrogatepass")
    for fmt in FORMATS.values():
        if fmt.is_text and fmt.sniff(head, None):
            return fmt
    return text.FORMAT


def accepted_extensions() -> tuple[str, ...]:
    """Every file name ending a registered format claims (for an upload field's ``accept``)."""
    return tuple(dict.fromkeys(ext for fmt in FORMATS.values() for ext in fmt.extensions))


__all__ = ["FORMATS", "DocumentFormat", "accepted_extensions", "find_format", "find_text_format"]
