"""Link interview questions to the explanations that answer them.

Two stages:

1. **Exact match**: a question equal (after the question bank's
   :func:`~prep.questions.normalize.normalize_question`: NFKC, casefold, punctuation, symbols
   and whitespace removed) to one of an explanation's ``questions`` gets
   that explanation with score 1.0, first.
2. **Lexical ranking**: BM25F over the fields title, tags, skills, questions and body, with
   an analyser that works for Chinese, English and mixed text: Latin technical terms (NCCL,
   AllReduce, TCP/IP, C++) are words, CJK text gives character bigrams (and weak unigrams),
   and skill aliases from the taxonomy fold to one canonical term (远程直接内存访问 = RDMA).

Scores are normalised to 0..1 by how much of the question's term weight a document covers,
and a threshold makes the linker abstain on off-topic questions rather than guess.
Translations (the same slug in several languages) are indexed as one explanation.

The index is built once in the constructor; :meth:`Linker.rank` only walks posting lists.
Pure module: no Flask, no database.
"""
from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..questions.normalize import normalize_question
from .document import ExplanationDoc

#: Below this normalised score the linker abstains.
DEFAULT_THRESHOLD = 0.25
#: Links scoring under this fraction of the best link's score are dropped.
DEFAULT_RELATIVE_CUT = 0.5
#: Field weights of BM25F and each field's length-normalisation strength ``b``.
FIELD_WEIGHTS: Mapping[str, float] = {"title": 4.0, "questions": 3.0, "tags": 2.0, "skills": 2.0, "body": 1.0}
FIELD_B: Mapping[str, float] = {"title": 0.3, "questions": 0.5, "tags": 0.3, "skills": 0.3, "body": 0.75}
K1 = 1.2
#: Lexical scores never reach an exact match's 1.0.
MAX_LEXICAL_SCORE = 0.99

# Query-side weights of each kind of term.
_W_SKILL = 1.5
_W_WORD = 1.0
_W_PART = 0.5
_W_NUMBER = 0.3
_W_BIGRAM = 1.0
_W_UNIGRAM = 0.2

_SKILL_PREFIX = "§"
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RUN_RE = re.compile(f"[{_CJK}]+")
_LATIN_RE = re.compile(r"[a-z0-9]+(?:[./\-][a-z0-9]+)*[+#]*")
_PART_SPLIT_RE = re.compile(r"[./\-]")

_EN_STOP = frozenset("""
a an the and or but if then than so as of in on at to for from by with without into onto over
under about between among within via per vs versus is are was were be been being am do does did
done doing have has had having can could should would will shall may might must not no nor
what which who whom whose when where why how whether this that these those there here it its
i me my we our us you your he she they them their his her him one ones some any each every all
both either neither such own same other another more most less least very too also just only
please explain describe tell give walk step steps way ways thing things something someone
use used using work works working make makes made get gets got like s t e g eg ie etc
""".split())

# Function characters that never carry meaning; CJK runs are split at them.
_ZH_SPLIT_CHARS = frozenset("的了吗呢吧啊呀是和与及或请你您我他她它把被着之而")
# Bigrams of question phrasing ("what", "how", "please explain"…), dropped.
_ZH_STOP_BIGRAMS = frozenset("""
什么 怎么 如何 怎样 为什 为何 哪些 哪个 哪两 哪几 一下 一个 一种 请问 解释 描述 说明 介绍 谈谈
是否 可以 能否 有何 有哪 有什 我们 你们 他们 这个 那个 这些 那些 以及 或者 还是 时候 分别 区别 理解
""".split())
_ZH_STOP_UNIGRAMS = frozenset("么什怎如何样哪个一下请问这那些也都就要会能可以吗呢吧啊呀")
# CJK runs are cut at function characters and question phrasing, so no bigram spans them.
_ZH_SPLIT_RE = re.compile(
    "为什么|" + "|".join(sorted(_ZH_STOP_BIGRAMS, key=len, reverse=True))
    + "|[" + "".join(sorted(_ZH_SPLIT_CHARS)) + "]"
)


class TaxonomyLike(Protocol):
    """What the linker needs of :class:`prep.skills.Taxonomy`.

    ``terms()`` maps surface forms to canonical names; a taxonomy that also has
    ``skill_spans(text)`` (as prep.skills does, with case-sensitive short terms) is
    matched with that instead.
    """

    def terms(self) -> dict[str, str]: ...


@dataclass(frozen=True)
class Link:
    """A ranked link from a question to an explanation (by slug); ``score`` is in 0..1."""

    slug: str
    score: float


