"""Reduce a saved HTML page to the text of its main content, and read the page's job metadata.

A streaming pass over the standard library's :class:`html.parser.HTMLParser` (a real HTML
tokenizer, no regular expressions over markup), so the cost is linear in the page whatever its
nesting: a stack of open elements is kept with a count per tag name, and an end tag whose
element is not open is ignored instead of searched for.

- Text inside ``script``/``style``/``template``/``svg``… is dropped; so is text inside page
  furniture: ``nav``, ``aside``, ``footer``, ARIA navigation/complementary/contentinfo regions,
  and elements whose class or id names furniture (``navbar``, ``sidebar``, ``cookie-banner``,
  ``related-jobs``, ``comments`` …).
- When the page has a ``main`` element (or ``role="main"``) or ``article``s, only their text is
  kept; otherwise the body minus furniture.
- A schema.org ``JobPosting`` in JSON-LD gives the title, the hiring organisation and the
  location; failing that ``og:site_name``/``og:title`` and ``<title>``. They are returned in
  :class:`PageMeta` and written as labelled lines at the top of the text (``Company: …``,
  ``Job title: …``), which is how the line-based extractor reads them. When the visible text is
  thin (a page rendered by JavaScript), the JSON-LD description is used as the text.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser

_DROPPED = frozenset({"script", "style", "noscript", "template", "svg", "iframe", "object", "canvas",
                      "head", "select", "button"})
_FURNITURE_TAGS = frozenset({"nav", "aside", "footer"})
_FURNITURE_ROLES = frozenset({"navigation", "complementary", "contentinfo", "banner", "search", "dialog"})
_FURNITURE_WORDS = frozenset(
    "nav navbar navigation menu menubar breadcrumb breadcrumbs footer sidebar side-bar cookie cookies "
    "consent banner-cookie related similar recommend recommended recommendations share sharing social "
    "comment comments reply replies header-nav topbar toolbar pagination pager login signup "
    "subscribe newsletter advert advertisement ads ad-slot popup modal".split()
)
_BLOCK = frozenset(
    "address article aside blockquote br caption dd details div dl dt fieldset figcaption figure footer "
    "form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody td tfoot th thead "
    "tr ul".split()
)
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
_HEADINGS = frozenset("h1 h2 h3 h4 h5 h6".split())
_CLASS_SPLIT = re.compile(r"[\s_]+")
_SPACES = re.compile(r"[ \t\f\v\r\n\u00a0\u200b\u3000]+")
MAX_DEPTH = 2_000  # deeper nesting is flattened: nobody's page needs it, and it bounds the stack
MAX_JSONLD_CHARS = 200_000


@dataclass(frozen=True)
class PageMeta:
    """What the page says about itself (any of them may be missing)."""

    title: str | None = None
    company: str | None = None
    location: str | None = None
    page_title: str | None = None
    description: str | None = None


def _furniture(tag: str, attrs: dict[str, str]) -> bool:
    if tag in _FURNITURE_TAGS:
        return True
    if (attrs.get("role") or "").strip().lower() in _FURNITURE_ROLES:
        return True
    if attrs.get("aria-hidden") == "true" or "hidden" in attrs:
        return True
    words = f"{attrs.get('class') or ''} {attrs.get('id') or ''}".lower()
    if not words.strip():
        return False
    for token in _CLASS_SPLIT.split(words[:300]):
        if token in _FURNITURE_WORDS or any(part in _FURNITURE_WORDS for part in token.split("-")[:4]):
            return True
    return False


class _Reducer(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, int]] = []  # (tag, flags)
        self.open_count: dict[str, int] = {}
        self.dropped = 0  # depth inside dropped/furniture elements
        self.main = 0  # depth inside main/article
        self.in_title = False
        self.in_jsonld = False
        self.jsonld: list[str] = []
        self.jsonld_chars = 0
        self.title_parts: list[str] = []
        self.meta: dict[str, str] = {}
        self.all_chunks: list[str] = []
        self.main_chunks: list[str] = []
        self.seen_main = False

    # flags: 1 = dropped/furniture, 2 = main
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "meta":
            self._meta(attrs)
            return
        if tag in _VOID:
            if tag in ("br", "hr"):
                self._emit("\n")
            return
        attr = {k.lower(): (v or "") for k, v in attrs[:30]}
        if tag == "title":
            self.in_title = True
        if tag == "script" and "ld+json" in attr.get("type", "").lower():
            self.in_jsonld = True
        flags = 0
        if tag in _DROPPED or _furniture(tag, attr):
            flags |= 1
        if tag in ("main", "article") or attr.get("role", "").lower() == "main":
            flags |= 2
        if len(self.stack) >= MAX_DEPTH:
            return  # flattened: its end tag finds no open element and is ignored
        self.stack.append((tag, flags))
        self.open_count[tag] = self.open_count.get(tag, 0) + 1
        if flags & 1:
            self.dropped += 1
        if flags & 2:
            self.main += 1
            self.seen_main = True
        if tag in _BLOCK:
            self._emit("\n- " if tag == "li" else "\n```\n" if tag == "pre" else "\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "meta":
            self._meta(attrs)
        elif tag in ("br", "hr") or tag in _BLOCK:
            self._emit("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self.in_title = False
        if tag == "script":
            self.in_jsonld = False
        if not self.open_count.get(tag):
            if tag in ("br", "p"):
                self._emit("\n")
            return
        while self.stack:  # amortised linear: every element is pushed and popped once
            name, flags = self.stack.pop()
            self.open_count[name] -= 1
            if flags & 1:
                self.dropped -= 1
            if flags & 2:
                self.main -= 1
            if name in _BLOCK:
                self._emit("\n```\n" if name == "pre" else "\n")  # code is fenced, as in Markdown
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.in_jsonld:
            if self.jsonld_chars < MAX_JSONLD_CHARS:
                self.jsonld.append(data)
                self.jsonld_chars += len(data)
            return
        if self.in_title:
            self.title_parts.append(data)
            return
        self._emit(data)

    def _emit(self, text: str) -> None:
        if self.dropped:
            return
        self.all_chunks.append(text)
        if self.main:
            self.main_chunks.append(text)

    def _meta(self, attrs: list[tuple[str, str | None]]) -> None:
        attr = {k.lower(): (v or "") for k, v in attrs[:10]}
        key = (attr.get("property") or attr.get("name") or "").lower()
        if key in ("og:site_name", "og:title", "application-name", "author") and attr.get("content"):
            self.meta.setdefault(key, _SPACES.sub(" ", attr["content"]).strip()[:300])


def _lines(chunks: list[str]) -> list[str]:
    lines = (_SPACES.sub(" ", line).strip() for line in "".join(chunks).split("\n"))
    return [line for line in lines if line and line != "-"]


def _walk_json(node: object, budget: list[int]):
    """Every dict inside ``node`` (JSON-LD ``@graph`` and lists included), breadth-bounded."""
    stack = [node]
    while stack and budget[0] > 0:
        budget[0] -= 1
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(v for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend(v for v in item[:200] if isinstance(v, (dict, list)))


def _name(value: object) -> str | None:
    if isinstance(value, dict):
        value = value.get("name")
    if isinstance(value, list) and value:
        return _name(value[0])
    if isinstance(value, str) and value.strip():
        return _SPACES.sub(" ", value).strip()[:200]
    return None


def _location(value: object) -> str | None:
    if isinstance(value, list) and value:
        value = value[0]
    if isinstance(value, dict):
        address = value.get("address", value)
        if isinstance(address, dict):
            parts = [address.get(k) for k in ("addressLocality", "addressRegion", "addressCountry")]
            names = [_name(p) for p in parts if p]
            return ", ".join(n for n in names if n) or None
        return _name(address)
    return _name(value)


def _job_posting(blobs: list[str]) -> dict | None:
    budget = [5_000]
    for blob in blobs:
        try:
            data = json.loads(blob)
        except (ValueError, RecursionError):
            continue
        for node in _walk_json(data, budget):
            kind = node.get("@type")
            kinds = kind if isinstance(kind, list) else [kind]
            if "JobPosting" in kinds:
                return node
    return None


def read_job_posting(blobs: list[str], page_title: str | None = None) -> PageMeta | None:
    """The first schema.org ``JobPosting`` in the JSON-LD ``blobs`` as :class:`PageMeta`
    (``description`` is ``None`` when the posting has none as text), or ``None`` when there is none."""
    posting = _job_posting(blobs)
    if posting is None:
        return None
    description = posting.get("description")
    return PageMeta(
        title=_name(posting.get("title")),
        company=_name(posting.get("hiringOrganization")),
        location=_location(posting.get("jobLocation")),
        page_title=page_title,
        description=description if isinstance(description, str) else None,
    )


def labelled_lines(meta: PageMeta) -> list[str]:
    """``Company:``/``Job title:``/``Location:`` lines for a JobPosting's fields (the line-based
    extractor reads them as the document's own word)."""
    return [f"{label}: {value}" for label, value in
            (("Company", meta.company), ("Job title", meta.title), ("Location", meta.location)) if value]


