"""The employer an interview report is about, read from the whole document.

A report's header does not always name the employer where :mod:`.identity` looks ("2024 文远知行暑期
实习面试", a blog whose title is the post's, a Q&A page): the name is in the text, often several
times ("I applied for the role at Nvidia", "英伟达 SDE VO", "NVIDIA TensorRT (RDSS Intern)").
:func:`document_employer` checks the name the header gave and, when there is none or it is
not a name (a section label, a rule line, a skill: "C+", "第22部分", "---"), takes the employer
the document names most: a known employer counted over the whole text (each of its written forms,
"字节" and "字节跳动", "Nvidia" and "英伟达", counting for the one name), or the one after "at"/"@"
in a sentence that says where the candidate applied or interviewed.

One pass over each line with bounded patterns; at most :data:`SCAN_LINES` lines are read. Pure
module: no Flask, no database.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from .identity import KNOWN_COMPANIES, looks_like_role
from .names import SHORT_NAMES, is_organisation_name, simplified_names

#: Lines read for names (a report names its employer early and often).
SCAN_LINES = 600
#: Another spelling of an employer prep names one way ("英伟达" is NVIDIA's Chinese name).
SAME_EMPLOYER = {**SHORT_NAMES, "英伟达": "NVIDIA", "Nvidia": "NVIDIA", "字节": "字节跳动",
                 "ByteDance": "字节跳动", "阿里": "阿里巴巴", "Alibaba": "阿里巴巴", "Tencent": "腾讯",
                 "Baidu": "百度", "Huawei": "华为", "Meituan": "美团", "Facebook": "Meta", "Google": "Google"}

_LATIN = sorted((n for n in KNOWN_COMPANIES if n.isascii()), key=len, reverse=True)
_CJK = sorted((n for n in KNOWN_COMPANIES if not n.isascii()), key=len, reverse=True)
# A Latin name as a word ("Nvidia's", "@NVIDIA"), not inside another ("Armv8", "Metaprogramming").
_LATIN_NAME = re.compile(r"(?<![A-Za-z0-9])(?:" + "|".join(re.escape(n) for n in _LATIN) + r")(?![A-Za-z0-9])",
                         re.IGNORECASE)
_CJK_NAME = re.compile("|".join(re.escape(n) for n in _CJK))
_CANONICAL = {n.casefold(): n for n in KNOWN_COMPANIES}
# "the role at Nvidia", "interviewed with Google", "面试了腾讯", "投了字节": where the candidate went.
_WHERE = re.compile(r"(?:\b(?:at|@|with|for|joined|join)\s+|面试了?|投了?|入职|拿到了?)\s{0,2}$", re.IGNORECASE)
def document_employer(lines: Sequence[str], found: str | None) -> str | None:
    """The employer of a report: ``found`` (what the header gave) when it is a name the document
    bears out, else the employer the document names most (None when it names none twice and none
    where the candidate went)."""
    if found is not None and not is_organisation_name(found):
        found = None
    counts: dict[str, int] = {}
    first_seen: dict[str, int] = {}
    went: str | None = None
    for index, line in enumerate(lines[:SCAN_LINES]):
        line = simplified_names(line)  # 騰訊 is 腾讯
        for match in (*_LATIN_NAME.finditer(line[:2000]), *_CJK_NAME.finditer(line[:2000])):
            name = _canonical(match.group())
            counts[name] = counts.get(name, 0) + 1
            first_seen.setdefault(name, index)
            if went is None and _WHERE.search(line[max(0, match.start() - 12): match.start()]):
                went = name
    if found is not None:
        whole = _canonical(found)
        return whole if whole in counts else (_completed(found, lines) or found)
    if not counts:
        return title_employer([line for line in lines[:12] if len(line) <= 80 and _REPORT_WORD.search(line)])
    best = max(counts, key=lambda n: (counts[n], -first_seen[n]))
    if first_seen[best] <= 2 or counts[best] >= 3 or (counts[best] >= 2 and went == best):
        return best  # named in the title, named again and again, or where the candidate went
    return went


_REPORT_WORD = re.compile(r"面试|面經|面经|interview", re.IGNORECASE)
_TITLE_NAME = re.compile(r"(?:^|[\s\d年届|｜\-–—:：])(?P<n>[\u4e00-\u9fff]{2,8}?)\s{0,2}"
                         r"(?=(?:\d{2,4}\s{0,2}届)?\s{0,2}(?:暑期|日常|实习|校招|社招|秋招|春招|面试|面经|一面|二面|三面|"
                         r"infra|ai\b|高性能|算法|后端|c\+\+))", re.IGNORECASE)


def title_employer(title_lines: Sequence[str]) -> str | None:
    """An employer a report's title names before the report words ("2024 文远知行暑期实习面试")."""
    for line in title_lines:
        match = _TITLE_NAME.search(line[:120])
        if match and is_organisation_name(match["n"]) and not looks_like_role(match["n"]):
            return match["n"]
    return None


def _canonical(name: str) -> str:
    name = _CANONICAL.get(name.casefold(), name)
    return SAME_EMPLOYER.get(name, name)


_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,12}")


def _completed(found: str, lines: Sequence[str]) -> str | None:
    """A name the header cut short ("好未" of "好未来 - HPC算法工程师"): the CJK run it starts, in the title."""
    for line in lines[:3]:
        for run in _CJK_RUN.finditer(line[:200]):
            if run.group().startswith(found) and run.group() != found and len(run.group()) <= len(found) + 2:
                return run.group()
    return None
