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

A paragraph longer than the page is wide comes out as several lines, cut where the page cut it
("… 3）NVLink 和 PCIe" / "带宽大概差几倍"). On a page that sets its paragraphs apart by more space
than its lines (:func:`paragraph_lines`), a line that reaches the right margin without
ending a sentence is joined with the next, closer one, unless that one opens a list item. A page with one spacing throughout keeps its lines.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import io
import logging
import re
import warnings
from dataclasses import dataclass

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from ..asking import strip_list_marker
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


#: Paragraphs are set apart when some gap between lines is at least this many times the smallest.
PARAGRAPH_GAP = 1.5
#: A gap up to this many times the smallest is between two lines of one paragraph.
LINE_GAP = 1.25
#: A line the page cut reaches this share of the widest line's right end (from the left margin).
FULL_LINE = 0.85
_CJK_EDGE = re.compile(r"[\u3400-\u9fff，。、；：？！（）「」『』【】《》]")
_ENDS_A_SENTENCE = tuple(".?!:;。？！：；")


@dataclass(frozen=True)
class PageLine:
    """One line of a page: its text, its baseline's height, where it starts and (estimated) ends."""

    text: str
    y: float | None = None
    left: float = 0.0
    right: float = 0.0


def paragraph_lines(lines: list[PageLine]) -> list[str]:
    """The lines of one page with the lines of one paragraph joined, when the page sets
    paragraphs apart by more space than lines (see the module's docstring): a line that reaches
    the right margin without ending a sentence continues on the next, unless that one opens a list item."""
    gaps = [a.y - b.y for a, b in zip(lines, lines[1:]) if a.y is not None and b.y is not None and a.y > b.y]
    smallest = min(gaps, default=0.0)
    if smallest <= 0 or max(gaps) < PARAGRAPH_GAP * smallest:
        return [line.text for line in lines]
    left = min((line.left for line in lines if line.text), default=0.0)
    full = left + FULL_LINE * (max((line.right for line in lines), default=0.0) - left)
    out: list[str] = []
    previous: PageLine | None = None
    for line in lines:
        gap = previous.y - line.y if previous is not None and previous.y is not None and line.y is not None else None
        if out and out[-1] and line.text and gap is not None and 0 < gap <= LINE_GAP * smallest \
                and previous is not None and previous.right >= full and not out[-1].endswith(_ENDS_A_SENTENCE) \
                and strip_list_marker(line.text) == line.text.strip():
            both_cjk = _CJK_EDGE.match(out[-1][-1]) and _CJK_EDGE.match(line.text[0])
            out[-1] = out[-1] + ("" if both_cjk else " ") + line.text
        else:
            out.append(line.text)
        previous = line if line.y is not None else previous
    return out


def _width(text: str, size: float) -> float:
    """About how wide ``text`` is set at ``size`` (a Chinese character an em, a Latin one half)."""
    return size * sum(1.0 if _CJK_EDGE.match(ch) else 0.5 for ch in text)


def _page_lines(page) -> list[PageLine]:
    """The lines pypdf extracts from ``page``, each with where it sits on the page."""
    lines: list[PageLine] = []
    parts: list[str] = []
    here: dict[str, float | None] = {"y": None, "left": 0.0, "right": 0.0}

    def visit(text: str, cm, tm, _font, size) -> None:
        for index, piece in enumerate(text.split("\n")):
            if index:
                lines.append(PageLine("".join(parts), here["y"], here["left"] or 0.0, here["right"] or 0.0))
                parts.clear()
                here.update(y=None, left=0.0, right=0.0)
            if piece.strip():
                x = float(cm[4]) + float(tm[4]) * float(cm[0])
                if here["y"] is None:
                    here.update(y=float(cm[5]) + float(tm[5]) * float(cm[3]), left=x)
                here["right"] = x + _width(piece, float(size or 0) * abs(float(cm[0]) or 1.0))
            parts.append(piece)

    page.extract_text(visitor_text=visit)
    lines.append(PageLine("".join(parts), here["y"], here["left"] or 0.0, here["right"] or 0.0))
    return [PageLine(tidy_line(line.text), line.y, line.left, line.right) for line in lines]


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
        for line in paragraph_lines(_page_lines(page)):
            budget.add(line)


FORMAT = DocumentFormat("pdf", "a PDF document", (".pdf",), sniff=sniff, to_text=to_text)
