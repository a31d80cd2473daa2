"""Stage 4 of extraction: the interview questions of a document's blocks.

Questions are the asking lines of interview sections (面试指南, 常见面试题, Interview questions,
...), of interview rounds, of unknown sections whose lines mostly ask, and of a report's header:
a line that ends in ``?``/``？`` or opens with an asking or imperative verb (judged line by line
by :mod:`.asking`), but not an advice line or a rhetorical question followed by prose. Each gets
a confidence from where it was found and how it asks.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from prep.skills.taxonomy import find_skills

from .asking import interviewer_turn, judge_line, split_questions, strip_list_marker, task_names
from .headings import ANSWER_HEADING, CONTENT, GENERIC, INTERVIEW, ROUND_KIND, undecorate
from .prose import is_prose, prose_questions, sentences
from .reports import REPORT_TITLE as _REPORT_TITLE
from .reports import titled_as_questions
from .rounds import REVERSE
from .segment import FOLLOW_UPS_NAME, Block

#: At most this many questions are taken from one document; the rest are counted in ``truncated``.
MAX_QUESTIONS = 200
#: Lines longer than this are not examined for questions.
MAX_LINE_CHARS = 2_000

#: A question found: its text, section, interview round and confidence.
Found = tuple[str, str, str | None, float]

_INTERVIEW_HINT = re.compile(r"面试|考察|考点|问|题|interview|ask|question|discuss|topic|quiz|chat\s+about",
                             re.IGNORECASE)


def _score_generic(block: Block) -> bool:
    """Whether an unknown heading's lines are a list of questions (judged by what they look like)."""
    judged = [judge_line(line) for line in block.lines[:200]]
    asking = sum(1 for j in judged if j.asks)
    if asking < 2:
        return False
    hint = _INTERVIEW_HINT.search(block.name)
    return asking >= 0.6 * len(judged) or (hint is not None and asking >= 0.3 * len(judged))


def _rhetorical(index: int, lines: list[str]) -> bool:
    """A question followed by prose about the employer ("Why join us?" then a paragraph)."""
    following = lines[index + 1: index + 3]
    return bool(following) and all(not judge_line(n).asks and len(n) > 40 for n in following)


