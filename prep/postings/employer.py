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

from prep.skills.taxonomy import find_skills

from .headings import undecorate
from .identity import (JOB_BOARDS, KNOWN_COMPANIES, known_company, looks_like_company, looks_like_role, named_as_employer,
                       plausible_employer)
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
# "the role at Nvidia", "interviewed with Google", "面试了腾讯", "投了字节", a thread titled "[商汤/大装置] …": where the candidate went.
_WHERE = re.compile(r"(?:\b(?:at|@|with|for|joined|join)\s+|面试了?|投了?|入职|拿到了?|^\s{0,4}[\[【])\s{0,2}$", re.IGNORECASE)
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
            if not named_as_employer(_CANONICAL.get(match.group().casefold(), ""), line, match.start(), match.end()):
                continue  # "lambda functions", "目标 JD 校准"
            name = _canonical(match.group())
            counts[name] = counts.get(name, 0) + 1
            first_seen.setdefault(name, index)
            if went is None and _WHERE.search(line[max(0, match.start() - 12): match.start()]):
                went = name
    best = max(counts, key=lambda n: (counts[n], -first_seen[n])) if counts else None  # the most named, first first
    if found is not None:
        whole = _canonical(found)
        if whole in counts:
            return whole
        if best is not None and first_seen[best] <= 2 and counts[best] >= 3 and _named_once(found, lines):
            return best  # a site's name over the page ("Talentee" above "NVIDIA … Interview Questions")
        return _completed(found, lines) or found
    titled = latin_title_employer(lines[:_TITLE_LINES])
    if best is None:
        return title_employer([line for line in lines[:12] if len(line) <= 80 and _REPORT_WORD.search(line)]) or titled
    if first_seen[best] <= 2 or counts[best] >= 3 or (counts[best] >= 2 and went == best):
        return best  # named in the title, named again and again, or where the candidate went
    return went or titled


def borne_out(name: str | None, lines: Sequence[str]) -> str | None:
    """A report's employer unless the document names it once only, as a line of its own (a page's
    title or a heading: "并行计算与分布式训练", "IP Addressing") or as Chinese words ("推理" of
    "推理面试题整理"); a known company, or a name that ends as an organisation's does, stays."""
    if name is None or known_company(name) or looks_like_company(name) or not _named_once(name, lines):
        return name
    if _CJK_WORDS.fullmatch(name):
        if any(_heads_title(name, line) for line in lines[:3]):
            return name  # "波克城市-2025秋招-运维工程师面经": set apart at the head of the title, a name
        return None  # a Chinese word of the title, once: "推理面试题整理", "综合面经" (a topic, not a company)
    whole = name.casefold()
    if _BRAND_WORD.fullmatch(name) and not find_skills(name):
        return name  # "# PingCAP" over its rounds: a brand's one word, not a topic's words
    if any(undecorate(line[:200]).casefold() == whole for line in lines[:SCAN_LINES]):
        return None  # (its numbering and marks set aside: "# 36. 并行计算与分布式训练")
    return name


def _heads_title(name: str, line: str) -> bool:
    """Whether ``name`` opens the title ``line``, set apart from the rest by a dash or a bracket."""
    head = line.lstrip("#【[ ")
    return head.startswith(name) and head[len(name):len(name) + 1] in ("-", "–", "—", "_", "|", "｜", "】", "]")


#: One word written as a brand writes itself: capitals inside it or all of it ("PingCAP", "OOCLAB").
_BRAND_WORD = re.compile(r"(?-i:[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Z]{4,12})")


_CJK_WORDS = re.compile(r"[\u4e00-\u9fff]{1,12}")


def _named_once(name: str, lines: Sequence[str]) -> bool:
    """Whether ``name`` appears in one line of the document only (where the header gave it)."""
    folded = name.casefold()
    return sum(1 for line in lines[:SCAN_LINES] if folded in line[:2000].casefold()) <= 1


