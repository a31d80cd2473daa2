"""Link interview questions to the explanations that answer them.

Two stages:

1. **Exact match**: a question equal (after the question bank's
   :func:`~prep.questions.normalize.normalize_question`: NFKC, casefold, punctuation, symbols
   and whitespace removed) to one of an explanation's ``questions`` gets
   that explanation with score 1.0, first.
2. **Lexical ranking**: BM25F over the fields title, tags, skills, questions and body, with
   an analyser that works for Chinese, English and mixed text: Latin technical terms (NCCL,
   AllReduce, TCP/IP, C++, TIME_WAIT, std::move) are words, British and American spellings are
   one and so are the forms of an -ize verb (quantizing, quantization), CJK text gives
   character bigrams (and weak unigrams) with Traditional characters read as Simplified (a pair
   joining two commoner pairs, 能分 of 性能分析, weighs less), and skill aliases from the
   taxonomy fold to one canonical term (远程直接内存访问 = RDMA; KV-cache is the skill KV cache,
   not a rare word); three spaced words find the term written joined (copy on write).

A lexical score (0..1) says how sure a link is, for questions as people ask them:

- **coverage**: how much of the question's term weight an explanation covers. Question framing
  ("讲讲…", "…了解吗", "I was asked about…") carries no weight; CJK words only explanations'
  bodies use (发生, 主要) weigh less than the topic vocabulary of titles, tags, skills and questions;
  an unseen CJK pair beside a seen one is a word boundary, not a word, and so is an unseen joined
  spelling of seen words (unorder_map); a term only an explanation's body mentions counts for that
  explanation at most ``BODY_ONLY_CAP``;
- **question-likeness**: how closely the question says one of the explanation's listed
  questions (which hold the real phrasings in both languages), raising the coverage;
- **lead**: a link that clearly leads the runner-up is raised, one that several explanations
  answer about equally well is lowered (the best one stays a suggestion).

tests/questions/test_field_links.py measures it on questions as real interviews ask them.

Below a threshold the linker abstains on off-topic questions rather than guess. Translations (the
same slug in several languages) are indexed as one explanation.

The index is built once in the constructor; :meth:`Linker.rank` only walks posting lists.
Pure module: no Flask, no database.
"""
from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..chinese_script import simplified_characters
from ..questions.normalize import normalize_question
from .document import ExplanationDoc

#: Below this normalised score the linker abstains.
DEFAULT_THRESHOLD = 0.3
#: Links scoring under this fraction of the best link's score are dropped.
DEFAULT_RELATIVE_CUT = 0.5
#: Field weights of BM25F and each field's length-normalisation strength ``b``.
FIELD_WEIGHTS: Mapping[str, float] = {"title": 4.0, "questions": 3.0, "tags": 2.0, "skills": 2.0, "body": 1.0}
FIELD_B: Mapping[str, float] = {"title": 0.3, "questions": 0.5, "tags": 0.3, "skills": 0.3, "body": 0.75}
K1 = 1.2
#: A link leading the best other one by more than LEAD_PAR gains LEAD_WEIGHT x the excess (the lead
#: counted up to LEAD_CAP), in full once it scores PLAUSIBLE (none at the threshold); one leading by
#: less (or trailing) loses up to AMBIGUITY_PENALTY of its score.
LEAD_WEIGHT = 1.5
LEAD_PAR = 0.05
LEAD_CAP = 0.15
PLAUSIBLE = 0.5
AMBIGUITY_PENALTY = 0.4
#: Question-likeness raises coverage by (1 - coverage) x likeness ** LIKENESS_POWER: a near-copy of
#: a listed question counts, a question sharing half its terms with one a quarter, a few shared words barely.
LIKENESS_POWER = 2
#: The most a term found only in an explanation's body adds to its saturated weight (0..1).
BODY_ONLY_CAP = 0.4
#: Lexical scores never reach an exact match's 1.0.
MAX_LEXICAL_SCORE = 0.99
#: A question whose terms overlap one an explanation lists by this much (Dice, 0..1) is one the
#: page was written for: pages that only share the topic are not linked beside it. On the field set
#: the first link stays as it was for every question (0.5 would move one to a wrong page).
LISTED_LIKENESS = 0.6

