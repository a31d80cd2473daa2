"""Decide whether a question met in a posting is one the bank already has.

Two questions are the same when their normalised texts are equal (NFKC, casefold, no
punctuation, symbols or spaces: :func:`prep.questions.normalize.normalize_question`), or when
they are *near-duplicates*: same language, character-bigram Jaccard similarity of the
normalised texts at least :data:`NEAR_DUPLICATE_THRESHOLD`, and the same technical terms.

The terms guard keeps a one-word edit that changes the subject apart: the technical terms of
both texts must be equal. In a Chinese question these are all its Latin tokens (NCCL, RDMA,
TCP/IP ...); in an English one, the tokens with a capital after their first letter, a digit, ``+`` or ``#``
(NVLink, UDP, 8, C++), so a capitalised first word is not a term.
Very short texts (under :data:`MIN_NEAR_DUPLICATE_CHARS` normalised characters) only merge
when equal.

A question that says the same in other words, or in the other language, is found by meaning
(:func:`find_match`, with :mod:`prep.questions.matcher`): the import proposes it as that question.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from prep.questions.matcher import Concepts, Matcher, Weighed, default_matcher
from prep.questions.normalize import guess_lang, normalize_question

NEAR_DUPLICATE_THRESHOLD = 0.85
MIN_NEAR_DUPLICATE_CHARS = 8

_LATIN_TOKEN = re.compile(r"[A-Za-z0-9]+[+#]*")
_TERM_MARK = re.compile(r"^.+[A-Z]|[0-9+#]")


@dataclass(frozen=True)
class Candidate:
    """A bank question a new question may merge into."""

    id: int
    text: str
    lang: str

    @cached_property
    def norm(self) -> str:
        return normalize_question(self.text)

    @cached_property
    def grams(self) -> frozenset[str]:
        return bigrams(self.norm)

    @cached_property
    def terms(self) -> frozenset[str]:
        return key_terms(self.text, self.lang)

    @cached_property
    def meaning(self) -> Concepts:
        return default_matcher().concepts(self.text)

    @cached_property
    def weighed(self) -> Weighed:
        """:attr:`meaning` weighed by the default matcher (its weight sums, summed once)."""
        return default_matcher().weigh(self.meaning)


def bigrams(norm: str) -> frozenset[str]:
    """The set of character bigrams of a normalised text (the text itself when shorter)."""
    if len(norm) < 2:
        return frozenset({norm}) if norm else frozenset()
    return frozenset(norm[i:i + 2] for i in range(len(norm) - 1))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|a ∩ b| / |a ∪ b|; 0.0 for two empty sets."""
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def key_terms(text: str, lang: str) -> frozenset[str]:
    """The tokens two near-duplicates must share (casefolded): every Latin token of a Chinese
    text; the acronyms, camel-case words, numbers and C++-like tokens of an English one."""
    tokens = _LATIN_TOKEN.findall(unicodedata.normalize("NFKC", text))
    if lang != "zh":
        tokens = [t for t in tokens if _TERM_MARK.search(t)]
    return frozenset(t.casefold() for t in tokens)


def similarity(a: str, b: str) -> float:
    """Character-bigram Jaccard similarity of two question texts after normalisation."""
    return jaccard(bigrams(normalize_question(a)), bigrams(normalize_question(b)))


def is_same_question(a: str, b: str, threshold: float = NEAR_DUPLICATE_THRESHOLD) -> bool:
    """Whether two texts are one question: equal once normalised, or near-duplicates."""
    norm_a, norm_b = normalize_question(a), normalize_question(b)
    if not norm_a or not norm_b:
        return False
    if norm_a == norm_b:
        return True
    lang = guess_lang(a)
    if guess_lang(b) != lang or min(len(norm_a), len(norm_b)) < MIN_NEAR_DUPLICATE_CHARS:
        return False
    if key_terms(a, lang) != key_terms(b, lang):
        return False
    return jaccard(bigrams(norm_a), bigrams(norm_b)) >= threshold


