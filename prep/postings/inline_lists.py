"""Lines that hold a whole numbered list, and lines that hold a question and its answer.

Forum posts lose their line breaks: "…真没深入思考过这些啊1. 流式 ETL 管道是怎么做到的?2. 将同步的模式…?3. …"
is one line, and so is "1.题1(6分):请简述 TCP 和 UDP 的区别。答案:TCP 是…2.题2(6分):…". Before the
document is cut into sections, :func:`split_line` gives such a line back as the lines its author
wrote: one per numbered item (the text before the first number on its own line), and the answer
of an item ("答:…", "答案:…", "Answer: …") on a line of its own, which the question finder skips.

A run is numbers that count up from 1 by one (1, 2, 3 …), at least :data:`MIN_RUN` of them (two
when both ask or are labelled questions: "1.题1(6分):…2.题2(6分):…"), each followed by ``.``/``、``/``)``/``,``: a figure in the text ("RTT 100 毫秒", "HTTP/1.1", "(LeetCode 76)")
never continues the count; a number glued to a word ("cache11.") continues it only once the run
has :data:`MIN_RUN` items. One pass over the line with bounded patterns: linear in its length.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re

from .asking import CJK, judge_line, strip_list_marker

#: Fewer items than this in a row are not a list written on one line.
MIN_RUN = 3
#: A run may skip this many numbers at a step (and open at 1 + this) …
MAX_SKIP = 3
#: … when it holds this many items at least.
MIN_GAPPED_RUN = 6
#: Longer lines are left as they are (a pasted article, not a post that lost its breaks).
MAX_SPLIT_CHARS = 20_000

# "1. ", "2、", "3)", "4）", "5," (before a word: "1,2,3" and "1,000" are figures) where the number does not continue a figure ("1.5", "v2.", "x86.") and is
# not a decimal. A number at the start, after a space, after punctuation or after a CJK character.
# After a letter ("…为什么没有q的cache11. 目标跟踪…") a number continues an established run only
# (``glued``): the count is the evidence there, "x86." alone is not an item.
_NUMBER = re.compile(r"(?:^|(?<=[\s\u4e00-\u9fff。.!！?？;；:：,，)）\]】」』\"'”’~～])|(?P<glued>(?<=[A-Za-z])))"
                     r"(?P<n>\d{1,2})\s{0,2}(?:[.．](?!\d)|[、)）]|[,，](?=\s{0,3}[^\s\d,，]))\s{0,3}(?=\S)")
# "3,原子操作…": a number and a comma, written as the list marker it stands for ("3. 原子操作…").
_COMMA_NUMBER = re.compile(r"^(\d{1,2})\s{0,2}[,，]\s{0,3}")
# "(1) … (2) … (3) …": numbers in brackets (counted like the others: a figure in brackets never runs on).
_BRACKETED = re.compile(r"(?:^|(?<=[\s\u4e00-\u9fff。.!！?？;；:：,，)）]))[(（](?P<n>\d{1,2})[)）]\s{0,3}(?=\S)(?P<glued>(?!))?")
# "a) … b) … c) …": lettered items (a letter and a closing bracket after a space; counted as 1, 2, 3).
_LETTER = re.compile(r"(?:^|(?<=\s))(?P<n>[a-z])\)\s{1,3}(?=\S)(?P<glued>(?!))?")
# "…across a few thousand nodes: I said canaries …": after a colon, the candidate's own answer.
_FIRST_PERSON_ANSWER = re.compile(r"(?<=[\w)?？])\s{0,2}[:：]\s{1,2}(?=(?:I|I'd|I'm|I've|We|My|Our)\s)")
# "- Q1: ", "Q2: " inside a line: a labelled question (never glued to a word: "SQ1:" is no label).
# After a Chinese character or a sentence's end too ("…答案Q1:请对比…。A:…。Q2:…"), where "\s{0,3}" may be none.
_Q_NUMBER = re.compile(r"(?:^|(?<=\s)|(?<=[\u4e00-\u9fff。！？?!；;)）]))(?:[-*•]\s{1,2})?Q(?P<n>\d{1,2})\s{0,2}[:：.]\s{0,3}(?=\S)(?P<glued>(?!))?")
# A transcript's numbered answer running into the next numbered question: "A1. … - Q2. …?".
_ANSWER_THEN_QUESTION = re.compile(r"A\s{0,2}\d{1,3}\s{0,2}[.:：)]\s{0,3}(?P<a>.*?)\s[-–•]\s{1,3}(?P<q>Q\s{0,2}\d{1,3}\s{0,2}[.:：)]\s{0,3}\S.*)")
# The answer of an item: "答:", "答案：", "参考答案:", "Answer:" after the question.
_ANSWER = re.compile(r"(?:参考答案|答案|回答|答|answer)\s{0,2}[:：]", re.IGNORECASE)
# "A:" / "A1:" after the end of a labelled question ("Q1:…?A:…"): its answer.
_A_LABEL = re.compile(r"(?<=[?？。.!！])\s{0,3}A\d{0,2}\s{0,2}[:：]")
# Two items are a list when each asks ("1. …？2. …？") or is labelled a question ("1.题1(6分):…").
_ASKS = re.compile(r"\d{1,2}\s{0,2}[.．、)）]\s{0,3}(?:题|q\s{0,2}\d|问题)|[^?？]{2,300}[?？]", re.IGNORECASE)
# A short label after an item's last sentence ("…?二面:", "…。Round 2:"): what the next run is.
_TRAILING_LABEL = re.compile(r"(?<=[?？。.!！])\s{0,3}(?P<label>[^?？。.!！:：\s][^?？。.!！:：]{0,15}[:：])\s{0,3}$")
_QUESTION_END = re.compile(r"[?？。.!！;；,，)）]\s{0,3}$")


def split_line(line: str) -> list[str]:
    """``line`` as the lines its author wrote: numbered items of a one-line list apart, and an
    item's answer ("答:…") apart as a line starting with "答："; English questions run together
    without numbers ("Implement X. What is Y? How do A and B work.") apart. A line with none of
    these comes back whole."""
    if len(line) > MAX_SPLIT_CHARS:
        return [line]
    turns = _ANSWER_THEN_QUESTION.match(line)
    if turns:  # "A1. The kernel manages … - Q2. What is a process?": an answer, then the next question
        return ["答：" + turns["a"].strip(), turns["q"].strip()]
    items = _numbered_items(line)
    if len(items) == 1:
        items = _bulleted_items(line)
    if len(items) == 1:
        items = _run_on_questions(line)
    out: list[str] = []
    for item in items:
        out.extend(_question_and_answer(item, listed=len(items) > 1))
    return out


def _numbered_items(line: str) -> list[str]:
    """The items of the numbered runs written on one line (1, 2, 3 … counting up; a run may start
    again at 1: "一面:1. …2. …二面:1. …"; or labelled "- Q1: … - Q2: …"; lettered "a) … b) … c) …";
    bracketed "(1) … (2) …"), or ``[line]``."""
    items = _items(line, _NUMBER)
    if len(items) == 1 and "Q" in line:
        items = _items(line, _Q_NUMBER, labelled=True)
    if len(items) == 1 and ") " in line:
        items = _items(line, _LETTER)
    if len(items) == 1 and ("(" in line or "（" in line):
        items = _items(line, _BRACKETED)
    return items


def _items(line: str, numbers: re.Pattern[str], labelled: bool = False) -> list[str]:
    runs: list[list[int]] = []
    starts: list[int] = []
    expected = 1
    gaps = 0  # numbers the run skipped (an author who left out what they forgot: "2. …3. …6. …")
    for match in numbers.finditer(line):
        number = int(match["n"]) if match["n"].isdigit() else ord(match["n"]) - ord("a") + 1
        if match["glued"] is not None and not (number == expected and len(starts) >= MIN_RUN):
            continue
        if number == expected:
            starts.append(match.start())
            expected += 1
        elif number == 1:  # the list starts again (the next round), or a false start ("第1.…")
            runs.append(starts)
            starts, expected, gaps = [match.start()], 2, 0
        elif expected < number <= expected + MAX_SKIP and match["glued"] is None:
            starts.append(match.start())
            gaps += number - expected
            expected = number + 1
    runs.append(starts)
    if gaps and len(runs[-1]) < MIN_GAPPED_RUN:
        runs[-1] = []  # a few numbers with holes are figures, not a list
    kept: list[int] = []
    for index, run in enumerate(runs):
        if len(run) < 2:
            continue  # a false start
        end = runs[index + 1][0] if index + 1 < len(runs) and runs[index + 1] else len(line)
        items = [line[a:b] for a, b in zip(run, [*run[1:], end])]
        if len(run) >= MIN_RUN or labelled or all(_ASKS.search(item[:300]) for item in items):
            kept.extend(run)
    if len(kept) < 2:
        return [line]
    starts = sorted(kept)
    items = [_COMMA_NUMBER.sub(r"\1. ", line[a:b].strip(), count=1) for a, b in zip(starts, [*starts[1:], len(line)])]
    pieces = [line[:starts[0]].strip()] if starts[0] > 0 else []
    out: list[str] = []
    for item in items:  # "2. …收益?二面:": the label of the next run's part, on a line of its own
        label = _TRAILING_LABEL.search(item)
        out.extend([item[:label.start("label")].rstrip(), label["label"]] if label else [item])
    return [p for p in [*pieces, *out] if p]


#: Sentences of a line without numbers, each asking on its own, this many at least: questions run
#: together (a board's one-line entry); fewer are one question and its follow-ups ("Explain X. How …?").
MIN_RUN_ON = 4
_MAX_RUN_ON_CHARS = 1_500
#: A line this long (eighty characters hold eight short Chinese questions) that asks in this many
#: sentences, making this share of them, is a page's questions run together; of a longer line its
#: first sentences are judged.
_LONG_RUN_ON_CHARS = 80
_LONG_RUN_ON_MIN = 6
_LONG_RUN_ON_SHARE = 0.5
_LONG_RUN_ON_JUDGED = 200
#: Where a question ends inside a line: "？", "。", "！", "；"; ASCII "?", "!", ";" before a space, or
#: after a Chinese character ("吗?C++的…"): never inside an address's "?q=" or code's "!=".
_QUESTION_BREAK = re.compile(r"(?<=[？！。；])\s{0,3}(?=[^\s”」』)）\]】？])|(?<=[?!;])\s{1,3}(?=[^\s”\"」』)）\]】?？])|"
                             r"(?<=[\u4e00-\u9fff)）][?!;])(?=[^\s”\"」』)）\]】?？])")
#: A bullet inside a line, after the end of the item before it or a bold label: "…吗?* 如何…", "相关*** 你…".
_INLINE_BULLET = re.compile(r"(?:(?<=[?？。.!！:：;；)）])|(?<=\*\*))\s{0,2}[*•]\s{1,3}(?=[^\s*])")
#: A bold label after the end of an item: "…吗?**2. 操作系统相关**".
_INLINE_LABEL = re.compile(r"(?<=[?？。!！])\s{0,2}(?=\*\*[^*\s])")
_INLINE_BULLETS_MIN = 4
_CJK_DASH_BULLET = re.compile(r"(?<=[。？！；])\s{0,2}(?=-\s{1,3}[^\s-])")
_SENTENCE_BREAK = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")


def _run_on_questions(line: str) -> list[str]:
    """The questions of a line that holds only questions, each a sentence (English: "Implement X.
    What is Y? …"), or of a long line that is mostly questions, as a page that lost its line
    breaks gives them ("你在C++上的经历有哪些?一个空的类占多大内存?…", forty of them); or ``[line]``.
    (A question and its two or three follow-ups on one line stay one line: "BN在训练时如何做的?具体的公式?")"""
    if strip_list_marker(line) != line:
        return [line]
    if len(line) <= _MAX_RUN_ON_CHARS and not CJK.search(line):
        parts = _SENTENCE_BREAK.split(line.strip())
        if len(parts) >= MIN_RUN_ON and all(judge_line(part).asks for part in parts):
            return parts
    if len(line) < _LONG_RUN_ON_CHARS:
        return [line]
    parts = [part.strip() for part in _QUESTION_BREAK.split(line) if part.strip()]
    judged = parts[:_LONG_RUN_ON_JUDGED]  # (bounded work on a pathological line: its first sentences decide)
    asking = sum(1 for part in judged if judge_line(part[:300]).asks)
    if asking >= _LONG_RUN_ON_MIN and asking >= _LONG_RUN_ON_SHARE * len(judged):
        return parts
    return [line]


def _bulleted_items(line: str) -> list[str]:
    """The items of a bulleted list written on one line ("**1. C++ 相关*** 你主要用 C++ 吗?* 如何…?*
    …": a page's Markdown without its line breaks), each bold label on a line of its own; or ``[line]``.
    A dash after the end of a Chinese sentence ("…的区别。 - 字符设备…") opens an item whatever their number."""
    dashes = [m.start() for m in _CJK_DASH_BULLET.finditer(line)] if "-" in line else []
    if dashes:
        parts = [line[a:b].strip() for a, b in zip([0, *dashes], [*dashes, len(line)])]
        return [part for part in parts if part.strip("-• ")]
    if len(line) < _LONG_RUN_ON_CHARS:
        return [line]
    bullets = [m.start() for m in _INLINE_BULLET.finditer(line)]
    if len(bullets) < _INLINE_BULLETS_MIN:
        return [line]
    cuts = sorted({0, *bullets, *(m.start() for m in _INLINE_LABEL.finditer(line))})
    parts = [line[a:b].strip() for a, b in zip(cuts, [*cuts[1:], len(line)])]
    return [part for part in parts if part.strip("*• ")]


def _question_and_answer(item: str, listed: bool = False) -> list[str]:
    """A numbered item as its question and, on a line of its own, its answer (after "答:", or,
    in an item of a list written on one line, after a colon that opens the candidate's "I …")."""
    if len(item) < 12:
        return [item]
    labelled = _ANSWER.search(item, 6) or (_A_LABEL.search(item, 6) if _Q_NUMBER.match(item) else None)
    answer = labelled or (_FIRST_PERSON_ANSWER.search(item, 6) if listed else None)
    if answer is None:
        return [item]
    question = item[: answer.start()].rstrip()
    if len(question) < 6 or (labelled and not _ends_a_clause(question)):
        return [item]
    return [question, "答：" + item[answer.end():].strip()]


def _ends_a_clause(text: str) -> bool:
    """Whether the text before an answer label ends where a question can end (a mark, a comma, a
    full stop or a CJK character), not inside a word ("…Q&A:")."""
    return bool(_QUESTION_END.search(text)) or "\u4e00" <= text[-1:] <= "\u9fff"
