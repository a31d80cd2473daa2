"""Extract company, title, location, sections, skills and interview questions from a posting.

The input is the plain text of a job posting as users bring it: copied from a job board (page
furniture included), a recruiter's e-mail, a saved page reduced to text by
:mod:`prep.postings.decode`. The pipeline is line-based, a module per stage:

1. :mod:`.headings` and :mod:`.rounds`: which lines are section headings (职位描述, 任职要求,
   Responsibilities, interview and noise headings, ``Heading: text`` on one line) and which open
   an interview round; page furniture (Watch Jobs, 分享...) is dropped first.
2. :mod:`.segment`: the lines into a *header* (everything before the first recognised heading)
   and *sections*; noise sections (英伟达 的其他在招职位, 相似职位推荐, Similar jobs, More jobs
   at ...) and their lines are dropped until the next real heading.
3. :mod:`.reports`: whether the document is a job posting or an interview report.
4. :mod:`.interview_questions` (line by line with :mod:`.asking`): the asking lines of interview
   sections (面试指南, 常见面试题, Interview questions, ...): a line that ends in ``?``/``？`` or
   opens with an asking or imperative verb (请解释, 如何, 描述, Explain, How, Walk us through,
   ...), but not an advice line (复习..., 对于..., Review..., Be ready..., Tips: ...). The text
   is kept exactly as written, minus list markers (``- ``, ``1、``, ``2.``, ``(3)``, ``①`` ...).
5. Skills (here): the taxonomy's canonical names found in the kept text, first mention first,
   weighted by the kind of section they are in.
6. :mod:`.identity`: company, title and location from labels (``公司：``, ``Location:`` ...), a
   location section, or the job-board header layout: company on the first line, title on the
   next, a city line further down.

:func:`extract_posting` never raises on a ``str`` and is deterministic. Pure module: no Flask,
no database.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from prep.skills.taxonomy import Taxonomy, load_taxonomy

from .asking import CJK, judge_line, question_kind, question_text, strip_list_marker
from .headings import CONTENT, FURNITURE, GENERIC, INTERVIEW, LOCATION_SECTIONS, ROUND_KIND, heading_key
from .employer import (borne_out, cued_employer, document_employer, mailed_employer, mentions, plausible_employer,
                       recurring_organisation, titled_and_repeated)
from .identity import find_identity, known_company, looks_like_role
from .inline_lists import split_line
from .interview_questions import MAX_QUESTIONS, find_questions
from .origins import Origin, origin_of
from .reports import read_as, titled_as_questions
from .script import read_simplified
from .segment import Block, segment
from .sentence_model import match_key, refine

__all__ = ["DOC_KINDS", "KINDS", "MAX_QUESTIONS", "UNCERTAIN_BELOW", "ExtractionResult", "Question",
           "extract_posting", "question_text", "strip_list_marker"]

# ---------------------------------------------------------------------------------------------
# Result types


#: Question kinds, in the order the review checklist groups them.
KINDS = ("concept", "coding", "design", "behavioural")
#: What a document is: a job posting, or an interview report (面经, a Glassdoor-style review; also a
#: list of interview questions that names no job title: a question bank, a Q&A page, notes).
DOC_KINDS = ("posting", "report")
#: Below this confidence a question is shown unticked in the review checklist.
UNCERTAIN_BELOW = 0.6


@dataclass(frozen=True)
class Question:
    """An interview question as written in the document, and where it came from.

    ``section`` is the heading (or round) it was found under; ``kind`` one of :data:`KINDS`;
    ``round`` the interview round of a report (一面, Round 2, phone screen ...) or None;
    ``confidence`` in [0, 1] how sure the engine is that the line is a question; ``origin`` the
    layout that made it one (:mod:`.origins`: a numbered list, narration, the model's guess ...).
    """

    text: str
    section: str
    kind: str = "concept"
    round: str | None = None
    confidence: float = 1.0
    origin: Origin = field(default=Origin(), compare=False)


@dataclass(frozen=True)
class ExtractionResult:
    """What :func:`extract_posting` found in one posting.

    ``sections`` maps each recognised (non-noise, non-empty) section name, as written, to its
    text; ``recognised_sections`` is False when the text had no known section heading at all,
    in which case there are no questions (but skills may still be found).
    """

    company: str | None
    title: str | None
    location: str | None
    sections: dict[str, str] = field(default_factory=dict)
    skills: list[str] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    recognised_sections: bool = False
    doc_kind: str = "posting"
    #: Interview rounds of a report, in order of appearance.
    rounds: list[str] = field(default_factory=list)
    #: Weight of each found skill: required sections and repeated mentions weigh more.
    skill_weights: dict[str, float] = field(default_factory=dict)
    #: Questions found beyond :data:`MAX_QUESTIONS` (not returned).
    truncated: int = 0

    def to_json_dict(self) -> dict[str, object]:
        """The result as the CLI's JSON object (exactly these keys, in this order)."""
        return {
            "company": self.company,
            "title": self.title,
            "location": self.location,
            "skills": list(self.skills),
            "questions": [{"text": q.text, "section": q.section, "kind": q.kind, "round": q.round,
                           "confidence": round(q.confidence, 2)} for q in self.questions],
            "sections": dict(self.sections),
            "doc_kind": self.doc_kind,
            "rounds": list(self.rounds),
            "skill_weights": {k: round(v, 2) for k, v in self.skill_weights.items()},
            "truncated": self.truncated,
        }


# ---------------------------------------------------------------------------------------------
# The pipeline

#: Lines past this many are only scanned for skills (bounded work for a pathological paste).
MAX_LINES = 20_000
#: How much a skill mention counts, by the kind of section it is in.
SKILL_WEIGHTS = {"required": 2.0, "responsibilities": 1.5, "header": 1.5, "interview": 1.5, "round": 1.5,
                 "nice": 1.0, "content": 1.0, "generic": 1.0}


def extract_posting(text: str, taxonomy: Taxonomy | None = None) -> ExtractionResult:
    """Extract company, title, location, sections, skills and questions from ``text`` (a job
    posting or an interview report).

    Pure and deterministic; never raises on a ``str``; linear in the length of ``text``.
    ``taxonomy`` defaults to the shipped one.
    """
    taxonomy = taxonomy or load_taxonomy()
    reading = read_questions(text)
    back = reading.restore  # (a traditional document is read in simplified characters)
    lines, tail, blocks, report, listing = reading.lines, reading.tail, reading.blocks, reading.report, reading.listing
    questions, recognised, truncated = reading.questions, reading.recognised, reading.truncated

    kept: list[str] = []
    weights: dict[str, float] = {}
    sections: dict[str, list[str]] = {}
    location_lines: list[str] = []
    for block in blocks:
        kept.extend(block.lines)
        if block.name and block.kind != "header":
            sections.setdefault(block.name, []).extend(block.lines)
        if heading_key(block.name) in LOCATION_SECTIONS:
            location_lines.extend(strip_list_marker(line) for line in block.lines)
        weight = SKILL_WEIGHTS.get(block.kind, 1.0)
        named = [block.name] if block.name and block.kind in (GENERIC, ROUND_KIND, INTERVIEW) else []
        named += block.notes  # a heading of its own ("C++", "Golang", "C/C++/Python Round") names skills too
        if block.lines or named:
            for skill_name in _mentions(taxonomy, "\n".join([*named, *block.lines])):
                weights[skill_name] = weights.get(skill_name, 0.0) + weight
    for skill_name in _mentions(taxonomy, "\n".join(tail)):
        weights[skill_name] = weights.get(skill_name, 0.0) + 1.0
    skills = list(weights)  # first mention first: blocks are in document order
    header = blocks[0].lines if not report else lines[:8]
    if not report and lines and lines[0].startswith("#") and not blocks[0].lines:
        header = [lines[0].lstrip("# ")]  # a Markdown document's title heading
    headings = [block.name for block in blocks[:8] if block.name]
    company, title, location = find_identity(header, kept, location_lines, report, headings)
    if report or listing:  # a report names its employer in the text, not always in its header
        company = document_employer(lines, company)
    if title:
        title = _HEADCOUNT.sub("", title) or title  # "GPU架构师 (1人)": the number of openings is no part of the role
    if not plausible_employer(company):  # a section label, a job number, nothing: the name the text repeats
        company = (recurring_organisation(lines) or (company and known_company(company))
                   or document_employer(lines, None))
    if report or (listing and not any(b.kind in _POSTING_SECTIONS for b in blocks)):
        company = borne_out(company, lines)  # (a posting's first line is its employer, though named once)
    cued = cued_employer(lines)  # "Interviews at Rubrik", "Working at Codeplay …": named more than the one found
    if cued and cued[0] != company and cued[1] > mentions(company or "", lines):
        company = cued[0]
    if company is None and (report or listing):
        company = titled_and_repeated(lines)
    if company is None and not report:
        company = mailed_employer(lines)  # "简历发送到 hire@acme.com": the employer's own address
    return ExtractionResult(
        company=company if not company or known_company(company) else back(company),  # (a known one by its own name: 腾讯)
        title=title and back(title),
        location=location and back(location),
        sections={back(name): back("\n".join(body)) for name, body in sections.items() if body},
        skills=skills,
        questions=questions,
        recognised_sections=recognised,
        doc_kind="report" if report or (listing and questions and not (title and looks_like_role(title) and not titled_as_questions(title))) else "posting",
        rounds=list(dict.fromkeys(back(b.round) for b in blocks if b.kind == ROUND_KIND and b.round)),
        skill_weights={name: weights[name] for name in skills},
        truncated=truncated,
    )


@dataclass(frozen=True)
class Reading:
    """A document as the question finder read it: its lines, blocks, what it was read as, and
    the questions found with their origins (shared by :func:`extract_posting` and ``--explain``)."""

    lines: list[str]
    tail: list[str]
    blocks: list[Block]
    recognised: bool
    report: bool
    listing: bool
    questions: list[Question]
    truncated: int
    #: A piece of the read text as the document wrote it (:func:`.script.read_simplified`).
    restore: Callable[[str], str]


def read_questions(text: str) -> Reading:
    """The questions of ``text``, each with its origin (:func:`.origins.origin_of`), in the order
    the extraction gives them; a traditional Chinese document is read in simplified characters,
    its questions given back as it wrote them."""
    text, restore = read_simplified(text)
    inline: set[str] = set()
    lines, tail = document_lines(text, inline=inline)
    blocks, recognised = segment(lines)
    report, listing = read_as(lines, blocks)
    positions: dict[str, tuple[int, int]] = {}
    series: set[str] = set()
    found, truncated = find_questions(blocks, report, listing=listing, origins=positions, series=series)
    guessed: set[str] = set()
    found = refine(blocks, report, listing, found, positions, guessed=guessed, series=series)
    questions = [Question(text=restore(said), section=restore(section), kind=question_kind(said),
                          round=round_ and restore(round_), confidence=conf,
                          origin=origin_of(said, positions.get(said.casefold()), blocks, inline=inline,
                                           guessed=said.casefold() in guessed, report=report))
                 for said, section, round_, conf in found]
    return Reading(lines, tail, blocks, recognised, report, listing, questions, truncated, restore)


def _table_cells(line: str) -> list[str]:
    return [cell.strip() for cell in line[:4000].strip().strip("|").split("|")]


def _is_table_rule(line: str) -> bool:
    """A Markdown table's rule under its header: "|---|:---:|", "--|-----|---" (at least two cells)."""
    cells = _table_cells(line)
    return len(cells) >= 2 and "-" in line and all(_TABLE_RULE.fullmatch(cell) for cell in cells)


def _question_column(header: str) -> int | None:
    """The column of a table's header that holds its questions ("Index | Question | Difficulty",
    "| 题号 | 知识点 | 问题形式 |"), if one does."""
    if "|" not in header:
        return None
    for index, cell in enumerate(_table_cells(header)):
        if _QUESTION_HEADER.fullmatch(cell.strip("*_` ")):
            return index
    return None


def _table_row(line: str, question_column: int | None) -> tuple[str, str]:
    """A Markdown table's row as the question finder reads it, and the rest of its cells (an
    answer's words: read for skills only): its rule ("|---|---|") is no line; in a table whose
    header names a question column, the row is that cell, as an item of a list ("1 | What is a
    semaphore? | Easy" is "- What is a semaphore?"); otherwise a row with a cell that asks is that
    cell ("| 291 | TCP和RDMA的对比？ | [文章](…) |"), any other row stays as it is."""
    cells = _table_cells(line)
    if all(_TABLE_RULE.fullmatch(cell) for cell in cells):
        return "", ""
    if question_column is not None and question_column < len(cells) and match_key(cells[question_column]):
        chosen, row = question_column, "- " + cells[question_column]
    else:
        asking = [index for index, cell in enumerate(cells) if cell.endswith(("?", "？")) and len(cell) >= 4]
        if len(asking) != 1:
            return line, ""
        chosen, row = asking[0], cells[asking[0]]
    return row, " | ".join(cells[:chosen] + cells[chosen + 1:])


#: The characters a text diagram is drawn with ("┌──┐", "│ … │").
_BOX_DRAWING = re.compile(r"[\u2500-\u257f]+")
_TABLE_RULE = re.compile(r":?-{1,200}:?|")
#: A table header's cell over the questions: "Question", "Interview questions", "问题", "题目", "问题形式".
_QUESTION_HEADER = re.compile(r"(?:(?:interview|sample|example)\s+)?questions?|问题(?:形式|描述|内容)?|题目(?:描述|内容)?|面试题|考题|"
                              r"面试问题", re.IGNORECASE)
_HEADCOUNT = re.compile(r"\s{0,2}[(（]\s{0,2}(?:\d{1,4}\s{0,2}(?:人|名|个)|若干(?:人|名)?|\d{1,4}\s{0,2}(?:openings?|positions?|hc))\s{0,2}[)）]\s{0,2}$",
                        re.IGNORECASE)


def document_lines(text: str, *, inline: set[str] | None = None) -> tuple[list[str], list[str]]:
    """The lines of ``text`` as the later stages read them: stripped, without blank lines, code
    blocks and page furniture, wrapped list items joined, one-line lists and answers split
    (:func:`.inline_lists.split_line`), a list item with items under it marked as their label;
    and the lines past :data:`MAX_LINES` (only scanned for skills). ``inline``, when given,
    receives the lines that were items of a numbered list written on one line."""
    lines: list[str] = []
    tail: list[str] = []
    item_indent = -1  # the indentation of the list item the previous line opened or continued
    broken = False  # a blank line since that line
    asked_indent = -1  # the indentation of a list item that asks, while the items nested under it go on
    label = ""  # a transcript's "Q1" or "A1" on a line of its own: it opens the next line
    # a bullet on a line of its own ("-" over "What is a" / "mutex" / "and why is it needed?"): a
    # page whose text was taken out element by element; the lines after it are its item until one
    # ends a sentence (what follows is its answer)
    bulleted = False  # the previous line was such a bullet
    loose_item = False  # the item it opened goes on over the next lines
    paragraph = False  # the previous line is a paragraph's (no list item, no heading, no table)
    previous = ""  # the line before, as read (a table's header, when a rule follows it)
    in_table = False  # among a table's rows, after its rule
    question_column: int | None = None  # the column of that table's header that names its questions
    group_indent = -1  # a short label item ("1. 算法") whose items are indented paragraphs under it
    raws = _code_spans_rejoined(_glued_headings(_unescaped(text.splitlines())))
    settings = _front_matter_end(raws)  # a blog's Markdown opens with its settings ("---", "title: …", "---")
    if settings:
        title = next((m for m in map(_FRONT_MATTER_TITLE.match, raws[1:settings - 1]) if m), None)
        employer = next((m for m in map(_FRONT_MATTER_COMPANY.match, raws[1:settings - 1]) if m), None)
        # of them, only its title is read, and the employer a job board's file names ("companyName: …")
        named = employer["v"].strip(" \"'") if employer else ""
        raws = ([title["v"].strip(" \"'")] if title else []) + (["Company: " + named] if named else []) + raws[settings:]
    # "I: …" or "AB : …" over "Me: …": a transcript where "I" or a panel's initials are the
    # interviewers (the candidate writes "Me")
    mine = sum(1 for raw in raws[:MAX_LINES] if _MY_TURN.match(raw))
    interviewer_i = mine >= 2 and sum(1 for raw in raws[:MAX_LINES] if _THEIR_TURN.match(raw)) >= 2
    # "**Interviewer:** …" over "**Candidate:** …" (候选人：, 求职者：): the candidate's turns are answers
    answers_turns = sum(1 for raw in raws[:MAX_LINES] if _CANDIDATE_TURN.match(raw)) >= 2 \
        and sum(1 for raw in raws[:MAX_LINES] if _INTERVIEWER_LABEL.match(raw)) >= 2
    # "```" around code (never a question; its words count for nothing) or around a task written in words
    prose_fences, code = _fences(raws)
    for number, raw in enumerate(raws):
        if number in prose_fences:
            broken = True
            continue
        if number in code:
            continue
        if interviewer_i and _THEIR_TURN.match(raw):
            raw = "Interviewer: " + _THEIR_TURN.sub("", raw, count=1)
        elif interviewer_i and _MY_TURN.match(raw):
            raw = "答：" + _MY_TURN.sub("", raw, count=1)  # the candidate's turn: an answer
        elif answers_turns and _CANDIDATE_TURN.match(raw):
            raw = "答：" + _CANDIDATE_TURN.sub("", raw, count=1)
        line = raw.strip()
        if _BOX_DRAWING.search(line[:1]) or _BOX_DRAWING.search(line[-1:]):
            line = _BOX_DRAWING.sub(" ", line).strip()  # a diagram's frame ("│  "Explain …"  │"): its words only
        if line.endswith("¶"):
            line = line.rstrip("¶ ")  # a heading's permalink mark ("Storage¶")
        if "](" in line:  # "[question](https://…)": the words read, not the address (whose "?" is no question)
            rest, links = _MARKDOWN_LINK.subn("", line[:20_000])
            if links >= 2 and len(_LINK_GLUE.sub("", rest)) <= 2 or _CITES.match(rest):
                continue  # "[A](…)、[B](…)、[C](…)", "以上引用[…](…)": the author's references, not what was asked
            line = _MARKDOWN_LINK.sub(lambda m: "" if m.group(1) else m.group(2), line).strip()
        if "<" in line and ">" in line:
            summary = _SUMMARY.search(line[:2000])
            if summary:  # "<details><summary>为什么用 BIGINT 不用 UUID？</summary>": a collapsible answer's heading
                line = "### " + _INLINE_TAG.sub("", summary["t"]).strip()
            elif not _MARKUP_ONLY.fullmatch(line):
                line = _INLINE_TAG.sub("", line[:20_000]).strip() or line  # "幻读<strong>（Phantom Read）</strong>": the words
        if "|" in line and _is_table_rule(line):  # "|---|---|" or "--|---|---": the header above names the columns
            question_column = _question_column(previous)
            in_table = True
            continue
        if in_table and "|" in line:
            line, rest = _table_row(line, question_column)  # a row of the table: its question, or the cell that asks
            if rest:
                tail.append(rest)  # (its answer's words name skills too)
        elif line.startswith("|") and line.count("|") >= 3:
            line, rest = _table_row(line, None)  # a Markdown table's row: the cell that asks, if one does
            if rest:
                tail.append(rest)
        else:
            in_table = False
        previous = line
        if _LONE_BULLET.fullmatch(line):
            bulleted, loose_item = True, False
            continue
        if not line or _MARKUP_ONLY.fullmatch(line) or _THEMATIC_BREAK.fullmatch(line):
            # ("<br/>" between Markdown items, and a rule, "- - -" or "***", between questions, are breaks)
            broken = True  # (a list goes on after a blank line only with an item nested deeper)
            loose_item = False
            continue
        if bulleted:
            line, bulleted, loose_item = "- " + line, False, True
            for back in range(len(lines) - 1, max(-1, len(lines) - 4), -1):
                if lines[back].startswith("- "):
                    break  # (an item of the same list: the label, if any, was marked with the first)
                if _SHORT_LABEL_ITEM.fullmatch(lines[back]):
                    lines[back] = _as_group_label(lines[back])  # "2. Sockets" over its bulleted items
                    break
        elif loose_item and lines and not lines[-1].endswith(_TERMINAL) and strip_list_marker(line) == line \
                and not line.startswith(("#", "|", ">")) and len(lines[-1]) + len(line) < _MAX_JOINED_CHARS:
            joiner = "" if _CJK_END.search(lines[-1][-1:]) and _CJK_END.search(line[:1]) else " "
            lines[-1] = lines[-1] + joiner + line
            continue
        else:
            loose_item = False
        if _BARE_TURN_LABEL.fullmatch(line):
            label = line.rstrip(":：")
            continue
        if label:
            line, label = f"{label}: {line}", ""
        if len(line) <= 20 and line.casefold() in FURNITURE:
            continue
        indent = len(raw) - len(raw.lstrip())
        if group_indent >= 0 and indent <= group_indent:
            group_indent = -1
        if group_indent < 0 and item_indent >= 0 and indent > item_indent and strip_list_marker(line) == line \
                and lines and _SHORT_LABEL_ITEM.fullmatch(lines[-1]):
            group_indent = item_indent  # "1. 算法" over "    换钱的方法数 DP", "    JVM 垃圾回收": its items, unmarked
        if group_indent >= 0 and indent > group_indent and strip_list_marker(line) == line and not line.startswith(("#", "|", ">")):
            line = "- " + line
        elif broken and item_indent >= 0 and indent > item_indent and strip_list_marker(line) == line and lines \
                and judge_line(lines[-1]).mark and not judge_line(line).asks and not line.startswith(("#", "|", ">")):
            line = "答：" + line  # "2. 什么是 RCU？" over an indented paragraph: its answer
        if broken and not (item_indent >= 0 and indent > item_indent and strip_list_marker(line) != line):
            item_indent = -1
        if len(lines) < MAX_LINES:
            if item_indent >= 0 and indent > item_indent and not broken and _continues(lines[-1], line):
                joiner = "" if _CJK_END.search(lines[-1][-1:]) else " "  # a wrapped item (a PDF, an e-mail)
                lines[-1] = lines[-1] + joiner + line
                continue
            if paragraph and not broken and _wraps_on(lines[-1], line):
                lines[-1] = lines[-1] + " " + line  # a paragraph hard-wrapped at the page's width (plain text, e-mail)
                continue
            parts = split_line(line)  # "…1. A?2. B?3. C?" and "Q 答：A" as their author's lines
            asked = [part for part in parts if not part.startswith("答：")]
            if inline is not None and len(asked) > 1:
                inline.update(asked)
            nested = item_indent >= 0 and indent > item_indent and strip_list_marker(line) != line
            if asked_indent >= 0 and (indent <= asked_indent or not (nested or indent > item_indent)):
                asked_indent = -1  # out of the items under a question
            if nested and asked_indent < 0 and (judge_line(lines[-1]).mark or _ANSWER_OPENING.match(strip_list_marker(line))):
                asked_indent = item_indent  # "+ timewait 为什么等待2MSL?" over "  - 保证…可靠关闭": its answer
                # ("4. arp的作用" over an indented "答:…": the item was asked, the author says so by answering it)
            elif nested:
                lines[-1] = _as_group_label(lines[-1])  # "- C++" over "    - virtual function"
            if asked_indent >= 0 and indent > asked_indent and len(parts) == 1 and not judge_line(parts[0]).asks:
                parts = ["答：" + strip_list_marker(parts[0])]  # (a follow-up that asks stays a question)
            lines.extend(parts)
            item_indent = indent if strip_list_marker(parts[-1]) != parts[-1] else -1
            paragraph = len(parts) == 1 and item_indent < 0 and not line.startswith(("#", "|", ">"))
            broken = False
        else:
            tail.append(line)
    if lines:
        dated = _DATE_FIRST.match(lines[0])
        if dated and len(lines[0]) - dated.end() >= 4:
            lines[0] = lines[0][dated.end():]  # "2022年1月21日 Singularity Data 存储引擎工程师面经": the title after its date
    _mark_choices(lines)
    return lines, tail


#: A choice of a multiple-choice question: "A. …", "B、…", "C) …".
_CHOICE = re.compile(r"\s{0,3}(?P<letter>[A-F])\s{0,2}[.、)）．]\s{0,3}\S")
#: A question that offers choices: "以下哪些说法是错误的:(多选)", "Which of the following …".
_OFFERS_CHOICES = re.compile(r".{0,300}?(?:以下|下列|下面|哪(?:些|个|项)(?:说法|描述|选项)|选择题|单选|多选|which\s+of\s+the\s+following)",
                             re.IGNORECASE)


def _mark_choices(lines: list[str]) -> None:
    """The choices of a multiple-choice question ("…以下哪些说法是错误的:(多选)" over "A. …", "B. …",
    "C. …"): three or more lines lettered from A on under a question that offers them. They are
    part of the question, never questions of their own: each is read as an answer's line."""
    index = 0
    while index < len(lines):
        if not (_CHOICE.match(lines[index][:8]) and lines[index].lstrip()[:1] == "A" and index
                and _OFFERS_CHOICES.match(lines[index - 1][:400])):
            index += 1
            continue
        end = index
        while end < len(lines) and (choice := _CHOICE.match(lines[end][:8])) and choice["letter"] == "ABCDEF"[end - index]:
            end += 1
        if end - index >= 3:
            for choice_index in range(index, end):
                lines[choice_index] = "答：" + lines[choice_index]
        index = max(end, index + 1)


#: The sections only a job posting has (a page with one of them is a posting, whatever it asks).
_POSTING_SECTIONS = ("required", "responsibilities", "nice", CONTENT)
#: A date that opens a title: "2022年1月21日 ", "2024-03-05 ", "2023.7.1：".
_DATE_FIRST = re.compile(r"\s{0,3}(?:\d{4}\s{0,2}年\s{0,2}\d{1,2}\s{0,2}月(?:\s{0,2}\d{1,2}\s{0,2}[日号])?|\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?)"
                         r"\s{0,3}[,，:：|｜-]?\s{1,3}")


#: A fenced block whose info string is one of these (or none) may hold words, not code.
_PLAIN_FENCE = frozenset({"", "text", "txt", "plain", "plaintext", "markdown", "md"})
#: A fenced block of words is at most this many lines (a longer one is a log or a listing).
_MAX_PROSE_FENCE_LINES = 40
#: A line of code: ends a statement or a block, opens with a directive, a keyword, a comment,
#: a prompt, a tag or an assignment.
_CODE_LINE = re.compile(r"\s*(?:#include|#define|#!|def\s|class\s|import\s|from\s+\S+\s+import|return\b|"
                        r"(?:for|while|if|switch)\s*\(|//|/\*|\*/|\$\s|>>>|<[A-Za-z/!]|[A-Za-z_][\w.\[\]]{0,40}\s*[+\-*/]?=\s*\S)")


#: A line of words: four or more, and nothing of code between them but commas, colons and full stops.
_WORDS_LINE = re.compile(r"(?:[A-Za-z][\w'()-]{0,30}[,.:?]?\s{1,3}){3,60}[A-Za-z][\w'-]{0,30}[.?]?")


def _fences(raws: list[str]) -> tuple[set[int], set[int]]:
    """The fenced blocks of a document ("```", "~~~~"), in one pass over its lines: the fence lines
    of the blocks that hold words, and every line of the blocks that hold code (fences included, and
    everything after a fence never closed).

    A block holds words, not code, when it is short, no line of it reads as code, and either its
    fence names no language and it writes Chinese or asks (a task its author set apart: "有两个文件，
    A 文件是待判断数据集……怎么快速判断…", "Q: How would you …?") or every line is a sentence of words
    ("Networking: What is bitmask, MTU, ARP", "Q1: Given employee class. Implement …")."""
    words: set[int] = set()
    code: set[int] = set()
    opened = -1
    fence = ""
    for index, raw in enumerate(raws):
        line = raw.strip()
        if not fence:
            if line.startswith(("```", "~~~")):
                fence, opened = line[:3], index
            continue
        if not line.startswith(fence):
            continue
        if _holds_words(raws[opened], [r.strip() for r in raws[opened + 1: index] if r.strip()]):
            words.update((opened, index))
        else:
            code.update(range(opened, index + 1))
        fence = ""
    if fence:
        code.update(range(opened, len(raws)))
    return words, code


def _holds_words(opening: str, body: list[str]) -> bool:
    """Whether a fenced block (its opening fence, its lines that are not blank) holds words: see :func:`_fences`."""
    if not 0 < len(body) <= _MAX_PROSE_FENCE_LINES or any(b.endswith((";", "{", "}")) or _CODE_LINE.match(b[:400])
                                                          for b in body):
        return False
    if opening.strip().lstrip("`~").strip().casefold() in _PLAIN_FENCE and (
            sum(1 for b in body for c in b if "\u4e00" <= c <= "\u9fff") >= 8 or any(b.endswith(("?", "？")) for b in body)):
        return True
    return all(_WORDS_LINE.fullmatch(b[:400]) for b in body)


#: A Markdown file's front matter: at most this many lines between its two "---" lines.
_FRONT_MATTER_LINES = 80
_FRONT_MATTER_TITLE = re.compile(r"title\s{0,2}[:=]\s{0,2}(?P<v>.{2,200})")
#: A line of TOML front matter: "draft = true", "[params]", a comment, a blank line.
_TOML_KEY = re.compile(r"\s{0,4}(?:#.*|[A-Za-z_][A-Za-z0-9_.-]{0,40}\s{0,2}=.*|\[{1,2}[A-Za-z0-9_.-]{1,40}\]{1,2}|)")
_FRONT_MATTER_COMPANY = re.compile(r"(?:company|company_?name|employer|organi[sz]ation|hiring_?organi[sz]ation)\s{0,2}[:=]\s{0,2}"
                                   r"(?P<v>[^\[\]{}\n]{2,80})", re.IGNORECASE)
_FRONT_MATTER_KEY = re.compile(r"\s{0,4}(?:#.*|[a-z_][A-Za-z0-9_-]{0,30}\s{0,2}:.*|-\s.*|)$")  # keys open in lower case (pubDate)
#: A key that opens in upper case (Hugo's "ShowToc: true", "TocOpen: false"): front matter only beside
#: keys in lower case (a block of "Company: …" / "Role: …" lines between rules is the text's).
_FRONT_MATTER_UPPER_KEY = re.compile(r"\s{0,4}[A-Z][A-Za-z0-9_-]{0,30}\s{0,2}:.*")


#: A line holding this many escaped line breaks ("\\n", text copied out of a page's JSON) is several lines.
ESCAPED_BREAKS = 5


def _unescaped(raws: list[str]) -> list[str]:
    """The lines of a text whose line breaks came as escapes ("…面经\\n1. …\\n2. …", a page's JSON
    string pasted as it is): a long line with several of them is cut there."""
    out: list[str] = []
    for raw in raws:
        if raw.count("\\n") >= ESCAPED_BREAKS and len(raw) > 80:
            out.extend(raw.replace("\\r\\n", "\\n").replace("\\t", " ").split("\\n"))
        else:
            out.append(raw)
    return out


def _glued_headings(raws: list[str]) -> list[str]:
    """The lines of a page whose Markdown heading came glued to the text before it ("…shared by
    candidates### Create a 8 input AND gate …"): the heading on a line of its own."""
    out: list[str] = []
    for raw in raws:
        match = _GLUED_HEADING.search(raw, 1) if "##" in raw else None
        if match:
            out.extend((raw[: match.start()], raw[match.start():]))
        else:
            out.append(raw)
    return out


_GLUED_HEADING = re.compile(r"(?<=[^\s#`])#{2,6}\s(?=[A-Z\u4e00-\u9fff])")


def _code_spans_rejoined(raws: list[str]) -> list[str]:
    """The lines of a Chinese page whose inline code came out on lines of its own ("…模块机制，" /
    "insmod" / "、modprobe" / "的区别。"): a line opening with "、" or "，" joins the line before; a
    lone code word (lower case: "insmod", "file_operations") joins the line after when that line
    goes on in Chinese, and the line before when that one has not ended its sentence. One pass."""
    out: list[str] = []
    glue = False  # the line before was a code word that this line goes on from
    for index, raw in enumerate(raws):
        line = raw.strip()
        after = raws[index + 1].strip() if index + 1 < len(raws) else ""
        code = bool(after) and (after[0] in _CONTINUES or CJK.match(after[0]) is not None) \
            and _CODE_WORD.fullmatch(line) is not None
        before = out[-1].rstrip() if out else ""
        chinese_before = bool(before) and CJK.search(before[-40:]) is not None
        if line and before and (glue or (line[0] in _CONTINUES and chinese_before)
                                or (code and chinese_before and before[-1] not in _SENTENCE_ENDS)):
            out[-1] = before + line
        else:
            out.append(raw)
        glue = code
    return out


_CONTINUES = "、，,"
_SENTENCE_ENDS = "。！？!?；;：:"
_CODE_WORD = re.compile(r"(?:[、，,与和及或]\s{0,2})?[a-z_][a-z0-9_./:-]{1,40}(?:\(\))?")  # ("insmod", "、rmmod", "与 vmalloc")


def _front_matter_end(raws: list[str]) -> int:
    """The index of the first line after a front matter block that opens the document (0 if none):
    YAML ("---", lines of keys, comments and list items, "---") or Hugo's TOML ("+++", "key = value"
    lines and ``[tables]``, "+++")."""
    if raws and raws[0].strip() == "+++":
        for index, raw in enumerate(raws[1:_FRONT_MATTER_LINES + 1], start=1):
            if raw.strip() == "+++":
                return index + 1
            if not _TOML_KEY.fullmatch(raw):
                return 0
        return 0
    if not raws or raws[0].strip() != "---":
        return 0
    lower = upper = False  # a key in lower case, one in upper case seen
    for index, raw in enumerate(raws[1:_FRONT_MATTER_LINES + 1], start=1):
        if raw.strip() == "---":
            return index + 1 if lower or not upper else 0
        if _FRONT_MATTER_KEY.fullmatch(raw):
            lower = lower or raw.lstrip()[:1].islower()
        elif _FRONT_MATTER_UPPER_KEY.fullmatch(raw):
            upper = True
        else:
            return 0  # prose after a rule: no front matter
    return 0


#: A transcript's turns: the interviewer as "I:" (or a panellist by initials, "AB :"), the candidate
#: as "Me:".
_THEIR_TURN = re.compile(r"\s{0,4}(?:I|(?-i:[A-Z]{2,3}))\s{0,2}:\s")
_MY_TURN = re.compile(r"\s{0,4}Me\s{0,2}[:.]\s")
#: A transcript's turns named by role, in bold or not: "**Interviewer:**", "面试官：" and "**Candidate:**", "候选人：".
_INTERVIEWER_LABEL = re.compile(r"\s{0,4}(?:[-*]\s{1,3})?(?:\*\*|__)?\s{0,2}(?:interviewer|面试官)\s{0,2}(?:\*\*|__)?\s{0,2}[:：]",
                                re.IGNORECASE)
_CANDIDATE_TURN = re.compile(r"\s{0,4}(?:[-*]\s{1,3})?(?:\*\*|__)?\s{0,2}(?:candidate|interviewee|候选人|求职者|应聘者)\s{0,2}"
                             r"(?:\*\*|__)?\s{0,2}[:：]\s{0,2}(?:\*\*|__)?\s{0,2}", re.IGNORECASE)
#: A line that says it is an answer: "答:", "答案：", "A:", "Answer:".
_ANSWER_OPENING = re.compile(r"(?:答案?|参考答案|回答|A|Ans(?:wer)?)\s{0,2}[:：]", re.IGNORECASE)
#: A list's bullet alone on its line.
_LONE_BULLET = re.compile(r"[-*•·–]")
#: "Q1", "A3-1", "Q:" alone on a line, over the question or the answer it labels.
_BARE_TURN_LABEL = re.compile(r"[QA](?:\s?\d{1,3}(?:-\d{1,2})?)?\s?[:：]?")
#: A Markdown link or image: ``[words](address "title")``; an image (``![alt](…)``) says nothing.
_MARKDOWN_LINK = re.compile(r"(!?)\[([^\[\]\n]{0,300})\]\((?:[a-z][a-z0-9+.-]{1,10}:|/|\.{1,2}/|#|www\.)[^()\s]{0,2000}"
                            r"(?:\s{1,3}\"[^\"\n]{0,200}\")?\)", re.IGNORECASE)
#: What joins the links of a list of references: separators, list markers, spaces.
_LINK_GLUE = re.compile(r"[\s、,，;；|/｜>*+\-•·.。:：]+|参考|引用|来源|出处|链接|see|also|ref(?:erence)?s?", re.IGNORECASE)
#: A line that only cites a source: "以上引用[…](…)", "参考：[…](…)", "Source: […](…)".
_CITES = re.compile(r"\s{0,8}(?:[-*>]\s{0,2})?(?:以上)?(?:引用|参考|转载|来源|出处|原文|source|via|from)\s{0,2}(?:自|于)?[:：]?\s{0,2}$",
                    re.IGNORECASE)
#: A collapsible block's summary line (Markdown with raw HTML): ``<summary><b>Q3. …?</b></summary>``.
_SUMMARY = re.compile(r"<summary(?:\s[^<>]{0,200})?>(?P<t>.{1,1000}?)</summary>", re.IGNORECASE)
#: An inline HTML tag inside a line of Markdown (``<strong>``, ``<mark style="…">``, ``<br/>``).
_INLINE_TAG = re.compile(r"</?(?:strong|b|em|i|u|mark|code|span|sup|sub|font|kbd|br|small|big|del|ins|s)(?:\s[^<>]{0,200})?/?>",
                         re.IGNORECASE)
_MARKUP_ONLY = re.compile(r"(?:</?[A-Za-z][A-Za-z0-9]{0,10}(?:\s[^<>]{0,80})?/?>\s{0,3}){1,8}")
#: A Markdown rule between parts of a page: "---", "- - -", "* * *", "___".
_THEMATIC_BREAK = re.compile(r"(?:[-*_=]\s{0,3}){3,200}")
_CJK_END = re.compile(r"[\u4e00-\u9fff，、（]")
_TERMINAL = tuple(".?!。？！:：;；")
#: A joined item stays a line a person could write; longer, it is prose.
_MAX_JOINED_CHARS = 600
#: A wrapped line was cut near the page's width: a short item ("1. 一面") is not wrapped.
_MIN_WRAPPED_CHARS = 40


def _continues(previous: str, line: str) -> bool:
    """Whether ``line`` (indented deeper than the list item ``previous``) is that item wrapped."""
    return _cut_at_width(previous, line, _MIN_WRAPPED_CHARS)


def _cut_at_width(previous: str, line: str, width: int) -> bool:
    """Whether ``previous`` is a line cut where the page ended (this long at least, no sentence
    ended) and ``line``, no list item, could go on with it."""
    return (len(previous) >= width and not previous.endswith(_TERMINAL) and strip_list_marker(line) == line
            and len(previous) + len(line) < _MAX_JOINED_CHARS)


#: A paragraph's line cut at the page's width is at least this long.
_MIN_PARAGRAPH_WIDTH = 50


def _wraps_on(previous: str, line: str) -> bool:
    """Whether ``line`` goes on with the sentence the paragraph line ``previous`` left open: a long
    line not ending a sentence, followed by one that opens as no sentence does, in lower case or with
    a digit ("…handling signals in a multi-threaded" over "program.", "(assume Linux" over "2.6+)
    does …"; never a bracket: "(Fixed-term, 3 years)" under a title is the title's note)."""
    return line[:1].isascii() and (line[:1].islower() or line[:1].isdigit()) and _cut_at_width(previous, line,
                                                                                               _MIN_PARAGRAPH_WIDTH)


_NAMES_A_TASK = re.compile(r"implement|design|build|写|实现|设计|题", re.IGNORECASE)


#: A list item that only names a group ("1. 算法", "2. 八股", "- Networking"): a word or two, no question.
_SHORT_LABEL_ITEM = re.compile(r"(?:[-*+•]|\d{1,2}[.)、])\s{1,3}[^\s?？:：,，。.]{1,12}(?:\s[^\s?？:：,，。.]{1,12})?[:：]?")


def _as_group_label(line: str) -> str:
    """A list item with items nested under it: a label of the group ("- Questions", "- OS",
    "- DL projects") unless it asks itself ("- 情境題:", "- How does X work?" keep their words)."""
    if line.endswith((":", "：", "?", "？")) or judge_line(line).asks or len(line) > 60 or _NAMES_A_TASK.search(line):
        return line
    return line + "："


def _mentions(taxonomy: Taxonomy, text: str) -> list[str]:
    """Every skill mention in ``text`` (repeats included), by canonical name."""
    return [name for _start, _end, name in taxonomy.skill_spans(text)]
