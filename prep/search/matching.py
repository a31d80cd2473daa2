"""Search terms, highlighting, grouping by explanation and paging.

Pure module: no Flask, no database. A query's terms must all match (AND):

- a Latin term matches whole words, case-insensitively, plural allowed ("ring" finds "rings" but
  not "string"; "RC" does not match inside "source");
- "quoted words" are one phrase, matched as written (whitespace between words is flexible);
- Chinese has no spaces, so a CJK term matches anywhere; an unquoted CJK run is cut at its function
  words (的, 了, 和, 与 …): "环形算法的通信量" finds "环形算法中每张卡的通信量".
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

MAX_QUERY = 200      # characters of the query that are used
MAX_TERMS = 8        # whitespace-separated terms that are used
GROUPS_PER_PAGE = 20
QUESTIONS_PER_GROUP = 10
UNLINKED_PER_PAGE = 50
SNIPPET_CHARS = 80   # context either side of the first hit in a body


_QUOTED = re.compile(r'["“”「」]([^"“”「」]{1,100})["“”「」]')
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{3,}")
_PARTICLE_SPLIT = re.compile(r"[的了和与吗呢么吧啊及或、，。？！]+")
#: Characters that make a word: a Latin term matches only where none of these is next to it.
_WORD = r"[0-9A-Za-z\u00c0-\u024f]"


def parse_terms(query: str) -> list[str]:
    """The distinct terms of ``query`` (case-insensitively), in order, at most :data:`MAX_TERMS`:
    quoted phrases whole, other words split on whitespace, long CJK runs as two-character words."""
    query = query[:MAX_QUERY]
    raw: list[str] = [" ".join(m.group(1).split()) for m in _QUOTED.finditer(query)]
    for word in _QUOTED.sub(" ", query).split():  # str.split() also splits on the ideographic space
        word = word.strip("\"“”「」")
        if _CJK_RUN.search(word):
            raw.extend(part for part in _PARTICLE_SPLIT.split(word) if len(part) >= 2 or not _CJK.search(part))
        elif word:
            raw.append(word)
    seen: set[str] = set()
    terms: list[str] = []
    for term in raw:
        key = term.casefold()
        if term.strip() and key not in seen:
            seen.add(key)
            terms.append(term)
    return terms[:MAX_TERMS]


def _term_regex(term: str) -> str:
    body = r"\s+".join(re.escape(part) for part in term.split())
    if _CJK.search(term) and not re.search(_WORD, term):
        return body
    before = "" if not re.match(_WORD, term) else f"(?<!{_WORD})"
    after = "" if not re.search(_WORD + "$", term) else f"(?:e?s)?(?!{_WORD})"
    return before + body + after


def _pattern(terms: Sequence[str]) -> re.Pattern[str] | None:
    if not terms:
        return None
    # Longest first, so "allreduce" wins over "all" where both start.
    return re.compile("|".join(_term_regex(t) for t in sorted(terms, key=len, reverse=True)), re.IGNORECASE)


def matches(text: str, terms: Sequence[str]) -> bool:
    """Whether every term is in ``text`` (as a word, a phrase or a CJK substring)."""
    return all(re.search(_term_regex(t), text, re.IGNORECASE) for t in terms)


def count_matching(text: str, terms: Sequence[str]) -> int:
    """How many of the terms are in ``text``."""
    return sum(1 for t in terms if re.search(_term_regex(t), text, re.IGNORECASE))


def segments(text: str, terms: Sequence[str]) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, is_hit) pairs, for highlighting (the template escapes each piece)."""
    pattern = _pattern(terms)
    if pattern is None or not text:
        return [(text, False)] if text else []
    out: list[tuple[str, bool]] = []
    pos = 0
    for match in pattern.finditer(text):
        if match.end() == match.start():
            continue
        if match.start() > pos:
            out.append((text[pos:match.start()], False))
        out.append((match.group(0), True))
        pos = match.end()
    if pos < len(text):
        out.append((text[pos:], False))
    return out


