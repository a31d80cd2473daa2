"""Stage 2 of extraction: the lines of a document into blocks under their headings.

The lines before the first recognised heading are the *header* block; noise sections (英伟达
的其他在招职位, 相似职位推荐, Similar jobs, More jobs at ...) and their lines are dropped until the
next real heading; an interview round's sub-headings stay in that round.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .asking import CJK, judge_line, opens_asking, strip_list_marker
from .headings import (ANSWER_HEADING, GENERIC, HEADING_TRAILERS, INTERVIEW, NOISE, ROUND_KIND, generic_heading, match_heading,
                       undecorate)
from .rounds import ASKER_LABEL, REVERSE, round_line

#: A line that opens a forum thread's comments ("87 Comments", "Sort by: Best", "12 条回复",
#: "全部评论（23）"): what follows is other people talking until the next real heading.
_COMMENTS_START = re.compile(
    r"(?:^|\s)(?:sort\s+by\s{0,2}[:：]|\d{1,6}\s{0,2}(?:comments?|replies|answers)\b|view\s+all\s+\d{1,6}\s+comments?|"
    r"\d{1,6}\s{0,2}条(?:回复|评论)|全部评论|共\s{0,2}\d{1,6}\s{0,2}条评论|评论区|热门评论|最新评论)",
    re.IGNORECASE,
)
#: How many answered a question on a Q&A page ("8 Answers↳").
_ANSWER_COUNT = re.compile(r"\d{1,6}\s{0,2}answers?\s{0,2}[↳>»]?", re.IGNORECASE)
#: Counters shown beside a post's comment count: the line is the post's metadata.
_POST_STATS = re.compile(r"\d\s{0,2}[kKmMwW万千]?\s{0,2}(?:views?|likes?|shares?|upvotes?|浏览|阅读|赞|收藏|点赞)|(?:浏览|阅读|点赞)\s{0,2}\d",
                         re.IGNORECASE)


#: A sentence that introduces a list of interview questions and ends with a colon ("Here are the
#: kinds of prompts our engineers use:", "面试官可能会问到下面这些问题：").
_INTRO_BODY = (
    r"(?:.{0,160}\b(?:interview\s+)?(?:questions|prompts|problems)\b.{0,60}|"
    r".{0,120}\b(?:we(?:'ll|\s+will)?|interviewers?|they)\s+(?:may\s+|might\s+|will\s+|often\s+|usually\s+)?"
    r"(?:ask|asked|cover|discuss|dig\s+into)\b.{0,60}|"
    r".{0,80}(?:面试官|面试中|面试时|技术面).{0,20}(?:问|考).{0,30}|.{0,80}(?:以下|下面|这些|这几)(?:个|道)?(?:问题|题目|题).{0,30})"
)
#: A sentence that introduces a list of interview questions and ends with a colon ("Here are the
#: kinds of prompts our engineers use:", "面试官可能会问到下面这些问题："), or without the colon
#: when a list item follows ("聊之前可以先想想这几个问题").
_INTRODUCES_QUESTIONS = re.compile(_INTRO_BODY + r"[:：]\s{0,2}$", re.IGNORECASE)
_INTRODUCES_LIST = re.compile(_INTRO_BODY + r"[:：]?\s{0,2}$", re.IGNORECASE)
#: The line under a question heading that states the question ("## Question 1: TCP vs QUIC" over
#: "**Question:** Contrast the TCP and QUIC handshakes…"): the heading only names its topic.
_STATED_QUESTION = re.compile(r"[*_]{0,2}(?:question|problem|prompt|问题|题目)\s{0,2}[*_]{0,2}\s{0,2}[:：]\s{0,2}[*_]{0,2}\s{0,2}"
                              r"(?P<q>[^*_\s].{5,})", re.IGNORECASE)
#: A heading that only numbers a question ("Question 1 (covers networking)", "Problem 2: *Binary swaps*",
#: "问题三"): the question is the line under it.
_NUMBERED_QUESTION = re.compile(r"(?:question|problem|问题|题目)\s{0,2}(?:\d{1,3}|[一二三四五六七八九十]{1,3})(?![\d.])"
                                r"(?:\s{0,2}[:：(（\-–—]\s{0,2}(?P<rest>[^?？]{0,60}))?", re.IGNORECASE)
#: A topic's name in title case ("Code Quality", "DO-178C DAL Levels"): no imperative, whatever its first word.
_TITLE_CASED = re.compile(r"(?:[A-Z0-9][\w+#./-]*)(?:\s+(?:[A-Z0-9][\w+#./-]*|vs\.?|and|of|in|for|the|&))*")
#: A label over the question's words ("**Description:**", "题目描述："): the line after it states it.
_STATEMENT_LABEL = re.compile(r"[*_]{0,2}(?:description|statement|problem\s+statement|题目描述|描述)[*_]{0,2}\s{0,2}[:：]\s{0,2}[*_]{0,2}",
                              re.IGNORECASE)
#: The name of a list of follow-up questions, undecorated: "Potential Follow-up Questions", "可能的追问".
FOLLOW_UPS_NAME = re.compile(r"(?:(?:potential|possible|likely|common|typical)\s+)?follow[-\s]?ups?(?:\s+questions?)?"
                             r"|(?:可能的|常见|延伸)?追问(?:问题)?|延伸问题", re.IGNORECASE)
#: "Q1: …", "Q2. …": numbered questions, wherever they start.
_Q_ITEM = re.compile(r"(?:\*\*)?q\s{0,2}\d{1,2}\s{0,2}[:：.．)）]", re.IGNORECASE)


#: The rest of a round line that states its problem ("Coding 1 - LRU cache with O(1) get and put"):
#: an acronym, a call or a figure, unlike "Round 1 - Hiring manager (45 min)".
_NAMES_A_PROBLEM = re.compile(r"[A-Z]{2,}|\w\(\w|[A-Za-z]\d|\d[A-Za-z]|[\u4e00-\u9fff]{2,}.{0,20}(?:实现|算法|设计|问题)")


#: A heading that says the candidate asks next ("…就隨便問了兩個", "最後10分鐘有一些QA", "I asked about"):
#: its lines are the candidate's own questions.
_CANDIDATE_ASKS = re.compile(r"我[^，,。:：]{0,20}[问問]|[问問]了些?[对對].{0,10}的[问問]题|(?<![A-Za-z])(?:QA|Q&A)(?![A-Za-z])|"
                             r"\bi\s+asked\b|\bmy\s+questions\b")
#: The rest of a round line that names the round ("AI/ML Round (60 mins)", "C/C++/Python Round"), not a problem.
_NAMES_A_ROUND = re.compile(r"[^:：?？]{1,40}\b(?:round|interview|screen|面)\s{0,2}(?:[(（][^()（）]{0,30}[)）])?\s{0,2}$|"
                            r"(?:考察|考|主要|包括|内容|涉及|covers?\b|focus(?:ed|es)?\s+on|mostly|mainly).{0,60}$|"
                            r"(?:BQ|HR|behaviou?ral)\s{0,2}[+&＋]", re.IGNORECASE)


@dataclass
class Block:
    """A heading and the lines under it (the first block of a document is its header)."""

    name: str
    kind: str  # required | responsibilities | nice | content | interview | round | generic | header
    round: str | None
    lines: list[str] = field(default_factory=list)
    reverse: bool = False  # inside a round's 反问 part
    notes: list[str] = field(default_factory=list)  # text that names skills but asks nothing ("C/C++/Python Round")
    answer: bool = False  # the answer to a heading that asked ("### Q2: What is …?"): its lines are not questions
    listed: bool = False  # its one line is a numbered heading of a list of questions ("#### 2. C++17的常用特性")


#: A page's opening lines, where a noise heading is a menu item.
_MENU_LINES = 4
#: … when the page's text follows it: no known heading within this many lines.
_MENU_SECTION = 10


def segment(lines: list[str]) -> tuple[list[Block], bool]:
    """Lines into blocks under their headings (noise dropped); whether any known heading was seen."""
    blocks = [Block("", "header", None)]
    recognised = False
    noise = False
    noise_level = 0  # the Markdown level of the noise heading (0: a line of its own, ended by no heading)
    current_round: str | None = None
    answering: int | None = None  # the level of the heading that asked, while its answer runs
    in_asking_runs = _asking_heading_runs(lines) | _asking_sibling_headings(lines)
    # one "# …" is the page's title; several are its sections, and each may ask ("# 输入一个URL…发生了什么")
    sectioned = sum(1 for line in lines[:MAX_SCANNED_LINES] if line.startswith("# ")) >= 2
    stated_line = -1  # the line under a question heading that states its question
    reverse_level: int | None = None  # the Markdown level of a heading over the candidate's questions
    seen = len(blocks)
    for index, line in enumerate(lines):
        if reverse_level is not None:
            for block in blocks[seen:]:
                block.reverse = True  # "## Technical Questions:" under "# Questions to ask the interviewer"
        seen = len(blocks)
        if index == stated_line:
            continue
        if _ANSWER_COUNT.fullmatch(line.strip()) and index and (
                _heading_level(lines[index - 1]) is not None or lines[index - 1].rstrip().endswith(("?", "？"))):
            continue  # "8 Answers↳" under a question: how many answered it, not the page's comments
        if len(line) <= 120 and _COMMENTS_START.search(line):
            # the thread's comments: other people's questions, not the report's; a count of them
            # under the post's title ("Nov 14 · 5.8K views · 47 comments") is the post's metadata
            metadata = (len(blocks) == 1 and len(blocks[0].lines) <= 3) or bool(_POST_STATS.search(line))
            if not (noise or metadata):
                noise, noise_level = True, 0  # (the comments run to the page's end)
            continue
        level = _heading_level(line)
        if reverse_level is not None and level is not None and level <= reverse_level:
            reverse_level = None
        question = _heading_text(line) if level is not None else ""
        asks = level is not None and (_asking_heading(question, line, 2 if level == 1 and sectioned else level)
                                      or index in in_asking_runs
                                      or (index + 1 < len(lines) and _ANSWER_COUNT.fullmatch(lines[index + 1].strip()) is not None))
        # (a heading over "8 Answers↳": a question the page's readers answered)
        numbered = None
        named = _NUMBERED_QUESTION.fullmatch(question[:120]) if level is not None and level > 1 else None
        if named and not (named["rest"] and judge_line(named["rest"]).asks and not _TITLE_CASED.fullmatch(named["rest"].strip())):
            # ("Question 2：Explain …" asks itself; "Question 16: Code Quality" names a topic)
            numbered = _numbered_question(lines, index)  # "## Question 1 (covers …)" over "> What is …?"
            asks = asks or numbered is not None
        if answering is not None and level is not None and level <= answering and not asks:
            answering = None  # a heading as high as the question's that does not ask: the answer ended
        if answering is not None and level is not None and not asks and round_line(question[:240]):
            answering = None  # "#### 一面" under a heading that seemed to ask: a round opens, no answer holds one
        if asks and not noise and (answering is None or level <= answering or _explicit_question(question)):
            # "### Q2: What is memory coalescing?" / "**3. 什么是 bank conflict？**": a question, and
            # what follows until the next heading as high is its answer (sub-headings and all, even
            # those that ask: "#### How to avoid them" under "### Q8: Explain bank conflicts")
            stated = _STATED_QUESTION.fullmatch(lines[index + 1][:1000]) if index + 1 < len(lines) else None
            if stated:
                question = stated["q"].strip()
                stated_line = index + 1  # (read: not a "题目" section of its own, over the answer)
            elif numbered:
                question = numbered
            parent = blocks[-1]
            blocks.append(Block("", _kind_under(parent), parent.round, [question], listed=index in in_asking_runs))
            blocks.append(_answer_block(question, parent))
            answering = level
            continue
        if answering is not None and (level is not None or generic_heading(line)):
            if FOLLOW_UPS_NAME.fullmatch(undecorate(line)):
                blocks[-1].lines.append(line)  # "#### 追问" in an answer: the label over the follow-ups it lists
            continue  # a sub-heading of the answer ("**Why it matters**", "#### Example")
        if noise and level is not None and level <= noise_level:
            noise = False  # "## 推荐阅读" ends at the next "## …": the page goes on ("## 落地应用")
        if level is not None and level < 7 and not noise and ANSWER_HEADING.fullmatch(question.rstrip(":： ")):
            # "## 评分标准" over "### 优秀（85-100分）" and its items: a rubric (or an answer) and its
            # sub-headings, until a heading as high
            blocks.append(_answer_block(question, blocks[-1]))
            answering = level
            continue
        heading = match_heading(line)
        if heading and heading[2] and heading[1] == "nice" and opens_asking(heading[2][:300]):
            heading = None  # "Bonus: Explain how to upgrade a running kernel.": a labelled follow-up, no section
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if heading and heading[2] and len(heading[2]) >= 15 and blocks[-1].kind in (ROUND_KIND, INTERVIEW) \
                and heading[1] not in (ROUND_KIND, INTERVIEW, NOISE) and following \
                and strip_list_marker(following) == following:
            continue  # "What we're looking for: …" under a sample question: a note, not a section
        if heading:
            name, kind, rest = heading
            if kind == NOISE:
                # (among a page's first lines, under its menu, "精选文章" or "Related" is a menu item,
                # not the related posts after its text: only that line is dropped. As the title, a
                # noise heading says what the whole page is: "校园招聘常见问题".)
                menu = len(blocks) == 1 and bool(blocks[0].lines) and index < _MENU_LINES \
                    and not any(match_heading(after) for after in lines[index + 1: index + 1 + _MENU_SECTION])
                if not (noise or menu):
                    noise, noise_level = True, level if level is not None and level < 7 else 0
                continue
            noise = False
            recognised = True
            if kind != INTERVIEW:
                current_round = None
            blocks.append(Block(name, kind, current_round if kind == INTERVIEW else None))
            if rest:
                blocks[-1].lines.append(rest)
            continue
        round_ = round_line(line)
        if round_:
            noise = False
            recognised = True
            current_round, rest = round_
            blocks.append(Block(current_round, ROUND_KIND, current_round))
            # "Round 1 - Hiring manager (45 min)": a description of the round, not a question
            if rest and not _NAMES_A_ROUND.match(rest) and (
                    len(rest) > 40 or judge_line(rest).asks or _NAMES_A_PROBLEM.search(rest)):
                blocks[-1].lines.append(rest)
            elif rest:
                blocks[-1].notes.append(rest)
            continue
        if noise:
            continue
        if line.startswith(">") and len(line) <= 80 and blocks[-1].kind in (ROUND_KIND, INTERVIEW, "header", GENERIC):
            asker = ASKER_LABEL.fullmatch(line)  # "> 面试官提问:" / "> 我提问:" over the lines that follow
            if asker or REVERSE.fullmatch(line):
                hr = bool(asker and re.search(r"(?<![a-z])hr(?![a-z])", asker["who"], re.IGNORECASE))
                kind = blocks[-1].kind if blocks[-1].kind in (ROUND_KIND, INTERVIEW) else INTERVIEW
                blocks.append(Block(line.lstrip("> ").rstrip(HEADING_TRAILERS), kind, blocks[-1].round,
                                    reverse=hr or not asker))
                recognised = True
                continue
        generic = generic_heading(line)
        if generic and len(blocks) == 1 and not blocks[0].lines:
            blocks[0].lines.append(generic)  # "【Job title】" or "## Title" opening the page: the header
            continue
        if not generic and (len(blocks) > 1 or len(blocks[0].lines) >= 2) and not blocks[-1].answer:
            # (inside the answer to a question heading, only a heading opens a section: a line over a
            # list, an image or a bold item is the answer's own)
            generic = _plain_heading(line, lines[index + 1] if index + 1 < len(lines) else "",
                                     lines[index + 2] if index + 2 < len(lines) else "")
        if generic:
            reverse = bool(REVERSE.fullmatch(generic) or REVERSE.fullmatch(line) or _CANDIDATE_ASKS.search(generic[:120]))
            if reverse and blocks[-1].kind in (ROUND_KIND, INTERVIEW, "header", GENERIC):
                blocks.append(Block(generic, blocks[-1].kind, blocks[-1].round, reverse=True))
                reverse_level = level if level is not None and level < 7 else None
                seen = len(blocks)
                continue
            markup = line.startswith("#") or line.startswith(("**", "__"))
            if markup or not any(c in line.rstrip(HEADING_TRAILERS) for c in ":："):  # "Label: text" is a line
                # a sub-heading inside a round stays in that round ("算法题：", "## Coding")
                parent = blocks[-1]
                if parent.kind in (ROUND_KIND, INTERVIEW) and not parent.reverse:
                    blocks.append(Block(generic, parent.kind, parent.round))
                else:
                    blocks.append(Block(generic, GENERIC, None))
                continue
        if REVERSE.match(line) and blocks[-1].kind in (ROUND_KIND, INTERVIEW, "header", GENERIC):
            continue  # "反问：…" on one line
        if blocks[-1].kind not in (ROUND_KIND, INTERVIEW) and not (blocks[-1].reverse or blocks[-1].answer):
            following = lines[index + 1] if index + 1 < len(lines) else ""
            if len(line) <= 200 and line[:1] not in "(（" and (_INTRODUCES_QUESTIONS.match(line) or (
                    following and strip_list_marker(following) != following and line[-1:] not in "?？"
                    and strip_list_marker(line) == line and _INTRODUCES_LIST.match(line))):
                # (an item of the list, "- Solve complex problems.", introduces none)
                blocks.append(Block(line.rstrip(HEADING_TRAILERS), INTERVIEW, None))  # "Here are prompts we use:"
                continue
            if _Q_ITEM.match(line) and blocks[-1].kind != GENERIC:
                # "Q1: …" under a heading of the author's own: a section named for what it holds
                blocks.append(Block("问题" if CJK.search(line[:80]) else "Questions", INTERVIEW, None))
        blocks[-1].lines.append(line)
    if reverse_level is not None:
        for block in blocks[seen:]:
            block.reverse = True
    for block in blocks:
        if block.answer and _lists_questions(block.lines):
            block.answer = False  # "### 链 A：为什么需要 KV" over "1. What is KV Cache …?" items: the questions under it
    return blocks, recognised


#: Under a heading that asks, a list is its questions (not its answer) when it has this many items
#: at least, this share of them ask, and they are this share of the lines.
_MIN_QUESTION_ITEMS = 3
_ASKING_ITEMS_SHARE = 0.75
_ITEMS_SHARE = 0.6


def _lists_questions(lines: list[str]) -> bool:
    """Whether what follows a heading that asks is a list of questions ("1. **L1：**What is KV Cache?",
    "2. **L2：**推导公式；解释…"), not the heading's answer: enough list items, nearly all of them asking,
    one with a question mark, and few other lines."""
    items = [line for line in lines[:200] if strip_list_marker(line) != line.strip()]
    if len(items) < _MIN_QUESTION_ITEMS or len(items) < _ITEMS_SHARE * min(len(lines), 200):
        return False
    asking = marked = 0
    for item in items:
        # an item asks when one of its first sentences does ("56 GiB …；若每个还生成 4K，是否仍安全？必须重算。")
        judged = [judge_line(piece) for piece in _ITEM_SENTENCE.split(strip_list_marker(item)[:600], 4) if piece.strip()]
        asking += any(j.asks for j in judged)
        marked += any(j.mark for j in judged)
    return asking >= _ASKING_ITEMS_SHARE * len(items) and marked > 0


_ITEM_SENTENCE = re.compile(r"(?<=[。；;？?！!])\s{0,3}")


_MARKDOWN_LEVEL = re.compile(r"(#{1,6})\s")
_BOLD_LINE = re.compile(r"(?:\d{1,3}\s{0,2}[.、)）]\s{0,2})?(\*\*|__)(?!\s)(?:(?!\1).){2,300}\1\s{0,2}[:：]?\s{0,2}$")  # ("**What is `__syncthreads()`?**", "1.**虚函数和纯虚函数的区别**：")
_MARKUP = re.compile(r"#{1,6}\s{1,3}|(?:\*\*|__)")
_SECTION_NUMBER = re.compile(r"\d{1,3}(?:[.．]\d{1,3}){1,3}[.．]?\s{0,2}")


def _heading_text(line: str) -> str:
    """A heading's words: without its Markdown, its numbering ("3.", "2.1") and its trailing colon."""
    bare = _MARKUP.sub("", line).strip()
    numbered = _SECTION_NUMBER.match(bare)
    return undecorate(bare[numbered.end():] if numbered else line)