def find_questions(blocks: list[Block], report: bool, listing: bool = False,
                   origins: dict[str, tuple[int, int]] | None = None,
                   series: set[str] | None = None) -> tuple[list[Found], int]:
    """The questions of the question-bearing blocks (at most :data:`MAX_QUESTIONS`; each once,
    first found first), and how many more candidate lines (ending in a question mark or listed)
    were left unexamined past the cap.

    ``listing``: the document is a list of questions without a heading that says so (see
    :func:`.reports.is_question_list`): its header and unknown sections are read too, for lines
    that ask (a question followed by its answer paragraph is not rhetorical there).

    ``origins``, when given, receives the block number and line index each question was read
    from (keyed by its case-folded text); ``series``, the case-folded texts of the questions that
    are parts of a narrated series ("asked about paging, TLB and caches")."""
    found: dict[str, Found] = {}
    truncated = 0
    seen = 0  # questions already given an origin

    def note_origin(number: int, index: int) -> None:
        nonlocal seen
        if origins is not None and len(found) > seen:
            for key in list(found)[seen:]:
                origins.setdefault(key, (number, index))
        seen = len(found)

    for number, block in enumerate(blocks):
        if block.reverse:
            continue
        if block.answer:
            # an answer's lines are not questions, except the follow-ups it lists for its question
            # ("**Potential follow-up questions**:" over "* What would you measure first?")
            for index, said in _listed_follow_ups(block.lines):
                if len(found) < MAX_QUESTIONS:
                    found.setdefault(said.casefold(), (said, block.name or (block.round or ""), block.round, 0.6))
                    note_origin(number, index)
            continue
        kind = block.kind
        if kind == CONTENT and listing:  # a question page's "Overview" is no posting section
            kind = GENERIC
        if kind not in (INTERVIEW, ROUND_KIND, GENERIC, "header"):
            continue
        if kind == "header" and not (report or listing):
            continue
        if len(found) >= MAX_QUESTIONS:
            truncated += sum(1 for line in block.lines if line.endswith(("?", "？")) or line[:1] in "-•*0123456789")
            continue
        if kind == GENERIC and not (report or listing) and not _score_generic(block):
            continue
        in_round = kind == ROUND_KIND or (report and kind in (INTERVIEW, GENERIC, "header"))
        hinted = (kind == GENERIC and _INTERVIEW_HINT.search(block.name) is not None) or (
            kind == "header" and listing and bool(block.lines) and titled_as_questions(block.lines[0]))  # "NetApp interview question"
        section = block.name or (block.round or "")
        in_runs = _question_runs(block.lines) if (report or listing) else set()
        if (report or listing) and kind in (GENERIC, INTERVIEW) and block.name and not block.reverse:
            heading = judge_line(block.name)  # "## How does NCCL pick an algorithm?" over its answer
            if heading.asks and block.lines and len(block.lines[0]) > 80:
                found.setdefault(heading.text.casefold(), (heading.text, section, block.round, 0.7))
        task_block = bool(block.name) and _TASK_HEADING.fullmatch(block.name) is not None \
            and not any(judge_line(line).asks for line in block.lines[:20])  # else its asking lines are the task
        answered = answer_lines(block)
        notes = _discussion_notes(block.lines)
        task_next = False  # the line after a bare "手撕" / "Coding:" line states the task
        reverse_part = False  # after a listed "QA：" label: the candidate's questions
        introduced = False  # after "the discussion escalated to:" / "聊了这些：" the items are what was asked
        note_origin(number, 0)  # a heading that asks: its block's first line
        for index, line in enumerate(block.lines):
            note_origin(number, index - 1)
            if len(found) >= MAX_QUESTIONS:
                rest = block.lines[index:]
                truncated += sum(1 for r in rest if r.endswith(("?", "？")) or r[:1] in "-•*0123456789")
                break
            if index in answered:
                continue
            if line.startswith(">") and _QUOTED_TASK.match(line):
                line = line.lstrip("> \t")  # "> 输入一个 M×N 的矩阵，输出…": the task, quoted
            body = strip_list_marker(line)
            if body != line.strip() and REVERSE.fullmatch(body):  # "- QA：" over the candidate's own questions
                reverse_part = True
                continue
            if reverse_part:
                if not (body.endswith(("：", ":")) and body != line.strip()):
                    continue
                reverse_part = False  # the next group label ("- Coding：") ends them
            if len(line) > MAX_LINE_CHARS or _NOT_A_QUESTION_LINE.match(line) or index in notes:
                continue
            if task_next:
                task_next = False
                judgement = judge_line(line)
                if judgement.dropped is None and len(judgement.text) >= 6 and not NARRATES.search(judgement.text[:40]):
                    found.setdefault(judgement.text.casefold(), (judgement.text, section, block.round, 0.6))
                    continue
            if _TASK_HEADING.fullmatch(strip_list_marker(line).rstrip(":： ")):
                task_next = True
                continue
            listed = strip_list_marker(line) != line.strip()
            if introduced and listed and (report or listing or kind == INTERVIEW):
                judgement = judge_line(line)
                if judgement.dropped is None and len(judgement.text) <= 150 and not _ADVISING.match(judgement.text):
                    found.setdefault(judgement.text.casefold(), (judgement.text, section, block.round, 0.6))
                    continue
            introduced = not listed and line.endswith((":", "：")) and bool(_INTRODUCES.search(line[-120:]))
            if kind == "header" and ((report and len(line) <= 60 and _REPORT_TITLE.match(line))
                                     or (index == 0 and titled_as_questions(line.lstrip("# ")))):
                continue  # the report's own title ("… 面试记录，顺便吐槽一下流程", "Design verification engineer Interview Questions")
            named_tasks = task_names(strip_list_marker(line)) if (report or listing or in_round) else []
            if named_tasks:  # "cuda实现：reduction，softmax，…": each a task to write
                for text in named_tasks:
                    found.setdefault(text.casefold(), (text, section, block.round, 0.6))
                continue
            scenario = _scenario_question(body) if (report or listing or in_round or kind == INTERVIEW) else None
            if scenario:  # "Let's say there is one timer. … How do you ensure …?": one question, its set-up and all
                found.setdefault(scenario.casefold(), (scenario, section, block.round, 0.8))
                continue
            if hinted and kind == "header" and index and len(parts := sentences(line)) >= 3 \
                    and not any(judge_line(above).mark for above in block.lines[max(0, index - 3): index]):
                # a paragraph under a title saying the page is interview questions ("NetApp interview
                # question" over "Design a hash map. Difference between mutex and semaphore. …"): each
                # technical sentence is one asked (not a paragraph answering the question just above it)
                for part in parts:
                    judgement = judge_line(part)
                    if judgement.dropped is None and 6 <= len(judgement.text) <= 150 and not NARRATES.search(judgement.text) \
                            and (judgement.asks or judgement.topic or _looks_technical(judgement.text)):
                        found.setdefault(judgement.text.casefold(), (judgement.text, section, block.round, 0.55))
                continue
            if report and is_prose(line):
                for text, how in prose_questions(line):
                    if how == "topic" and not in_round:
                        continue
                    confidence = {"cue": 0.7, "series": 0.7, "asks": 0.75, "topic": 0.55}[how]
                    if how == "series" and series is not None:
                        series.add(text.casefold())
                    found.setdefault(text.casefold(), (text, section, block.round, confidence))
                continue
            for part in split_questions(line):
                judgement = judge_line(part)
                if judgement.dropped:
                    continue
                if judgement.mark or judgement.verb:
                    confidence = 0.9 if judgement.mark else 0.85
                    if kind == GENERIC and not report:
                        confidence -= 0.1
                    if kind == "header" and (report or listing):
                        confidence -= 0.15
                    if not in_round and not listing and kind not in (INTERVIEW,) and judgement.mark \
                            and _rhetorical(index, block.lines) and not interviewer_turn(line):
                        continue
                elif judgement.topic and (in_round or kind == INTERVIEW or hinted) and not _CLAUSES.search(judgement.text):
                    confidence = 0.65 if in_round else 0.6
                elif kind == INTERVIEW and len(judgement.text) <= 150 and strip_list_marker(part) != part.strip() \
                        and _looks_technical(judgement.text) and not _ADVISING.search(judgement.text[:150]):
                    confidence = 0.6  # an item under a known interview heading ("编程题：给定…，求…")
                elif in_round and kind == ROUND_KIND and len(judgement.text) <= 60 and _looks_technical(judgement.text) \
                        and not _CLAUSES.search(judgement.text) and not NARRATES.search(judgement.text):
                    confidence = 0.5
                elif block.listed and len(judgement.text) <= 80:
                    confidence = 0.6  # a topic heading in a numbered list of question headings
                elif index in in_runs and len(judgement.text) <= 60 and (listing or _looks_technical(judgement.text)) \
                        and not NARRATES.search(judgement.text) and not _CLAUSES.search(judgement.text):
                    confidence = 0.5  # a short technical item in a run of listed questions ("- Bank 冲突")
                elif task_block and 6 <= len(judgement.text) <= 300 and not NARRATES.search(judgement.text[:40]):
                    confidence = 0.6  # the problem under "手撕" / "Coding:" as the report states it
                elif (report or listing) and listed and len(judgement.text) <= 80 and index + 1 < len(block.lines) \
                        and block.lines[index + 1].startswith("答：") and not NARRATES.search(judgement.text):
                    confidence = 0.6  # an item its author answers on the next line ("4. arp的作用" over "答：…")
                else:
                    continue
                if len(judgement.text) > 150:
                    confidence -= 0.2
                found.setdefault(judgement.text.casefold(), (judgement.text, section, block.round, round(max(0.05, confidence), 2)))
        note_origin(number, len(block.lines) - 1)
    return list(found.values())[:MAX_QUESTIONS], truncated


