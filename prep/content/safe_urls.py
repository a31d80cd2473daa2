"""Which URLs an explanation may link to or show as an image: the allow-list of the renderer.

Allowed: relative URLs, ``http:``, ``https:``, ``mailto:``; for images also
``data:image/png|gif|jpeg|webp``. The scheme is read as a browser reads it (entities decoded,
tabs, newlines and leading controls ignored).

Pure module: no Flask, no database.
"""
from __future__ import annotations

import html
import re

_SCHEME_RE = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
_SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
_IMAGE_DATA_RE = re.compile(r"^data:image/(?:png|gif|jpeg|webp)[;,]", re.IGNORECASE)
# Browsers drop ASCII tab/newline anywhere in a URL and leading C0 controls/spaces.
_URL_IGNORED_RE = re.compile(r"[\x00-\x20\x7f]")


def url_scheme(url: str) -> str | None:
    """The lower-cased scheme of ``url`` as a browser would read it, or None for a relative URL."""
    cleaned = _URL_IGNORED_RE.sub("", html.unescape(url))
    match = _SCHEME_RE.match(cleaned)
    return match.group(1).lower() if match else None


def is_safe_url(url: str, *, image: bool = False) -> bool:
    """Whether ``url`` may appear in an ``href`` (or an image ``src`` when ``image``).

    Allowed: relative URLs, ``http:``, ``https:``, ``mailto:``; for images also
    ``data:image/png|gif|jpeg|webp``. Everything else (``javascript:``, ``vbscript:``,
    ``data:text/html``, ``file:``, unknown schemes) is refused.
    """
    scheme = url_scheme(url)
    if scheme is None:
        return True
    if scheme in _SAFE_SCHEMES:
        return True
    if image and scheme == "data":
        return bool(_IMAGE_DATA_RE.match(_URL_IGNORED_RE.sub("", html.unescape(url))))
    return False


def is_external_url(url: str) -> bool:
    """Whether ``url`` points to another site (``http(s):`` or protocol-relative ``//``)."""
    scheme = url_scheme(url)
    cleaned = _URL_IGNORED_RE.sub("", url).replace("\\", "/")
    return scheme in ("http", "https") or (scheme is None and cleaned.startswith("//"))