#: Lines looked at for the headings of a page's first level (bounded work on any paste).
MAX_SCANNED_LINES = 20_000


def _kind_under(parent: Block) -> str:
    """The kind of a block opened under ``parent``: its round or interview section, else a generic one."""
    return parent.kind if parent.kind in (ROUND_KIND, INTERVIEW) else GENERIC


def _answer_block(name: str, parent: Block) -> Block:
    """The block holding what answers ``name`` (a heading that asked, or one that names an answer or a rubric)."""
    return Block(name, _kind_under(parent), parent.round, answer=True)


def _heading_level(line: str) -> int | None:
    """A Markdown heading's level (1–6), 7 for a line in bold, None for any other line."""
    marks = _MARKDOWN_LEVEL.match(line)
    if marks:
        return len(marks[1])
    return 7 if _BOLD_LINE.match(line) else None


#: A heading that opens with a question word but has no question mark names a part ("How to apply",
#: "Why it matters", "What I'd do differently"), it does not ask.
_WH_TOPIC = re.compile(r"(?:how|what|why|when|where|which|who)\b", re.IGNORECASE)


def _numbered_question(lines: list[str], index: int) -> str | None:
    """The question a heading that only numbers it stands over: the next line (past a label such as
    "**Description:**"), quoted, listed or plain, when it is a sentence that asks or states a task."""
    for following in lines[index + 1: index + 3]:
        if _STATEMENT_LABEL.fullmatch(following):
            continue
        text = strip_list_marker(following.lstrip("> \t")).strip()
        quoted = text.strip("*_").strip().strip('"“”').strip()  # (in bold and quotes: '**"Explain …"**')
        if quoted != text and 12 <= len(quoted) <= 600 and judge_line(quoted[:300]).asks:
            return quoted
        if _heading_level(following) is None and 12 <= len(text) <= 600 and (judge_line(text[:300]).asks or len(text) >= 40):
            return text
        return None
    return None


