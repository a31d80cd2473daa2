"""Turn what a user brings (file bytes or pasted text) into the plain text of a posting.

The entry for every input: refuse oversized and empty input before any parser runs, find the
document's format in the registry (:mod:`prep.postings.formats`: PDF, Word, JSON-LD, HTML,
plain text in UTF-8/UTF-16/GB18030), refuse other binary files (images, archives, executables)
by their magic bytes, and let the format turn the document into text, one block per line.

Every refusal is a :class:`~prep.postings.errors.PostingInputError` with a one-line message.
Pure module: no Flask, no database.
"""
from __future__ import annotations

from pathlib import Path

from .errors import PostingInputError
from .htmltext import html_to_text
from .formats import find_format, find_text_format
from .formats.html import looks_like_html
from .formats.text import prepare_text, too_large

MAX_POSTING_BYTES = 1_000_000
"""Default size limit of a posting, in bytes (of the file, or of pasted text as UTF-8)."""

_MAGIC: tuple[tuple[bytes, str], ...] = (  # binary files no registered format reads
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

__all__ = ["MAX_POSTING_BYTES", "decode_posting_bytes", "decode_posting_text", "html_to_text",
           "looks_like_html", "read_posting_file"]


def read_posting_file(path: str | Path, max_bytes: int = MAX_POSTING_BYTES) -> str:
    """Read and decode the posting file at ``path`` (checking its size before reading it)."""
    path = Path(path)
    try:
        if path.is_dir():
            raise PostingInputError("is a directory, not a posting file")
        size = path.stat().st_size
        if size > max_bytes:
            raise PostingInputError(too_large(size, max_bytes))
        data = path.read_bytes()
    except OSError as exc:
        raise PostingInputError(f"cannot read the file: {exc.strerror or exc}") from exc
    return decode_posting_bytes(data, max_bytes=max_bytes, filename=path.name)


def decode_posting_bytes(data: bytes, max_bytes: int = MAX_POSTING_BYTES, filename: str | None = None) -> str:
    """Decode an uploaded posting file to plain text (HTML reduced to text, PDF and Word read).

    ``filename`` is a hint for formats that cannot be told by their bytes alone. Raises
    :class:`PostingInputError` for empty, oversized, binary, unreadable or undecodable input.
    """
    if len(data) > max_bytes:
        raise PostingInputError(too_large(len(data), max_bytes))
    if not data.strip():
        raise PostingInputError("the file is empty")
    fmt = find_format(data, filename)
    if fmt.is_text:
        for magic, kind in _MAGIC:
            if data.startswith(magic):
                raise PostingInputError(f"not a text file: it looks like {kind}")
    text = fmt.to_text(data, max_bytes)
    if not fmt.is_text:
        text = prepare_text(text, max_bytes)
    return _not_empty(text)


def decode_posting_text(text: str, max_bytes: int = MAX_POSTING_BYTES) -> str:
    """Check and clean pasted posting text: size, emptiness, NULs; HTML is reduced to text.

    Newlines are normalised to ``\\n`` and a leading BOM character is dropped.
    """
    text = prepare_text(text, max_bytes)
    return _not_empty(find_text_format(text).from_text(text))  # type: ignore[misc]


def _not_empty(text: str) -> str:
    if not text.strip():
        raise PostingInputError("the posting is empty")
    return text
