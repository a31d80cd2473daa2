"""Render an explanation's Markdown body to safe HTML, with a table of contents and cross-links.

The pipeline is markdown-it-py with raw HTML off (the ``js-default`` preset: CommonMark plus
tables and strikethrough), the mdit-py-plugins ``dollarmath``, ``footnote``, ``admon`` and
``anchors`` plugins, a ``[[slug]]`` / ``[[slug|text]]`` cross-link rule, Pygments for fenced code
and a URL allow-list. Math is not typeset here: it is emitted as ``\\(..\\)`` / ``\\[..\\]`` inside
``span.math.inline`` / ``div.math.display`` for KaTeX's auto-render in the browser.

Rendering never raises and never emits a ``<script>`` element or an event-handler attribute,
whatever the input: every attribute value comes from :mod:`.markdown_rules` and is escaped.

Beside it: :mod:`.markdown_rules` (the parser and its rules), :mod:`.highlight` (Pygments),
:mod:`.safe_urls` (the URL allow-list) and :mod:`.render_cache` (an LRU of renderings).

Pure module: no Flask, no database.
"""
from __future__ import annotations

import html
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from .markdown_rules import MAX_BLOCK_NESTING, block_rule, build_markdown

log = logging.getLogger(__name__)

#: Bump when the HTML produced here changes, so cached renderings are invalidated.
RENDERER_VERSION = "2"

#: Heading levels that go into the table of contents.
TOC_LEVELS = (2, 3)
#: The longest text rendered as Markdown (the largest shipped explanation is under 8,000
#: characters); a longer one is shown as escaped text, so one request's rendering stays well
#: under a second of CPU whatever the input.
MAX_RENDER_CHARS = 50_000


@dataclass(frozen=True)
class TocEntry:
    """One heading of the table of contents."""

    level: int
    anchor: str
    text: str


@dataclass
class Rendered:
    """The result of rendering one Markdown text."""

    html: str
    toc: list[TocEntry] = field(default_factory=list)
    cross_links: set[str] = field(default_factory=set)
    missing_links: set[str] = field(default_factory=set)


_LOCAL = threading.local()


def _parser() -> MarkdownIt:
    """This thread's parser: markdown-it's rule chains keep state while parsing, so threads do
    not share one (and no lock makes one user's rendering wait for another's)."""
    md = getattr(_LOCAL, "md", None)
    if md is None:
        md = _LOCAL.md = build_markdown()
    return md


def _heading_text(inline: Token) -> str:
    parts: list[str] = []
    for child in inline.children or []:
        if child.type in ("text", "code_inline", "math_inline"):
            parts.append(child.content)
        elif child.type == "cross_link":
            parts.append(child.meta["text"])
    return "".join(parts).strip()


def _toc(tokens: Sequence[Token]) -> list[TocEntry]:
    entries: list[TocEntry] = []
    for i, token in enumerate(tokens):
        if token.type != "heading_open" or token.level != 0:
            continue
        level = int(token.tag[1])
        if level in TOC_LEVELS and i + 1 < len(tokens):
            anchor = str(token.attrGet("id") or "")
            if not anchor:  # past MAX_ANCHORED_HEADINGS: nothing to link to, and a bounded TOC
                break
            entries.append(TocEntry(level=level, anchor=anchor, text=_heading_text(tokens[i + 1])))
    return entries


def render_markdown(
    text: str,
    *,
    slug_exists: Callable[[str], bool] | None = None,
    slug_url: Callable[[str], str] = lambda s: f"/explanations/{s}",
) -> Rendered:
    """Render Markdown ``text`` to safe HTML.

    ``slug_exists`` tells whether a ``[[slug]]`` target exists (None: assume every target
    exists); missing targets are rendered as ``span.cross-link.missing`` and listed in
    ``missing_links``. ``slug_url`` maps a slug to its page URL.
    Never raises: on an internal error the text is returned escaped in a ``<pre>``.
    """
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if len(text) > MAX_RENDER_CHARS:
        return Rendered(html=f'<p class="render-error">This text is over {MAX_RENDER_CHARS:,} characters, '
                             f'so it is shown as it is.</p>\n<pre class="render-error">{html.escape(text)}</pre>\n')
    env: dict[str, Any] = {"slug_exists": slug_exists, "slug_url": slug_url}
    try:
        md = _parser()
        tokens = md.parse(text, env)
        body = md.renderer.render(tokens, md.options, env)
        if env.get("nesting_overflow") is not None:
            body += (f'<p class="render-error">Lists and quotes nest more than {MAX_BLOCK_NESTING} levels '
                     'deep here; the rest is not shown.</p>\n')
        return Rendered(
            html=body,
            toc=_toc(tokens),
            cross_links=set(env.get("cross_links", set())),
            missing_links=set(env.get("missing_links", set())),
        )
    except Exception:
        log.exception("Markdown rendering failed; falling back to escaped text")
        return Rendered(html=f'<pre class="render-error">{html.escape(text)}</pre>\n')


def block_nesting_overflow(text: str) -> int | None:
    """The 0-based line of ``text`` where lists and quotes nest deeper than
    :data:`MAX_BLOCK_NESTING` (the rest would not be shown), or None. Block parsing only:
    linear, a few milliseconds for the longest text."""
    if len(text) > MAX_RENDER_CHARS:
        return None
    md = _parser()
    env: dict[str, Any] = {}
    state = StateCore(text, md, env)
    block_rule(state)
    overflow = env.get("nesting_overflow")
    return int(overflow) if overflow is not None else None