#: A heading over a coding task: "手撕", "算法题", "Coding", "第一题：时钟指针夹角计算".
_TASK_HEADING = re.compile(r"(?:手撕|算法题?|编程题|代码题|机试|hackerrank|leetcode|oa|online\s+assessment|"
                           r"coding(?:\s+(?:question|problem|round))?|algorithm(?:ic)?\s+problem|"
                           r"第[一二三四五六七八九十\d]{1,2}题.{0,30})", re.IGNORECASE)
#: Words of a report's narration: the candidate or the interviewer doing something, a feeling.
NARRATES = re.compile(r"我|面试官|感觉|然后|结果|😅|😂|选一道|二选一|的时候|了.{0,30}[。！!]$|(?:部分|相关|方面|环节)$|"
                       r"\b(?:i|we|my|he|she)\b", re.IGNORECASE)
#: A sentence of several clauses ("on site面試，第一次到…，在…"): narration, not a bare topic.
_CLAUSES = re.compile(r"[，,][^，,]{1,80}[，,]|[，,].{0,80}[。.!！]$")
#: A run of listed lines is a list of questions when this share of them ask or name a topic.
_RUN_SHARE = 1 / 5
#: A run of short unlisted lines (one question a line) needs more of them asking.
_PLAIN_RUN_SHARE = 1 / 2
_PLAIN_RUN_CHARS = 120
#: A line that opens with another report's round ("字节C++一面:…?"): a link to it, not this report's question.
_ANOTHER_REPORT = re.compile(r".{0,16}?(?:[一二三四五终]面|\d面|面经|面试)\s{0,2}[:：]")


