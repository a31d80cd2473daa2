"""A Word document (.docx): its paragraphs and tables in reading order, by python-docx.

A .docx is a ZIP archive, so the archive is checked before python-docx opens it: at most
:data:`MAX_ENTRIES` members, at most :data:`MAX_UNCOMPRESSED_BYTES` uncompressed in all and
:data:`MAX_PART_BYTES` for one member, and no member inflating more than :data:`MAX_RATIO`
times (a zip bomb). The XML parser python-docx uses resolves no entities and refuses nesting
deeper than libxml2's default; tables inside tables are read to :data:`MAX_TABLE_DEPTH` levels,
and at most :data:`MAX_PARAGRAPHS` paragraphs. A list paragraph (Word's own bullets or
numbering) is written as ``- item``, as a text posting would have it.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import io
import re
import zipfile

from docx import Document
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from docx.text.paragraph import Paragraph

from ..errors import N_, PostingInputError
from .base import DocumentFormat, TextBudget, has_extension

MAX_ENTRIES = 2_000
MAX_UNCOMPRESSED_BYTES = 50_000_000
MAX_PART_BYTES = 20_000_000
MAX_RATIO = 200
MAX_PARAGRAPHS = 20_000
MAX_TABLE_DEPTH = 5

_DAMAGED = N_("cannot read the file: it looks like a Word document, but it is damaged or incomplete")
_MARKER = re.compile(r"^\s*(?:[-*•·▪●◦]|\d{1,3}[.)、]|[（(]\d{1,3}[)）]|[①-⑳])")


def sniff(data: bytes, filename: str | None) -> bool:
    if not data.startswith(b"PK\x03\x04"):
        return False
    return b"word/document.xml" in data[:65_536] or b"word/document.xml" in data[-65_536:] \
        or has_extension(filename, (".docx",))


def to_text(data: bytes, limit: int) -> str:
    check_archive(data)
    budget = TextBudget(limit)
    try:
        document = Document(io.BytesIO(data))
        _read_blocks(document.element.body, budget, depth=0, count=[0])
    except PostingInputError:
        raise
    except RecursionError as exc:
        raise PostingInputError(N_("cannot read the Word document: it is nested too deeply")) from exc
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, TypeError, AttributeError,
            OSError, SyntaxError, UnicodeError, LookupError, IndexError) as exc:  # lxml's errors are SyntaxErrors
        raise PostingInputError(_DAMAGED) from exc
    text = budget.text()
    if not text.strip():
        raise PostingInputError(N_("the Word document contains no text"))
    return text


def check_archive(data: bytes) -> None:
    """Refuse an archive too large, too many-membered or too compressed to open (before any
    member is decompressed: only the central directory is read)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError, EOFError) as exc:
        raise PostingInputError(_DAMAGED) from exc
    if len(members) > MAX_ENTRIES:
        raise PostingInputError(N_("the Word document has %(parts)s parts; at most %(max)s are read"),
                                parts=f"{len(members):,}", max=f"{MAX_ENTRIES:,}")
    total = 0
    for member in members:
        total += member.file_size
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > MAX_PART_BYTES or total > MAX_UNCOMPRESSED_BYTES or ratio > MAX_RATIO:
            raise PostingInputError(N_("the Word document inflates to too much data to be read "
                                       "(it may be a zip bomb); paste its text instead"))


def _read_blocks(parent, budget: TextBudget, *, depth: int, count: list[int]) -> None:
    """Paragraphs and tables under ``parent`` (a body or a table cell's element), in order."""
    p_tag, tbl_tag = qn("w:p"), qn("w:tbl")
    for child in parent.iterchildren(p_tag, tbl_tag):
        if child.tag == p_tag:
            count[0] += 1
            if count[0] > MAX_PARAGRAPHS:
                raise PostingInputError(N_("the Word document has more than %(max)s paragraphs"), max=f"{MAX_PARAGRAPHS:,}")
            _add_paragraph(child, budget)
        elif depth < MAX_TABLE_DEPTH:
            for row in child.iterchildren(qn("w:tr")):
                for cell in row.iterchildren(qn("w:tc")):
                    _read_blocks(cell, budget, depth=depth + 1, count=count)


def _add_paragraph(p, budget: TextBudget) -> None:
    for line in _paragraph_text(p).split("\n"):
        line = line.strip()
        if line and _is_list_item(p) and not _MARKER.match(line):
            line = f"- {line}"
        budget.add(line)


def _paragraph_text(p) -> str:
    """The paragraph's text: runs, tabs and breaks (python-docx's ``Paragraph.text``)."""
    return Paragraph(p, None).text


def _is_list_item(p) -> bool:
    ppr = p.pPr
    if ppr is None:
        return False
    if ppr.numPr is not None:
        return True
    style = ppr.pStyle.val if ppr.pStyle is not None else ""
    return bool(style) and style.lower().startswith("list")


FORMAT = DocumentFormat("docx", "a Word document", (".docx",), sniff=sniff, to_text=to_text)
