"""Hostile PDF and Word files: each is refused with one line (or read) within the CPU budget of
every parser, before it can inflate, recurse or loop: zip bombs, archives of thousands of parts,
XML nested past the parser's depth, entity expansion, thousands of pages, a page that inflates
to tens of megabytes, a page tree nested thousands deep, garbage behind a PDF header."""
from __future__ import annotations

import io
import random
import zipfile
from collections.abc import Callable

import pytest

from prep.postings import decode_posting_bytes
from prep.postings.errors import PostingInputError
from prep.postings.formats import docx as docx_format
from prep.postings.formats import pdf as pdf_format
from tests.support.cpu import budget, least_cpu_seconds
from tests.support.documents import docx_bytes, pdf_bytes, pdf_with_pages

BUDGET_S = budget(3.0)  # as for text and HTML: per input of up to 1 MB, generous for a busy CI machine


def _rezip(data: bytes, replace: dict[str, bytes] | None = None, add: dict[str, bytes] | None = None) -> bytes:
    """A copy of the .docx ``data`` with members added (deflated) or replaced (stored, so that
    the XML cases reach the XML parser rather than the zip bomb check)."""
    out = io.BytesIO()
    replace = replace or {}
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            if item.filename in replace:
                dst.writestr(item.filename, replace[item.filename], compress_type=zipfile.ZIP_STORED)
            else:
                dst.writestr(item.filename, src.read(item.filename))
        for name, body in (add or {}).items():
            dst.writestr(name, body)
    return out.getvalue()


def _document_xml(body: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
            f"<w:body>{body}</w:body></w:document>").encode()


WORD = docx_bytes("Interview questions\n1. How does ring AllReduce work?")


def _zip_bomb() -> bytes:
    return _rezip(WORD, add={"word/media/image1.png": b"\x00" * 40_000_000})


def _many_parts() -> bytes:
    return _rezip(WORD, add={f"extra/part{i}.xml": b"<a/>" for i in range(docx_format.MAX_ENTRIES + 10)})


def _deep_xml() -> bytes:
    return _rezip(WORD, replace={"word/document.xml": _document_xml("<w:p>" * 50_000 + "</w:p>" * 50_000)})


def _deep_tables() -> bytes:
    cell = "<w:p><w:r><w:t>1. How does ring AllReduce work?</w:t></w:r></w:p>"
    for _ in range(60):  # 180 levels: within the XML parser's depth, past MAX_TABLE_DEPTH
        cell = f"<w:tbl><w:tr><w:tc>{cell}</w:tc></w:tr></w:tbl>"
    return _rezip(WORD, replace={"word/document.xml": _document_xml(cell)})


def _entities() -> bytes:
    lol = ('<!DOCTYPE w:document [<!ENTITY a "' + "x" * 1000 + '">'
           + "".join(f'<!ENTITY {c} "{("&" + p + ";") * 10}">' for p, c in zip("abcdefgh", "bcdefghi"))
           + "]>")
    xml = _document_xml("<w:p><w:r><w:t>&i;</w:t></w:r></w:p>").replace(b"standalone=\"yes\"?>",
                                                                        b"standalone=\"yes\"?>" + lol.encode())
    return _rezip(WORD, replace={"word/document.xml": xml})


def _many_paragraphs() -> bytes:
    return _rezip(WORD, replace={"word/document.xml": _document_xml("<w:p/>" * (docx_format.MAX_PARAGRAPHS + 1))})


def _many_pages() -> bytes:
    return pdf_with_pages([b""] * 1_000)


def _inflating_page() -> bytes:
    return pdf_with_pages([b"0 0 m " * 10_000_000], compress=True)  # 60 MB of drawing in ~60 kB