# Query-side weights of each kind of term.
_W_SKILL = 1.5
_W_WORD = 1.0
_W_PART = 0.5
_W_NUMBER = 0.3
_W_BIGRAM = 1.0
_W_UNIGRAM = 0.2

#: Weight of a CJK term only explanations' bodies use (never a title, tag, skill or question),
#: relative to its idf: 主要, 发生, 改变 are the language around topics. (A Latin word is left whole:
#: the English framing words are stop words, and an off-topic question's own word, "React" of
#: "React hooks", may well appear in some body in passing.)
PROSE_FACTOR = 0.3
#: Weight of an unseen CJK bigram that spans two words, relative to the rarest seen term.
UNSEEN_SPANNING_FACTOR = 0.1
#: A seen CJK bigram between two bigrams commoner by BRIDGE_MARGIN of idf (about twice the
#: explanations) joins two words; its idf counts BRIDGE_FACTOR.
BRIDGE_MARGIN = 0.7
BRIDGE_FACTOR = 0.3

_SKILL_PREFIX = "§"
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RUN_RE = re.compile(f"[{_CJK}]+")
# A term may be joined by '.', '/', '-' or '_' (TCP/IP, all-reduce, TIME_WAIT, SO_REUSEADDR stay one
# term; their parts are weaker terms of their own).
_LATIN_RE = re.compile(r"[a-z0-9]+(?:(?:::|[./\-_])[a-z0-9]+)*[+#]*")
_PART_SPLIT_RE = re.compile(r"::|[./\-_]")

_EN_STOP = frozenset("""
a an the and or but if then than so as of in on at to for from by with without into onto over
under about between among within via per vs versus is are was were be been being am do does did
done doing have has had having can could should would will shall may might must not no nor
what which who whom whose when where why how whether this that these those there here it its
i me my we our us you your he she they them their his her him one ones some any each every all
both either neither such own same other another more most less least very too also just only
please explain describe tell give walk step steps way ways thing things something someone
use used using work works working make makes made get gets got like s t e g eg ie etc
ask asks asked asking interviewer interviewers interview interviews know knew known familiar talk
discuss question questions understand understanding concept concepts brief briefly detail details
example examples provide mention say said think experience principle principles purpose
advantage advantages disadvantage disadvantages pros cons benefit benefits characteristic
characteristics underlying internals internally hood achieve achieved achieving accomplish accomplished
difference differences differ different compare compared comparison rather
""".split())

