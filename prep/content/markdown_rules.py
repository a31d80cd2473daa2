"""The markdown-it parser of explanations and its rules: ``[[slug]]`` cross-links, Pygments
fences, KaTeX-ready math, heading anchors, the URL allow-list, and the nesting limits.

The parser is markdown-it-py with raw HTML off (the ``js-default`` preset: CommonMark plus
tables and strikethrough) and the mdit-py-plugins ``dollarmath``, ``footnote`` and ``admon``
plugins. Every attribute value a rule writes comes from here and is escaped.
:mod:`.render` parses and renders with it.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import html
import logging
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_core.block import block as _markdown_it_block
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin

from .highlight import highlight_code
from .safe_urls import is_external_url, is_safe_url

log = logging.getLogger(__name__)

#: A valid explanation slug (also the syntax accepted inside ``[[...]]``).
SLUG_RE = re.compile(r"[a-z0-9][a-z0-9-]*")

#: Admonition kinds the stylesheet knows; others are rendered as ``note``.
ADMONITION_KINDS = ("note", "tip", "warning", "danger", "info")

#: How deep inline constructs (links, images, emphasis) may nest before the rest is plain
#: text: every "[" may be re-parsed that many levels deep, so this sets the cost per character.
MAX_NESTING = 8
#: How deep block containers (lists, list items, quotes, admonitions) may nest: a list level is
#: two (list and item), a quote one. Block nesting is cheap (linear), but markdown-it drops
#: everything after a container that nests deeper, so the check reports it
#: (:func:`.render.block_nesting_overflow`) and a rendering says so instead of silently ending early.
MAX_BLOCK_NESTING = 40
#: Headings beyond this many get no anchor id and stay out of the table of contents.
MAX_ANCHORED_HEADINGS = 500

_CROSS_LINK_RE = re.compile(r"\[\[([^\[\]\|\n]{1,200})(?:\|([^\[\]\n]{0,500}))?\]\]")


def heading_slug(text: str) -> str:
    """A CJK-safe anchor id for a heading: NFKC, lower case, word characters and hyphens."""
    text = unicodedata.normalize("NFKC", text).casefold().strip()
    text = re.sub(r"[^\w\s-]", "", text)
    text = re.sub(r"[\s_]+", "-", text).strip("-")
    text = re.sub(r"-{2,}", "-", text)
    return text or "section"


def _cross_link_rule(state: StateInline, silent: bool) -> bool:
    """Inline rule for ``[[slug]]`` and ``[[slug|text]]``."""
    pos = state.pos
    if not state.src.startswith("[[", pos):
        return False
    match = _CROSS_LINK_RE.match(state.src, pos)
    if not match:
        return False
    slug = match.group(1).strip()
    if not SLUG_RE.fullmatch(slug):
        return False
    if not silent:
        token = state.push("cross_link", "a", 0)
        text = (match.group(2) or "").strip()
        token.meta = {"slug": slug, "text": text or slug}
        token.content = text or slug
    state.pos = match.end()
    return True


def _render_cross_link(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    slug: str = tokens[idx].meta["slug"]
    text = html.escape(tokens[idx].meta["text"])
    env.setdefault("cross_links", set()).add(slug)
    slug_exists: Callable[[str], bool] | None = env.get("slug_exists")
    exists = True
    if slug_exists is not None:
        try:
            exists = bool(slug_exists(slug))
        except Exception:  # a faulty callback must not break rendering
            log.exception("slug_exists(%r) failed", slug)
            exists = False
    if not exists:
        env.setdefault("missing_links", set()).add(slug)
        return (
            f'<span class="cross-link missing" title="missing explanation: {html.escape(slug)}">'
            f"{text}</span>"
        )
    slug_url: Callable[[str], str] = env["slug_url"]
    try:
        href = str(slug_url(slug))
    except Exception:
        log.exception("slug_url(%r) failed", slug)
        href = "#"
    if not is_safe_url(href):
        href = "#"
    return f'<a class="cross-link" href="{html.escape(href)}">{text}</a>'


def _render_fence(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    lang = token.info.strip().split(maxsplit=1)[0] if token.info.strip() else ""
    return highlight_code(token.content, lang)


def _math_renderer(tag: str, cls: str, left: str, right: str) -> Callable[..., str]:
    def render(
        self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType
    ) -> str:
        tex = html.escape(tokens[idx].content.strip())
        end = "\n" if tag == "div" else ""
        return f'<{tag} class="math {cls}">{left}{tex}{right}</{tag}>{end}'

    return render


def _sanitize_rule(state: StateCore) -> None:
    """Core rule: enforce the URL allow-list, mark external links, tidy table and admonition classes."""
    stack: list[Token] = list(state.tokens)
    while stack:
        token = stack.pop()
        if token.children:
            stack.extend(token.children)
        if token.type == "link_open":
            href = str(token.attrGet("href") or "")
            if not is_safe_url(href):
                token.attrs.pop("href", None)
            elif is_external_url(href):
                token.attrSet("rel", "nofollow noopener")
        elif token.type == "image":
            src = str(token.attrGet("src") or "")
            if not is_safe_url(src, image=True):
                token.attrSet("src", "")
        elif token.type in ("th_open", "td_open"):
            # A class instead of an inline style, so a strict CSP (no inline styles) still aligns.
            style = str(token.attrs.pop("style", "") or "")
            align = style.removeprefix("text-align:")
            if align in ("left", "center", "right"):
                token.attrSet("class", f"align-{align}")
        elif token.type == "admonition_open":
            kind = str(token.meta.get("tag", "")).lower()
            token.attrSet(
                "class", f"admonition {kind if kind in ADMONITION_KINDS else 'note'}"
            )


def _url_prevalidate(url: str) -> bool:
    # Called by markdown-it for links, images and autolinks; images are re-checked
    # (data:image allowed) in _sanitize_rule.
    return is_safe_url(url, image=True)


def _anchor_rule(state: StateCore) -> None:
    """An ``id`` for every heading (:func:`heading_slug`, made unique with ``-1``, ``-2``...).

    Linear in the number of headings (mdit-py-plugins' anchors plugin probes ``slug-1``,
    ``slug-2``... from 1 for every repeat: 10,000 equal headings took seconds); at most
    :data:`MAX_ANCHORED_HEADINGS` headings are anchored."""
    taken: set[str] = set()
    next_suffix: dict[str, int] = {}
    anchored = 0
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or index + 1 >= len(tokens):
            continue
        anchored += 1
        if anchored > MAX_ANCHORED_HEADINGS:
            break
        inline = tokens[index + 1]
        title = "".join(child.content for child in inline.children or [] if child.type in ("text", "code_inline"))
        base = heading_slug(title[:200])
        slug = base
        if slug in taken:
            n = next_suffix.get(base, 1)
            while f"{base}-{n}" in taken:
                n += 1
            slug = f"{base}-{n}"
            next_suffix[base] = n + 1
        taken.add(slug)
        token.attrSet("id", slug)


def block_rule(state: StateCore) -> None:
    """markdown-it's block parse under :data:`MAX_BLOCK_NESTING`; notes in ``env`` the first
    line (0-based, of the parsed text) where a container reached the limit, since markdown-it
    drops what follows it."""
    options = state.md.options
    options["maxNesting"] = MAX_BLOCK_NESTING
    try:
        _markdown_it_block(state)
    finally:
        options["maxNesting"] = MAX_NESTING
    for token in state.tokens:
        if token.nesting == 1 and token.level >= MAX_BLOCK_NESTING - 1:
            state.env["nesting_overflow"] = token.map[0] if token.map else 0
            break


def build_markdown() -> MarkdownIt:
    """The configured markdown-it parser (raw HTML off, plugins on, Pygments fences)."""
    # maxNesting bounds how deep links and emphasis nest (markdown-it's default is 100): every "["
    # may be re-parsed that many levels deep, so it sets the cost per character. Block parsing
    # runs first (core rule "block"), inline parsing after it, so the block rule
    # runs under its own, higher limit and puts the inline one back (a parser per thread).
    md = MarkdownIt("js-default", {"html": False, "linkify": False, "typographer": False,
                                   "maxNesting": MAX_NESTING})
    md.enable(["table", "strikethrough"])
    md.validateLink = _url_prevalidate  # type: ignore[method-assign]
    md.use(dollarmath_plugin, allow_digits=False, double_inline=True)
    md.use(footnote_plugin)
    md.use(admon_plugin)
    md.core.ruler.at("block", block_rule)
    md.core.ruler.push("prep_anchors", _anchor_rule)
    md.inline.ruler.before("link", "cross_link", _cross_link_rule)
    md.core.ruler.push("prep_sanitize", _sanitize_rule)
    md.add_render_rule("cross_link", _render_cross_link)
    md.add_render_rule("fence", _render_fence)
    md.add_render_rule("math_inline", _math_renderer("span", "inline", r"\(", r"\)"))
    md.add_render_rule("math_inline_double", _math_renderer("div", "display", r"\[", r"\]"))
    md.add_render_rule("math_block", _math_renderer("div", "display", r"\[", r"\]"))
    md.add_render_rule("math_block_label", _math_renderer("div", "display", r"\[", r"\]"))
    return md