def _nfkc_fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _stem(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


class Analyzer:
    """Turns text into weighted terms: skills, Latin words, CJK bigrams and unigrams."""

    def __init__(self, taxonomy: TaxonomyLike | None = None) -> None:
        self._alias: dict[str, str] = {}
        self._spans = getattr(taxonomy, "skill_spans", None)
        if taxonomy is not None and self._spans is None:
            for surface, canonical in taxonomy.terms().items():
                key = re.sub(r"[\s\-_]+", " ", _nfkc_fold(surface)).strip()
                if key:
                    self._alias.setdefault(key, canonical)
        self._alias_re: re.Pattern[str] | None = None
        if self._alias:
            parts = []
            for key in sorted(self._alias, key=len, reverse=True):
                pieces = [re.escape(p) for p in key.split(" ")]
                parts.append(r"[\s\-_]*".join(pieces))
            self._alias_re = re.compile(
                r"(?<![a-z0-9])(?:" + "|".join(parts) + r")(?![a-z0-9])"
            )

    def skills_in(self, text: str) -> list[str]:
        """Canonical skill names mentioned in ``text`` (in order, with repeats)."""
        if self._spans is not None:
            return [name for _start, _end, name in self._spans(unicodedata.normalize("NFKC", text))]
        if self._alias_re is None:
            return []
        folded = _nfkc_fold(text)
        found = []
        for match in self._alias_re.finditer(folded):
            key = re.sub(r"[\s\-_]+", " ", match.group(0)).strip()
            canonical = self._alias.get(key)
            if canonical:
                found.append(canonical)
        return found

    def terms(self, text: str) -> list[tuple[str, float]]:
        """The weighted terms of ``text``, with repeats (one entry per occurrence)."""
        out: list[tuple[str, float]] = [
            (_SKILL_PREFIX + name.casefold(), _W_SKILL) for name in self.skills_in(text)
        ]
        folded = _nfkc_fold(text)
        for match in _LATIN_RE.finditer(folded):
            token = match.group(0)
            if token in _EN_STOP:
                continue
            if token.isdigit():
                out.append((token, _W_NUMBER))
                continue
            out.append((_stem(token), _W_WORD))
            if _PART_SPLIT_RE.search(token):
                pieces = [p for p in _PART_SPLIT_RE.split(token) if p]
                for piece in pieces:
                    if piece not in _EN_STOP and len(piece) > 1:
                        out.append((_stem(piece), _W_PART))
                if "-" in token:
                    out.append((_stem("".join(pieces)), _W_WORD))
        for run in _CJK_RUN_RE.finditer(folded):
            for segment in _ZH_SPLIT_RE.split(run.group(0)):
                out.extend(self._cjk_terms(segment))
        return out

    @staticmethod
    def _cjk_terms(segment: str) -> list[tuple[str, float]]:
        out: list[tuple[str, float]] = []
        for i in range(len(segment) - 1):
            out.append((segment[i:i + 2], _W_BIGRAM))
        for ch in segment:
            if ch not in _ZH_STOP_UNIGRAMS:
                out.append((ch, _W_UNIGRAM))
        return out


@dataclass
class _Entry:
    slug: str
    fields: dict[str, Counter[str]]
    lengths: dict[str, float]


class Linker:
    """Ranks explanations for a question. Build once; :meth:`rank` is cheap.

    ``docs`` may come from the content tree or the database (any objects with the
    :class:`~prep.content.document.ExplanationDoc` fields slug, title, tags, skills,
    questions, body). ``taxonomy`` folds skill aliases (None: no folding).
    """

    def __init__(
        self,
        docs: Sequence[ExplanationDoc],
        taxonomy: TaxonomyLike | None = None,
        *,
        threshold: float = DEFAULT_THRESHOLD,
        relative_cut: float = DEFAULT_RELATIVE_CUT,
    ) -> None:
        self.threshold = threshold
        self.relative_cut = relative_cut
        self.analyzer = Analyzer(taxonomy)
        self._exact: dict[str, list[str]] = defaultdict(list)
        grouped: dict[str, list[ExplanationDoc]] = defaultdict(list)
        for doc in docs:
            grouped[doc.slug].append(doc)
            for question in doc.questions:
                key = normalize_question(question)
                if key and doc.slug not in self._exact[key]:
                    self._exact[key].append(doc.slug)
        entries = [self._entry(slug, group) for slug, group in sorted(grouped.items())]
        self.slugs = [e.slug for e in entries]
        self._build(entries)

    # ------------------------------------------------------------------ index

    def _entry(self, slug: str, docs: Iterable[ExplanationDoc]) -> _Entry:
        texts: dict[str, list[str]] = defaultdict(list)
        for doc in docs:
            texts["title"].append(doc.title)
            texts["tags"].extend(doc.tags)
            texts["skills"].extend(doc.skills)
            texts["questions"].extend(doc.questions)
            texts["body"].append(doc.body)
        texts["tags"].append(slug.replace("-", " "))
        fields: dict[str, Counter[str]] = {}
        lengths: dict[str, float] = {}
        for name in FIELD_WEIGHTS:
            counts: Counter[str] = Counter()
            for text in texts[name]:
                for term, weight in self.analyzer.terms(text):
                    counts[term] += weight
            fields[name] = counts
            lengths[name] = sum(counts.values())
        return _Entry(slug, fields, lengths)

    def _build(self, entries: list[_Entry]) -> None:
        n = len(entries)
        avg = {
            name: (sum(e.lengths[name] for e in entries) / n if n else 0.0) or 1.0
            for name in FIELD_WEIGHTS
        }
        df: Counter[str] = Counter()
        pseudo_tf: list[dict[str, float]] = []
        for entry in entries:
            tf: dict[str, float] = defaultdict(float)
            for name, weight in FIELD_WEIGHTS.items():
                norm = 1.0 - FIELD_B[name] + FIELD_B[name] * entry.lengths[name] / avg[name]
                for term, count in entry.fields[name].items():
                    tf[term] += weight * count / norm
            pseudo_tf.append(tf)
            df.update(tf.keys())
        self._n = n
        self._idf: dict[str, float] = {t: self._idf_of(d) for t, d in df.items()}
        # An unseen term counts like the rarest seen term, so a few words absent from the
        # corpus lower the score without sinking an on-topic question.
        self._unseen_idf = self._idf_of(1)
        # postings: term -> [(doc index, saturated tf in 0..1)]
        self._postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, tf in enumerate(pseudo_tf):
            for term, value in tf.items():
                self._postings[term].append((i, value / (value + K1)))

    def _idf_of(self, df: int) -> float:
        return math.log(1.0 + (self._n - df + 0.5) / (df + 0.5))

    # ------------------------------------------------------------------ ranking

    def exact_matches(self, question: str) -> list[str]:
        """Slugs whose ``questions`` contain ``question`` (normalised), in index order."""
        return list(self._exact.get(normalize_question(question), ()))

    def scores(self, question: str) -> dict[str, float]:
        """Normalised lexical scores (0..1) of every explanation sharing a term with ``question``."""
        acc, total = self._accumulate(question)
        return {self.slugs[i]: min(MAX_LEXICAL_SCORE, value / total) for i, value in acc.items()}

    def _accumulate(self, question: str) -> tuple[dict[int, float], float]:
        """Each sharing explanation's (by index) score before normalising, and the query's total
        term weight (empty and 0 when nothing can score)."""
        query: dict[str, float] = {}
        for term, weight in self.analyzer.terms(question):
            query[term] = max(query.get(term, 0.0), weight)
        if not query or not self._n:
            return {}, 0.0
        total = 0.0
        acc: dict[int, float] = defaultdict(float)
        for term, qweight in query.items():
            idf = self._idf.get(term, self._unseen_idf)
            mass = qweight * idf
            total += mass
            for index, saturated in self._postings.get(term, ()):
                acc[index] += mass * saturated
        if total <= 0:
            return {}, 0.0
        return acc, total

    def rank(self, question: str, limit: int = 5) -> list[Link]:
        """The best explanations for ``question``, best first, at most ``limit``.

        Exact question matches come first with score 1.0; lexical matches follow if they
        reach the threshold and ``relative_cut`` of the best lexical score. Empty when
        nothing is relevant enough (the linker abstains).
        """
        if limit <= 0:
            return []
        links = [Link(slug, 1.0) for slug in self.exact_matches(question)]
        taken = {link.slug for link in links}
        # Only scores reaching the threshold can be linked (and the best of them is the best of
        # all when any does), so only those are sorted: not every explanation sharing a word.
        acc, total = self._accumulate(question)
        lexical = []
        for index, value in acc.items():
            score = min(MAX_LEXICAL_SCORE, value / total)
            if score >= self.threshold and self.slugs[index] not in taken:
                lexical.append((score, self.slugs[index]))
        lexical.sort(key=lambda item: (-item[0], item[1]))
        if lexical:
            best = lexical[0][0]
            for score, slug in lexical:
                if score < best * self.relative_cut:
                    break
                links.append(Link(slug, round(score, 4)))
        return links[:limit]
