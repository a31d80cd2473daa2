"""A learned second opinion on every sentence of a report: is it an interview question?

The rules of :mod:`.interview_questions` read a document by its layout (headings, rounds, lists,
narration). Real reports mix layouts the rules were not written for, so each *sentence* of the
blocks the rules read is also scored by a small linear model (logistic regression) over hashed
features of three kinds:

- its **form**: character n-grams of how it opens and ends, its words, a question mark, an asking
  or imperative verb (讲/说说/介绍/实现/手撕, explain/implement/design), the judgement of
  :func:`.asking.judge_line` (a bare topic, advice, a label, the candidate's own question);
- its **place**: list marker, position in its line (a question's answer often follows it on the
  same line), the kind of block it is in (interview round, header, other), whether the document
  is a report or a question list;
- its **neighbours**: whether the lines before and after ask, are listed, or answer
  ("答：", "我解释了…", an indented note), i.e. a numbered run or a question/answer alternation;

and whether the rules took it. A question the rules found is kept when the model agrees; a
sentence the rules passed over is added when the model is sure (:data:`THRESHOLD`).

The weights are a plain JSON file beside this module (``question_model.json``), written by
``scripts/train_question_model.py`` from our own labelled corpora (``tests/data/corpus*``).
Inference is a dot product over hashed features: deterministic (CRC-32, no salted ``hash``),
linear in the document, and needs nothing beyond the standard library.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import json
import math
import re
import unicodedata
import zlib
from collections.abc import Iterator, Sequence, Set
from itertools import islice
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from .asking import hide_code_punctuation, interviewer_turn, judge_line, show_code_punctuation, strip_list_marker
from .headings import ANSWER_HEADING, CONTENT, GENERIC, INTERVIEW, ROUND_KIND, first_colon
from .interview_questions import NARRATES, answer_lines
from .rounds import REVERSE, round_line
from .segment import Block

MODEL_PATH = Path(__file__).with_name("question_model.json")
#: Hashed feature space (a power of two).
DIMENSIONS = 1 << 18
#: A sentence the rules passed over is a question when the model gives it at least this probability;
#: a question the rules found stays unless the model gives it less than :data:`KEEP_THRESHOLD`.
THRESHOLD = 0.45
KEEP_THRESHOLD = 0.3
#: Sentences of one line, and characters of a sentence, looked at (bounded work on any input).
MAX_SENTENCES = 24
MAX_SENTENCE_CHARS = 400
#: Sentences scored in one document at most (a long question bank has a few thousand; bounded work
#: on a pasted log of a hundred thousand lines that each ask). The rules' own questions past it stay.
MAX_CANDIDATES = 6_000
#: A sentence inside one of this many questions taken just before it is not taken again.
_RECENT = 4
#: At most this many questions are kept (as :data:`.interview_questions.MAX_QUESTIONS`).
MAX_QUESTIONS = 200
#: A question found: its text, section, interview round and confidence (as :mod:`.interview_questions`).
Found = tuple[str, str, str | None, float]

_SENTENCE_END = re.compile(r"(?<=[。！!；;])\s{0,3}(?=[^\s”\"’」』)）\]】])|(?<=[？?])\s{0,3}(?=[^\s)）\]】”\"'’?？])|"
                           r"(?<=[a-z0-9)][.!])\s{1,3}(?=[A-Z(\u4e00-\u9fff])")
_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)
_QUOTES = "“\"「'‘"
_WORD = re.compile(r"[A-Za-z][A-Za-z+#']{0,24}")
_CJK = re.compile(r"[\u4e00-\u9fff]")
#: The candidate telling what they answered or did ("我提到了…", "我解释了…", "I explained …", "Said that …").
_FIRST_PERSON = re.compile(r"\s{0,4}(?:[-*•>]\s{0,3})?(?:我们?|本人|i|we|(?:said|explained|mentioned|told|gave|answered|wrote|"
                           r"used|proposed|considered|defended|discussed)\b)", re.IGNORECASE)
#: A coding problem named by its number or site ("680: Valid Palindrome II", "(Leetcode: 938)", "LC 146", "力扣 3").
_PROBLEM = re.compile(r"^\d{1,4}\s{0,2}[:：.]\s{0,2}[A-Z\u4e00-\u9fff]|leetcode|lintcode|\blc\s{0,2}\d|力扣|剑指\s{0,2}offer|hot\s{0,2}100",
                      re.IGNORECASE)
_ANSWERISH = re.compile(r"\s{0,4}(?:[-*•]\s{0,3})?(?:答|回答|我|a\s{0,2}[:：]|ans|answer|i\s|my\s|we\s|解决|原因|优点|缺点|"
                        r"核心|实现原理|思路)", re.IGNORECASE)


@dataclass(frozen=True)
class Candidate:
    """A sentence that may be a question: the text it would be saved as, where it is, its features."""

    text: str
    block: int
    line: int
    by_rules: bool
    features: tuple[str, ...]
    #: For a question the rules found: its text as they found it (``text`` may be its first sentence).
    found_as: str | None = None


@lru_cache(maxsize=1)
def load_model(path: Path = MODEL_PATH) -> tuple[float, dict[int, float]]:
    """The model's bias and weights (feature index to weight); an empty model if the file is missing."""
    if not path.is_file():
        return 0.0, {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return float(data["bias"]), {int(k): float(v) for k, v in data["weights"].items()}


def match_key(text: str) -> str:
    """The form two question texts are compared in: NFKC, case folded, without spaces and punctuation."""
    return _NOT_WORD.sub("", unicodedata.normalize("NFKC", text).casefold())


@lru_cache(maxsize=1 << 16)
def feature_index(feature: str) -> int:
    return zlib.crc32(feature.encode("utf-8")) & (DIMENSIONS - 1)  # (a document's features repeat: hashed once each)


def probability(features: Sequence[str], model: tuple[float, dict[int, float]] | None = None) -> float:
    """The model's probability that a sentence with these features is an interview question."""
    bias, weights = model or load_model()
    z = bias + sum(weights.get(i, 0.0) for i in {feature_index(f) for f in features})
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def sentences(line: str) -> list[str]:
    """The sentences of one line: a question and the answer after it on the same line, several
    questions separated by "？", "。", "；" or ". ", as separate pieces (at most :data:`MAX_SENTENCES`)."""
    if len(line) <= 40:
        return [line]
    if "`" in line:  # (not inside inline code: "`A *p = nullptr;`")
        hidden = hide_code_punctuation(line)
        if hidden != line:
            return [show_code_punctuation(part) for part in sentences(hidden)]
    parts: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(line, 0, 4000):
        piece = line[start: match.start()].strip()
        if len(piece) <= 4 and not strip_list_marker(piece + " x").rstrip("x").strip():
            continue  # "2. 缓存穿透…": a list marker, not a sentence
        if piece:
            parts.append(piece)
        start = match.end()
        if len(parts) >= MAX_SENTENCES - 1:
            break
    rest = line[start:].strip()
    if rest:
        parts.append(rest)
    return parts or [line]


_QUOTED = re.compile(r"[“\"「『](?P<q>[^“”\"「」『』]{4,120}?[？?])\s{0,2}(?:[（(][^()（）]{0,30}[)）])?[”\"」』]")


def quoted_questions(line: str) -> list[str]:
    """Questions quoted inside a sentence ("无非是“A？”、“B？”", 'they often ask "How …?"').
    Only when the line says more than the quotes (a line that is one quote is a sentence already)."""
    if len(line) < 20:
        return []
    found = [m.group("q") for m in _QUOTED.finditer(line, 0, 4000)][:MAX_SENTENCES]
    return [q for q in found if len(q) + 4 < len(line)]


def _shape(line: str) -> str:
    """A line's kind for its neighbours' features."""
    if not line:
        return "none"
    judged = judge_line(line)
    listed = strip_list_marker(line) != line.strip()
    if _ANSWERISH.match(line):
        kind = "answer"
    elif judged.asks:
        kind = "asks"
    elif judged.topic:
        kind = "topic"
    elif judged.dropped:
        kind = "dropped-" + judged.dropped.split()[0]
    else:
        kind = "plain"
    return kind + ("-listed" if listed else "")


_NUMBERED = re.compile(r"\s{0,4}(?:[(（]?\d{1,3}[.)）、．:]|[①-⑳]|[一二三四五六七八九十]{1,2}[、.．]|q\s{0,2}\d{1,3}|\d{2}(?=[A-Z\u4e00-\u9fff]))",
                       re.IGNORECASE)
_BULLET = re.compile(r"\s{0,4}(?:[-*•·●○◦▪■►>+]|[§\uf0a7\uf0b7\uf0d8\uf076](?=\s))\s{0,3}")
#: A title of another report ("字节跳动2面:…", "B站 C++ 一面:…", "快手C++二面:…").
_OTHER_TITLE = re.compile(r".{0,16}?(?:[一二三四五终]面|\d面|面经|面试)\s{0,2}[:：]")


def _titled(body: str, previous: str, following: str) -> str:
    """Whether a line opens like a report's title ("美团秋招一面:…?"), and whether a neighbour does too:
    one such line is the document's own title, a run of them a list of other articles."""
    if not _OTHER_TITLE.match(body):
        return "titled=no"
    run = any(_OTHER_TITLE.match(strip_list_marker(line)) for line in (previous, following) if line)
    return f"titled={'run' if run else 'alone'}"


def _marker(line: str) -> str:
    """The kind of list marker a line opens with: numbered, bullet or plain (no line: "empty")."""
    if not line:
        return "empty"
    if _NUMBERED.match(line):
        return "numbered"
    if _BULLET.match(line):
        return "bullet"
    return "plain"


def _over_paragraph(line: str, following: str) -> bool:
    """Whether ``line`` is a short line without end punctuation over a paragraph at least twice as long."""
    body = line.strip()
    return (0 < len(body) <= 40 and body[-1] not in "。.，,;；:：!！" and len(following) >= max(30, 2 * len(body))
            and not _FIRST_PERSON.match(body))


def _length_bucket(n: int) -> str:
    for bound in (6, 12, 20, 35, 60, 100, 160):
        if n <= bound:
            return str(bound)
    return "long"


def sentence_features(sentence: str, position: int, count: int, line: str, previous: str, following: str,
                      block: Block, report: bool, listing: bool, by_rules: bool) -> tuple[str, ...]:
    """The features of one sentence (strings; hashed by :func:`feature_index`)."""
    sentence = sentence[:MAX_SENTENCE_CHARS]
    body = strip_list_marker(sentence)
    listed = body != sentence.strip()
    titled = _OTHER_TITLE.match(body)
    judged = judge_line(body[titled.end():] if titled and len(body) - titled.end() >= 4 else sentence)  # "美团一面:为什么…?"
    text = judged.text[:MAX_SENTENCE_CHARS]
    folded = text.casefold()
    kind = "reverse" if block.reverse else block.kind if block.kind in (INTERVIEW, ROUND_KIND, GENERIC, "header") else "other"
    if block.kind == CONTENT and listing:
        kind = GENERIC  # a question page's "Overview" is read as the rules read it
    doc = "report" if report else "listing" if listing else "posting"
    feats = [
        "bias-rules" if by_rules else "bias-new",
        f"kind={kind}", f"doc={doc}", f"kind={kind}|rules={by_rules}",
        f"listed={listed}", f"listed={listed}|kind={kind}",
        f"pos={min(position, 2)}", f"count={min(count, 3)}", f"pos={min(position, 2)}|count={min(count, 3)}",
        f"len={_length_bucket(len(text))}", f"cjk={bool(_CJK.search(text[:40]))}",
        f"mark={judged.mark}", f"verb={judged.verb}", f"topic={judged.topic}", f"dropped={judged.dropped}",
        f"mark={judged.mark}|rules={by_rules}", f"verb={judged.verb}|rules={by_rules}",
        f"topic={judged.topic}|kind={kind}", f"mark={judged.mark}|listed={listed}",
        f"line-mark={line.rstrip().endswith(('?', '？'))}",
        f"prev={_shape(previous)}", f"next={_shape(following)}",
        f"prev={_shape(previous)}|next={_shape(following)}",
        f"next={_shape(following)}|mark={judged.mark}",
        f"quoted={sentence.lstrip()[:1] in _QUOTES}",
        f"heading={line.lstrip().startswith('#')}",
        f"colon={':' in text[:20] or '：' in text[:20]}",
        f"bracket-end={text.rstrip()[-1:] in ')）'}",
        f"first-person={bool(_FIRST_PERSON.match(body))}",
        f"problem={bool(_PROBLEM.search(body[:120]))}", f"problem={bool(_PROBLEM.search(body[:120]))}|listed={listed}",
        f"first-person={bool(_FIRST_PERSON.match(body))}|prev={_shape(previous)}",
    ]
    # its list marker beside its neighbours': a "• Explain …" bullet under each "1. What is …?" is a hint,
    # a title of another article ("字节C++一面:…?") in a list of them is not this report's question
    marker, before, after = _marker(line), _marker(previous), _marker(following)
    feats += [f"marker={marker}", f"marker={marker}|prev={before}", f"marker={marker}|next={after}",
              f"marker={marker}|prev={before}|next={after}", f"marker={marker}|prev-shape={_shape(previous)}",
              _titled(body, previous, following)]
    # a short line over a paragraph ("RDMA 的三种传输模式" over the candidate's answer): a topic line
    over = _over_paragraph(line, following)
    feats += [f"over={over}", f"over={over}|mark={judged.mark}", f"over={over}|prev={_over_paragraph(previous, line)}",
              f"over={over}|listed={listed}|kind={kind}"]
    # how it opens and ends: the strongest cues of asking (什么是, 如何, How, Explain) and of
    # answering (我解释了, 因为, It is)
    for n in (1, 2, 3, 4):
        if len(folded) >= n:
            feats.append(f"open={folded[:n]}")
            feats.append(f"end={folded[-n:]}")
    head = body[:6].casefold()
    feats.append(f"raw-open={head[:2]}")
    words = _WORD.findall(folded[:200])
    if words:
        feats.append(f"w0={words[0]}")
        if len(words) > 1:
            feats.append(f"w01={words[0]} {words[1]}")
    for word in set(words[:40]):
        feats.append(f"w={word}")
    # what the heading above says ("Questions:", "面试问题回顾", "Candidate's Approach", "答案")
    heading = block.name.casefold()[:60]
    for word in set(_WORD.findall(heading)):
        feats.append(f"h-w={word}")
    named = "".join(ch for ch in heading if _CJK.match(ch))
    for i in range(len(named) - 1):
        feats.append(f"h-bi={named[i:i + 2]}")
    if not heading:
        feats.append("h-none")
    compact = "".join(ch for ch in folded[:120] if not ch.isspace())
    for i in range(len(compact) - 1):
        if _CJK.match(compact[i]) or _CJK.match(compact[i + 1]):
            feats.append(f"bi={compact[i:i + 2]}")
    return tuple(feats)


def _without_explanation(text: str) -> str:
    """A question the rules found, without the explanation its author wrote after it on the same
    line ("如何在CUDA中进行内存管理? 内存管理是…", "…有哪些?(提示:可延伸…)"): the first sentence,
    when it asks and nothing after it asks ("…在哪几个区?哪些区是被编译器分配的…" and "…?举例说明…" stay whole)."""
    if len(text) <= 40:
        return text
    parts = sentences(text)
    if len(parts) < 2 or not parts[0].rstrip().endswith(("?", "？")) or len(parts[0]) < 4:
        return text
    rest = parts[1:]
    if any(("?" in p or "？" in p or judge_line(p).asks) for p in rest) or sum(len(p) for p in rest) < 10:
        return text
    return parts[0].strip()


def _block_lines(blocks: Sequence[Block], report: bool, listing: bool) -> Iterator[tuple[int, Block]]:
    for number, block in enumerate(blocks):
        if block.kind in (INTERVIEW, ROUND_KIND, GENERIC) or (block.kind in ("header", CONTENT) and (report or listing)):
            yield number, block


def candidates(blocks: Sequence[Block], report: bool, listing: bool, found: Sequence[Found],
               origins: dict[str, tuple[int, int]]) -> Iterator[Candidate]:
    """Every sentence of the blocks the rules read, and every question the rules found there,
    with its features, in document order."""
    by_line: dict[tuple[int, int], list[str]] = {}
    for text, _section, _round, _confidence in found:
        origin = origins.get(text.casefold())
        if origin is not None:
            by_line.setdefault(origin, []).append(text)
    answered: dict[int, list[int]] = {}  # block number -> its lines the rules took a question from
    for number, index in by_line:
        answered.setdefault(number, []).append(index)
    for number, block in _block_lines(blocks, report, listing):
        lines = block.lines
        if block.answer:
            # the answer to a question heading (its question is a line of the block before): only the
            # follow-ups the rules read in it ("Follow-up questions:" over its items) are judged
            for index in sorted(answered.get(number, ())):
                previous = lines[index - 1] if index else ""
                following = lines[index + 1] if index + 1 < len(lines) else ""
                for found_text in by_line[(number, index)]:
                    feats = sentence_features(found_text, 0, 1, lines[index], previous, following, block, report,
                                              listing, True)
                    yield Candidate(found_text, number, index, True, feats, found_text)
            continue
        if block.name and lines and not block.reverse and (report or listing or block.kind in (INTERVIEW, ROUND_KIND)):
            named = judge_line(block.name)  # "### 1. 什么是虚拟内存？" over its answer
            if named.dropped is None and match_key(named.text):
                feats = sentence_features(block.name, 0, 1, "# " + block.name, "", lines[0] if lines else "", block,
                                          report, listing, False)
                yield Candidate(named.text, number, -1, False,
                                feats + ("heading-name", f"heading-name|mark={named.mark}", f"heading-name|verb={named.verb}",
                                         f"heading-name|next={_shape(lines[0])}"))
        answers = bool(block.name) and ANSWER_HEADING.fullmatch(block.name) is not None  # under "Sample Answer:"
        answering = set() if answers else answer_lines(block)  # after "**答案提示**:" on a line of its own
        for index, line in enumerate(lines[:20_000]):
            previous = lines[index - 1] if index else ""
            following = lines[index + 1] if index + 1 < len(lines) else ""
            taken = by_line.get((number, index), [])
            for found_text in taken:
                # an interviewer's turn is asked whole ("Can you …? Note that …"), as its speaker put it
                text = found_text if interviewer_turn(line) else _without_explanation(found_text)
                feats = sentence_features(text, 0, 1, line, previous, following, block, report, listing, True)
                yield Candidate(text, number, index, True, feats, found_text)
            if block.reverse or line.startswith("答：") or index in answering \
                    or (answers and not line.rstrip().endswith(("?", "？"))):
                continue  # the candidate's questions; an answer the reading put on a line of its own, or under its heading
            parts = sentences(line[:4000])
            whole = len(parts)
            parts += quoted_questions(line[:4000])
            for position, part in enumerate(parts):
                judged = judge_line(part)
                if not match_key(judged.text):
                    continue
                feats = sentence_features(part, position, whole, line, previous, following, block, report,
                                          listing, False)
                if position >= whole:
                    feats += ("inner-quote",)
                yield Candidate(judged.text, number, index, False, feats)
            head = _answered_head(strip_list_marker(line).strip()) if _marker(line) in ("numbered", "bullet") else None
            if head is not None and match_key(head):  # "1. 双向mamba vs 因果注意力:因果注意力平方复杂度…": its topic
                feats = sentence_features(head, 0, whole, line, previous, following, block, report, listing, False)
                yield Candidate(judge_line(head).text, number, index, False, feats + ("answered-head",))


def question_notes(blocks: Sequence[Block]) -> set[tuple[int, int]]:
    """The lines that are no question by their place in a list: the one bullet after each "N. …?"
    of a list that pairs them so at least twice ("1. What is CUDA?" / "• Explain the architecture."),
    unless the bullet asks on its own (ends with a question mark); a run of other reports' titles."""
    notes: set[tuple[int, int]] = set()
    for number, block in enumerate(blocks):
        lines = block.lines[:20_000]
        pairs = [index for index in range(1, len(lines))
                 if _marker(lines[index]) == "bullet" and _marker(lines[index - 1]) == "numbered"
                 and lines[index - 1].rstrip().endswith(("?", "？"))
                 and not lines[index].rstrip().endswith(("?", "？"))
                 and (index + 1 == len(lines) or _marker(lines[index + 1]) != "bullet")]
        if len(pairs) >= 2:
            notes.update((number, index) for index in pairs)
        notes.update((number, index) for index in _title_run(lines))
    return notes


#: What may stand before a round in a report's own round line ("技术一面:", "HR面:"), not another report's title.
_ROUND_WORDS = re.compile(r"[\s\W]*(?:技术|业务|交叉|主管|总监|leader|hr|加|终|笔试|第?[一二三四五六七八九十\d])*[\s\W]*$", re.IGNORECASE)


def _title_run(lines: Sequence[str]) -> list[int]:
    """The lines of a list of other reports' titles ("字节C++一面:…?", "B站 C++ 一面:…?", "快手C++二面:…"):
    at least three different lines that open with an employer's round and a colon among five in a row."""
    titled = []
    for index, line in enumerate(lines):
        match = _OTHER_TITLE.match(strip_list_marker(line))
        if match and not _ROUND_WORDS.match(match.group()[:-1].rstrip(" :：").removesuffix("面经").removesuffix("面试")
                                          .rstrip("一二三四五终面0123456789")):
            titled.append(index)
    run: set[int] = set()
    for k in range(len(titled) - 2):
        if titled[k + 2] - titled[k] <= 4 and len({match_key(lines[i]) for i in titled[k: k + 3]}) == 3:
            run.update(titled[k: k + 3])  # (one title repeated is the document's own)
    return sorted(run)


#: A line its author labelled a question: "Q2：…", "Q 3. …", "问题4：…", "第5题：…".
_QUESTION_TURN = re.compile(r"\s{0,3}(?:[-*•]\s{1,2})?(?:Q\s{0,2}\d{1,3}|问题\s{0,2}\d{1,3}|第\s{0,2}\d{1,3}\s{0,2}题)\s{0,2}[:：.、]")


def _labelled_question(block: Block, line: int) -> bool:
    """Whether the line of ``block`` a question came from is labelled a question by its author: the
    model's doubt does not overrule the author's own label."""
    return 0 <= line < len(block.lines) and _QUESTION_TURN.match(block.lines[line][:40]) is not None


#: A list of at least this many short items (a checklist's "- vector", "- IPC", "- 拥塞避免"), this
#: share of them questions by the rules or by the model, is a list of asked topics: each item was asked.
TOPIC_RUN_MIN = 3
TOPIC_RUN_SHARE = 0.4
#: An item of such a list is a short phrase: at most this many characters, no sentence of its own.
TOPIC_CHARS = 40
_NOT_A_PHRASE = re.compile(r"[。！!；;]|[，,].*[，,]|\.\s")


def _confirmed_series(pool: Sequence[Candidate], scores: Sequence[float], series: Set[str]) -> set[tuple[int, int]]:
    """The lines (block, line) of a narrated series ("We discussed OS concepts, DMA, RTOS …": the
    rules' ``series``) where the model keeps a question the rules took: the whole series was asked,
    though the model doubts its bare topics ("DMA") one by one."""
    places = {(c.block, c.line) for c in pool if c.by_rules and (c.found_as or c.text).casefold() in series}
    return {(c.block, c.line) for c, p in zip(pool, scores)
            if c.by_rules and (c.block, c.line) in places and _model_agrees(c, p)}


def _model_agrees(candidate: Candidate, p: float) -> bool:
    """Whether the model keeps a question the rules found (:data:`KEEP_THRESHOLD`) or is sure of a
    sentence they passed over (:data:`THRESHOLD`)."""
    return p >= (KEEP_THRESHOLD if candidate.by_rules else THRESHOLD)


def _topic_item(line: str) -> str | None:
    """A list item's words when they are a short phrase (a topic, not a sentence), ``""`` for a
    group label ("- 系统:") or a longer item of the list (a question written out, an answer the page
    lists), else None: a line that ends the list (no list item, an answer, a bold group label, the
    candidate's questions: "- QA：")."""
    if _marker(line) not in ("numbered", "bullet") or line.startswith("**"):
        return None  # (a bold group label: "**2. 系统与并发**"; an answer, "答：…", has no marker)
    body = strip_list_marker(line).strip()
    if not body:
        return None
    if body.endswith((":", "：")) and len(body) <= TOPIC_CHARS:
        return None if REVERSE.fullmatch(body.rstrip(":： ")) else ""
    head = _answered_head(body)
    if head is not None:
        return head  # "双向mamba vs 因果注意力:因果注意力平方复杂度，…": the topic, then its answer
    return "" if len(body) > TOPIC_CHARS or _NOT_A_PHRASE.search(body) else body


#: After the head of a "topic: answer" item, the answer is at least this long.
ANSWER_TAIL_CHARS = 12


def _answered_head(body: str) -> str | None:
    """The topic of a list item written "topic: its answer" ("KV cache原理:推理时缓存历史token的K和V，…"):
    a short phrase before the first colon, a longer answer after it that asks nothing; else None."""
    colon = first_colon(body, 0, TOPIC_CHARS + 1)
    if colon < 2:
        return None
    head, tail = body[:colon].strip(" *_"), body[colon + 1:].strip()
    if len(tail) < ANSWER_TAIL_CHARS or _NOT_A_PHRASE.search(head) or "://" in body[:colon + 3]:
        return None
    if "?" in tail or "？" in tail or judge_line(tail[:300]).asks or _LABEL_HEAD.fullmatch(head):
        return None  # a label over a question ("Follow-up: why …?", "场景题：设计…", "项目：…"), not a topic over its answer
    return head


#: A kind of question, not a topic: "项目", "经典题目", "场景题", "Coding", "System design", "Follow-up".
_LABEL_HEAD = re.compile(r".{0,6}题目?|项目(?:经历|介绍)?|算法|(?:手写|手撕)?代码|八股|基础|手撕|手写|笔试|机试|编程|场景|问题?|答|"
                         r"(?:system\s+)?design|coding|"
                         r"behaviou?ral|follow[- ]?ups?|bonus|notes?|hints?|tips?|answers?|result|outcome", re.IGNORECASE)


def _asked_topics(blocks: Sequence[Block], pool: Sequence[Candidate], scores: Sequence[float]) -> dict[tuple[int, int], str]:
    """The topic of each line (block, line) of the lists whose items are asked topics: the short items
    of a list, or the heads of its "topic: answer" items (one marker and indentation; its longer items
    and labels neither count nor end it), at least :data:`TOPIC_RUN_SHARE` of them questions: taken by
    the rules and not doubted by the model (in a round, whatever the model thinks), or taken by the
    model. One pass over each block with a question."""
    taken: set[tuple[int, int]] = {(c.block, c.line) for c, p in zip(pool, scores)
                                   if _model_agrees(c, p) or (c.by_rules and blocks[c.block].kind == ROUND_KIND)}
    # (a round's items were asked)
    out: dict[tuple[int, int], str] = {}
    for number in sorted({block for block, _line in taken}):
        run: list[tuple[int, str]] = []
        kind: tuple[str, int] | None = None  # the list's marker and indentation
        for index, line in enumerate([*blocks[number].lines[:20_000], ""]):
            item = _topic_item(line) if line else None
            here = (_marker(line), len(line) - len(line.lstrip()))
            if item is not None and here == kind:
                if item:
                    run.append((index, item))
                continue
            if len(run) >= TOPIC_RUN_MIN and sum((number, i) in taken for i, _item in run) >= TOPIC_RUN_SHARE * len(run):
                out.update(((number, i), item) for i, item in run)
            run, kind = ([(index, item)] if item else []), (here if item is not None else None)
    return out


#: What is no topic in a list of asked topics: a reply ("不太清楚"), a label ("手撕", "结果"), the report's own words.
_NO_TOPIC = re.compile(r"不(?:太|是很)?(?:清楚|知道|会|记得)|没(?:答|写|做)|问(?:得|了|到)|^(?:手撕|结果|总结|反问|其他|其它|感受|心得)$|"
                       r"^第[一二三四五六七八九十\d]{1,2}[轮面]|[?？]\s*$", re.IGNORECASE)


def _a_topic(text: str) -> bool:
    """Whether an item the rules passed over in a list of asked topics names one: not small talk, a
    question the rules left out (the candidate's own), advice, a reply, a round or the author's
    narration (an acronym of two or three letters is a topic: "IPC")."""
    judged = judge_line(text)
    return (judged.dropped is None or (judged.dropped == "short" and len(match_key(text)) >= 2)) \
        and not _NO_TOPIC.search(text) and not NARRATES.search(text) and round_line(text) is None


def refine(blocks: Sequence[Block], report: bool, listing: bool, found: list[Found],
           origins: dict[str, tuple[int, int]], guessed: set[str] | None = None,
           series: Set[str] = frozenset()) -> list[Found]:
    """The rules' questions the model agrees with, and the sentences it is sure of that the
    rules passed over, in document order, in a report or a list of questions. A posting's
    questions, and every question without a model file, are the rules' own.

    ``origins`` also receives the line of each question kept under new words (a rules' question
    without its explanation, a sentence only the model took); ``guessed``, when given, the
    case-folded texts only the model took. ``series`` holds the case-folded texts of the rules'
    questions that are parts of a narrated series (:func:`_confirmed_series`)."""
    model = load_model()
    if not model[1] or not (report or listing):
        return found  # a posting's interview section: its questions are listed as such
    kept: dict[str, Found] = {}
    placed = {text.casefold() for text, *_ in found if text.casefold() in origins}
    by_text = {text.casefold(): (text, section, round_, conf) for text, section, round_, conf in found}
    line_keys: list[str] = []  # what was taken from the current line (a sentence inside it is not taken again)
    recent: list[str] = []  # the last questions taken, from any line
    current = (-1, -1)
    notes = question_notes(blocks)
    doubted: Candidate | None = None  # the rules' question the model doubted, on the current line
    reached: set[str] = set()  # the rules' questions the model has judged (kept or not)
    pool = list(islice(candidates(blocks, report, listing, found, origins), MAX_CANDIDATES + 1))
    stopped = len(pool) > MAX_CANDIDATES
    pool = pool[:MAX_CANDIDATES]
    scores = [probability(candidate.features, model) for candidate in pool]
    topics = _asked_topics(blocks, pool, scores)
    confirmed = _confirmed_series(pool, scores, series)
    for candidate, p in zip(pool, scores):
        if len(kept) >= MAX_QUESTIONS:
            stopped = False
            break
        if candidate.by_rules:
            reached.add((candidate.found_as or candidate.text).casefold())
        if (candidate.block, candidate.line) in notes:
            continue
        if (candidate.block, candidate.line) != current:
            current, line_keys, doubted = (candidate.block, candidate.line), [], None
        listed_topic = topics.get((candidate.block, candidate.line))
        if listed_topic is not None and candidate.by_rules and match_key(candidate.text) != match_key(listed_topic) \
                and match_key(candidate.text).startswith(match_key(listed_topic)):
            # "TensorRT 的 INT8 校准:用一批代表性数据统计…" in a list of topics with their answers: the topic
            candidate = replace(candidate, text=judge_line(listed_topic).text, found_as=candidate.found_as or candidate.text)
        topic = listed_topic is not None and match_key(candidate.text) in match_key(listed_topic) and _a_topic(candidate.text)
        if not topic and not _model_agrees(candidate, p) and not (candidate.by_rules and (
                _labelled_question(blocks[candidate.block], candidate.line) or (
                    (candidate.block, candidate.line) in confirmed and (candidate.found_as or candidate.text).casefold() in series))):
            if candidate.by_rules:
                doubted = candidate
            continue
        if not candidate.by_rules and doubted is not None and (doubted.block, doubted.line) == current \
                and match_key(candidate.text) in match_key(doubted.text) \
                and sum(doubted.text.count(mark) for mark in "?？") >= 2:
            candidate, doubted = doubted, None  # a sentence of a question the rules read whole: the question
            # and its follow-ups on one line ("BN在训练时如何做的?具体的公式?") are one question
        key = candidate.text.casefold()
        compared = match_key(candidate.text)
        if any(compared in k or k in compared for k in line_keys) or any(compared in k for k in recent):
            continue  # taken from this line already, or part of a question just taken ("追问：…" joined to it)
        line_keys.append(compared)
        recent = [*recent[-(_RECENT - 1):], compared]
        if candidate.by_rules:
            _text, section, round_, confidence = by_text[(candidate.found_as or candidate.text).casefold()]
            kept.setdefault(key, (candidate.text, section, round_, confidence))
            origins.setdefault(key, (candidate.block, candidate.line))
        elif key not in kept and (len(candidate.text) >= 4 or topic):
            block = blocks[candidate.block]
            kept[key] = (candidate.text, block.name or (block.round or ""), block.round, round(min(0.8, p), 2))
            origins.setdefault(key, (candidate.block, candidate.line))
            if guessed is not None and key not in by_text:
                guessed.add(key)
    # a question the rules found without a line of its own (a follow-up merged into the question before)
    for key, value in by_text.items():
        if key not in placed or (stopped and key not in reached):
            kept.setdefault(key, value)  # (its position: after the questions of the lines)
    return list(kept.values())[:MAX_QUESTIONS]
