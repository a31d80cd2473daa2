"""Whether two question texts ask the same question: the same language reworded, or a
translation (Chinese <-> English).

Each text becomes a set of language-independent *concepts*: English words stemmed and folded to
one spelling ("parallelism" = "parallel", "vs" = "differ"), technical terms as written (NCCL,
ZeRO, TIME_WAIT, 1F1B), numbers ("three" = "三" = 3), and Chinese words read through a word list
(``lexicon.yaml``: 序列并行 = sequence + parallel, 瓶颈 = bottleneck). Chinese the list does not
know stays as character pairs, which only another Chinese text can share. Question framing
("What is…", "讲讲…", "…有什么区别") gives nothing, or a weak concept (differ, why).

Concepts weigh by how rare they are among the shipped explanations' questions (``weights.json``,
made by ``scripts/matcher_weights.py``: inverse document frequency, a plain data file; an unseen
concept weighs like the rarest seen one). The score is the weighted Dice overlap of the two
sets, so a question's subject decides it: "sequence vs context parallelism" and "tensor vs
pipeline parallelism" share only "parallel" and "differ". A pair where each side has a rare
word, a technical term (written NCCL, GPU, FP16) or a number the other lacks (stage 2 / stage 3,
TCP / RDMA, GPU / CPU) is a substitution, not a rewording: its score is cut by
:data:`SUBSTITUTION_FACTOR`.

tests/questions/test_matcher.py measures precision and recall on labelled pairs
(tests/data/question_pairs/: pairs.yaml, and heldout.yaml written after the settings) at
:data:`MATCH_THRESHOLD`.

Linear in the length of the texts. Pure module: no Flask, no database.
"""
from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml

#: Two questions at or above this score are the same question.
MATCH_THRESHOLD = 0.55
#: A score is multiplied by this when each side has a distinguishing concept the other lacks.
SUBSTITUTION_FACTOR = 0.5
#: A concept weighing at least this is distinguishing (rare: a subject, not the language around it).
DISTINGUISHING_WEIGHT = 2.8
#: Weights of framing concepts and numbers (what kind of question; which stage).
FRAMING_WEIGHT = 0.5
NUMBER_WEIGHT = 1.5
#: An unknown Chinese character pair counts this much of its weight against a text in the other
#: language (it may well be said there in words the list does not know).
UNTRANSLATED_FACTOR = 0.5
#: Longest Chinese word looked up.
MAX_ZH_WORD = 8
#: Longest text read (characters): longer questions are cut, so the matcher stays linear.
MAX_CHARS = 1000

_HERE = Path(__file__).resolve().parent
LEXICON_PATH = _HERE / "lexicon.yaml"
#: The weights file's entry for a concept it does not list (met at most once when it was made).
UNSEEN = "(unseen)"
WEIGHTS_PATH = _HERE / "matcher_weights.json"

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RE = re.compile(rf"[{_HAN}]+|[a-z0-9α-ω]+(?:(?:::|[._/\-])[a-z0-9]+)*[+#]*", re.IGNORECASE)
# A token written as a technical term: a capital after its first letter (NCCL, PagedAttention) or a
# digit with letters (FP16, H100).
_TERM_RE = re.compile(r"^.+[A-Z]|[A-Za-z].*[0-9]|[0-9].*[A-Za-z]")
_HAN_RE = re.compile(rf"[{_HAN}]")
_NUMBER_RE = re.compile(r"^\d+$")
_GLUED_NUMBER_RE = re.compile(r"^(\d+)([a-z]{2,})$")
_ISE_RE = re.compile(r"(?<=[a-z]{3})([iy])s(e|ed|es|ing|er|ers|ation|ations)$")


def stem(word: str) -> str:
    """A light English stem: British -ise as -ize, then a plural or -ed/-ing ending off."""
    word = _ISE_RE.sub(r"\1z\2", word)
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 5 and word.endswith("ing"):
        return word[:-3].rstrip("e")
    if len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
        return word[:-2]
    if len(word) > 3 and word.endswith("es") and word[-3] in "sxz":
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    return word[:-1] if len(word) > 4 and word.endswith("e") and word[-2] not in "aeiou" else word


@dataclass(frozen=True)
class Lexicon:
    """The word list (see ``lexicon.yaml``): Chinese words and English synonyms to concepts."""

    zh: Mapping[str, tuple[str, ...]]
    en: Mapping[str, tuple[str, ...]]
    en_stop: frozenset[str]
    zh_stop: frozenset[str]
    framing: frozenset[str]

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Lexicon:
        en_stop = frozenset(str(w) for w in data.get("en_stop", []) or [])  # type: ignore[union-attr]
        en_raw = {str(k): str(v) for k, v in (data.get("en") or {}).items()}  # type: ignore[union-attr]

        direct = {stem(k.casefold()): tuple(_english_concept(w) for w in v.split()) for k, v in en_raw.items()}

        def concepts(words: str) -> tuple[str, ...]:  # an English word of the list, through its synonym
            out: list[str] = []
            for word in words.split():
                concept = _english_concept(word)
                out.extend(direct.get(concept, (concept,)) if concept not in en_stop else ())
            return tuple(out)

        en = {k: concepts(v) for k, v in en_raw.items()}
        en = {stem(k.casefold()): v for k, v in en.items()}
        zh = {str(k): concepts(str(v)) for k, v in (data.get("zh") or {}).items()}  # type: ignore[union-attr]
        zh_stop = frozenset(str(w) for w in data.get("zh_stop", []) or [])  # type: ignore[union-attr]
        framing = frozenset(str(w) for w in data.get("framing", []) or [])  # type: ignore[union-attr]
        return cls(zh=zh, en=en, en_stop=en_stop, zh_stop=zh_stop, framing=framing)