def _asking_heading(text: str, line: str, level: int) -> bool:
    """Whether the heading ``line`` (its words: ``text``), below the page's title or in bold, is itself
    a question: labelled ``Q3:``, or asking with a question mark or an imperative ("Explain warp
    divergence.", "手撕 LRU")."""
    if level == 1 or len(line) > 300 or not text:
        return False
    if FOLLOW_UPS_NAME.fullmatch(text):
        return False  # "**Follow-up Questions:**" names the questions under it
    if _Q_ITEM.match(text):
        return True
    if round_line(text) or match_heading(line):
        return False  # "## Round 3: design (60 min)", "## 面试题": a part of the document
    if "?" not in text and "？" not in text and _SECTION_NOUN_END.search(text[-40:]):
        return False  # "Deep Dive Discussion Topics", "Key Questions": it names what follows
    return judge_line(text).asks and ("?" in text or "？" in text or not _WH_TOPIC.match(text))


#: The plural noun a heading that names a part ends with ("… Discussion Topics", "Follow-up Questions").
_SECTION_NOUN_END = re.compile(r"\b(?:topics|questions|points|notes|areas|tips|examples|resources|steps|guidelines)\W{0,3}$",
                               re.IGNORECASE)


#: A numbered heading: "#### 2. …", "**3、…**".
_NUMBERED_HEADING = re.compile(r"(?:#{1,6}\s{1,3}|\*\*)\s{0,2}\d{1,3}\s{0,2}[.．、)）]\s{0,3}\S")
#: A heading over coding problems: "Coding", "Algorithm questions", "手撕", "算法题".
_CODING_HEADING = re.compile(r"(?:coding|algorithms?|leetcode|programming)(?:\s+(?:questions?|problems?|round|part))?|"
                             r"手撕(?:代码)?|算法题?|编程题?|代码题", re.IGNORECASE)