# Function characters that never carry meaning; CJK runs are split at them.
_ZH_SPLIT_CHARS = frozenset("的了吗呢吧啊呀是和与及或请你您我他她它把被着之而做到")
# Bigrams of question phrasing ("what", "how", "please explain"…), dropped.
_ZH_STOP_BIGRAMS = frozenset("""
什么 怎么 如何 怎样 为什 为何 哪些 哪个 哪两 哪几 一下 一个 一种 请问 解释 描述 说明 介绍 谈谈
是否 可以 能否 有何 有哪 有什 我们 你们 他们 这个 那个 这些 那些 以及 或者 还是 时候 分别 区别 理解
讲讲 说说 聊聊 讲下 说下 讲一 说一 知道 听过 听说 简单 大概 具体 通俗 易懂 表述 比如 这种 那种 这样 那样
有没 没有 面试官 面试 问到 问了 能想 想到 了解 说一下 讲一下 聊一下 介绍下 有没有 能不能 会不会 是不是
原理 作用 优点 缺点 优缺 好处 特点 概念 底层
有什么 有哪些 是什么 不同 在哪 在哪里 哪里 几种 多少 各自 两者 熟悉 直白 尽量 平时 一般 常见 常用
要注意 需要注意 注意事项 注意什么 注意哪些 会发生 会怎样 会怎么样
场景 用在 适用 适合 干什么 做什么 什么用 好在 差在 有何不同 本质 遇到 碰到 遇到过 碰到过 实现 基本
""".split())
# Auxiliaries that begin the next word ("变量会落到…": 量会 spans two words): a pair ending in one is
# no word of its own (会话 and 要求, which start with one, stay).
_ZH_AUXILIARY_SECOND = frozenset("会要")
_ZH_STOP_UNIGRAMS = frozenset("么什怎如何样哪个一下请问这那些也都就要会能可以吗呢吧啊呀")
# CJK runs are cut at function characters and question phrasing, so no bigram spans them.
_ZH_SPLIT_RE = re.compile(
    "为什么[能会要该]?|" + "|".join(sorted(_ZH_STOP_BIGRAMS, key=len, reverse=True))
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
    """A ranked link from a question to an explanation (by slug); ``score`` is in 0..1.
    ``listed``: the explanation's own ``questions:`` say this question (the same words, or
    nearly: see :data:`LISTED_LIKENESS`)."""

    slug: str
    score: float
    listed: bool = False


# Traditional characters folded to simplified (the pages are written in simplified): 說一下電腦訪問http的過程
# reads as 说一下电脑访问http的过程. Characters only; words that differ (記憶體/内存, 執行緒/线程) are not translated.
_TRADITIONAL = simplified_characters()


def _nfkc_fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold().translate(_TRADITIONAL)


# British and American spellings fold together (optimise/optimize, utilisation/utilization,
# analyse/analyze): the pages are written in one, questions come in both.
_NON_WORD_RE = re.compile(r"[\W_]+")
_ISE_RE = re.compile(r"(?<=[a-z]{3})([iy])s(e|ed|es|ing|er|ers|ation|ations)$")


# Forms of one -ize verb are one term: quantize, quantized, quantizing, quantization, quantizer.
_IZE_RE = re.compile(r"(?<=[a-z]{3})([iy]z)(e|ed|es|ing|er|ers|ation|ations)$")


@functools.lru_cache(maxsize=1 << 16)  # a build stems each word of every page: ~300k calls, a few thousand words
def _stem(word: str) -> str:
    word = _IZE_RE.sub(r"\1", _ISE_RE.sub(r"\1z\2", word))
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
        return [name for _start, _end, name in self.skill_spans(text)]

    def skill_spans(self, text: str) -> list[tuple[int, int, str]]:
        """Skill mentions in ``text`` as (start, end, canonical name), positions in its NFKC form
        (the taxonomy's matcher) or in its folded form (the aliases)."""
        if self._spans is not None:
            return list(self._spans(unicodedata.normalize("NFKC", text)))
        if self._alias_re is None:
            return []
        found = []
        for match in self._alias_re.finditer(_nfkc_fold(text)):
            key = re.sub(r"[\s\-_]+", " ", match.group(0)).strip()
            canonical = self._alias.get(key)
            if canonical:
                found.append((match.start(), match.end(), canonical))
        return found

    def terms(self, text: str) -> list[tuple[str, float]]:
        """The weighted terms of ``text``, with repeats (one entry per occurrence)."""
        spans = self.skill_spans(text)
        out: list[tuple[str, float]] = [(_SKILL_PREFIX + name.casefold(), _W_SKILL) for _s, _e, name in spans]
        folded = _nfkc_fold(text)
        # A joined spelling of a skill's own name (KV-cache for the skill KV cache) is that skill: as
        # a word of its own it would weigh as the rare spelling it is, not as the common concept.
        # The spans of each skill by its name's letters (a word is looked up, not compared with each span).
        within_skill: dict[str, list[tuple[int, int]]] = {}
        if len(folded) == len(unicodedata.normalize("NFKC", text)):
            for a, b, name in spans:
                within_skill.setdefault(_NON_WORD_RE.sub("", name.casefold()), []).append((a, b))
        for match in _LATIN_RE.finditer(folded):
            token = match.group(0)
            if token in _EN_STOP:
                continue
            if token.isdigit():
                out.append((token, _W_NUMBER))
                continue
            joined = "-" in token or "_" in token
            bare = _NON_WORD_RE.sub("", token) if joined else token
            spelled = joined and any(a <= match.start() and match.end() <= b
                                     for a, b in within_skill.get(bare, ()))
            if not spelled:
                out.append((_stem(token), _W_WORD))
            if _PART_SPLIT_RE.search(token):
                pieces = [p for p in _PART_SPLIT_RE.split(token) if p]
                for piece in pieces:
                    if piece not in _EN_STOP and len(piece) > 1:
                        out.append((_stem(piece), _W_PART))
                if joined and not spelled:
                    out.append((_stem("".join(pieces)), _W_WORD))
        for segment in self.cjk_segments(folded):
            out.extend(self._cjk_terms(segment))
        return out

    @staticmethod
    def cjk_segments(text: str) -> list[str]:
        """The runs of CJK text, cut at function characters and question phrasing."""
        folded = _nfkc_fold(text)
        return [segment for run in _CJK_RUN_RE.finditer(folded)
                for segment in _ZH_SPLIT_RE.split(run.group(0)) if segment]

    @staticmethod
    def _cjk_terms(segment: str) -> list[tuple[str, float]]:
        out: list[tuple[str, float]] = []
        for i in range(len(segment) - 1):
            if segment[i + 1] not in _ZH_AUXILIARY_SECOND:
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
        listed_likeness: float = LISTED_LIKENESS,
    ) -> None:
        self.threshold = threshold
        self.relative_cut = relative_cut
        self.listed_likeness = listed_likeness
        self.analyzer = Analyzer(taxonomy)
        self._exact: dict[str, list[str]] = defaultdict(list)
        grouped: dict[str, list[ExplanationDoc]] = defaultdict(list)
        for doc in docs:
            grouped[doc.slug].append(doc)
            for question in doc.questions:
                key = normalize_question(question)
                if key and doc.slug not in self._exact[key]:
                    self._exact[key].append(doc.slug)
        # Each distinct title, tag, skill and question is analysed once in a build: pages share tags
        # and skills, and a listed question is indexed twice (as a field, and for question-likeness).
        terms = functools.lru_cache(maxsize=None)(self.analyzer.terms)
        entries = [self._entry(slug, group, terms) for slug, group in sorted(grouped.items())]
        self.slugs = [e.slug for e in entries]
        self._build(entries)
        self._index_questions(sorted(grouped.items()), terms)

    # ------------------------------------------------------------------ index

    def _entry(self, slug: str, docs: Iterable[ExplanationDoc],
               terms: Callable[[str], list[tuple[str, float]]]) -> _Entry:
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
            # A body is not repeated (kept, its terms would stay in memory until the build ends).
            analyse = self.analyzer.terms if name == "body" else terms
            for text in texts[name]:
                for term, weight in analyse(text):
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
        head_tf: list[dict[str, float]] = []
        for entry in entries:
            tf: dict[str, float] = defaultdict(float)
            head: dict[str, float] = defaultdict(float)
            for name, weight in FIELD_WEIGHTS.items():
                norm = 1.0 - FIELD_B[name] + FIELD_B[name] * entry.lengths[name] / avg[name]
                for term, count in entry.fields[name].items():
                    tf[term] += weight * count / norm
                    if name != "body":
                        head[term] += weight * count / norm
            pseudo_tf.append(tf)
            head_tf.append(head)
            df.update(tf.keys())
        self._n = n
        self._idf: dict[str, float] = {t: self._idf_of(d) for t, d in df.items()}
        # An unseen term counts like the rarest seen term, so a few words absent from the
        # corpus lower the score without sinking an on-topic question.
        self._unseen_idf = self._idf_of(1)
        # postings: term -> [(doc index, saturated tf in 0..1)]
        self._postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        # The topic vocabulary: terms some explanation's title, tags, skills or questions use. A
        # CJK term only bodies use (主要, 发生) is the language around topics, not a topic.
        self._topical: set[str] = {term for head in head_tf for term in head}
        # A term only the body mentions (a word in passing, a name in a code sample) counts at most
        # BODY_ONLY_CAP: what an explanation is about shows in its title, tags, skills and questions.
        for i, tf in enumerate(pseudo_tf):
            head = head_tf[i]
            for term, value in tf.items():
                in_head = head.get(term, 0.0)
                saturated = min(value / (value + K1), in_head / (in_head + K1) + BODY_ONLY_CAP)
                self._postings[term].append((i, saturated))

    def _index_questions(self, groups: list[tuple[str, list[ExplanationDoc]]],
                         terms_of: Callable[[str], list[tuple[str, float]]]) -> None:
        """Each listed question's terms, for the question-likeness of a query (see
        :meth:`_question_likeness`): term -> {weight: [question number]} (a term has one of the
        analyser's few weights in each question), and each question's explanation (by index) and
        total mass."""
        self._question_doc: list[int] = []
        self._question_mass: list[float] = []
        self._question_postings: dict[str, dict[float, list[int]]] = defaultdict(dict)
        for index, (_slug, group) in enumerate(groups):
            for doc in group:
                for question in doc.questions:
                    terms: dict[str, float] = {}
                    for term, weight in terms_of(question):
                        terms[term] = max(terms.get(term, 0.0), weight)
                    mass = sum(w * self._idf.get(t, self._unseen_idf) for t, w in terms.items())
                    if mass <= 0:
                        continue
                    number = len(self._question_doc)
                    self._question_doc.append(index)
                    self._question_mass.append(mass)
                    for term, weight in terms.items():
                        self._question_postings[term].setdefault(weight, []).append(number)

    def _idf_of(self, df: int) -> float:
        return math.log(1.0 + (self._n - df + 0.5) / (df + 0.5))

    # ------------------------------------------------------------------ ranking

    def exact_matches(self, question: str) -> list[str]:
        """Slugs whose ``questions`` contain ``question`` (normalised), in index order."""
        return list(self._exact.get(normalize_question(question), ()))

    def scores(self, question: str) -> dict[str, float]:
        """Normalised lexical scores (0..1) of every explanation sharing a term with ``question``."""
        return {self.slugs[i]: score for i, score in self._scored(question)[0].items()}

    def _query(self, question: str) -> dict[str, tuple[float, float]]:
        """The query's terms: term -> (analyser weight, mass = weight x idf)."""
        query: dict[str, float] = {}
        for term, weight in self.analyzer.terms(question):
            query[term] = max(query.get(term, 0.0), weight)
        for compound in self._compounds(question):
            query.setdefault(compound, _W_WORD)
        pairs = [[segment[i:i + 2] for i in range(len(segment) - 1)]
                 for segment in self.analyzer.cjk_segments(question)]
        spanning = self._spanning_bigrams(pairs) | self._unseen_compounds(question)
        bridges = self._bridging_bigrams(pairs)
        out: dict[str, tuple[float, float]] = {}
        for term, qweight in query.items():
            idf = self._idf.get(term)
            if idf is None:
                # An unseen term weighs like the rarest seen one (what makes an off-topic question
                # abstain), except a CJK pair that spans two words ("接特" of 连接特别多) and a joined
                # spelling of seen words (unorder_map).
                idf = self._unseen_idf * (UNSEEN_SPANNING_FACTOR if term in spanning else 1.0)
            elif term in bridges:
                idf *= BRIDGE_FACTOR
            elif term not in self._topical and _CJK_RUN_RE.match(term):
                idf *= PROSE_FACTOR
            out[term] = (qweight, qweight * idf)
        return out

    def _compounds(self, question: str) -> list[str]:
        """Three adjacent Latin words written together as a term some explanation uses: "copy on
        write" is the copy-on-write of the pages. (Two-word runs are left alone: "KV cache" or
        "global memory" glued are identifiers in code, and matching them cost more than it won.)"""
        folded = _nfkc_fold(question)
        words = [(m.group(0), m.start(), m.end()) for m in re.finditer(r"[a-z0-9]+", folded)]
        found = []
        for i in range(len(words) - 2):
            run = words[i:i + 3]
            if any(not folded[a[2]:b[1]] or folded[a[2]:b[1]].strip() for a, b in zip(run, run[1:])):
                continue  # only words apart with spaces (joined ones are the analyser's already)
            joined = _stem("".join(word for word, _s, _e in run))
            if joined in self._idf:
                found.append(joined)
        return found

    def _unseen_compounds(self, question: str) -> set[str]:
        """Joined terms (unorder_map, topo-sort, and their glued forms) no explanation uses though
        some of their parts are used: another spelling of words the parts already carry."""
        found: set[str] = set()
        for match in _LATIN_RE.finditer(_nfkc_fold(question)):
            token = match.group(0)
            if not _PART_SPLIT_RE.search(token) or _stem(token) in self._idf:
                continue
            pieces = [p for p in _PART_SPLIT_RE.split(token) if p]
            if any(_stem(p) in self._idf for p in pieces):
                found.update({_stem(token), _stem("".join(pieces))})
        return found

    def _spanning_bigrams(self, segments: list[list[str]]) -> set[str]:
        """Unseen CJK bigrams (of each segment's pairs) next to a seen one: with no word list, a pair
        no explanation contains beside a pair some explanation does is most likely a word boundary
        (连接|特别: 接特), while an unseen pair between unseen ones is an unknown word (秒杀)."""
        spanning: set[str] = set()
        for pairs in segments:
            for i, pair in enumerate(pairs):
                if pair in self._idf:
                    continue
                if (i > 0 and pairs[i - 1] in self._idf) or (i + 1 < len(pairs) and pairs[i + 1] in self._idf):
                    spanning.add(pair)
        return spanning

    def _bridging_bigrams(self, segments: list[list[str]]) -> set[str]:
        """Seen CJK bigrams (of each segment's pairs) between two commoner ones: 能分 of 性能分析
        joins two words (性能, 分析), and the rarity of the join says nothing about the topic."""
        bridges: set[str] = set()
        for pairs in segments:
            for i in range(1, len(pairs) - 1):
                idf = self._idf.get(pairs[i])
                left, right = self._idf.get(pairs[i - 1]), self._idf.get(pairs[i + 1])
                if idf is not None and left is not None and right is not None \
                        and max(left, right) + BRIDGE_MARGIN <= idf:
                    bridges.add(pairs[i])
        return bridges

    def _scored(self, question: str, floor: float = 0.0) -> tuple[dict[int, float], dict[int, float]]:
        """Each explanation's (by index) score in 0..1: how much of the query's term mass it
        covers, raised towards how closely the query says one of its listed questions; and that
        question-likeness (see :meth:`_question_likeness`).

        ``floor``: only explanations whose score may reach it are scored (:meth:`rank` passes its
        threshold). Below the default threshold the adjustment only lowers a score, so a raw score
        under both cannot end at or above ``floor``."""
        if not self._n:
            return {}, {}
        query = self._query(question)
        total = sum(mass for _w, mass in query.values())
        if total <= 0:
            return {}, {}
        acc: dict[int, float] = defaultdict(float)
        for term, (_w, mass) in query.items():
            for index, saturated in self._postings.get(term, ()):
                acc[index] += mass * saturated
        likeness = self._question_likeness(query, total)
        raw = {index: value / total for index, value in acc.items()}
        for index, like in likeness.items():
            if index in raw:
                raw[index] = _combine(raw[index], like)  # (with no likeness the score is the coverage)
        if not raw:
            return {}, likeness
        # How far an explanation stands out from the best other one: a question that several
        # explanations answer about equally well ("What is a CUDA warp?" against every CUDA page)
        # is no confident link to any of them; one that a single explanation answers clearly is.
        first = second = 0.0
        for score in raw.values():
            if score > first:
                first, second = score, first
            elif score > second:
                second = score
        out = {}
        floor = min(floor, DEFAULT_THRESHOLD)
        for index, score in raw.items():
            if score < floor:
                continue
            lead = score - (second if score >= first else first)
            plausible = max(0.0, min(1.0, (score - DEFAULT_THRESHOLD) / (PLAUSIBLE - DEFAULT_THRESHOLD)))
            adjusted = score + LEAD_WEIGHT * max(0.0, min(lead, LEAD_CAP) - LEAD_PAR) * plausible
            adjusted *= 1.0 - AMBIGUITY_PENALTY * min(1.0, max(0.0, LEAD_PAR - lead) / LEAD_PAR)
            if lead >= 0:
                # the best link stays a suggestion when it was one: a tie makes it unsure, not wrong
                adjusted = max(adjusted, min(score, DEFAULT_THRESHOLD))
            out[index] = max(0.0, min(MAX_LEXICAL_SCORE, adjusted))
        return out, likeness

    def _question_likeness(self, query: dict[str, tuple[float, float]], total: float) -> dict[int, float]:
        """For each explanation (by index), the Dice overlap of the query's weighted terms with the
        closest of its listed questions (1.0: the same terms)."""
        shared: dict[int, float] = defaultdict(float)
        for term, (qweight, mass) in query.items():
            postings = self._question_postings.get(term)
            if not postings:
                continue
            idf = mass / qweight
            for weight, numbers in postings.items():
                add = min(qweight, weight) * idf
                for number in numbers:
                    shared[number] += add
        best: dict[int, float] = {}
        for number, value in shared.items():
            dice = 2.0 * value / (total + self._question_mass[number])
            index = self._question_doc[number]
            if dice > best.get(index, 0.0):
                best[index] = dice
        return best

    def rank(self, question: str, limit: int = 5) -> list[Link]:
        """The best explanations for ``question``, best first, at most ``limit``.

        Exact question matches come first with score 1.0; then lexical matches that reach the
        threshold and ``relative_cut`` of the best lexical score. When some explanation's own
        questions say this one (``listed``: exactly or nearly), only such explanations are
        linked: a page written for the question replaces the pages that only share its topic,
        whatever they score. Empty when nothing is relevant enough (the linker abstains).
        """
        if limit <= 0:
            return []
        links = [Link(slug, 1.0, listed=True) for slug in self.exact_matches(question)]
        taken = {link.slug for link in links}
        # Only scores reaching the threshold can be linked (and the best of them is the best of
        # all when any does), so only those are sorted: not every explanation sharing a word.
        scored, likeness = self._scored(question, self.threshold)
        lexical = []
        for index, score in scored.items():
            if score >= self.threshold and self.slugs[index] not in taken:
                listed = likeness.get(index, 0.0) >= self.listed_likeness
                lexical.append((score, self.slugs[index], listed))
        lexical.sort(key=lambda item: (-item[0], item[1]))
        if lexical:
            best = lexical[0][0]
            kept = [item for item in lexical if item[0] >= best * self.relative_cut]
            if links or any(listed for _score, _slug, listed in kept):
                kept = [item for item in kept if item[2]]
            links.extend(Link(slug, round(score, 4), listed=listed) for score, slug, listed in kept)
        return links[:limit]


def _combine(cover: float, likeness: float) -> float:
    """One score from term coverage and question-likeness (both 0..1)."""
    return cover + (1.0 - cover) * likeness ** LIKENESS_POWER