#: The lines a report's own title may be among (under a blog's name, a date, a question to readers).
_TITLE_LINES = 6
#: A Latin title that opens with the employer, then the role or the interview: "Riverbed Interview -
#: On-site", "Patreon SRE – Live Debugging Round", "Komprise | Senior Backend Engineer (June-2024)".
_LATIN_TITLE_NAME = re.compile(
    r"(?:#{1,6}\s{1,3})?(?P<n>[A-Z][A-Za-z0-9&.'-]{1,30}(?:\s[A-Z][A-Za-z0-9&.'-]{1,30}){0,2}?)\s{0,2}(?:[|｜:–—-]\s{0,2})?"
    r"(?:(?:Senior|Staff|Principal|Junior|Lead|Sr\.?|New\s+Grad|Intern)\s+)?"
    r"(?:SWE|SDE|SRE|MLE|Software|Backend|Back-end|Frontend|Full[- ]?Stack|Infrastructure|Infra|"
    r"Platform|Research|Hardware|Firmware|GPU|Kernel|DevOps|Security|[Ii]nterview|Onsite|On-site|"
    r"Phone\s+Screen|Technical\s+(?:Interview|Round|Screen))(?:\b|$)")


_PART_WORD = re.compile(r"(?:round|part|day|step|stage|phase|question|problem|my|our|the|final|first|second|third)\b",
                        re.IGNORECASE)


def latin_title_employer(lines: Sequence[str]) -> str | None:
    """The employer a Latin report title opens with, before the role or the word interview."""
    for line in lines:
        match = _LATIN_TITLE_NAME.match(line[:160])
        if match and plausible_employer(match["n"]) and not _PART_WORD.match(match["n"]) \
                and match["n"].casefold() not in _GENERIC_BRANDS:
            return _canonical(match["n"])
    return None


_REPORT_WORD = re.compile(r"面试|面經|面经|interview", re.IGNORECASE)
_TITLE_NAME = re.compile(r"(?:^|[\s\d年届|｜\-–—:：])(?![年届])(?P<n>[\u4e00-\u9fff]{2,8}?)\s{0,2}"
                         r"(?=(?:\d{2,4}\s{0,2}届)?\s{0,2}(?:暑期|日常|实习|校招|社招|秋招|春招|面试|面经|一面|二面|三面|"
                         r"infra|ai\b|高性能|算法|后端|c\+\+))", re.IGNORECASE)


def title_employer(title_lines: Sequence[str]) -> str | None:
    """An employer a report's title names before the report words ("2024 文远知行暑期实习面试")."""
    for line in title_lines:
        if "、" in line[:120] or line[:120].count("面试") >= 2:
            continue  # a sentence that lists ("支持电话面试、在线面试及现场面试"), not a title
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


#: A Latin organisation's name: one to three capitalised words and a word organisations end in
#: ("Halyard Labs", "Tessellate Compute", "Quanta Fabric Inc.").
_LATIN_ORGANISATION = re.compile(
    r"(?<![\w.@/-])(?P<n>(?P<b>[A-Z][A-Za-z0-9]{1,20})(?:\s[A-Z][A-Za-z0-9]{1,20}){0,2}\s(?:Labs?|Systems|Compute|Computing|"
    r"Networks|Technologies|Technology|Semiconductors?|Robotics|Dynamics|Cloud|Software|Analytics|Fabric|Freight|"
    r"Inc\.?|Ltd\.?|LLC|Corp(?:oration)?\.?|GmbH|AI))(?![\w-])")
#: A Chinese organisation's name: its brand and the word such names end in ("深算科技", "华芯智算"),
#: without the legal form after it ("有限公司") or a city before it.
_CJK_ORGANISATION = re.compile(
    r"(?:北京|上海|深圳|杭州|广州|南京|成都|苏州|武汉|西安|合肥|天津)?(?:市)?"
    r"(?P<n>(?P<b>[\u4e00-\u9fff]{2,4}?)(?:科技|智算|计算|数据|智能|网络|半导体|电子|信息))"
    r"(?:技术|科技)?(?:股份)?(?:有限公司|有限责任公司|公司|集团)?")
#: The brands whose mentions are counted (those written most often with their ending).
_MAX_BRANDS = 8
#: Words that end such a name but also end ordinary phrases ("大数据", "高性能计算", "人工智能").
_NOT_A_BRAND = re.compile(r"大|高性能|人工|分布式|并行|异构|云|边缘|通用|智能|数据|网络|存储|科学|超级|量子|移动|集群|通信|"
                          r"开发|研发|公司|怎么|如何|什么|算法|计算|信息|高速|北京|上海|深圳|杭州|国产|"
                          r"熟悉|负责|了解|掌握|精通|具备|参与|从事|擅长|优化|设计|实现|构建|打造|"  # a duty or a requirement: "熟悉网络编程"
                          r"[的和与及在是了为对用做会让给把从向这那各每本该其怎]")