#: Of a run of numbered headings, this share must ask for the others to be read as its questions.
_ASKING_RUN_SHARE = 0.5


def _asking_heading_runs(lines: list[str]) -> set[int]:
    """Indices of the numbered headings that are questions by their neighbours: in a run of at least
    three numbered headings of one level (whatever lies between them) of which half or more ask ("#### 1. C++
    Pimpl了解吗？", "#### 2. C++17的常用特性", "#### 3. auto,auto&,auto&& 的作用和区别"), the others are
    short topics of the same list, not sections. A heading as high that is not numbered ends the run."""
    runs: list[list[int]] = []
    current: dict[int, list[int]] = {}  # level -> the run of numbered headings open at that level
    tasks: set[int] = set()  # the first heading of each run under a "## Coding" heading
    parent = ""  # the last heading that is not numbered
    for index, line in enumerate(lines):
        level = _heading_level(line)
        if level is None:
            continue
        if _NUMBERED_HEADING.match(line) and len(line) <= 200:
            if level not in current and _CODING_HEADING.fullmatch(parent):
                tasks.add(index)
            current.setdefault(level, []).append(index)
            continue
        for open_level in [lvl for lvl in current if lvl >= level]:
            runs.append(current.pop(open_level))
        parent = _heading_text(line).strip(" :：")
    runs.extend(current.values())
    chosen: set[int] = set()
    for run in runs:
        if run[0] in tasks:  # "## Coding" over "### 1. Meeting Rooms", "### 2. Wiggle Sort": the problems
            chosen.update(i for i in run if 2 <= len(_heading_text(lines[i])) <= 80)
            continue
        if len(run) >= 3:  # ("### 1. Override vs. Overload" names a topic)
            chosen.update(_topics_beside_questions(lines, run, share=_ASKING_RUN_SHARE, asking_min=0, longest=80))
    return chosen


