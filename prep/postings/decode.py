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

from .errors import N_, PostingInputError
from .htmltext import html_to_text
from .formats import find_format, find_text_format
from .formats.html import looks_like_html
from .formats.text import TOO_LONG, prepare_text

MAX_POSTING_CHARS = 1_000_000
"""The one limit of a posting or interview report: characters of text (pasted, or read from a
file), the same in the paste box, an upload and the CLI."""
MAX_FILE_BYTES = 4_000_000
"""The size of a file read at all (4 MB): 1,000,000 characters of text in any encoding fit."""

_MAGIC: tuple[tuple[bytes, str], ...] = (  # binary files no registered format reads
    (b"\x89PNG\r\n\x1a\n", N_("not a text file: it looks like a PNG image")),
    (b"\xff\xd8\xff", N_("not a text file: it looks like a JPEG image")),
    (b"GIF87a", N_("not a text file: it looks like a GIF image")),
    (b"GIF89a", N_("not a text file: it looks like a GIF image")),
    (b"II*\x00", N_("not a text file: it looks like a TIFF image")),
    (b"MM\x00*", N_("not a text file: it looks like a TIFF image")),
    (b"PK\x03\x04", N_("not a text file: it looks like a ZIP archive or Office document")),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", N_("not a text file: it looks like an Office document")),
    (b"\x1f\x8b", N_("not a text file: it looks like a gzip archive")),
    (b"Rar!\x1a\x07", N_("not a text file: it looks like a RAR archive")),
    (b"7z\xbc\xaf\x27\x1c", N_("not a text file: it looks like a 7-Zip archive")),
    (b"\x7fELF", N_("not a text file: it looks like an executable")),
    (b"%!PS", N_("not a text file: it looks like a PostScript document")),
)

LIMITS = N_("a posting or interview report may be at most %(chars)s characters of text, and a file at most "
            "%(size)s")
"""The limits in the words every place states them (``LIMITS % limit_params()``, or translated)."""


def limit_params(max_chars: int = MAX_POSTING_CHARS, max_bytes: int = MAX_FILE_BYTES) -> dict[str, str]:
    return {"chars": f"{max_chars:,}", "size": megabytes(max_bytes)}


__all__ = ["FILE_TOO_LARGE", "LIMITS", "TOO_LONG", "limit_params", "MAX_FILE_BYTES", "MAX_POSTING_CHARS", "decode_posting_bytes", "decode_posting_text", "file_too_large",
           "html_to_text", "looks_like_html", "megabytes", "read_posting_file"]


def megabytes(size: int) -> str:
    """A file size as the limits are stated: ``4 MB``, ``4.2 MB`` (``800 bytes`` under 0.1 MB)."""
    if size < 100_000:
        return f"{size:,} bytes"
    return f"{size / 1_000_000:.1f}".removesuffix(".0") + " MB"


FILE_TOO_LARGE = N_("the file is too large: %(size)s (at most %(limit)s)")


def file_too_large(size: int, limit: int = MAX_FILE_BYTES) -> PostingInputError:
    """The refusal of a file of ``size`` bytes over ``limit``."""
    shown = megabytes(size)
    return PostingInputError(FILE_TOO_LARGE, size=shown if shown != megabytes(limit) else f"{size:,} bytes",
                             limit=megabytes(limit))


def read_posting_file(path: str | Path, max_bytes: int = MAX_FILE_BYTES, max_chars: int = MAX_POSTING_CHARS) -> str:
    """Read and decode the posting file at ``path`` (checking its size before reading it)."""
    path = Path(path)
    try:
        if path.is_dir():
            raise PostingInputError(N_("is a directory, not a posting file"))
        size = path.stat().st_size
        if size > max_bytes:
            raise file_too_large(size, max_bytes)
        data = path.read_bytes()
    except OSError as exc:
        raise PostingInputError(N_("cannot read the file: %(reason)s"), reason=exc.strerror or str(exc)) from exc
    return decode_posting_bytes(data, max_bytes=max_bytes, filename=path.name, max_chars=max_chars)


def decode_posting_bytes(data: bytes, max_bytes: int = MAX_FILE_BYTES, filename: str | None = None,
                         max_chars: int = MAX_POSTING_CHARS) -> str:
    """Decode an uploaded posting file to plain text (HTML reduced to text, PDF and Word read).

    ``filename`` is a hint for formats that cannot be told by their bytes alone. Raises
    :class:`PostingInputError` for empty, oversized (over ``max_bytes`` bytes, or ``max_chars``
    characters of text), binary, unreadable or undecodable input.
    """
    if len(data) > max_bytes:
        raise file_too_large(len(data), max_bytes)
    if not data.strip():
        raise PostingInputError(N_("the file is empty"))
    fmt = find_format(data, filename)
    if fmt.is_text:
        for magic, message in _MAGIC:
            if data.startswith(magic):
                raise PostingInputError(message)
    text = fmt.to_text(data, max_chars)
    if not fmt.is_text:
        text = prepare_text(text, max_chars)
    return _not_empty(text)


def decode_posting_text(text: str, max_chars: int = MAX_POSTING_CHARS) -> str:
    """Check and clean pasted posting text: length, emptiness, NULs; HTML is reduced to text.

    Newlines are normalised to ``\\n`` and a leading BOM character is dropped.
    """
    text = prepare_text(text, max_chars)
    return _not_empty(find_text_format(text).from_text(text))  # type: ignore[misc]


def _not_empty(text: str) -> str:
    if not text.strip():
        raise PostingInputError(N_("the posting is empty"))
    return text