#: A character no brand holds: "提供者的网络" is a phrase ("the provider's network"), not a name.
_FUNCTION_CHARACTER = re.compile(r"[的和与及在是了为对用做会让给把从向这那者们]")


def recurring_organisation(lines: Sequence[str]) -> str | None:
    """The organisation a document names again and again with an organisation's ending ("Halyard
    Labs" … "Halyard" … "Halyard Labs", "深算科技招聘" … "深算科技有限公司"): its full name, when
    it (or its brand alone) appears at least three times and no other such name as often."""
    full: dict[str, int] = {}
    brands: dict[str, str] = {}
    text_lines = [line[:2000] for line in lines[:SCAN_LINES]]
    for line in text_lines:
        for match in (*_LATIN_ORGANISATION.finditer(line), *_CJK_ORGANISATION.finditer(line)):
            name, brand_ = match["n"].rstrip("."), match["b"]
            if _NOT_A_BRAND.match(brand_) or _FUNCTION_CHARACTER.search(brand_) or brand_.casefold() in _GENERIC_BRANDS:
                continue
            full[name] = full.get(name, 0) + 1
            brands.setdefault(brand_, name)
    if not brands:
        return None
    counts: dict[str, int] = {}
    leading = sorted(brands.items(), key=lambda item: -full[item[1]])[:_MAX_BRANDS]  # bounded work on any input
    for brand_, name in leading:
        pattern = re.compile(r"(?<![A-Za-z0-9])" + re.escape(brand_) + r"(?![a-z0-9])") if brand_.isascii() else None
        mentions = sum(len(pattern.findall(line)) if pattern else line.count(brand_) for line in text_lines)
        counts[name] = counts.get(name, 0) + max(mentions, full.get(name, 0))
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    best, count = ranked[0]
    if count < 3 or (len(ranked) > 1 and ranked[1][1] == count):
        return None
    return best


#: Capitalised words that open a phrase like an organisation's name but are not one ("The Cloud", "Our Systems").
_GENERIC_BRANDS = frozenset("the our your their this that a an and for with at in on of to we you all new senior staff "
                            "principal junior lead software hardware open".split()) | JOB_BOARDS


#: Where the candidate went or the job is, with a name no list of companies holds: "SWE Interviews
#: at Rubrik", "How I cracked an Internship at Nutanix", "the Compiler Engineer position at Oxmiq
#: Labs", "Working at Codeplay offers …".
_CUED_EMPLOYER = re.compile(
    r"\b(?:interview(?:s|ed|ing)?|internships?|intern|offers?|onsite|on-site|positions?|roles?|jobs?|openings?|loop|"
    r"work(?:ing|ed|s)?|careers?|applied|hired|joined|joining)\b[^.?!\n]{0,40}?\s(?:at|@)\s{1,2}"
    r"(?P<n>(?-i:[A-Z][A-Za-z0-9&-]{1,30})(?:\s(?-i:[A-Z][A-Za-z0-9&-]{1,30})){0,2})",
    re.IGNORECASE)
#: Capitalised words that follow "at" without naming an employer.
_NOT_CUED = frozenset("the a an my our your their this that least first last home night work school university "
                      "college campus scale least most all".split())


def cued_employer(lines: Sequence[str]) -> tuple[str, int] | None:
    """The employer a document says the candidate went to or the job is at, when it names it twice
    or more (its first word counted as written, "Oxmiq" for "Oxmiq Labs"), with that count."""
    best: tuple[str, int] | None = None
    text_lines = [line[:2000] for line in lines[:SCAN_LINES]]
    cued = [match for line in text_lines[:_CUE_LINES] for match in _CUED_EMPLOYER.finditer(line)]
    # a name that is somewhere a venue ("Online Assessment at SOA university") is no employer
    venues = {match["n"] for line in text_lines[:_CUE_LINES] for match in _AT_VENUE.finditer(line)}
    counts: dict[str, int] = {}
    for match in cued:
        name = match["n"].strip()
        first = name.split()[0]
        if first.casefold() in _NOT_CUED or first.casefold() in JOB_BOARDS or _LEVEL.fullmatch(first) or first in venues:
            continue  # (never a level: "Offer at E4")
        if first not in counts:
            word = re.compile(r"(?<![A-Za-z0-9])" + re.escape(first) + r"(?![A-Za-z0-9])")
            counts[first] = sum(len(word.findall(text)) for text in text_lines)
        if counts[first] >= 2 and (best is None or counts[first] > best[1]):
            best = (name, counts[first])
    return best