def _topics_beside_questions(lines: list[str], group: list[int], *, share: float, asking_min: int,
                             longest: int) -> list[int]:
    """The headings of ``group`` that do not ask, when this share of the group asks or names a topic
    (two at least) and ``asking_min`` of it asks: short topics of one list of questions, not sections."""
    texts = {i: _heading_text(lines[i]) for i in group}
    asking = [i for i in group if _asking_heading(texts[i], lines[i], _heading_level(lines[i]) or 7)]
    topics = [i for i in group if i not in asking and judge_line(texts[i]).topic]
    if len(asking) < asking_min or len(asking) + len(topics) < max(2, share * len(group)):
        return []
    return [i for i in group if i not in asking and 2 <= len(texts[i]) <= longest
            and not round_line(texts[i]) and not match_heading(lines[i])]


def _asking_sibling_headings(lines: list[str]) -> set[int]:
    """Indices of the Markdown headings that are questions by their siblings: among at least
    :data:`_MIN_SIBLINGS` headings of one level under one parent, without numbers, of which most
    ask or name a topic and some ask ("#### 不同线程之间是否可以共享套接字", "#### 如何提升memcpy的效率"
    beside "#### 进程状态图"), the others are short topics of the same bank, not sections."""
    groups: list[list[int]] = []
    open_groups: dict[int, list[int]] = {}  # level -> the siblings seen under the current parent
    for index, line in enumerate(lines):
        marks = _MARKDOWN_LEVEL.match(line)
        if not marks:
            continue
        level = len(marks[1])
        for deeper in [lvl for lvl in open_groups if lvl > level]:
            groups.append(open_groups.pop(deeper))  # a higher heading is a new parent
        if _NUMBERED_HEADING.match(line):
            continue  # (numbered runs are judged by :func:`_asking_heading_runs`)
        open_groups.setdefault(level, []).append(index)
    groups.extend(open_groups.values())
    return {i for group in groups if len(group) >= _MIN_SIBLINGS
            for i in _topics_beside_questions(lines, group, share=_SIBLING_SHARE, asking_min=2, longest=60)}


