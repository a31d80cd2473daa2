"""Stage 1 of extraction, for interview reports: lines that open an interview round (一面,
Round 2, phone screen, ...) and the 反问 ("questions I asked") part of a round.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re

from .headings import undecorate

#: "Round 2", "Round-1", "Round_3", "Round #4": a round by its number (one spelling for every reader of rounds).
ROUND_NUMBER = r"round(?:\s{0,2}|\s?[-_#]\s?)\d{1,2}"
_ROUND = re.compile(
    r"(?P<r>(?:第\s{0,2}[一二三四五六七八九十\d]{1,2}\s{0,2}(?:轮|面)(?:面试)?|"
    r"(?:技术|业务|交叉|主管|总监|leader|部门|hr|hrbp|终|加|老板|cto|vp)\s{0,2}面(?:试)?|"
    r"(?:技术|业务)?(?:一|二|三|四|五|六|终)\s{0,2}面|第?[一二三四五六]\s{0,2}轮|笔试|机考|电话面(?:试)?|视频面(?:试)?|群面|oa|"
    r"r\d{1,2}|step\s{0,2}\d{1,2}|coding\s{0,2}\d{1,2}|tech(?:nical)?\s+screen|"
    + ROUND_NUMBER + r"|(?:first|second|third|fourth|fifth|final|last|1st|2nd|3rd|4th|5th)[\s-]round|"
    r"(?:1st|2nd|3rd|[4-9]th)(?=\s{0,2}[:：])|"
    r"(?:technical\s+|recruiter\s+|initial\s+)?phone\s+(?:screen(?:ing)?|interview)(?:\s{0,2}#?\d{1,2}(?!\d))?|"
    r"(?:phone|on-?site)\s{0,2}#?\d{1,2}(?![\d.]|:\d)|recruiter\s+(?:call|screen|chat)|"
    r"online\s+assessment|(?:virtual\s+)?on-?site(?:\s+(?:interview|loop|round))?|(?:super\s*day)|"
    r"hiring\s+manager(?:\s+(?:round|interview|chat|call))?|(?:system\s+design|systems|coding|behaviou?ral|technical|"
    r"team\s+match(?:ing)?)\s+(?:round|interview|screen)|bar\s+raiser|technical\s+screen|take-?home))"
    r"(?P<tail>.{0,200})",
    re.IGNORECASE,
)
_ROUND_TAIL_META = re.compile(  # "（60min）", "- 45 分钟", "(video, 2 interviewers)", " 11.20"
    r"(?:\s{0,3}(?:[(（\[【][^)）\]】]{0,80}[)）\]】]|\d{1,3}\s{0,2}(?:min|mins|minutes|分钟|小时|h|hours?)\b|"
    r"\d{1,2}[./月]\d{1,2}日?|[~\-–—,，、/]))*",
    re.IGNORECASE,
)
#: The 反问 part of a round (the candidate's own questions: never interview questions).
REVERSE = re.compile(r"(?:>\s{0,2})?(?:反问(?:环节)?|我的问题|我(?:提问|问面试官|问的问题)|提问环节|questions?\s+i\s+asked|"
                     r"my\s+questions|reverse\s+q(?:&|and)?a|(?:q\s?&\s?a|qa)\b|"
                     r"questions?\s+(?:to\s+ask|for)\s+(?:the\s+|your\s+)?(?:interviewers?|hiring\s+managers?|team)"
                     r"(?:\s{0,2}[(（][^()（）]{0,24}[)）])?)\s{0,2}[:：]?", re.IGNORECASE)
#: "> 面试官(公司老大)提问:", "面试官提问：", "Interviewer's questions:": the interviewer's questions follow
#: (an HR interviewer's are about the candidate, not to drill: ``hr`` in the label).
ASKER_LABEL = re.compile(r"(?:>\s{0,2})?(?:面试官|interviewer'?s?)(?P<who>[^:：]{0,60}?)\s{0,2}(?:提问|问题|问|questions?)"
                         r"\s{0,2}[:：]\s{0,2}", re.IGNORECASE)
#: How a Chinese round was held, written straight after it: "第一轮电话面试", "二面视频面(45min)".
_HOW_HELD = re.compile(r"(?:电话|视频|现场|线上|线下|远程)(?:面试?|约|沟通)?|(?:技术|业务|主管|hr)面试?", re.IGNORECASE)
#: A letter numbering the parts of a report ("A. ", "B) ").
_LETTERED = re.compile(r"[A-H][.)]\s{1,3}")
_ROUND_SEPARATORS = (":", "：", "-", "—", "–", ")", "）")  # "Round 1 ) Linux Troubleshooting"
_LABEL_CLOSERS = "】]」』*_"
# Decoration around a round label: "————一面（60min）————", "📍一面", "=== Round 2 ===", "🔥 二面".
_EDGE_DECOR = re.compile(
    r"^[\s\-—–=~～_*#·•|>\u2500-\u257f\u2190-\u21ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff\ufe0f\u200d]{1,20}"
    r"|[\s\-—–=~～_*#·•|<\u2500-\u257f\u2190-\u21ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff\ufe0f\u200d]{1,20}$"
)


def round_line(line: str) -> tuple[str, str] | None:
    """``(round label, rest of the line)`` if ``line`` opens an interview round."""
    if len(line) > 240:  # a paragraph that opens with its round: "First Round (1hr 30min): Total focus was …"
        opened = round_line(line[:120])
        return (opened[0], (opened[1] + line[120:]).strip()) if opened and opened[1] else None
    text = _EDGE_DECOR.sub("", undecorate(line) if len(line) <= 80 else line)
    match = _ROUND.match(text)
    if not match and _LETTERED.match(text):  # "B. Phone 2 - Coding interview": a round under its letter
        match = _ROUND.match(text[_LETTERED.match(text).end():])
    if not match:
        return None
    label, tail = match["r"].strip(), match["tail"]
    if tail[:1] in _LABEL_CLOSERS:  # "【一面】 11.25 45min", "**Round 2** - …"
        tail = tail[1:]
        if tail[:1] in _LABEL_CLOSERS:
            tail = tail[1:]
    if tail[:1].isalnum() and tail[:1].isascii() and label[-1:].isascii():
        return None  # "online assessments are …", "Roundtable"
    meta = _ROUND_TAIL_META.match(tail)
    rest = tail[meta.end():] if meta else tail
    text_after = rest.lstrip(" :：-—–)）").strip()
    if not text_after:
        return label, ""
    separated = (tail.lstrip()[:1] in _ROUND_SEPARATORS or tail[:1] in "(（[【"
                 or rest.lstrip()[:1] in _ROUND_SEPARATORS
                 or (not label[-1:].isascii() and _HOW_HELD.match(tail.lstrip()) is not None))  # "第一轮电话面试"
    if separated and _HOW_HELD.match(text_after):
        return label, text_after if len(text_after) > 12 else ""
    return (label, text_after) if separated else None
