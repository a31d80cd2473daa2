"""A saved HTML page: its visible main content, one block per line, and the page's job metadata
(the JSON-LD JobPosting's company and title as labelled lines), by :mod:`prep.postings.htmltext`.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re

from ..errors import N_, PostingInputError
from ..htmltext import html_to_text
from .base import DocumentFormat
from .text import decode_charset, head_text, prepare_text

_HTML_START = re.compile(
    r"<(?:!doctype\s+html|html|head|body|meta|title|div|p|section|article|main|ul|ol|h[1-6]|table)\b",
    re.IGNORECASE,
)
_HTML_TAG = re.compile(
    r"</?(?:html|body|div|p|br|li|ul|ol|span|h[1-6]|table|tr|td|section|article|strong|em|a)\b[^<>]*>",
    re.IGNORECASE,
)


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


def sniff(data: bytes, filename: str | None) -> bool:
    return looks_like_html(head_text(data))


def from_text(text: str) -> str:
    text = html_to_text(text)
    if not text.strip():
        raise PostingInputError(N_("the page contains no text"))
    return text


def to_text(data: bytes, limit: int) -> str:
    return from_text(prepare_text(decode_charset(data), limit))


FORMAT = DocumentFormat("html", "an HTML page", (".html", ".htm", ".xhtml"),
                        sniff=sniff, to_text=to_text, from_text=from_text)