#: Unnumbered sibling headings are a bank's questions from this many, this share asking or naming a topic.
_MIN_SIBLINGS = 4
_SIBLING_SHARE = 0.6


def _explicit_question(text: str) -> bool:
    """A heading's words with a question mark or a ``Q3:`` label: a question even under another
    question's answer ("#### 3.1 死锁的四个必要条件是什么？" under "### 3. 操作系统")."""
    return "?" in text or "？" in text or _Q_ITEM.match(text) is not None


def _plain_heading(line: str, following: str, after: str = "") -> str | None:
    """A short plain line that introduces a list ("Be ready to discuss", "Things we ask about"):
    no list marker, no sentence or question punctuation, and a list item on the next line (or
    after one sentence that introduces it: "…, so think about them beforehand:")."""
    if not following or len(line) > 60 or len(line) < 2:
        return None
    if line[-1:] in "。.!！?？;；,，" or strip_list_marker(line) != line:
        return None
    if sum(line.count(c) for c in ",，") >= 2:
        return None  # a sentence of clauses ("非常基础，曾经做过消息队列的，还是容易回答的"), no heading
    if strip_list_marker(following) == following.strip() and not (
            following.rstrip().endswith((":", "：")) and after and strip_list_marker(after) != after.strip()):
        return None
    judged = judge_line(line)
    if judged.asks or round_line(line):
        return None
    return line.rstrip(HEADING_TRAILERS).strip() or None
