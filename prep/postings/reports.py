"""Stage 3 of extraction: is the document an interview report (面经, a Glassdoor-style review)
or a job posting? Judged from its rounds, its title, its posting sections and report phrases.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re

from .headings import ROUND_KIND
from .segment import Block

REPORT_TITLE = re.compile(
    r".{0,80}?(?:面经|面试经验|面试记录|面试复盘|面试总结|面试分享|一面|二面|三面|终面|hr面|秋招|春招|"
    r"interview\s+(?:experience|report|review)|interviewed\s+(?:at|with|for)|my\s+interview|onsite\s+experience|"
    r"phone\s+screen|interview\s+questions\s+(?:at|from)|面试.{0,30}(?:体验|经历|感受)|"
    r"(?-i:[A-Z][\w ,&()-]{2,60})\s(?:interview|Interview)\s{0,2}$)",
    re.IGNORECASE,
)
_REPORT_MARKERS = re.compile(
    r".{0,40}?(?:面试官|问了|问到|手撕|反问|(?<![a-z])oc(?![a-z])|i\s+interviewed|i\s+applied|interviewer|they\s+asked|the\s+interviewer|"
    r"asked\s+me|got\s+the\s+offer|got\s+rejected)",
    re.IGNORECASE,
)


def is_report(lines: list[str], blocks: list[Block]) -> bool:
    """Whether the document of ``lines`` (segmented into ``blocks``) is an interview report."""
    # A list of other reports' titles: short lines, not a report's own paragraphs ("一面是电话，…").
    # Lines inside a round ("二面明显压力大了", "结果第二天约三面了") are the report's own.
    titles = sum(1 for block in blocks if block.kind != ROUND_KIND for line in block.lines[:400]
                 if 6 < len(line) <= 60 and REPORT_TITLE.match(line))
    if titles >= 4:  # a board's list of report titles, not a report
        return False
    rounds = sum(1 for b in blocks if b.kind == ROUND_KIND)
    if rounds >= 1 and any(REPORT_TITLE.match(line[:200]) for line in lines[:6]):
        return True
    if rounds >= 2:
        return True
    posting_sections = sum(1 for b in blocks if b.kind in ("required", "responsibilities", "nice"))
    markers = sum(1 for line in lines[:400] if _REPORT_MARKERS.match(line[:200]))
    if posting_sections == 0 and (rounds or any(REPORT_TITLE.match(line[:200]) for line in lines[:6])):
        return True
    return posting_sections == 0 and markers >= 3