def defuse_incomplete_markup(html: str) -> str:
    """Escape each ``<`` that cannot start a complete construct, in one pass.

    The standard library's parser rescans from an incomplete construct (a ``<!--`` with no
    ``-->`` after it, a ``<tag`` with no ``>`` after it) to the end of the text, once per such
    ``<``: "<!--" or "<a" repeated 60,000 times took minutes. A ``<`` with no ``>`` anywhere after
    it, or a ``<!--`` with no ``-->`` after it, is text, as browsers show it.
    """
    last_gt = html.rfind(">")
    last_comment_end = html.rfind("-->")
    if html.find("<", max(last_gt, 0)) < 0 and (last_comment_end < 0 or html.find("<!--", last_comment_end) < 0):
        return html  # nothing incomplete: the common case costs two scans
    out: list[str] = []
    start = 0
    at = html.find("<")
    while at >= 0:
        if html.startswith("<!--", at):
            complete = last_comment_end >= at + 4
        else:
            complete = last_gt > at
        if not complete:
            out.append(html[start:at])
            out.append("&lt;")
            start = at + 1
        at = html.find("<", at + 1)
    out.append(html[start:])
    return "".join(out)


def reduce_html(html: str) -> tuple[list[str], PageMeta]:
    """The page's content lines (main content when marked) and its metadata."""
    html = defuse_incomplete_markup(html)
    parser = _Reducer()
    try:
        parser.feed(html)
        parser.close()
    except (AssertionError, ValueError):  # malformed declarations in very old parsers
        pass
    lines = _lines(parser.main_chunks if parser.seen_main and parser.main_chunks else parser.all_chunks)
    blobs = []
    if parser.jsonld:
        blobs = ["".join(parser.jsonld)]
        # several JSON-LD scripts were concatenated; try each top-level object on its own too
        blobs += [b for b in re.split(r"(?<=[}\]])\s*(?=[{\[])", blobs[0]) if b][:20]
    page_title = _SPACES.sub(" ", "".join(parser.title_parts)).strip()[:300] or None
    meta = read_job_posting(blobs, page_title=page_title) if blobs else None
    if meta is None:
        meta = PageMeta(company=parser.meta.get("og:site_name") or parser.meta.get("application-name"),
                        title=parser.meta.get("og:title"), page_title=page_title)
    return lines, meta


def html_to_text(html: str) -> str:
    """The visible text of an HTML page, one line per block element, list items as ``- item``,
    preceded by ``Company:``/``Job title:``/``Location:`` lines when the page's JSON-LD names them."""
    lines, meta = reduce_html(html)
    if meta.description and len("".join(lines)) < len(meta.description) // 3:
        inner, _ = reduce_html(meta.description)
        lines = inner or lines
    labels = []
    if meta.description is not None:  # a JSON-LD JobPosting: its fields are the page's own word
        labels += labelled_lines(meta)
    else:
        site = meta.company
        page_title = meta.title or meta.page_title
        if site:
            labels.append(f"Site: {site}")
        if page_title:
            labels.append(f"Page title: {page_title}")
    return "\n".join(labels + lines)