#: A heading over an answer ("答案:", "Answer", "参考答案", "思路"): its lines are not questions.


_BARE_NUMBER = re.compile(r"\d{1,3}[.、)）]?")


def answer_lines(block: Block) -> set[int]:
    """Indices of the lines of ``block`` that answer: every line under an answer heading ("参考答案"),
    and the lines after an answer label on a line of its own ("Answer:", "**答案提示**:"), until a
    listed line of another kind of list than the answer's own, or a number on a line of its own
    (the next question of the list)."""
    out: set[int] = set()
    answer_marker = "" if block.name and ANSWER_HEADING.fullmatch(block.name) else None
    for index, line in enumerate(block.lines[:20_000]):
        if answer_marker is not None and _BARE_NUMBER.fullmatch(line.strip()):
            answer_marker = None  # "2" on a line of its own: the next question's number
        if answer_marker is not None:
            marker = _marker_kind(line)
            if not marker or marker == answer_marker or not answer_marker:
                answer_marker = answer_marker or marker
                out.add(index)
                continue
            answer_marker = None
        if ANSWER_HEADING.fullmatch(undecorate(strip_list_marker(line))):  # "Answer" on a line of its own
            answer_marker = ""
            out.add(index)
    return out


def _marker_kind(line: str) -> str:
    """The kind of list marker ``line`` opens with: "1" for numbers, else the marker's first
    character ("-", "•", "①"), or "" for a line that is not listed."""
    body = strip_list_marker(line)
    marker = line.strip()[: len(line.strip()) - len(body)].strip()
    if not marker or body == line.strip():
        return ""
    return "1" if marker[0].isdigit() else marker[0]


_NOTE_VERB = re.compile(r"(?:discuss|describe|explain|mention|cover|talk\s+about|focus\s+on)\b", re.IGNORECASE)


def _discussion_notes(lines: list[str]) -> set[int]:
    """Indices of the notes of a list that alternates a question and what to discuss in the answer
    ("What is a CUDA stream?" / "Describe streams and why they matter."), when three or more such
    pairs are in the block: the notes are the list's advice, not questions."""
    pairs: list[int] = []
    index = 0
    while index + 1 < len(lines):
        question, note = lines[index], lines[index + 1]
        if judge_line(question).asks and _NOTE_VERB.match(strip_list_marker(note)) \
                and not note.rstrip().endswith(("?", "？")):
            pairs.append(index + 1)
            index += 2
            continue
        index += 1
    marked = sum(1 for i in pairs if lines[i - 1].rstrip().endswith(("?", "？")))
    return set(pairs) if len(pairs) >= 3 and marked >= 2 else set()


#: A run of unlisted lines without question marks: this many ask or name a topic, this share of it.
_PLAIN_TOPIC_RUN = 4
_PLAIN_TOPIC_SHARE = 0.6


def _question_runs(lines: list[str]) -> set[int]:
    """Indices of the listed lines that sit in a run of at least three listed lines of which two
    and a fifth or more ask or name a topic (the neighbours' evidence for a bare item), and of
    the short unlisted lines in a run of them of which half or more ask or name a topic, three
    with a question mark (a list written one question a line, without numbers)."""
    runs: set[int] = set()
    for plain in (False, True):
        start = None
        for index in range(len(lines) + 1):
            if index == len(lines):
                member = False
            elif plain:  # "HTTP 和 HTTPS 的区别" between unlisted questions, one a line
                member = strip_list_marker(lines[index]) == lines[index].strip() and len(lines[index]) <= _PLAIN_RUN_CHARS \
                    and not lines[index].endswith((":", "："))
            else:
                member = strip_list_marker(lines[index]) != lines[index].strip()
            if member and start is None:
                start = index
            if not member and start is not None:
                if index - start >= 3:
                    judged = [judge_line(line) for line in lines[start:index]]
                    asking = sum(1 for j in judged if j.asks or j.topic)
                    if plain:  # unlisted lines: most must ask, with question marks
                        other = [bool(_ANOTHER_REPORT.match(line)) for line in lines[start:index]]  # another report's title
                        marked = sum(1 for j, title in zip(judged, other) if j.mark and not title)
                        if (marked >= 3 and asking >= _PLAIN_RUN_SHARE * (index - start)) or (
                                asking >= _PLAIN_TOPIC_RUN and asking >= _PLAIN_TOPIC_SHARE * (index - start)
                                and not any(other)):
                            runs.update(range(start, index))  # (or topics one a line, most of them)
                    elif asking >= 2 and asking >= _RUN_SHARE * (index - start):
                        runs.update(range(start, index))
                start = None
    return runs


