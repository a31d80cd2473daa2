"""Turn what a user brings (file bytes or pasted text) into the plain text of a posting.

Decoding order: refuse oversized, empty and binary input (image, PDF, archive magic bytes, NUL
bytes); honour a BOM (UTF-8, UTF-16, UTF-32); try UTF-16 without BOM when the NUL pattern says
so; then strict UTF-8, then strict GB18030 (a superset of GBK and GB2312) when the result reads as
Chinese; otherwise the bytes are undecodable. A saved HTML page is reduced to its visible text
(:mod:`prep.postings.htmltext`: a streaming parser, main content over page furniture, the
JSON-LD JobPosting's company and title as labelled lines), one block element per line.

Every refusal is a :class:`~prep.postings.errors.PostingInputError` with a one-line message.
Pure module: no Flask, no database.
"""
from __future__ import annotations

import codecs
import re
from pathlib import Path

from .errors import PostingInputError
from .htmltext import html_to_text

MAX_POSTING_BYTES = 1_000_000
"""Default size limit of a posting, in bytes (of the file, or of pasted text as UTF-8)."""

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "a PDF document"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"PK\x03\x04", "a ZIP archive or Office document"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an Office document"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"\x7fELF", "an executable"),
    (b"%!PS", "a PostScript document"),
)

_BOMS: tuple[tuple[bytes, str], ...] = (  # UTF-32 before UTF-16: FF FE 00 00 starts with FF FE
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

# Characters a GB18030 decoding of real Chinese text is made of (besides ASCII).
_CHINESE_TEXT = re.compile(
    "[\u00b7\u2000-\u206f\u2100-\u27ff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003134f]"
)
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_IDEOGRAPH = re.compile("[\u4e00-\u9fff]")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")

_HTML_START = re.compile(
    r"<(?:!doctype\s+html|html|head|body|meta|title|div|p|section|article|main|ul|ol|h[1-6]|table)\b",
    re.IGNORECASE,
)
_HTML_TAG = re.compile(
    r"</?(?:html|body|div|p|br|li|ul|ol|span|h[1-6]|table|tr|td|section|article|strong|em|a)\b[^<>]*>",
    re.IGNORECASE,
)


def read_posting_file(path: str | Path, max_bytes: int = MAX_POSTING_BYTES) -> str:
    """Read and decode the posting file at ``path`` (checking its size before reading it)."""
    path = Path(path)
    try:
        if path.is_dir():
            raise PostingInputError("is a directory, not a posting file")
        size = path.stat().st_size
        if size > max_bytes:
            raise PostingInputError(_too_large(size, max_bytes))
        data = path.read_bytes()
    except OSError as exc:
        raise PostingInputError(f"cannot read the file: {exc.strerror or exc}") from exc
    return decode_posting_bytes(data, max_bytes=max_bytes)


def decode_posting_bytes(data: bytes, max_bytes: int = MAX_POSTING_BYTES) -> str:
    """Decode an uploaded posting file to plain text (HTML reduced to text).

    Raises :class:`PostingInputError` for empty, oversized, binary or undecodable input.
    """
    if len(data) > max_bytes:
        raise PostingInputError(_too_large(len(data), max_bytes))
    if not data.strip():
        raise PostingInputError("the file is empty")
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            raise PostingInputError(f"not a text file: it looks like {kind}")
    return decode_posting_text(_decode(data), max_bytes=max_bytes)


def decode_posting_text(text: str, max_bytes: int = MAX_POSTING_BYTES) -> str:
    """Check and clean pasted posting text: size, emptiness, NULs; HTML is reduced to text.

    Newlines are normalised to ``\\n`` and a leading BOM character is dropped.
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise PostingInputError(_too_large(size, max_bytes))
    if "\x00" in text:
        raise PostingInputError("not a text file: it contains NUL bytes")
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if looks_like_html(text):
        text = html_to_text(text)
        if not text.strip():
            raise PostingInputError("the page contains no text")
    if not text.strip():
        raise PostingInputError("the posting is empty")
    return text


def looks_like_html(text: str) -> bool:
    """Whether ``text`` is an HTML document or fragment rather than plain text."""
    head = text.lstrip()[:4000]
    while head.startswith("<!--"):
        end = head.find("-->")
        if end < 0:
            return False
        head = head[end + 3 :].lstrip()
    if head.startswith("<?xml"):
        head = head[head.find(">") + 1 :].lstrip()
    if _HTML_START.match(head):
        return True
    return len(_HTML_TAG.findall(text, 0, 20_000)) >= 5


def _decode(data: bytes) -> str:
    """Bytes to str by BOM, UTF-16 NUL pattern, UTF-8, then plausible GB18030."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return _check_controls(data.decode(encoding))
            except UnicodeDecodeError as exc:
                raise PostingInputError(f"cannot decode the file as {encoding.upper()}: {exc.reason}") from exc
    if b"\x00" in data:
        utf16 = _utf16_without_bom(data)
        if utf16 is None:
            raise PostingInputError("not a text file: it contains NUL bytes")
        return _check_controls(utf16)
    try:
        return _check_controls(data.decode("utf-8"))
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        text = ""
    if _reads_as_chinese(text):
        return _check_controls(text)
    raise PostingInputError("cannot decode the file: it is not UTF-8, UTF-16 or GB18030/GBK text")


def _reads_as_chinese(text: str) -> bool:
    """Whether a GB18030 decoding is real Chinese text rather than bytes that merely decode.

    Almost any run of high bytes is valid GB18030, but only real text is made of CJK characters
    and punctuation, and its ideographs are overwhelmingly the common ones of GB2312.
    """
    non_ascii = _NON_ASCII.findall(text)
    if not non_ascii or len(_CHINESE_TEXT.findall(text)) < 0.9 * len(non_ascii):
        return False
    ideographs = _IDEOGRAPH.findall(text)[:5000]
    common = sum(1 for char in ideographs if _in_gb2312(char))
    return bool(ideographs) and common >= 0.8 * len(ideographs)


def _in_gb2312(char: str) -> bool:
    try:
        char.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def _utf16_without_bom(data: bytes) -> str | None:
    """Decode BOM-less UTF-16 when NULs sit regularly on one side (ASCII-heavy text), else None."""
    if len(data) % 2:
        return None
    even, odd = data[0::2].count(0), data[1::2].count(0)
    half = len(data) // 2
    if odd >= 0.6 * half and even <= 0.02 * half:
        encoding = "utf-16-le"
    elif even >= 0.6 * half and odd <= 0.02 * half:
        encoding = "utf-16-be"
    else:
        return None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        return None
    return None if "\x00" in text else text


def _check_controls(text: str) -> str:
    """Refuse text made largely of control characters (binary data); drop a few stray ones."""
    controls = len(_CONTROL.findall(text))
    if controls > max(8, len(text) // 100):
        raise PostingInputError("not a text file: it contains binary data")
    return _CONTROL.sub("", text) if controls else text


def _too_large(size: int, limit: int) -> str:
    return f"the posting is too large: {size:,} bytes (the limit is {limit:,})"
