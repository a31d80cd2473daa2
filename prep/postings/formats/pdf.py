"""A PDF document: the text of its pages, by pypdf.

Bounded like every reader: the file's size is checked before this runs; at most
:data:`MAX_PAGES` pages, each page's decoded content at most :data:`MAX_PAGE_CONTENT_BYTES`
(a small file can inflate to a huge page), the text at most the posting's limit; a damaged,
encrypted or too deeply nested file is refused with one line. A PDF whose pages hold no text
(a scan, a photo of a page) raises :class:`~prep.postings.errors.ScannedDocumentError`, which
asks for the text to be pasted.

A PDF written by a browser or a word processor switches fonts between Chinese and Latin runs,
and the text extraction puts a space at each switch: "说一下  MPI" (two spaces) for "说一下 MPI",
"Reduce-Scatter ，QP 、 CQ" for "Reduce-Scatter，QP、CQ", "说说 NCCL 的 ring" for "说说NCCL的ring".
:func:`tidy_line` takes out what is certainly not the author's: a second space, a space next to
full-width punctuation. (One space between a Chinese and a Latin word stays: it is the usual way
to write them, and the author's own space there reads the same.) A glyph the PDF maps to no
character (an emoji drawn from a colour font: "挂了也要分享 😭") comes out as a control character
such as NUL; it is dropped, so the document is not refused as "not a text file".

Pure module: no Flask, no database.
"""
from __future__ import annotations

import io
import logging
import re
import warnings

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from ..errors import N_, PostingInputError, ScannedDocumentError
from .base import DocumentFormat, TextBudget

MAX_PAGES = 200
"""The most pages read: a posting or an interview report is a few pages, a book is neither."""

MAX_PAGE_CONTENT_BYTES = 4_000_000
"""The most decoded content-stream bytes one page may have."""

_DAMAGED = N_("cannot read the file: it looks like a PDF document, but it is damaged or incomplete")


_FULL_WIDTH = "，。、；：？！（）「」『』【】《》"
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SPACES = re.compile(r"[ \t\u00a0]{2,}")
_BY_FULL_WIDTH = re.compile(rf"[ \t\u00a0](?=[{_FULL_WIDTH}])|(?<=[{_FULL_WIDTH}])[ \t\u00a0]")


def tidy_line(line: str) -> str:
    """One line of extracted text without the spaces font switches added (see the module's docstring)."""
    return _BY_FULL_WIDTH.sub("", _SPACES.sub(" ", _CONTROLS.sub("", line))).strip()


def sniff(data: bytes, filename: str | None) -> bool:
    return data[:1024].lstrip(b"\x00\t\r\n ").startswith(b"%PDF-")


def to_text(data: bytes, limit: int) -> str:
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # a damaged file gets our one line, not log lines
    budget = TextBudget(limit)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _read_pages(data, budget)
    except PostingInputError:
        raise
    except RecursionError as exc:
        raise PostingInputError(N_("cannot read the PDF document: it is nested too deeply")) from exc
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, AssertionError,
            OSError, ArithmeticError, UnicodeError, LookupError) as exc:
        raise PostingInputError(_DAMAGED) from exc
    text = budget.text()
    if not text.strip():
        raise ScannedDocumentError()
    return text


def _read_pages(data: bytes, budget: TextBudget) -> None:
    reader = PdfReader(io.BytesIO(data), strict=False)
    if reader.is_encrypted:
        raise PostingInputError(N_("cannot read the PDF document: it is encrypted; "
                                   "save it without a password, or paste its text"))
    pages = len(reader.pages)
    if pages > MAX_PAGES:
        raise PostingInputError(N_("the PDF document has %(pages)s pages; at most %(max)s are read "
                                   "(save the pages that matter, or paste their text)"),
                                pages=f"{pages:,}", max=f"{MAX_PAGES}")
    for page in reader.pages:
        contents = page.get_contents()
        if contents is not None and len(contents.get_data()) > MAX_PAGE_CONTENT_BYTES:
            raise PostingInputError(N_("a page of the PDF document is too large to read"))
        for line in (page.extract_text() or "").splitlines():
            budget.add(tidy_line(line))


FORMAT = DocumentFormat("pdf", "a PDF document", (".pdf",), sniff=sniff, to_text=to_text)
