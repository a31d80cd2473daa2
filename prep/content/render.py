"""Render an explanation's Markdown body to safe HTML, with a table of contents and cross-links.

The pipeline is markdown-it-py with raw HTML off (the ``js-default`` preset: CommonMark plus
tables and strikethrough), the mdit-py-plugins ``dollarmath``, ``footnote``, ``admon`` and
``anchors`` plugins, a ``[[slug]]`` / ``[[slug|text]]`` cross-link rule, Pygments for fenced code
and a URL allow-list. Math is not typeset here: it is emitted as ``\\(..\\)`` / ``\\[..\\]`` inside
``span.math.inline`` / ``div.math.display`` for KaTeX's auto-render in the browser.

Rendering never raises and never emits a ``<script>`` element or an event-handler attribute,
whatever the input: every attribute value comes from this module and is escaped.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import functools
import hashlib
import html
import logging
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

log = logging.getLogger(__name__)

#: Bump when the HTML this module produces changes, so cached renderings are invalidated.
RENDERER_VERSION = "2"

#: A valid explanation slug (also the syntax accepted inside ``[[...]]``).
SLUG_RE = re.compile(r"[a-z0-9][a-z0-9-]*")

#: Admonition kinds the stylesheet knows; others are rendered as ``note``.
ADMONITION_KINDS = ("note", "tip", "warning", "danger", "info")

#: Heading levels that go into the table of contents.
TOC_LEVELS = (2, 3)
#: The longest text rendered as Markdown (the largest shipped explanation is under 8,000
#: characters); a longer one is shown as escaped text, so one request's rendering stays well
#: under a second of CPU whatever the input.
MAX_RENDER_CHARS = 50_000
#: How deep inline constructs (links, images, emphasis) may nest before the rest is plain
#: text: every "[" may be re-parsed that many levels deep, so this sets the cost per character.
MAX_NESTING = 8
#: How deep block containers (lists, list items, quotes, admonitions) may nest: a list level is
#: two (list and item), a quote one. Block nesting is cheap (linear), but markdown-it drops
#: everything after a container that nests deeper, so the check reports it
#: (:func:`block_nesting_overflow`) and a rendering says so instead of silently ending early.
MAX_BLOCK_NESTING = 40
#: Headings beyond this many get no anchor id and stay out of the table of contents.
MAX_ANCHORED_HEADINGS = 500

_CROSS_LINK_RE = re.compile(r"\[\[([^\[\]\|\n]{1,200})(?:\|([^\[\]\n]{0,500}))?\]\]")
_SCHEME_RE = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")
_SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
_IMAGE_DATA_RE = re.compile(r"^data:image/(?:png|gif|jpeg|webp)[;,]", re.IGNORECASE)
# Browsers drop ASCII tab/newline anywhere in a URL and leading C0 controls/spaces.
_URL_IGNORED_RE = re.compile(r"[\x00-\x20\x7f]")
_FORMATTER = HtmlFormatter(cssclass="highlight", nowrap=False)


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


# --------------------------------------------------------------------------- URLs


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


# --------------------------------------------------------------------------- slugs


def heading_slug(text: str) -> str:
    """A CJK-safe anchor id for a heading: NFKC, lower case, word characters and hyphens."""
    text = unicodedata.normalize("NFKC", text).casefold().strip()
    text = re.sub(r"[^\w\s-]", "", text)
    text = re.sub(r"[\s_]+", "-", text).strip("-")
    text = re.sub(r"-{2,}", "-", text)
    return text or "section"


# --------------------------------------------------------------------------- markdown-it rules


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


@functools.lru_cache(maxsize=128)
def _lexer(lang: str) -> Any:
    """The Pygments lexer for ``lang`` (None when unknown), made once per language: the lookup
    scans Pygments' lexer table, which cost more than highlighting a short fence. Lexers keep
    no state between ``get_tokens`` calls, so one instance serves every fence and thread."""
    try:
        return get_lexer_by_name(lang, stripnl=False, ensurenl=True)
    except ClassNotFound:
        return None
    except Exception:  # pragma: no cover - a broken lexer plugin
        log.exception("Pygments lexer lookup failed for %r", lang)
        return None


def highlight_code(code: str, lang: str) -> str:
    """Highlight ``code`` with Pygments; an unknown or empty ``lang`` gives plain escaped text."""
    lexer = _lexer(lang) if lang else None
    if lexer is not None:
        try:
            return highlight(code, lexer, _FORMATTER)
        except Exception:  # pragma: no cover - lexers should not fail, but never raise
            log.exception("Pygments failed for %r", lang)
    return f'<div class="highlight"><pre><span></span>{html.escape(code)}</pre></div>\n'


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


def _block_rule(state: StateCore) -> None:
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


def block_nesting_overflow(text: str) -> int | None:
    """The 0-based line of ``text`` where lists and quotes nest deeper than
    :data:`MAX_BLOCK_NESTING` (the rest would not be shown), or None. Block parsing only:
    linear, a few milliseconds for the longest text."""
    if len(text) > MAX_RENDER_CHARS:
        return None
    md = _parser()
    env: dict[str, Any] = {}
    state = StateCore(text, md, env)
    _block_rule(state)
    overflow = env.get("nesting_overflow")
    return int(overflow) if overflow is not None else None


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
    md.core.ruler.at("block", _block_rule)
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


# --------------------------------------------------------------------------- cache


def render_key(text: str, context: str = "") -> str:
    """The cache key of ``text``: sha256 of the renderer version, ``context`` and the text.

    ``context`` distinguishes renderings of the same text whose cross-link targets differ
    (for example a version number of the set of slugs); leave it empty when not needed.
    """
    digest = hashlib.sha256()
    for part in (RENDERER_VERSION, context, text):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return digest.hexdigest()


class RenderCache:
    """An LRU cache of :class:`Rendered` results keyed by :func:`render_key`.

    Thread-safe. Clear it (or change ``context``) when the set of explanation slugs changes,
    since cross-link targets are resolved at render time.
    """

    def __init__(self, maxsize: int = 1024) -> None:
        self.maxsize = maxsize
        self._items: OrderedDict[str, Rendered] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def get(self, key: str) -> Rendered | None:
        """The cached rendering for ``key``, or None."""
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: str, rendered: Rendered) -> None:
        """Store ``rendered`` under ``key``, evicting the least recently used entry if full."""
        with self._lock:
            self._items[key] = rendered
            self._items.move_to_end(key)
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Drop every cached rendering."""
        with self._lock:
            self._items.clear()

    def render(
        self,
        text: str,
        *,
        context: str = "",
        slug_exists: Callable[[str], bool] | None = None,
        slug_url: Callable[[str], str] = lambda s: f"/explanations/{s}",
    ) -> Rendered:
        """Render ``text`` (see :func:`render_markdown`) unless a cached result exists."""
        key = render_key(text, context)
        cached = self.get(key)
        if cached is not None:
            self.hits += 1
            return cached
        self.misses += 1
        rendered = render_markdown(text, slug_exists=slug_exists, slug_url=slug_url)
        self.put(key, rendered)
        return rendered


