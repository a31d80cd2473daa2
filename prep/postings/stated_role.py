"""The role an interview report says the candidate interviewed for, in its own sentences.

A report's title often abbreviates the role ("腾讯 TEG 运维开发（SRE）社招面试记录", "Meta E5
Production Engineer – loop details"); the body then names it in full:

- quoted after 岗位 / 职位 / JD / 面了 / 投的 / 应聘: 岗位名是「大模型训练框架研发工程师-通信方向」,
  JD 写的是“高级运维开发工程师（GPU 集群方向）”, 面了月之暗面的「AI Infra 工程师（训练集群方向）」;
- in English after "applied … for", "interviewed for", "went through the loop for": "Applied through
  referral for Senior Software Engineer - Collective Communication Libraries, Santa Clara (remote
  ok)", "… the loop for Senior Software Engineer, Communication Libraries at NVIDIA (Santa Clara)";
- a review site's heading "<Company> <Role> Interview" ("Datadog Software Engineer II - Backend
  (Distributed Systems) Interview"), with the company the review names ("I interviewed at Datadog").

A candidate is taken only when it names a job (``looks_like_role``). Pure module; every pattern is
bounded and runs on one line of at most a few hundred characters.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_QUOTED_ZH = re.compile(
    r"(?:岗位|职位|jd|JD|Jd|面了|面的|投的|投了|应聘|申请了?)[^「“\"『《\n]{0,16}?"
    r"[「“\"『《](?P<r>[^」”\"』》\n]{2,60})[」”\"』》]"
)
_FOR_ROLE = re.compile(
    r"\b(?i:applied|apply|interviewed|interviewing|interview|loop|onsite|process|candidate|opening)\b"
    r"[^.!?\n]{0,40}?\bfor\s+(?:the\s+|a\s+|an\s+)?\*{0,2}(?P<r>[A-Z][^.;!?()*\n]{2,120})",
)
#: Where an English role stops: " at NVIDIA", " role", " position", " last month".
_ROLE_END = re.compile(
    r"\s(?:at|@|in|on|with|through|via|last|this|back|and\s+(?:got|was|had|passed|failed))\s|"
    r"\s(?:role|position|opening|team|req)\b",
)
_INTERVIEWED_AT = re.compile(r"\b(?:interviewed\s+at|[Ii]nterview\s+(?:at|with)|(?:phone|technical|tech)\s+screen\s+with|"
                            r"onsite\s+(?:at|with))\s+"
                            r"(?!(?:The|A|An|My|Our|Their|His|Her|Two|Three|One|Some)\b)"
                            r"(?P<c>(?:[A-Z]|[a-z]\d)[\w&.'-]{0,30}(?:\s[A-Z][\w&.'-]{0,30}){0,3})")
_REVIEW_HEADING = re.compile(r"(?P<r>.{3,120}?)\s+Interview(?:\s+(?:Questions|Experience|Review))?\s*$")
_LEVEL = re.compile(r"^(?:[EeLlPpTt]\d{1,2}(?:-\d)?|IC\d|SDE\s?I{1,3})\s+(?=\S)")


def stated_role(lines: Sequence[str], is_role: Callable[[str], bool], is_place: Callable[[str], bool]) -> str | None:
    """The role the report's body names in full, if it does (``is_place``: whether a comma-separated
    part after the role starts with a place, which ends it: ", Santa Clara (remote ok)")."""
    for line in lines[:120]:
        if len(line) > 600:
            continue
        for match in _QUOTED_ZH.finditer(line):
            role = match["r"].strip()
            if is_role(role):
                return role
        match = _FOR_ROLE.search(line)
        if match:
            role = _english_role(match["r"], is_role, is_place)
            if role:
                return role
    return None


def _english_role(text: str, is_role: Callable[[str], bool], is_place: Callable[[str], bool]) -> str | None:
    end = _ROLE_END.search(text)
    if end:
        text = text[: end.start()]
    parts = [p.strip() for p in text.split(",")]
    role = parts[0]
    for part in parts[1:]:  # ", Communication Libraries" belongs to it; ", Santa Clara" does not
        if not part or not part[0].isupper() or not is_role(f"{role}, {part}") or is_place(part):
            break
        role = f"{role}, {part}"
    role = role.strip(" -–—")
    return role if 3 <= len(role) <= 100 and is_role(role) else None


def review_heading_role(lines: Sequence[str], company: str | None, is_role: Callable[[str], bool]) -> str | None:
    """The role of a review site's "<Company> <Role> Interview" heading."""
    if not company:
        return None
    for line in lines[:20]:
        if len(line) > 200 or not line.casefold().startswith(company.casefold() + " "):
            continue
        match = _REVIEW_HEADING.fullmatch(line[len(company) + 1:])
        role = match["r"].strip(" |｜-–—:：") if match else ""
        if role and is_role(role):
            return role
    return None


def interviewed_at(lines: Sequence[str]) -> str | None:
    """The employer of "I interviewed at Datadog (New York, NY) in Oct 2026", "Technical interview with NVIDIA"."""
    for line in lines[:60]:
        match = _INTERVIEWED_AT.search(line[:400])
        if match:
            return match["c"].strip()
    return None


def without_level(role: str) -> str:
    """"E5 Production Engineer" → "Production Engineer": a company's level is not the role."""
    return _LEVEL.sub("", role, count=1)