def _english_concept(word: str) -> str:
    """An English word of the word list as a concept, stemmed as text is."""
    word = word.casefold()
    return word if _NUMBER_RE.match(word) else stem(word)


@functools.cache
def load_lexicon(path: Path = LEXICON_PATH) -> Lexicon:
    return Lexicon.from_data(yaml.safe_load(path.read_text(encoding="utf-8")) or {})


@functools.cache
def load_weights(path: Path = WEIGHTS_PATH) -> dict[str, float]:
    """Concept -> weight (the shipped data file; empty when it is missing)."""
    if not path.exists():
        return {}
    return {str(k): float(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()}


@dataclass(frozen=True)
class Concepts:
    """A text's concepts: the ones every language shares, and unknown Chinese character pairs."""

    shared: frozenset[str]
    untranslated: frozenset[str] = field(default_factory=frozenset)
    lang: str = "en"
    #: The concepts written as technical terms (NCCL, GPU, PagedAttention, FP16): distinguishing.
    terms: frozenset[str] = field(default_factory=frozenset)

    @property
    def all(self) -> frozenset[str]:
        return self.shared | self.untranslated


@dataclass(frozen=True)
class Weighed:
    """A text's concepts as one :class:`Matcher` weighs them (:meth:`Matcher.weigh`)."""

    matcher: Matcher
    concepts: Concepts
    all: frozenset[str]
    #: The summed weights of ``all`` and of ``concepts.shared``.
    all_weight: float
    shared_weight: float
    #: The concepts of ``all`` that distinguish a question: a rare word, a technical term, a number.
    distinguishing: frozenset[str]
    #: Each concept of ``all`` with its weight (looked up once, not again for every text it meets).
    weights: Mapping[str, float] = field(compare=False)


def _substituted(only: frozenset[str], side: Weighed, other_terms: frozenset[str]) -> bool:
    """Whether ``only`` (what one side has and the other lacks) holds a distinguishing concept:
    one of that side's, or a technical term of the other side's."""
    return not (only.isdisjoint(side.distinguishing) and only.isdisjoint(other_terms))


def concepts(text: str, lexicon: Lexicon | None = None) -> Concepts:
    """The concepts of one question text (see the module docstring)."""
    lexicon = lexicon or load_lexicon()
    written = unicodedata.normalize("NFKC", text[:MAX_CHARS])
    shared: set[str] = set()
    untranslated: set[str] = set()
    terms: set[str] = set()
    for match in _TOKEN_RE.finditer(written):
        token = match.group(0).casefold()
        if _HAN_RE.match(token):
            _chinese(token, lexicon, shared, untranslated)
        elif _TERM_RE.search(match.group(0)):
            found: set[str] = set()
            _latin(token, lexicon, found)
            shared |= found
            terms |= found
        else:
            _latin(token, lexicon, shared)
    shared.discard("")
    return Concepts(frozenset(shared), frozenset(untranslated), "zh" if _HAN_RE.search(written) else "en",
                    frozenset(terms - {""}))


def _latin(token: str, lexicon: Lexicon, out: set[str]) -> None:
    """A Latin token's concepts: joined with - or _ it is one term (all-reduce = allreduce,
    TIME_WAIT) and its parts too (copy-on-write meets copy + write); / . :: separate words; a
    number glued to a word is both (2MSL = 2 + MSL)."""
    joined = re.sub(r"[\-_]", "", token)
    parts = [p for p in re.split(r"::|[./]", joined) if p]
    if "-" in token:
        parts += [p for p in re.split(r"[\-_]", token) if p]
    glued = _GLUED_NUMBER_RE.match(joined)
    if glued:
        parts = [glued.group(1), glued.group(2)]
    for part in parts:
        if part in lexicon.en_stop:
            continue
        if _NUMBER_RE.match(part):
            out.add(part)
            continue
        stemmed = stem(part)
        mapped = lexicon.en.get(stemmed, lexicon.en.get(part))
        if mapped is None:
            out.add(stemmed)
        else:
            out.update(mapped)


def _chinese(run: str, lexicon: Lexicon, shared: set[str], untranslated: set[str]) -> None:
    """Greedy longest match of the word list (and the framing to drop) over a run of Chinese;
    what is left between words gives character pairs (a lone character, itself)."""
    i, rest = 0, []
    while i < len(run):
        found = 0
        for size in range(min(MAX_ZH_WORD, len(run) - i), 0, -1):
            piece = run[i:i + size]
            if piece in lexicon.zh or piece in lexicon.zh_stop:
                found = size
                break
        if not found:
            rest.append(run[i])
            i += 1
            continue
        _flush(rest, untranslated)
        rest = []
        piece = run[i:i + found]
        if piece in lexicon.zh:
            shared.update(lexicon.zh[piece])
        i += found
    _flush(rest, untranslated)


def _flush(chars: list[str], out: set[str]) -> None:
    if len(chars) == 1:
        out.add("zh:" + chars[0])
    for a, b in zip(chars, chars[1:]):
        out.add("zh:" + a + b)


class Matcher:
    """Scores pairs of question texts (see the module docstring). ``weights``: concept ->
    weight (default: the shipped file)."""

    def __init__(self, lexicon: Lexicon | None = None, weights: Mapping[str, float] | None = None,
                 threshold: float = MATCH_THRESHOLD) -> None:
        self.lexicon = lexicon or load_lexicon()
        self.weights = dict(load_weights() if weights is None else weights)
        self.unseen = self.weights.pop(UNSEEN, max(self.weights.values(), default=4.0))
        self.threshold = threshold

    def concepts(self, text: str) -> Concepts:
        return concepts(text, self.lexicon)

    def weight(self, concept: str) -> float:
        if concept in self.lexicon.framing:
            return FRAMING_WEIGHT
        if _NUMBER_RE.match(concept):
            return NUMBER_WEIGHT
        return self.weights.get(concept, self.unseen)

    def weigh(self, text: str | Concepts | Weighed) -> Weighed:
        """What :meth:`score` reads of one side, worked out once: a text scored against many
        (a bank question) keeps its :class:`Weighed` and passes that."""
        if isinstance(text, Weighed) and text.matcher is self:
            return text
        meaning = text.concepts if isinstance(text, Weighed) else \
            text if isinstance(text, Concepts) else self.concepts(text)
        every = meaning.all
        weights = {c: self.weight(c) for c in every}
        distinguishing = frozenset(c for c in every if _NUMBER_RE.match(c) is not None or c in meaning.terms
                                   or (c not in self.lexicon.framing and weights[c] >= DISTINGUISHING_WEIGHT))
        return Weighed(self, meaning, every, sum(weights.values()), sum(weights[c] for c in meaning.shared),
                       distinguishing, weights)

    def total(self, concepts: Iterable[str]) -> float:
        """The summed weight of ``concepts``."""
        return sum(self.weight(c) for c in concepts)

    def score(self, a: str | Concepts | Weighed, b: str | Concepts | Weighed) -> float:
        """How surely ``a`` and ``b`` are one question, 0..1."""
        wa, wb = self.weigh(a), self.weigh(b)
        ca, cb = wa.concepts, wb.concepts
        if ca.lang != cb.lang:
            sa, sb = ca.shared, cb.shared
            total = wa.shared_weight + wb.shared_weight
            # unknown Chinese words cannot meet the other language's words: they count less
            total += UNTRANSLATED_FACTOR * self.total(ca.untranslated | cb.untranslated)
        else:
            sa, sb = wa.all, wb.all
            total = wa.all_weight + wb.all_weight
        common = sa & sb
        if total <= 0 or not common:
            return 0.0
        score = 2.0 * sum(map(wa.weights.__getitem__, common)) / total
        if _substituted(sa - common, wa, cb.terms) and _substituted(sb - common, wb, ca.terms):
            score *= SUBSTITUTION_FACTOR
        return round(min(1.0, score), 4)

    def reachable(self, a: str | Concepts | Weighed, others: Iterable[Weighed]) -> list[bool]:
        """For each of ``others``: whether its :meth:`score` with ``a`` can reach the threshold,
        judged by a bound the score never exceeds that costs a set intersection and a short sum:
        the weight the two share over both sides' weight, without what only lowers the score (a
        cross-language pair's untranslated words in the total, the substitution cut). A search
        over many candidates scores only the reachable ones."""
        a = self.weigh(a)
        lang, every, shared, weight = a.concepts.lang, a.all, a.concepts.shared, a.weights.__getitem__
        # A score is rounded to 4 places: one a hair under the threshold may round up to it.
        cut = self.threshold - 1e-4
        out = []
        for b in others:
            if b.matcher is not self:
                b = self.weigh(b)
            if b.concepts.lang == lang:
                common, total = every & b.all, a.all_weight + b.all_weight
            else:
                common, total = shared & b.concepts.shared, a.shared_weight + b.shared_weight
            out.append(total > 0 and bool(common) and 2.0 * sum(map(weight, common)) >= cut * total)
        return out

    def same(self, a: str | Concepts | Weighed, b: str | Concepts | Weighed) -> bool:
        """Whether ``a`` and ``b`` are one question (score at least the threshold)."""
        return self.score(a, b) >= self.threshold


@functools.cache
def default_matcher() -> Matcher:
    """The matcher with the shipped word list and weights (built once per process)."""
    return Matcher()