def _deep_page_tree() -> bytes:
    data = pdf_bytes("1. How does ring AllReduce work?")
    depth = 5_000
    # a chain of Pages nodes, each the only kid of the one before, the real page tree at the bottom
    tail = bytearray(data[: data.rindex(b"xref")])
    first = int(data[data.index(b"/Size ") + 6:].split(b" ")[0].rstrip(b">\n"))
    offsets: list[int] = []
    for n in range(depth):
        number = first + n
        kid = number + 1 if n + 1 < depth else 2
        offsets.append(len(tail))
        tail += b"%d 0 obj\n<< /Type /Pages /Kids [%d 0 R] /Count 1 >>\nendobj\n" % (number, kid)
    offsets.append(len(tail))
    tail += b"%d 0 obj\n<< /Type /Catalog /Pages %d 0 R >>\nendobj\n" % (first + depth, first)
    xref = len(tail)
    tail += b"xref\n%d %d\n" % (first, depth + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    tail += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (first + depth + 1,
                                                                                first + depth, xref)
    return bytes(tail)


def _deep_arrays() -> bytes:
    return pdf_with_pages([b"[" * 200_000 + b"]" * 200_000])


def _garbage() -> bytes:
    rng = random.Random(7)
    return b"%PDF-1.7\n" + bytes(rng.randrange(256) for _ in range(900_000))


def _truncated() -> bytes:
    data = pdf_bytes("\n".join(f"{i}. How does ring AllReduce work at step {i}?" for i in range(400)))
    return data[: len(data) // 2]


CASES: dict[str, Callable[[], bytes]] = {
    "docx zip bomb": _zip_bomb,
    "docx thousands of parts": _many_parts,
    "docx xml nested 50,000 deep": _deep_xml,
    "docx tables nested 60 deep": _deep_tables,
    "docx entity expansion": _entities,
    "docx too many paragraphs": _many_paragraphs,
    "pdf 1,000 pages": _many_pages,
    "pdf page inflating to 60 MB": _inflating_page,
    "pdf page tree 5,000 deep": _deep_page_tree,
    "pdf arrays nested 200,000 deep": _deep_arrays,
    "pdf garbage after the header": _garbage,
    "pdf cut in half": _truncated,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_documents_are_bounded(name: str) -> None:
    data = CASES[name]()
    assert len(data) <= 1_000_000, len(data)
    try:
        text = decode_posting_bytes(data)
    except PostingInputError as exc:
        assert "\n" not in str(exc) and str(exc)
    else:
        assert len(text.encode()) <= 1_000_000
    assert least_cpu_seconds(lambda: decode_posting_bytes(data), refusals=(PostingInputError,)) <= BUDGET_S


@pytest.mark.parametrize(("name", "message"), [
    ("docx zip bomb", "inflates to too much data"),
    ("docx thousands of parts", "parts; at most"),
    ("docx xml nested 50,000 deep", "it looks like a Word document, but it is damaged"),
    ("docx too many paragraphs", "paragraphs"),
    ("pdf 1,000 pages", "has 1,000 pages"),
    ("docx tables nested 60 deep", "contains no text"),  # the text is below the depth read
    ("pdf page inflating to 60 MB", "too large to read"),
])
def test_hostile_documents_say_why(name: str, message: str) -> None:
    with pytest.raises(PostingInputError, match=message):
        decode_posting_bytes(CASES[name]())


def test_the_zip_is_checked_before_anything_is_inflated() -> None:
    bomb = _zip_bomb()
    with pytest.raises(PostingInputError, match="zip bomb"):
        docx_format.check_archive(bomb)


def test_tables_within_the_depth_cap_are_read() -> None:
    cell = "<w:p><w:r><w:t>1. How does ring AllReduce work?</w:t></w:r></w:p>"
    for _ in range(docx_format.MAX_TABLE_DEPTH):
        cell = f"<w:tbl><w:tr><w:tc>{cell}</w:tc></w:tr></w:tbl>"
    data = _rezip(WORD, replace={"word/document.xml": _document_xml(cell)})
    assert decode_posting_bytes(data) == "1. How does ring AllReduce work?"
    assert pdf_format.MAX_PAGES < 1_000