# --------------------------------------------------------------------------- CSS


def highlight_css(light: str = "default", dark: str = "github-dark") -> str:
    """The Pygments stylesheet for ``.highlight``: a light theme, and a dark theme that applies
    under ``prefers-color-scheme: dark`` (unless ``data-theme=light``) or ``[data-theme=dark]``."""

    def defs(style: str, selector: str) -> str:
        # Keep only rules scoped to the selector (Pygments also emits global pre/linenos rules).
        lines = HtmlFormatter(style=style, cssclass="highlight").get_style_defs(selector)
        return "\n".join(ln for ln in lines.splitlines() if ln.startswith(selector))

    light_css = defs(light, ".highlight")
    forced = defs(dark, '[data-theme="dark"] .highlight')
    auto = defs(dark, ':root:not([data-theme="light"]) .highlight')
    auto = "\n".join("  " + line for line in auto.splitlines())
    return (
        f"/* Generated by prep.content.render.highlight_css({light!r}, {dark!r});"
        " regenerate with `prep content highlight-css > static/css/pygments.css`. */\n"
        ".highlight pre { line-height: 125%; overflow-x: auto; padding: 0.75em 1em;"
        " margin: 0; }\n.highlight { border-radius: 4px; color: #1f2328; }\n\n"
        f"/* light: {light} */\n{light_css}\n\n"
        f"/* dark: {dark}, chosen explicitly */\n{forced}\n\n"
        f"/* dark: {dark}, following the system setting */\n"
        f"@media (prefers-color-scheme: dark) {{\n{auto}\n}}\n"
    )
