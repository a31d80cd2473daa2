"""Where each extracted question came from: the layout of the document that made it a question.

A candidate judging a proposed question needs to know whether the document listed it (a
numbered or bulleted list, a numbered list that lost its line breaks, a question followed by
its answer), told it (narration: "面试官问了…", "I was asked …"), quoted it as a coding task,
asked it in a heading, or whether only the sentence model guessed it from its wording. The
extraction records the line each question was read from; :func:`origin_of` names that line's
layout once, and the review page, ``prep extract -v`` and ``prep extract --explain`` all show
the same :class:`Origin`.

Pure module: no Flask, no database. Each call looks at one line and its neighbours.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .asking import judge_line, strip_list_marker
from .prose import is_prose, sentences

#: How a question came to be taken, in the order the review page explains them.
HOWS = ("numbered", "bulleted", "inline", "qa", "narrated", "quoted", "task", "heading", "line", "model")
#: The sentence model took it alone: a guess from the wording.
GUESSED = "model"
#: The longest quotation of the document an origin carries.
MAX_QUOTE_CHARS = 120


@dataclass(frozen=True)
class Origin:
    """How a question came to be taken (one of :data:`HOWS`) and, when the document's words
    around it are what made it a question, those words (``quote``: the narrating sentence, the
    "手撕:" label over a task)."""

    how: str = "line"
    quote: str = ""

    @property
    def guessed(self) -> bool:
        return self.how == GUESSED


#: A question's position: the block number and the index of its line in the block (-1: the heading).
Position = tuple[int, int]

_ANSWER_LINE = re.compile(r"\s{0,4}(?:[-*•]\s{0,3})?(?:\*\*)?(?:答案?|回答|我答(?:的)?|我的回答|参考答案|解答|"
                          r"a|ans(?:wer)?|my\s+answer)\s{0,2}[:：]", re.IGNORECASE)
_QUESTION_LABEL = re.compile(r"\s{0,4}(?:[-*•]\s{0,3})?(?:\*\*)?(?:q|问|问题)\s{0,2}\d{0,3}\s{0,2}[:：]", re.IGNORECASE)
_TASK_LABEL = re.compile(r"(?:手撕|算法题|编程题|代码题|机试|hackerrank|leetcode|oa|online\s+assessment|"
                         r"coding(?:\s+(?:question|problem|round|task))?|algorithm(?:ic)?\s+problem|"
                         r"第[一二三四五六七八九十\d]{1,2}题)", re.IGNORECASE)


def origin_of(text: str, position: Position | None, blocks, *, inline: frozenset[str] | set[str] = frozenset(),
              guessed: bool = False, report: bool = False) -> Origin:
    """The origin of the question ``text`` read at ``position`` of ``blocks``.

    ``inline``: the lines that were one line in the document (a numbered list that lost its
    breaks, :func:`.inline_lists.split_line`); ``guessed``: the sentence model took it alone;
    ``report``: the document is an interview report (its prose lines narrate)."""
    if guessed:
        return Origin(GUESSED)
    if position is None or not 0 <= position[0] < len(blocks):
        return Origin()
    block = blocks[position[0]]
    if block.name and judge_line(block.name).text.casefold() == text.casefold():
        return Origin("heading")
    index = position[1]
    if not 0 <= index < len(block.lines):
        return Origin()
    line = block.lines[index]
    after = blocks[position[0] + 1] if position[0] + 1 < len(blocks) else None
    if index == len(block.lines) - 1 and after is not None and after.answer and after.name == line:
        return Origin("heading")  # a heading that asked, its answer under it
    previous = block.lines[index - 1] if index else ""
    following = block.lines[index + 1] if index + 1 < len(block.lines) else ""
    if line.lstrip().startswith(">"):
        return Origin("quoted")
    if previous and _TASK_LABEL.fullmatch(strip_list_marker(previous).rstrip(":： ")):
        return Origin("task", _quote(previous))
    if line in inline:
        return Origin("inline")
    if report and is_prose(line):
        return Origin("narrated", _quote(_sentence_of(text, line)))
    if _QUESTION_LABEL.match(line) or (following and _ANSWER_LINE.match(following)):
        return Origin("qa")
    marker = _marker(line)
    if marker:
        return Origin("numbered" if marker[0].isdigit() or marker[0] in "一二三四五六七八九十①②③④⑤⑥⑦⑧⑨⑩" else "bulleted")
    return Origin()


def _marker(line: str) -> str:
    """The list marker ``line`` opens with ("1.", "-", "①", "(3)"), without brackets and spaces; "" if none."""
    stripped = line.strip()
    body = strip_list_marker(stripped)
    if body == stripped or not stripped.endswith(body):
        return ""
    return stripped[: len(stripped) - len(body)].strip(" ()（）*#")


def _sentence_of(text: str, line: str) -> str:
    """The sentence of the narrating ``line`` that tells the question ``text``."""
    probe = text[:12].casefold()
    return next((s for s in sentences(line) if probe and probe in s.casefold()), line)


def _quote(words: str) -> str:
    words = " ".join(words.split())
    return words if len(words) <= MAX_QUOTE_CHARS else words[: MAX_QUOTE_CHARS - 1] + "…"


_SAYS = {
    "numbered": "a numbered list",
    "bulleted": "a list",
    "inline": "a numbered list written on one line",
    "qa": "a question followed by its answer",
    "quoted": "a quoted coding task",
    "heading": "a heading that asks",
    "line": "a line of its own",
}


def describe(origin: Origin, section: str, confidence: float) -> str:
    """The origin in plain English (the CLI's words; the web pages say it in the user's language)."""
    if origin.guessed:
        return f"guessed from the wording ({confidence:.0%})"
    if origin.how == "narrated":
        return f"narrated: '{origin.quote}'"
    if origin.how == "task":
        return f"the task after '{origin.quote}'"
    said = _SAYS.get(origin.how, _SAYS["line"])
    return f"{said} under '{section}'" if section and origin.how != "heading" else said