def mentions(name: str, lines: Sequence[str]) -> int:
    """How often the document writes ``name`` (case aside)."""
    folded = name.casefold()
    return sum(line[:2000].casefold().count(folded) for line in lines[:SCAN_LINES]) if folded else 0


_LEVEL = re.compile(r"[A-Z]{1,3}\d{1,2}")
#: A name followed by the word that makes it a place: "at SOA university", "at the Hilton hotel".
_AT_VENUE = re.compile(r"\bat\s{1,2}(?:the\s)?(?P<n>(?-i:[A-Z][A-Za-z0-9&-]{1,30}))(?:\s(?-i:[A-Z][A-Za-z0-9&-]{1,30})){0,2}\s{1,2}"
                       r"(?:university|college|campus|institute|school|hall|auditorium|hotel|office|centre|center)\b",
                       re.IGNORECASE)
#: The lines a cue is looked for in (a title, an opening paragraph, a posting's first lines).
_CUE_LINES = 40


#: A name opening a report's first line, before a dash, a colon or a space ("Cloudflare— Systems Engineer").
_LEADING_NAME = re.compile(r"(?:#{1,6}\s{1,3})?(?P<n>[A-Z][A-Za-z0-9&.'-]{1,30}(?:\s[A-Z][A-Za-z0-9&.'-]{1,30})?)"
                           r"(?=\s{0,2}[—–|｜:：-]|\s)")
#: A name the title opens with is the employer when the text names it this many times in all.
TITLE_NAME_REPEATS = 3


def titled_and_repeated(lines: Sequence[str]) -> str | None:
    """The name a report's first line opens with when the text names it again and again
    ("Cloudflare— Systems Engineer" over "… design Cloudflare's DDoS layer", "Cloudflare expects …"):
    the title and the text agree on who the report is about."""
    first = next((line for line in lines[:3] if line.strip()), "")[:160]
    match = _LEADING_NAME.match(first)
    if match is None:
        return None
    name = match["n"]
    if not plausible_employer(name) or looks_like_role(name) or _PART_WORD.match(name) \
            or name.casefold() in _GENERIC_BRANDS or not is_organisation_name(name):
        return None
    word = re.compile(r"(?<![A-Za-z0-9])" + re.escape(name) + r"(?![A-Za-z0-9])")
    said = sum(len(word.findall(line[:2000])) for line in lines[:SCAN_LINES])
    return name if said >= TITLE_NAME_REPEATS else None


#: A contact address at the employer's own domain ("hire@acme.com", "naruto.zwb@alibaba-inc.com").
_MAIL = re.compile(r"[\w.+-]{1,64}@(?P<d>[a-z0-9][a-z0-9-]{1,40})\.(?:com|cn|io|ai|net|org|co|tech|dev)(?:\.[a-z]{2})?\b",
                   re.IGNORECASE)
_MAIL_SERVICES = frozenset("gmail googlemail outlook hotmail live msn yahoo icloud me proton protonmail qq foxmail 163 126 "
                           "yeah sina sohu aliyun example mail email gmx zoho".split())


def mailed_employer(lines: Sequence[str]) -> str | None:
    """The employer a posting's contact address names ("发简历到 hire@acme.com", "Recruiter @ Acme … x@acme.com"):
    a known employer by its domain, or the domain's name as the text writes it elsewhere ("PayPal" for
    paypal.com); never a mail service's."""
    labels: list[str] = []  # the first few domains, each looked for once (bounded work on a page of addresses)
    for line in lines[:SCAN_LINES]:
        if "@" not in line:
            continue
        for match in _MAIL.finditer(line[:2000]):
            label = match["d"].casefold().removesuffix("-inc").removesuffix("inc")
            if label in _MAIL_SERVICES or len(label) < 3 or label in labels:
                continue
            known = known_company(label)
            if known:
                return _canonical(known)
            labels.append(label)
            if len(labels) >= _MAIL_DOMAINS:
                break
        if len(labels) >= _MAIL_DOMAINS:
            break
    if not labels:
        return None
    words = re.compile(r"(?<![\w@.-])(?:" + "|".join(map(re.escape, labels)) + r")(?![\w@-])", re.IGNORECASE)
    for other in lines[:SCAN_LINES]:
        for written in words.finditer(other[:2000]):
            if written.group() not in labels:  # the text's own spelling, not the address's
                return written.group()
    return None


#: Contact domains looked for in the text at most.
_MAIL_DOMAINS = 3

