"""Plain text (and Markdown): bytes to ``str`` by their character encoding.

Decoding order: honour a BOM (UTF-8, UTF-16, UTF-32); try UTF-16 without BOM when the NUL
pattern says so; then strict UTF-8, then strict GB18030 (a superset of GBK and GB2312) when the
result reads as Chinese; otherwise the bytes are undecodable. Text made largely of control
characters is binary data. The other text formats (HTML, JSON-LD) decode with
:func:`decode_charset` too. This format takes whatever no other format claimed, so it is last.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import codecs
import re

from ..errors import N_, PostingInputError
from .base import DocumentFormat

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

SNIFF_CHARS = 20_000
"""How much of a document the text formats look at to recognise themselves."""


def decode_charset(data: bytes) -> str:
    """Bytes to str by BOM, UTF-16 NUL pattern, UTF-8, then plausible GB18030."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return _check_controls(data.decode(encoding))
            except UnicodeDecodeError as exc:
                raise PostingInputError(N_("cannot decode the file as %(encoding)s: %(reason)s"),
                                        encoding=encoding.upper(), reason=exc.reason) from exc
    if b"\x00" in data:
        utf16 = _utf16_without_bom(data)
        if utf16 is None:
            raise PostingInputError(N_("not a text file: it contains NUL bytes"))
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
    raise PostingInputError(N_("cannot decode the file: it is not UTF-8, UTF-16 or GB18030/GBK text"))


def head_text(data: bytes) -> str:
    """The start of ``data`` decoded leniently, enough for a text format to recognise itself."""
    head = data[: SNIFF_CHARS * 2]
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return head.decode(encoding, "ignore")
    if b"\x00" in head[:4000]:
        even, odd = head[0::2].count(0), head[1::2].count(0)
        return head.decode("utf-16-le" if odd >= even else "utf-16-be", "ignore")
    return head.decode("utf-8", "ignore")


def prepare_text(text: str, limit: int) -> str:
    """Check decoded or pasted text (at most ``limit`` characters once newlines are normalised,
    no NULs) and normalise newlines and a BOM."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > limit:
        raise too_long(len(text), limit)
    if "\x00" in text:
        raise PostingInputError(N_("not a text file: it contains NUL bytes"))
    return text


TOO_LONG = N_("the posting is too long: %(length)s characters (at most %(limit)s)")


def too_long(length: int, limit: int) -> PostingInputError:
    """The refusal of a posting of ``length`` characters over ``limit``: the same words for the
    paste box, a file and the CLI."""
    return PostingInputError(TOO_LONG, length=f"{length:,}", limit=f"{limit:,}")


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
        raise PostingInputError(N_("not a text file: it contains binary data"))
    return _CONTROL.sub("", text) if controls else text


def sniff(data: bytes, filename: str | None) -> bool:
    """Plain text takes whatever no other format claimed."""
    return True


def from_text(text: str) -> str:
    return text


def to_text(data: bytes, limit: int) -> str:
    return prepare_text(decode_charset(data), limit)


FORMAT = DocumentFormat("text", "a text file", (".txt", ".md", ".markdown", ".text"),
                        sniff=sniff, to_text=to_text, from_text=from_text)