#: A quoted line that states a task ("> 输入一个 M×N 的矩阵，输出…", "> Given an array …"): the problem as given.
_QUOTED_TASK = re.compile(r">\s{0,3}(?:输入|给定|给你|给出|实现|编写|写一个|设计一个|求|"
                          r"(?:given|implement|write|design|return|find|compute)\b)", re.IGNORECASE)
#: A labelled part of an answer ("* **Common Pitfalls**: …"): it ends a list of follow-ups.
_ANSWER_PART = re.compile(r"[-*•\s]{0,6}(?:\*\*|__)[^*_]{1,60}(?:\*\*|__)\s{0,2}[:：]|[^\s?？]{1,20}[:：]\s{0,2}$")


def _listed_follow_ups(lines: list[str]) -> Iterator[tuple[int, str]]:
    """The items that ask under an answer's follow-ups label, and the lines inside it labelled as
    one ("追问:红黑树的时间复杂度是多少？", "Follow-up: …?"), each with its line's index."""
    listing = False
    # the numbered items that open an answer and ask, two or more ("**谈一下编译链接过程**" over
    # "1. 编译干了什么" / "2. 链接干了什么"): the question's parts, asked before anything is answered
    opening = list(itertools.takewhile(lambda line: _NUMBERED_ITEM.match(line) is not None, lines[:20]))
    if len(opening) >= 2 and all((judged := judge_line(line)).asks and judged.dropped is None and not judged.mark
                                 and len(judged.text) <= 80 for line in opening[:2]):
        for index, line in enumerate(opening):
            judged = judge_line(line)
            if judged.asks and judged.dropped is None:
                yield index, judged.text
    for index, line in enumerate(lines[:_FOLLOW_UP_SCAN_LINES]):
        body = strip_list_marker(line)
        if len(line) <= 120 and FOLLOW_UPS_NAME.fullmatch(undecorate(body)):  # "* **Follow-ups**:"
            listing = True
            continue
        labelled = _FOLLOWS_UP.match(body) if len(line) <= MAX_LINE_CHARS else None
        if labelled:
            judged = judge_line(body[labelled.end():])
            if judged.asks and judged.dropped is None:
                yield index, judged.text
            continue
        if not listing:
            continue
        if body == line.strip() or _ANSWER_PART.match(line) or len(line) > MAX_LINE_CHARS:
            listing = False  # not an item, or the answer's next part
            continue
        judged = judge_line(body)
        if judged.asks and judged.dropped is None:
            yield index, judged.text


_FOLLOW_UP_SCAN_LINES = 400
_NUMBERED_ITEM = re.compile(r"\s{0,3}\d{1,2}\s{0,2}[.、)）]\s{0,3}\S")
#: A line of an answer labelled as the interviewer's follow-up.
_FOLLOWS_UP = re.compile(r"\s{0,3}(?:\*\*|__)?(?:(?:面试官)?(?:又|还)?追问(?:了)?|follow[- ]?up(?:\s+question)?)(?:\*\*|__)?\s{0,2}[:：]"
                         r"(?:\*\*|__)?\s{0,2}", re.IGNORECASE)

#: A line that says the items under it are what was asked or discussed.
_INTRODUCES = re.compile(r"discuss|escalat|asked|questions?|topics?|covered|went\s+(?:into|over)|聊了|问了|考了|问到|包括|如下|涉及",
                         re.IGNORECASE)