def snippet(body: str, terms: Sequence[str], width: int = SNIPPET_CHARS) -> str:
    """A short excerpt of ``body`` (plain text: :func:`prep.search.plaintext.plain_text`) around its
    first hit, whitespace collapsed ("" without a hit)."""
    flat = " ".join(body.split())
    pattern = _pattern(terms)
    match = pattern.search(flat) if pattern else None
    if match is None:
        return ""
    start, end = max(0, match.start() - width), min(len(flat), match.end() + width)
    return ("…" if start else "") + flat[start:end] + ("…" if end < len(flat) else "")


@dataclass(frozen=True)
class ExplanationRow:
    """One explanation (one language of a slug). ``matched``: every term is in its title or body."""

    id: int
    slug: str
    lang: str
    title: str
    matched: bool
    title_hits: int  # how many terms are in the title


@dataclass(frozen=True)
class QuestionHit:
    id: int
    text: str
    lang: str
    own: bool
    slugs: tuple[str, ...] = ()  # accepted links, best first


@dataclass
class Group:
    """An explanation with its matching questions beneath, or (``explanation`` None) the unlinked ones."""

    explanation: ExplanationRow | None
    questions: list[QuestionHit] = field(default_factory=list)
    more: int = 0  # matching questions not listed (beyond the per-group cap)


@dataclass(frozen=True)
class Page:
    groups: list[Group]
    page: int
    pages: int
    total_groups: int
    total_explanations: int
    total_questions: int


def _pick(rows: Sequence[ExplanationRow], language: str) -> ExplanationRow:
    """The version of a slug to show: a matching one, with the most title hits, then the reader's
    language, then the first."""
    return min(rows, key=lambda r: (not r.matched, -r.title_hits, r.lang != language, r.id))


def group_results(explanations: Sequence[ExplanationRow], questions: Sequence[QuestionHit], language: str = "en",
                  per_group: int = QUESTIONS_PER_GROUP, unlinked_cap: int = UNLINKED_PER_PAGE) -> list[Group]:
    """Group matching questions under the explanation of their best link; matching explanations
    without matching questions get a group of their own. Ranked: every term in the title first,
    then more title hits, then a body hit, then groups found only through their questions; the
    group of questions linked to no (known) explanation comes last."""
    by_slug: dict[str, list[ExplanationRow]] = {}
    for row in explanations:
        by_slug.setdefault(row.slug, []).append(row)
    grouped: dict[str, list[QuestionHit]] = {}
    unlinked: list[QuestionHit] = []
    for question in questions:
        slug = next((s for s in question.slugs if s in by_slug), None)
        (grouped.setdefault(slug, []) if slug else unlinked).append(question)
    groups: list[tuple[tuple, Group]] = []
    for slug, rows in by_slug.items():
        hits = grouped.get(slug, [])
        if not hits and not any(r.matched for r in rows):
            continue
        shown = _pick(rows, language)
        best_title = max(r.title_hits for r in rows)
        key = (not any(r.matched for r in rows), -best_title, -len(hits), shown.title.casefold(), slug)
        ordered = sorted(hits, key=lambda q: (len(q.text), q.id))
        groups.append((key, Group(shown, ordered[:per_group], max(0, len(ordered) - per_group))))
    result = [g for _k, g in sorted(groups, key=lambda kg: kg[0])]
    if unlinked:
        ordered = sorted(unlinked, key=lambda q: (len(q.text), q.id))
        result.append(Group(None, ordered[:unlinked_cap], max(0, len(ordered) - unlinked_cap)))
    return result


def paginate(groups: Sequence[Group], page: int, per_page: int = GROUPS_PER_PAGE) -> tuple[list[Group], int, int]:
    """The groups on ``page`` (clamped to the last page), the page and the page count."""
    pages = max(1, -(-len(groups) // per_page))
    page = min(max(1, page), pages)
    return list(groups[(page - 1) * per_page:page * per_page]), page, pages