class CandidateIndex:
    """Candidates by normalised text and by (language, technical terms): a near-duplicate must
    have both equal, so :func:`find_duplicate` reads only those, not the whole bank.

    ``parent``: an index this one extends without copying (read first: its candidates come
    before this one's), so a large shared index (the bank's) is built once and an import layers
    its own candidates on it. A parent must not be appended to while layered on."""

    def __init__(self, candidates: Iterable[Candidate] = (), parent: CandidateIndex | None = None) -> None:
        self.parent = parent
        self.depth: int = 0 if parent is None else parent.depth + 1
        self.by_norm: dict[str, Candidate] = {}
        self._by_terms: dict[tuple[str, frozenset[str]], list[Candidate]] = {}
        self._by_concept: dict[str, list[Candidate]] = {}
        for candidate in candidates:
            self.append(candidate)

    def append(self, candidate: Candidate) -> None:
        self.by_norm.setdefault(candidate.norm, candidate)
        self._by_terms.setdefault((candidate.lang, candidate.terms), []).append(candidate)
        for concept in candidate.meaning.all:
            self._by_concept.setdefault(concept, []).append(candidate)

    def sharing_concept(self, concept: str) -> list[Candidate]:
        """The candidates whose meaning has ``concept``."""
        mine = self._by_concept.get(concept, [])
        return mine if self.parent is None else self.parent.sharing_concept(concept) + mine

    def __iter__(self):
        if self.parent is not None:
            yield from self.parent
        yield from (c for group in self._by_terms.values() for c in group)

    def exact(self, norm: str) -> Candidate | None:
        """The first candidate with this normalised text."""
        found = self.parent.exact(norm) if self.parent is not None else None
        return found if found is not None else self.by_norm.get(norm)

    def sharing_terms(self, lang: str, terms: frozenset[str]) -> list[Candidate]:
        """The ``lang`` candidates whose technical terms are ``terms``."""
        mine = self._by_terms.get((lang, terms), [])
        return mine if self.parent is None else self.parent.sharing_terms(lang, terms) + mine


def find_duplicate(text: str, candidates: Iterable[Candidate] | CandidateIndex,
                   threshold: float = NEAR_DUPLICATE_THRESHOLD) -> Candidate | None:
    """The candidate ``text`` is the same question as: an exact normalised match first, else the
    most similar near-duplicate (ties: the lowest id); None when there is none."""
    norm = normalize_question(text)
    if not norm:
        return None
    lang = guess_lang(text)
    grams = bigrams(norm)
    terms = key_terms(text, lang)
    best: tuple[float, int, Candidate] | None = None
    if isinstance(candidates, CandidateIndex):
        exact = candidates.exact(norm)
        if exact is not None:
            return exact
        candidates = candidates.sharing_terms(lang, terms)
    for candidate in candidates:
        other = candidate.norm
        if other == norm:
            return candidate
        if candidate.lang != lang or len(norm) < MIN_NEAR_DUPLICATE_CHARS \
                or len(other) < MIN_NEAR_DUPLICATE_CHARS:
            continue
        other_grams = candidate.grams
        # Jaccard >= t needs the smaller bigram set to be at least t times the larger one.
        if min(len(grams), len(other_grams)) < threshold * max(len(grams), len(other_grams)):
            continue
        shared = len(grams & other_grams)  # jaccard without building the union
        score = shared / (len(grams) + len(other_grams) - shared)
        if score < threshold or candidate.terms != terms:
            continue
        if best is None or (score, -candidate.id) > (best[0], -best[1]):
            best = (score, candidate.id, candidate)
    return best[2] if best else None


#: The rarest concepts of a question that :func:`find_match` looks candidates up by: a question
#: that means the same shares at least one of them.
LOOKUP_CONCEPTS = 4


def find_match(text: str, candidates: CandidateIndex, matcher: Matcher | None = None) -> tuple[Candidate, float] | None:
    """The candidate that asks what ``text`` asks, reworded or translated, with its score (the
    best at or above the matcher's threshold; ties: the lowest id), or None. Only candidates
    sharing one of the text's :data:`LOOKUP_CONCEPTS` rarest concepts (or two rarest unknown
    Chinese pairs) are scored."""
    matcher = matcher or default_matcher()
    mine = matcher.weigh(text)  # scored against every candidate found: its weight sums summed once
    meaning = mine.concepts
    def rarest(concepts: frozenset[str], n: int) -> list[str]:
        return sorted(concepts, key=lambda c: (-matcher.weight(c), c))[:n]
    # Unknown Chinese words meet only Chinese candidates: the shared concepts find translations.
    keys = rarest(meaning.shared, LOOKUP_CONCEPTS) + rarest(meaning.untranslated, 2)
    found: dict[int, Candidate] = {}
    for key in keys:
        for candidate in candidates.sharing_concept(key):
            found.setdefault(candidate.id, candidate)
    # Most candidates share a concept and little else: a bound on their score leaves them out unscored.
    listed = list(found.values())
    best: tuple[float, int, Candidate] | None = None
    for candidate, reachable in zip(listed, matcher.reachable(mine, [c.weighed for c in listed])):
        if not reachable:
            continue
        score = matcher.score(mine, candidate.weighed)  # another matcher weighs it again
        if score >= matcher.threshold and (best is None or (score, -candidate.id) > (best[0], -best[1])):
            best = (score, candidate.id, candidate)
    return (best[2], best[0]) if best else None