#: Lines that are never questions: the candidate's answers (答：…, A: …, 我答的：…), what the
#: candidate did (写了…, 答了…), code (``int f(...) {``, ``return k;``), Markdown link lines
#: (a blog's "related posts") and copyright footers.
_NOT_A_QUESTION_LINE = re.compile(
    r"\s{0,4}(?:[-*•>]\s{0,3})?(?:\*\*)?(?:"
    r"(?:答|回答|我答(?:的)?|我的回答|我的答案|参考答案|我说|我回答|a|ans(?:wer)?|my\s+answer|me|i\s+(?:said|answered))\s{0,2}[:：]"
    r"|(?:我)?(?:答了|写了|说了|讲了|提了|回答了|画了|推了)(?!解|吗|么)"
    r"|(?:int|void|bool|char|auto|long|double|float|return|for|while|if|else|switch|case|break|continue|"
    r"const|static|template|typedef|struct|class|public|private|def|import|#include|std::)\b[^\u4e00-\u9fff]{0,200}[;{}):]\s*$"
    r"|[{}]\s*;?\s*$"
    r"|\[[^\]]{1,200}\]\((?![^)\s]{0,60}(?:leetcode|lintcode|nowcoder|hackerrank|codeforces))[^)\s]{1,300}\)\s*$"
    r"|(?:©|\(c\)|copyright\b|版权声明|原文链接|本文为)"
    r"|>"  # a quoted line: the candidate's answer or someone else's comment
    r"|(?:#[^\s#]{1,30}#?\s{0,3}){1,12}$"  # a line of tags: "#LLMs #CUDA", "#秋招# #寒武纪#"
    r"|[（(][^（）()]{4,200}[)）]\s{0,3}$"  # a note in brackets: "（这几个答案比较长，后面单独写一篇）"
    r"|.{0,80}?\d{4}[/-]\d{1,2}[/-]\d{1,2}\s{1,3}\d{1,2}:\d{2}"  # a chat message's header
    r"|.{0,60}?\b\d{1,3}\s{0,2}[-~–]\s{0,2}\d{1,3}\s{0,2}[kK万]\b"  # a job list's "Java架构师  50-80k  …"
    r"|.{0,40}?(?:posted\s+by\s+u/|\br/\w{2,40}\s{0,3}•)"
    r")",
    re.IGNORECASE,
)

#: A question that sets its scene first: "Let's say …", "Suppose …", "假设有一个…".
_SCENARIO = re.compile(r"(?:let['’]?s\s+say|suppose|assume|imagine|say\s+you\s|consider\s+a|you\s+are\s+given|"
                       r"假设|假如|设想)", re.IGNORECASE)
_MAX_SCENARIO_CHARS = 500
_MAX_SCENARIO_SENTENCES = 5


def _scenario_question(text: str) -> str | None:
    """``text`` as one question when it opens with its scenario and a later sentence of it asks
    (a few sentences at most), else None."""
    if len(text) > _MAX_SCENARIO_CHARS or not _SCENARIO.match(text):
        return None
    parts = sentences(text)
    if not 2 <= len(parts) <= _MAX_SCENARIO_SENTENCES or not any(judge_line(part).asks for part in parts[1:]):
        return None
    return text.strip()


def never_a_question(line: str) -> bool:
    """Whether ``line`` is never a question whatever its section: an answer, a quote, code, a
    link line, a line of tags, a footer, a chat header."""
    return bool(_NOT_A_QUESTION_LINE.match(line))


_TECHNICAL = re.compile(r".{0,60}?(?:[A-Z]{2,}|[A-Za-z]+\d|[A-Za-z]+[_/.:+#]\w|[a-z]+[A-Z]|C\+\+|C#|原理|实现|机制|机理|特性|冲突|策略|分化|语义|转换|算法|优化|内存|线程|进程|网络|协议|锁|缓存|调度|并行|通信|"
                        r"编程|代码|数组|链表|树|图|矩阵|字符串|复杂度|带宽|延迟|吞吐|架构|存储|数据结构|函数|指针|容器|迭代器|模板|多态|继承|死锁|事务|索引|堆|栈|队列|"
                        r"(?i:\b(?:memory|thread|kernel|cache|latency|bandwidth|throughput|pointer|compiler|parallel|function|virtual|"
                        r"linked\s+list|tree|heap|queue|stack|array|hash|lock|mutex|semaphore|process|system\s+call|syscall|"
                        r"polymorphism|inheritance|template|reference|page|paging|TLB|interrupt|scheduler|socket|warp|occupancy|"
                        r"coalesc\w*|sharing|atomic|barrier|fence|stream|kernel)s?\b))")


_ADVISING = re.compile(r"建议|推荐|阅读|关注|复习|准备|了解一下|注意|熟悉|掌握|recommend|suggest|read|review|prepare|"
                       r"familiar|brush\s+up|focus", re.IGNORECASE)


def _looks_technical(text: str) -> bool:
    """Whether a short item names a technical thing: an acronym, a code word, a technical noun, or a
    skill of the taxonomy by any of its names ("虚拟地址到物理地址的映射", "信号量与完成量")."""
    return bool(_TECHNICAL.match(text)) or bool(find_skills(text[:300]))
