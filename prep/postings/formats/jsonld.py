"""A schema.org ``JobPosting`` saved as JSON-LD (a ``.jsonld``/``.json`` file, or pasted): its
company, title and location as labelled lines, then its description (HTML reduced to text).

JSON that holds no JobPosting is read as plain text. Nesting and size are bounded by the
reader in :mod:`prep.postings.htmltext` (a walk with a budget; a too-deep document is refused
by the JSON parser and read as text).

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re

from ..htmltext import html_to_text, labelled_lines, read_job_posting
from .base import DocumentFormat
from .html import looks_like_html
from .text import decode_charset, head_text, prepare_text

_JOB_POSTING = re.compile(r'"@type"\s*:\s*(?:\[[^\]]{0,200})?"JobPosting"')


def sniff(data: bytes, filename: str | None) -> bool:
    head = head_text(data).lstrip("\ufeff \t\r\n")
    return head[:1] in ("{", "[") and _JOB_POSTING.search(head) is not None


def from_text(text: str) -> str:
    meta = read_job_posting([text])
    if meta is None:
        return text
    lines = labelled_lines(meta)
    if meta.description:
        description = meta.description
        lines.append(html_to_text(description) if looks_like_html(description) else description)
    return "\n".join(lines)


def to_text(data: bytes, limit: int) -> str:
    return from_text(prepare_text(decode_charset(data), limit))


FORMAT = DocumentFormat("jsonld", "a JSON-LD job posting", (".jsonld", ".json"),
                        sniff=sniff, to_text=to_text, from_text=from_text)
