"""Who is hiring, for what, where: company, title and location of a posting or interview report.

Evidence, strongest first: labelled lines (``公司：``, ``Company:``, ``Job title:`` — the HTML
reducer writes these from a page's JSON-LD ``JobPosting``), a saved page's ``Site:``/``Page
title:`` lines, a report's title naming a company (``字节跳动 AI Infra 一面二面面经``), then the
job-board header layout (company and title on the first lines, or ``Company · City`` under the
title as LinkedIn shows it).

Pure module: no Flask, no database. Every pattern is anchored and bounded.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from prep.skills.taxonomy import find_skills

from .asking import CJK
from .names import (APPLY_BUTTON, AT_PREFIX, BRACKET_LABEL, BREADCRUMB, CAREERS_SUFFIX, CITIES_EN, CITIES_ZH, PLACE,
                    SHORT_NAMES, TAG_PREFIX, collapse_repeat, is_navigation, is_organisation_name,
                    simplified_names, starts_with_place)
from .rounds import ROUND_NUMBER
from .stated_role import interviewed_at, review_heading_role, stated_role, without_level

_LABELS = {
    "company": re.compile(
        r"(?:公司名称|公司|企业名称|企业|招聘公司|面试公司|应聘公司|投递公司|雇主|所属公司|company(?:\s+name)?|employer|organi[sz]ation|"
        r"hiring\s+organi[sz]ation)\s{0,3}[:：]\s{0,3}(?P<v>\S.{0,79})",
        re.IGNORECASE,
    ),
    "title": re.compile(
        r"(?:职位名称|职位|岗位名称|岗位|招聘职位|招聘岗位|面试岗位|应聘岗位|投递岗位|job\s+title|position|title|role|job|"
        r"opening|vacancy)"
        r"\s{0,3}[:：]\s{0,3}(?P<v>\S.{0,99})",
        re.IGNORECASE,
    ),
    "location": re.compile(
        r"(?:工作地点|工作城市|办公地点|工作地址|地点|城市|base地|location|work\s+location|office|based\s+in)"
        r"\s{0,3}[:：]\s{0,3}(?P<v>\S.{0,79})",
        re.IGNORECASE,
    ),
}
#: A field's numbering in a write-up's "基本信息" list: "1.1 公司：…", "2) Role: …".
_FIELD_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2}){0,2}[.、)]?\s{1,3}(?=\S{1,20}\s{0,3}[:：])")
#: A field's name in bold: "**Company:** …", "**Company**: …", "__公司__：…".
_BOLD_KEY = re.compile(r"(?:\*\*|__)([^*_:：]{1,30}?)(?:\*\*|__)?\s{0,2}([:：])\s{0,2}(?:\*\*|__)?\s{0,2}")
#: A report's facts as a bulleted list ("* 公司：迅雷", "- 部门：…").
_FIELD_BULLET = re.compile(r"^[-*•+]\s{1,3}(?=\S{1,20}\s{0,3}[:：])")
_SITE = re.compile(r"Site:\s(?P<v>.{1,200})")
_PAGE_TITLE = re.compile(r"Page title:\s(?P<v>.{1,300})")
_ANY_LABEL = re.compile(r"[^:：]{1,20}[:：]")
_SENTENCE_END = re.compile(r".{0,200}[。.!！?？;；]")
_META = re.compile(
    r".{0,60}?(?:发布于|更新于|posted|updated|reposted|小时前|分钟前|天前|周前|月前|\bago\b|\btoday\b|\byesterday\b|"
    r"估算|薪资|月薪|年薪|\d+\s{0,2}[kK万千]\s{0,2}[-–~]|\d{1,3}\s{0,2}[-–~]\s{0,2}\d{1,3}\s{0,2}[kK万千]|薪|[¥$€£]\s{0,2}\d|applicants|申请人|浏览|阅读|"
    r"full-?time|part-?time|实习/|全职|兼职|on-?site|hybrid|remote\b)",
    re.IGNORECASE,
)

#: Employers candidates of these roles apply to (a report's title names one of them, a page's
#: title ends with one). Matched as written or case-insensitively for Latin names.
KNOWN_COMPANIES = tuple(  # "_" joins the words of one name
    name.replace("_", " ") for name in """字节跳动 字节 阿里巴巴 阿里云 阿里 蚂蚁集团 蚂蚁 腾讯 百度 华为 美团 京东 快手 拼多多 小红书 网易 商汤 英伟达 微软
    谷歌 亚马逊 苹果 英特尔 高通 联想 中兴 小米 滴滴 携程 哔哩哔哩 B站 得物 虾皮 月之暗面 智谱 百川智能 百川 深度求索
    阶跃星辰 壁仞 摩尔线程 寒武纪 燧原 海光 昆仑芯 零一万物 MiniMax DeepSeek 地平线 蔚来 理想 小鹏 大疆 OPPO vivo 荣耀
    中科院 上海人工智能实验室 浪潮 曙光 NVIDIA Nvidia ByteDance TikTok Alibaba Tencent Baidu Huawei Meituan JD Kuaishou
    Microsoft Google Meta Facebook Amazon AWS Apple AMD Intel Qualcomm Broadcom Cisco Oracle IBM OpenAI Anthropic xAI
    Databricks Snowflake Uber Airbnb Netflix LinkedIn Stripe Cerebras Groq SambaNova Graphcore Tenstorrent Mellanox
    Cohere Mistral CoreWeave Lambda Moonshot_AI Zhipu Shopee Sea Grab Samsung SK_hynix Arm""".split()
)
_KNOWN = {name.casefold(): name for name in KNOWN_COMPANIES}
#: Sites that host postings and reports: a page's site name is not the employer.
JOB_BOARDS = frozenset(
    n.replace("_", " ").casefold()
    for n in """LinkedIn Indeed Glassdoor Greenhouse Lever Workday BOSS直聘 Boss直聘 拉勾 拉勾网 猎聘 猎聘网 牛客 牛客网
    nowcoder 智联招聘 前程无忧 实习僧 小红书 知乎 一亩三分地 1point3acres Reddit Blind TeamBlind LeetCode 力扣 V2EX
    脉脉 JobBoard Wellfound AngelList Hacker_News Medium CSDN 掘金 博客园 微信公众号""".split()
)
_REMARK = re.compile(r"\s{0,2}[（(][^）)]{0,40}[，,][^）)]{0,40}[）)]$")  # "衡远智能（大模型独角兽，C 轮）"
_LEVEL_NOTE = re.compile(r"\s{0,2}[（(](?:[EeLlPpTt]\d{1,2}|IC\d{1,2})[）)]$")  # "Production Engineer (E4)"
_YEAR_FIRST = re.compile(r"(?:19|20)\d\d\b")
_TITLE_SPLIT = re.compile(r"\s{0,3}(?:[|｜·•—–]|\s-\s)\s{0,3}")
_CAREERS = re.compile(r"(?:careers?\s+(?:at|@)\s+)?(?P<n>.{1,60}?)(?:\s+careers?|\s+jobs|\s+招聘|招聘官网|官网)?",
                      re.IGNORECASE)
#: A careers page's title line: "Garmin Careers: Senior Software Engineer", "Careers at Acme | SRE".
_CAREERS_TITLE = re.compile(r"(?:careers?\s+(?:at|@)\s+(?P<a>[^:：|｜]{1,40}?)|(?P<b>[^:：|｜]{1,40}?)\s+(?:careers?|jobs))"
                            r"\s{0,2}[:：|｜]\s{0,2}(?P<t>.{3,150})", re.IGNORECASE)
_REPORT_COMPANY = re.compile(
    r"[【\[（(]?(?P<n>[^\s【】\[\]（）()|｜:：,，]{2,20}?)[】\]）)]?"
    r"(?=[\s【】\[\]（）()|｜:：,，_/\-–—]|面经|面試|面试|[一二三四终]面|hr面|暑期|日常|实习|校招|社招|秋招|春招|\d)\s{0,3}"
    r"(?=.{0,40}?(?:面经|面试(?:经验|记录|复盘|回顾|总结|分享|经历|心得)|一面|二面|三面|终面|hr面|interview\s+experience|interview\s+report|onsite|"
    r"phone\s+screen))",
    re.IGNORECASE,
)
#: A Latin report title that opens with the employer's name, in one to three words: "Cinderpath Systems Interview - Onsite".
_LATIN_REPORT_COMPANY = re.compile(r"(?P<n>[A-Z][\w&.'-]{1,30}(?:\s[A-Z][\w&.'-]{1,30}){0,2}?)(?:\s{1,2}\([^()]{1,30}\))?\s{1,2}"
                                   r"(?:Interview|Onsite|On-site|Phone\s+Screen)(?:\b|$)")
#: "… interview loop at Tidewater AI (and what …)": the employer after "at" in a report's title.
_AT_COMPANY = re.compile(r"\b(?:at|@)\s+(?P<n>[A-Z][\w&.'-]{1,30}(?:\s[A-Z][\w&.'-]{0,30}){0,3})")
_GENERIC_WORDS = frozenset({"ai", "inc", "labs", "lab", "tech", "team", "my", "the", "senior", "staff", "sde"})
_COMPANY_SUFFIX = re.compile(
    r".{1,60}?(?:有限公司|有限责任公司|股份公司|公司|集团|科技|智能|研究院|实验室|证券|银行|保险|基金|半导体|微电子|\binc\.?|\bltd\.?|\bllc|\bcorp(?:oration)?\.?|"
    r"\bgmbh|\btechnologies|\blabs?|\bco\.)",
    re.IGNORECASE,
)
_CITY_SEGMENTS = re.compile(r"\s{0,3}[·•|｜]\s{0,3}|\s[-–—]\s")
_BOARD_SUFFIX = re.compile(r"(?:招聘网|招聘|直聘|网|\.com|\.cn)$", re.IGNORECASE)


def is_board_line(line: str) -> bool:
    """Whether a header line is the job board's own ("猎聘 | 职位详情", "拉勾招聘", "LinkedIn")."""
    for part in _TITLE_SPLIT.split(line[:120]):
        name = part.strip().casefold()
        if name in JOB_BOARDS or _BOARD_SUFFIX.sub("", name) in JOB_BOARDS:
            return True
    return False


#: Known employers whose names are also words of the trade ("lambda functions", "the sea", "meta-
#: programming", "ARM" the instruction set): named only as they write themselves.
_AS_WRITTEN = frozenset({"Lambda", "Sea", "Grab", "Meta", "Apple", "Oracle", "Snowflake", "Stripe", "Mistral", "Cohere",
                         "Arm", "JD"})
#: "JD" as the job description, not 京东: "the JD says", "JD-004"; in Chinese text 京东 is written 京东
#: (or JD.com), and "目标 JD 校准" is a job description.
_JOB_DESCRIPTION = re.compile(r"\s{0,2}(?:description|says|said|mentions|lists|-\d)", re.IGNORECASE)
_JD_COM = re.compile(r"\.com\b", re.IGNORECASE)



def named_as_employer(name: str, text: str, start: int, end: int) -> bool:
    """Whether the known employer ``name``, found at ``text[start:end]``, is named there as an
    employer: as it writes itself when its name is also a word ("Lambda", not "lambda"), and "JD"
    not as a job description."""
    if name in _AS_WRITTEN and text[start:end] != name:
        return False
    if name != "JD":
        return True
    if _JD_COM.match(text, end):
        return True
    return not (_JOB_DESCRIPTION.match(text, end) or CJK.search(text, 0, 2000))


def known_company(text: str) -> str | None:
    """The first known employer named in ``text`` (a title line), if any."""
    written = simplified_names(text[:200])
    folded = written.casefold()
    best: tuple[int, int, str] | None = None
    for key, name in _KNOWN.items():
        at = folded.find(key)
        if at < 0:
            continue
        end = at + len(key)
        if key.isascii() and ((at and folded[at - 1].isalnum() and folded[at - 1].isascii())
                              or (end < len(folded) and folded[end].isalnum() and folded[end].isascii())):
            continue
        if len(written) == len(folded) and not named_as_employer(name, written, at, end):
            continue
        candidate = (at, -len(key), name)
        if best is None or candidate < best:
            best = candidate
    return best[2] if best else None


def city(line: str) -> str | None:
    """The location a header line states (``北京市``, ``上海 · 后端开发``, ``Santa Clara, CA``)."""
    if len(line) > 60:
        return None
    first = _CITY_SEGMENTS.split(line, maxsplit=1)[0].strip()
    if not first:
        return None
    zh = first.removesuffix("市")
    if zh in CITIES_ZH or (len(first) <= 12 and any(first.startswith(c + "市") for c in CITIES_ZH)):
        return first
    head = re.split(r"\s{0,3}[,，]\s{0,3}", first, maxsplit=1)[0]
    if head.casefold() in CITIES_EN and len(first) <= 40:
        return first
    return None


_REQUISITION = re.compile(r"(?:requisition|req|job\s+(?:id|code|number|no\.?)|reference|ref)\b.{0,6}\d|.{0,20}#\s{0,2}[A-Z]{0,3}\d{3,}",
                          re.IGNORECASE)
_JOB_META = re.compile(  # "上海 3-5年 本科", "30-60K·14薪", "经验不限 | 硕士"
    r".{0,30}?(?:\d{1,2}\s{0,2}[-~至]\s{0,2}\d{1,2}\s{0,2}年|\d{1,2}\s{0,2}年以上|经验不限|本科|硕士|博士|大专|"
    r"学历不限|应届|\d{1,3}\s{0,2}[kK]\s{0,2}[-~]\s{0,2}\d{1,3}\s{0,2}[kK]|\d{1,2}\s{0,2}薪)"
)


def _is_name_line(line: str) -> bool:
    """Whether a header line can be a company name or a job title."""
    return (
        len(line) <= 80
        and not line.startswith(("<!--", "-->"))
        and "://" not in line  # ("from Hacker News https://…": where the page came from)
        and not _REQUISITION.match(line)  # ("Requisition # G1906205")
        and not is_navigation(line)
        and not PLACE.match(line)
        and not _SENTENCE_END.fullmatch(line)
        and not _JOB_META.match(line)
        and not _ANY_LABEL.match(line)
        and not _META.match(line)
        and city(line) is None
    )


def _from_page_title(page_title: str, site: str | None) -> tuple[str | None, str | None]:
    """``(company, title)`` from "Title - Company | Board" or "Company Careers | Title"."""
    parts = [p.strip() for p in _TITLE_SPLIT.split(page_title[:300]) if p.strip()]
    parts = [p for p in parts if p.casefold() not in JOB_BOARDS]
    company = None
    for part in parts:
        named = _CAREERS.fullmatch(part)
        candidate = named["n"].strip() if named else part
        if part is not candidate and candidate.casefold() != part.casefold() and len(candidate) <= 40:
            company = candidate
            break
        if known_company(part) == part or part.casefold() in _KNOWN:
            company = _KNOWN.get(part.casefold(), part)
            break
    roles = [p for p in parts if looks_like_role(p)]
    if company is None and len(parts) == 2 and len(roles) == 1:  # "RDMA 驱动开发工程师 | 深算科技"
        other = parts[1] if roles[0] is parts[0] else parts[0]
        company = other if looks_like_company(other) and is_organisation_name(other) else None
    if company is None and site and site.casefold() not in JOB_BOARDS:
        named = _CAREERS.fullmatch(site.strip())
        company = (named["n"] if named else site).strip()
    rest = [p for p in parts if company is None or company.casefold() not in p.casefold()]
    return company, (rest[0] if rest else None)


def find_identity(
    header: Sequence[str], kept: Sequence[str], location_lines: Sequence[str], is_report: bool,
    headings: Sequence[str] = (),
) -> tuple[str | None, str | None, str | None]:
    """``(company, title, location)`` of a document, the employer as its brand ("杭州青禾数科技术有限公司"
    → "青禾数科", "Brightwave Cloud — Careers" → "Brightwave Cloud"), never a navigation bar or a place.

    ``header`` is the lines before the first section heading, ``kept`` every non-noise line (for
    labels), ``location_lines`` the lines of a location section, ``headings`` the document's first
    headings (a job board's "### Torc Robotics" under the title).
    """
    company, title, location = _find_identity(header, kept, location_lines, is_report)
    company = _cleaned(company)
    title = _cleaned(title)
    if not is_report:
        company, title = _from_whole_document(company, title, header, kept, headings)
    if company is not None:
        company = AT_PREFIX.sub("", TAG_PREFIX.sub("", company)).strip()
        company = SHORT_NAMES.get(_REMARK.sub("", company), _REMARK.sub("", company))
        first, _, rest = company.partition(" ")
        if rest and looks_like_role(rest) and looks_like_company(first):  # "澜图智能 GPU 驱动开发工程师（社招）"
            company, title = first, title or rest
        company = CAREERS_SUFFIX.sub("", company).strip(" -–—|｜·")
        if not company or is_navigation(company) or city(company) or PLACE.match(company) or company == title \
                or not is_organisation_name(company):
            company = None
    if company is not None and BREADCRUMB.search(company):
        company = None
    if title is not None:
        title = _LEVEL_NOTE.sub("", TAG_PREFIX.sub("", title).strip(" *_")) or None
        if title is not None and BREADCRUMB.search(title):  # "智联招聘 > 北京招聘 > … > 高性能网络开发工程师"
            title = BREADCRUMB.split(title)[-1].strip() or None
        if title is not None:
            head, comma, _rest = title.partition("，")  # "分布式训练框架工程师，团队直招，…"
            if comma and looks_like_role(head) and len(head) >= 4:
                title = head.strip()
        if title is not None and (is_navigation(title) or city(title)):
            title = None
        if title is not None:
            title = APPLY_BUTTON.sub("", title).strip() or None
    return company, title, location


#: A field of work, not an employer: function words, or the words of a team's remit.
_FIELD_PHRASE = re.compile(
    r"\b(?:and|of|for|with|the|in)\b|\b(?:communications?|learning|inference|training|networking|compilers?|"
    r"kernels?|performance|runtime|triton|cuda|hpc|gpu|llm)\b|&", re.IGNORECASE)
#: "作为腾讯TEG的高性能网络通信库研发工程师": the employer and the role in one clause.
_AS_ROLE_ZH = re.compile(r"作为(?P<c>[^，,。；;的\s]{2,20})的(?P<t>[^，,。；;]{2,40}?(?:工程师|架构师|研究员|专家|负责人))")
#: "NVIDIA is seeking …", "Meta is looking for …", "Canonical is building teams …": the employer as the sentence's subject.
_SEEKING = re.compile(r"(?P<c>[A-Z][\w&.'-]{1,30}(?:[ ][A-Z][\w&.'-]{1,30}){0,2})\s+(?:is|are)\s+"
                      r"(?:seeking|looking\s+for|hiring|searching\s+for|recruiting|"
                      r"(?:building|growing|expanding)\s+(?:a\s+|its\s+|the\s+)?teams?)\b")
#: "… is looking for a Distinguished Software Architect to …": the role the sentence asks for, a
#: capitalised name of two words or more ("looking for an engineer who …" names no title).
_ROLE_SOUGHT = re.compile(
    r"(?:looking\s+for|seeking|hiring|openings?\s+for)\s+(?:an?\s+)(?P<t>(?-i:[A-Z])[\w/+-]*\s(?:[\w/+-]+\s){0,5}?"
    r"(?:engineer|architect|scientist|researcher|developer|manager|lead|specialist))\b", re.IGNORECASE)
_PRONOUNS = frozenset({"we", "they", "you", "who", "this", "our", "it", "he", "she", "i"})
#: A page's descriptor after a Chinese role ("AI芯片算子开发工程师 职位分析和面试指导").
_ROLE_THEN_DESCRIPTOR = re.compile(r"(?P<t>.{2,60}?(?:工程师|架构师|研究员|专家))\s+(?P<d>[\u4e00-\u9fff]{4,20})$")
_PLACES_NOTE = re.compile(r"\s{0,2}[(（](?P<p>[^)）]{2,30})[)）]$")  # "(深圳/北京)"


def _from_whole_document(company: str | None, title: str | None, header: Sequence[str],
                         kept: Sequence[str], headings: Sequence[str] = ()) -> tuple[str | None, str | None]:
    """Company and title of a posting from the whole text when its header did not give them.

    The employer, by decreasing strength: a known employer opening the first line ("腾讯大模型推理
    优化研发工程师", "商汤大装置-云计算SDN网络开发工程师"), "作为X的…", "X is seeking …", the
    employer the text speaks as ("At d-Matrix, we …"), then the known employer the text names most
    often. The role: what "作为…的Y" or "looking for a Y" says, when the header gave none or gave a
    line that names no role ("职位简介").
    """
    first = next((line for line in header if line.strip()), "").lstrip("# ").strip()[:200]
    lead = known_company(first) if first else None
    if lead is not None and not first.casefold().startswith(lead.casefold()):
        lead = None
    prose = "\n".join(line for line in kept[:200] if len(line) <= 2000)
    as_role = _AS_ROLE_ZH.search(prose)
    if company is None and lead is not None:
        head, dash, rest = first.partition("-")
        if dash and len(head) <= 12 and looks_like_role(rest):  # "商汤大装置-云计算SDN网络开发工程师"
            company, title = head.strip(), title if title and title != first else rest.strip()
        else:
            company = lead
    if company is None and lead is None:
        company, title = _dashed_title(TAG_PREFIX.sub("", first), title)
    if company is None and lead is None:  # "【OOCLAB】远程Linux工程师", "[校招/社招][SMARTX]-存储研发工程师"
        company = next(filter(None, map(_bracketed_employer, [*header[:3], *headings[:2]])), None)
    if company is None and as_role and known_company(as_role["c"]):
        company = known_company(as_role["c"])
    if company is None:
        seeking = _SEEKING.search(prose)
        if seeking and not {w.casefold() for w in seeking["c"].split()} & _PRONOUNS:
            company = known_company(seeking["c"]) or seeking["c"]
    if company is None:
        company = speaking_employer([*header, *headings], prose)
    if company is None:
        company = _most_named_employer(kept)
    if title is not None and company is not None and lead is not None and title.startswith(company):
        rest = title[len(company):].strip(" -–—|｜·")
        title = rest if looks_like_role(rest) else title  # "腾讯大模型推理优化研发工程师" → the role
    if title is not None:
        descriptor = _ROLE_THEN_DESCRIPTOR.fullmatch(title)
        if descriptor and not looks_like_role(descriptor["d"]):
            title = descriptor["t"]
        places = _PLACES_NOTE.search(title)
        if places and all(city(p.strip()) for p in re.split(r"[/、,，]", places["p"])):
            title = title[: places.start()].strip()
    if title is None or not looks_like_role(title):
        sought = as_role["t"] if as_role else None
        if sought is None:
            match = _ROLE_SOUGHT.search(prose)
            sought = match["t"] if match else None
        title = sought.strip() if sought else title
    return company, title


#: A posting speaking as its employer: "At d-Matrix, we …", "Torc's virtual driver software …",
#: "Acme is proud to be an equal opportunity employer", "Acme does not accept resumes from agencies",
#: "Join Acme", "Acme cares about our people". A name is one to three capitalised words.
_NAME = r"(?P<c>(?-i:[A-Z][A-Za-z0-9&.-]{1,30}|[a-z]{1,2}-?(?-i:[A-Z])[A-Za-z0-9&-]{1,30})(?:[ ](?-i:[A-Z])[A-Za-z0-9&.-]{1,30}){0,2})"
_SPEAKS_AS = re.compile(
    r"\bat\s" + _NAME + r"\s{0,2},\s{0,2}(?:we|our)\b"
    r"|\b" + _NAME.replace("?P<c>", "?P<o>") + r"['’]s\s(?=[a-z])"
    r"|\b" + _NAME.replace("?P<c>", "?P<s>") + r"\s(?:is|are)\s(?:an?\s)?(?:proud|committed|equal\s+opportunity|dedicated|"
    r"headquartered|based\s+in|backed|(?:the\s|a\s)?(?:leading|leader|global|fast-growing|pioneer))\b"
    r"|\b" + _NAME.replace("?P<c>", "?P<n>") + r"\sdoes\snot\saccept\b"
    r"|\bjoin\s" + _NAME.replace("?P<c>", "?P<j>") + r"(?=\s{0,2}(?:[.,!;]|and\b|as\b|in\b|to\b|$))"
    # a sentence whose subject is the name, its verb in the third person, that goes on in the first person
    # ("Torc cares about our team")
    r"|(?:(?<![^\n])|(?<=[.!?])\s{1,3})" + _NAME.replace("?P<c>", "?P<v>") + r"\s(?-i:[a-z]{1,20}s)\b[^.!?\n]{0,100}\b(?:we|our|us)\b"
    # a paragraph that opens by saying what the employer is, then speaks as it ("SID is a research lab for
    # search. We train …"): as strong as "At X, we"
    r"|(?<![^\n])" + _NAME.replace("?P<c>", "?P<w>") + r"\sis\s(?:an?|the)\s[^.!?\n]{3,150}[.!]\s{1,3}(?-i:We|Our)\b",
    re.IGNORECASE,
)
#: What bold or code marks leave around a name ("At **d-Matrix** , we").
_EMPHASIS = re.compile(r"\*{1,3}|_{2,3}|`")
#: At most this many characters of a posting are read for the employer speaking.
_SPEAKING_CHARS = 20_000


def speaking_employer(header: Sequence[str], prose: str) -> str | None:
    """The employer a posting speaks as ("At d-Matrix, we …", "d-Matrix is proud to …", "Torc's
    virtual driver software …"): a name said so twice or more ("At X, we" counts twice), and more
    often than any other; its full name when a line of the header is that name ("Torc Robotics"
    over "Torc's …")."""
    text = _EMPHASIS.sub("", prose[:_SPEAKING_CHARS])
    text = re.sub(r"[ \t]{1,8}(?=[,.])", "", text)  # "d-Matrix ," once the bold marks are gone
    counts: dict[str, int] = {}
    first_said: dict[str, int] = {}
    for match in _SPEAKS_AS.finditer(text):
        name = next(v for v in match.groups() if v)
        if name.casefold() in _PRONOUNS or name.split()[0].casefold() in _NOT_SPEAKER:
            continue
        counts[name] = counts.get(name, 0) + (2 if match["c"] or match["w"] else 1)  # "At Crunch, we …" says it alone
        first_said.setdefault(name, match.start())
    if not counts:
        return None
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    best, count = ranked[0]
    if count < 2 or (len(ranked) > 1 and ranked[1][1] == count):
        return None
    for line in header[:12]:  # "### Torc Robotics": the full name on a line of its own
        line = _EMPHASIS.sub("", line).lstrip("# ").strip()
        line = _GLUED_AFTER_LEGAL.sub(r"\g<n>", line)  # "eBay Inc.Austin, TX": a board's fields run together
        if line.startswith(best + " ") and len(line) <= 40 and (
                looks_like_company(line) or (len(line.split()) <= 3 and not looks_like_role(line))) \
                and not 0 <= text.find(line) > first_said[best]:  # (not a product the text names after its maker:
            return line  # "Cloudflare is redefining …" before "Cloudflare Network Interconnect allows customers …")
    return best


#: A name with its legal form, run into the next field of a board's header ("eBay Inc.Austin, TX").
_GLUED_AFTER_LEGAL = re.compile(r"(?P<n>.{1,40}?\b(?:Inc|Corp|Ltd|LLC|GmbH|PLC)\.?)(?-i:[A-Z]).{0,200}")
#: Capitalised words that open a sentence like a name but are none ("This role's …", "Our team's …").
_NOT_SPEAKER = frozenset("this that these the our your their its his her my a an today everyone everything "
                         "applicants candidates team company role position world industry bachelor bachelors master "
                         "masters doctor associate".split())


_BRACKETED_EMPLOYER = re.compile(r"\s{0,3}[【\[]?(?P<n>[^】\]【\[]{2,24})[】\]]\s{0,3}")
def _name_as_title(lines: Sequence[str]) -> str | None:
    """A report titled by its employer alone ("# PingCAP" over its rounds): one to three capitalised
    words that name no skill, no role and no heading word."""
    if not lines or not lines[0].startswith("#"):
        return None
    name = lines[0].lstrip("# ").strip()
    if not _TITLE_NAME.fullmatch(name) or name.casefold() in _GENERIC_WORDS or looks_like_role(name) \
            or not plausible_employer(name) or find_skills(name):
        return None
    return name


#: One to three words, each opening in a capital letter or a digit ("PingCAP", "Jane Street", "1Password").
_TITLE_NAME = re.compile(r"(?-i:[A-Z0-9][\w&.'-]{1,30})(?: (?-i:[A-Z0-9])[\w&.'-]{0,30}){0,2}")
_CLOSED_FIRST = re.compile(r"[^\[\]【】]{1,30}[\]】]")


def _bracketed_employer(line: str) -> str | None:
    """The employer a title puts in brackets before the role ("【OOCLAB】远程Linux/云计算工程师"), past
    its tags ("[校招/社招/实习]")."""
    line = line.lstrip("# ").strip()[:200]
    if line[:1] not in "[【" and _CLOSED_FIRST.match(line):
        line = "[" + line  # a heading whose opening bracket the reading took as decoration
    line = TAG_PREFIX.sub("", line)
    tagged = _BRACKETED_EMPLOYER.match(line)
    if tagged is None or not looks_like_role(line[tagged.end():]):
        return None
    name = tagged["n"].strip()
    if not plausible_employer(name) or TAG_PREFIX.match(f"【{name}】") or city(name) or _FIELD_PHRASE.search(name):
        return None
    return name


#: A department in a title's middle part ("信息技术部", "基础架构中心", "AI Lab").
_DEPARTMENT = re.compile(r"(?:部|部门|中心|事业部|事业群|团队|小组|实验室|研究院|\blab|\bteam|\bgroup|\bdepartment)$", re.IGNORECASE)
_HIRING_TAIL = re.compile(r"(?P<d>.{2,20}?)\s{0,2}(?:招聘|招人|诚聘|is\s+hiring|hiring)", re.IGNORECASE)
_TITLE_DASH = re.compile(r"\s{0,2}[-–—]\s{0,2}")


def _opening_employers(parts: Sequence[str]) -> list[str]:
    """The known employers that open a part of a title with more words than their name ("阿里云研发")."""
    bare = [TAG_PREFIX.sub("", part).strip() for part in parts]
    return [known for known, part in ((known_company(part), part) for part in bare)
            if known and part.casefold().startswith(known.casefold()) and len(part) > len(known) + 1]


def _dashed_title(first: str, title: str | None) -> tuple[str | None, str | None]:
    """The employer and role of a title written "employer-department-role" ("华泰证券-信息技术部-AI平台开发工程师")
    or "employer-role" where the employer's name says it is one ("星河证券-推理工程师"); the title as it was
    otherwise ("星图大模型推理优化研发工程师-算子优化")."""
    parts = [p.strip() for p in _TITLE_DASH.split(first[:200])]
    if not 2 <= len(parts) <= 4 or not all(parts):
        return None, title
    head = parts[0]
    if not 2 <= len(head) <= 20 or looks_like_role(head) or _FIELD_PHRASE.search(head) or not is_organisation_name(head):
        return None, title  # (a role or a field of work first: "星图大模型推理优化研发工程师-算子优化")
    hiring = _HIRING_TAIL.fullmatch(parts[-1])  # "贝壳-基础研发部招聘": a department's hiring notice
    if hiring and _DEPARTMENT.search(hiring["d"]):
        return head, title
    if looks_like_role(parts[-1]) and (looks_like_company(head) or (len(parts) >= 3 and _DEPARTMENT.search(parts[1]))):
        return head, title if title and TAG_PREFIX.sub("", title).strip() != first.strip() else parts[-1]
    return None, title


def _most_named_employer(lines: Sequence[str]) -> str | None:
    """The known employer the text names most, counted only where it reads as the employer: twice
    or more, or once as a sentence's subject or a team's owner ("NVIDIA is a pioneer…", "The
    ByteDance ByteStore team", "NVIDIA's vision", "腾讯集团 |"), never once inside a product's name
    ("OpenAI Triton")."""
    counts: dict[str, int] = {}
    subject: set[str] = set()
    for line in lines[:400]:
        for part in re.split(r"(?<=[.。;；!！?？])\s*", line[:2000]):
            name = known_company(part[:200])
            if not name:
                continue
            counts[name] = counts.get(name, 0) + part[:200].casefold().count(name.casefold())
            at = part.casefold().find(name.casefold())
            if _EMPLOYER_START.match(part[:at]) or _TEAM_AFTER.match(part, at + len(name)):
                subject.add(name)
    named = [n for n in counts if counts[n] >= 2 or n in subject]
    return max(named, key=lambda n: counts[n]) if named else None


_EMPLOYER_START = re.compile(r"(?:about\s+the\s+team\s+)?(?:the\s+|作为|加入|join\s+)?$", re.IGNORECASE)
_TEAM_AFTER = re.compile(r"(?:\s?[\w-]{1,20}){0,2}\s(?:team|group)\b|['’]s\s(?:vision|mission|team|culture)\b|集团|公司|"
                         r"\s{0,2}[|｜]", re.IGNORECASE)


def _is_known(name: str) -> bool:
    """Whether ``name`` is, as a whole, a known employer (any case)."""
    known = known_company(name)
    return known is not None and known.casefold() == name.strip().casefold()


def _cleaned(name: str | None) -> str | None:
    """A name without a table's stray bars; ``None`` for a navigation line, a bar or a date alone."""
    if name is None:
        return None
    name = _LOGO.sub("", name.strip(" |｜"))  # "GitLab logo": a logo's text, the name beside it
    return name if name and re.search(r"[^\W\d_]", name) and not is_navigation(name) else None


_LOGO = re.compile(r"\s{1,2}(?:logo|的?标志|图标)$", re.IGNORECASE)


def _find_identity(
    header: Sequence[str], kept: Sequence[str], location_lines: Sequence[str], is_report: bool
) -> tuple[str | None, str | None, str | None]:
    """``(company, title, location)`` as the document states them.

    ``header`` is the lines before the first section heading, ``kept`` every non-noise line (for
    labels), ``location_lines`` the lines of a location section.
    """
    found: dict[str, str] = {}
    site = page_title = None
    for line in kept[:400]:
        if len(line) > 200:
            continue
        if line.startswith("Site: ") and site is None:
            match = _SITE.fullmatch(line)
            site = match["v"].strip() if match else None
            continue
        if line.startswith("Page title: ") and page_title is None:
            match = _PAGE_TITLE.fullmatch(line)
            page_title = match["v"].strip() if match else None
            continue
        bracketed = BRACKET_LABEL.fullmatch(line)  # "【岗位】分布式训练框架工程师"
        line = f"{bracketed['k']}：{bracketed['v']}" if bracketed else _FIELD_NUMBER.sub("", line, count=1)
        line = _FIELD_BULLET.sub("", line, count=1)  # "- Company: Broadcom", a board's fields as a list
        if line.startswith(("**", "__")):
            line = _BOLD_KEY.sub(r"\1\2 ", line, count=1)  # "**Company:** Apple Inc." is "Company: Apple Inc."
        for key, pattern in _LABELS.items():
            if key not in found:
                match = pattern.fullmatch(line)
                if match:
                    value = match["v"].strip()
                    if key == "company" and value.casefold() in JOB_BOARDS:
                        continue
                    found[key] = value
    company, title, location = found.get("company"), found.get("title"), found.get("location")
    page_company = page_role = None
    if page_title:
        page_company, page_role = _from_page_title(page_title, site)
        company = company or page_company
    content_header = [line for line in header if not line.startswith(("Site: ", "Page title: "))]
    if is_report:
        first = content_header[0].lstrip("# ").strip() if content_header else ""
        title_line = first if known_company(first) and looks_like_role(first) else None  # "# 腾讯TEG, 后台开发实习"
        for line in content_header[:8]:
            if title_line or len(line) <= 6 or not _REPORT_TITLE_LINE.match(line[:200]) or _ROUND_LINE.match(line.lstrip("# ")[:80]):
                continue
            title_line = line
        if company is None and title_line:
            company = known_company(title_line)
        if company is None:
            company = next((c for c in map(known_company, content_header[:5]) if c), None)
        if company is None and title_line:
            at = _AT_COMPANY.search(title_line[:200])
            if at:
                company = at["n"].strip()
        if company is None and title_line:  # "Last month I had a phone screen with Larkspur Networks …"
            company = interviewed_at([title_line])
        if company is None and title_line:  # "Cinderpath Systems Interview - Onsite", in the header's first title
            # line or another ("My Interview Experience" over "### Media.net (Directi) Interview Experience …")
            titles = [title_line, *(line for line in content_header[:8]
                                    if line != title_line and _REPORT_TITLE_LINE.match(line[:200]))]
            for line in titles:
                latin = _LATIN_REPORT_COMPANY.match(line.lstrip("# ")[:120])
                if latin and latin["n"].casefold() not in _GENERIC_WORDS and not looks_like_role(latin["n"]):
                    company = latin["n"]
                    break
        if company is None and title_line:
            match = _REPORT_COMPANY.match(title_line[:120])
            if match and not match["n"].isdigit() and match["n"].casefold() not in _GENERIC_WORDS:
                company = match["n"]
        if title is not None and _REPORT_TITLE_LINE.match(title[:200]):
            title = None  # a blog's "title:" is the post's title, not the role
        company = company or interviewed_at(kept) or _name_as_title(content_header[:1])
        title = title or stated_role(kept, looks_like_role, starts_with_place) or review_heading_role(kept, company, looks_like_role)
        if title is None and title_line and company:
            title = _report_role(title_line, company)
        return company, title, location
    if content_header and (company is None or title is None):
        first = content_header[0].lstrip("# ").strip()
        careers = _CAREERS_TITLE.fullmatch(first[:200])
        if careers and company is None:  # "Garmin Careers: Senior Software Engineer - Connectivity"
            company, title = (careers["a"] or careers["b"]).strip(), title or careers["t"].strip()
        parts = [p.strip() for p in _TITLE_SPLIT.split(first[:200]) if p.strip()] if not careers else []
        opening = _opening_employers(parts) if len(parts) == 2 and company is None else []
        if len(opening) == 1:
            # "[社招] 阿里云研发 - Serverless Container": a known employer opens one part (its team's work), the other names the work
            company, title = opening[0], title or TAG_PREFIX.sub("", first).strip()
        elif len(parts) == 2:
            named = [p for p in parts if looks_like_company(p)]
            if not named:  # "Senior CUDA Kernel Engineer — Helix AI": the part that is not a job
                roles = [p for p in parts if looks_like_role(p)]
                if len(roles) == 1:  # … unless it is the role's field ("… - Deep Learning and HPC Communications")
                    named = [p for p in parts if p != roles[0] and not _FIELD_PHRASE.search(p)  # or where it is ("US Remote")
                             and not PLACE.match(p) and not city(p) and not _YEAR_FIRST.match(p)]  # or when ("2025 Start")
            if len(named) == 1:
                role = parts[1] if named[0] == parts[0] else parts[0]
                role = re.sub(r"\s{0,2}[（(][^）)]{1,20}[）)]$", "", role).strip()
                company = company or named[0]
                title = title or role
    names: list[str] = []
    company_line = None
    for index, line in enumerate(content_header[:4]):
        segments = _CITY_SEGMENTS.split(line)
        segments[0] = collapse_repeat(segments[0])  # "AMD AMD · Semiconductors · San Jose, CA"
        if company_line is None and len(segments) >= 2 and not city(segments[0]) and not PLACE.match(segments[0]) and not _META.match(segments[0]) and (
                city(segments[1]) or _META.match(" ".join(segments[1:])) or _is_known(segments[0])):
            location = location or city(segments[1])
            if looks_like_role(segments[0]):  # "GPU Communication Engineer · Remote": the title
                role_line = segments[0].strip()
                if not names or names[-1] != role_line:
                    names.append(role_line)
                continue
            company_line = segments[0].strip()  # "NVIDIA · Santa Clara, CA (On-site)" under the title
            continue
        if is_board_line(line):
            continue
        if not _is_name_line(line):
            if index == 0:
                break
            continue
        if not names or names[-1] != line:  # job boards repeat the title
            names.append(line)
    if company is None and company_line and company_line.casefold() not in JOB_BOARDS:
        company = company_line
    if company is None and len(names) >= 2:
        first, second = names[0], names[1]
        # A company name is short, often a known employer or ends like one; a title names a role.
        if looks_like_company(second) and not looks_like_company(first):
            first, second = second, first
        elif len(names) >= 3 and looks_like_company(names[2]) and not looks_like_company(first):
            first, second = names[2], names[0]
        elif looks_like_role(first) and not looks_like_role(second):
            first, second = second, first
        company, header_title = first, second
    else:
        header_title = next((n for n in names if n != company), None)
    if header_title and page_role and " / " in header_title:  # "加入我们 / 社会招聘 / 研发类": a breadcrumb
        header_title = page_role
    title = title or header_title or page_role or next(  # the title under the board's navigation bar
        (n for n in content_header[1:6] if _is_name_line(n) and not is_board_line(n) and looks_like_role(n)), None)
    if company is not None and is_board_line(company):
        company = None
    if page_company and not plausible_employer(company):  # "加入我们 / 社会招聘 / 研发类" over the page's title
        company = page_company
    if company is None:  # BOSS直聘 and 拉勾 put the employer under the description
        company = next((line for line in [*kept[-40:], *kept[:40]]
                        if 2 <= len(line) <= 30 and not is_board_line(line) and line != title
                        and _COMPANY_SUFFIX.fullmatch(line) and not _SENTENCE_END.fullmatch(line)
                        and not any(c in line for c in "，,。:：、")), None)
    if location is None and location_lines:
        location = location_lines[0] if len(location_lines[0]) <= 60 else None
    return company, title, location or _first_city(content_header[:30])


_ROUND_LINE = re.compile(  # a round's heading ("Technical phone screen:", "一面（60min）") is not a report title
    r"(?:technical\s+|recruiter\s+)?phone\s+screen(?:ing)?\s{0,2}[:：]?\s{0,2}$|"
    r"(?:一|二|三|四|终|hr|技术|主管)\s{0,2}面\s{0,2}(?:[(（][^)）]{0,20}[)）])?\s{0,2}[:：]?\s{0,2}$|"
    r"on-?site\s{0,2}[:：]?\s{0,2}$|" + ROUND_NUMBER + r"\b",
    re.IGNORECASE,
)
_REPORT_TITLE_LINE = re.compile(
    r".{0,80}?(?:面经|面试经验|面试记录|面试复盘|面试总结|一面|二面|三面|终面|hr面|interview|onsite|phone\s+screen|\bloop\b)",
    re.IGNORECASE,
)
_ROLE_CUT = re.compile(
    r"(?:\d{2,4}\s{0,2}(?:届|年)|秋招|春招|暑期|日常|校招|社招|实习生?|intern(?:ship)?|new\s+grad|"
    r"一面|二面|三面|四面|终面|hr面|面经|面试|interview|onsite|phone\s+screen|[（(【\[]|\s[-–—]\s|[|｜:：，])",
    re.IGNORECASE,
)


def _report_role(line: str, company: str) -> str | None:
    """The role a report's title names after the company ("字节跳动 AI Infra 实习 一面面经" → "AI Infra")."""
    at = line.casefold().find(company.casefold())
    if at < 0:
        return None
    rest = line[at + len(company): at + len(company) + 120].strip(" 【】[]()（）-–—|｜:：,，")
    unit = _UNIT.match(rest)
    if unit and looks_like_role(rest[unit.end():unit.end() + 60]):  # "腾讯TEG, 后台开发实习", "商汤大装置 系统研发"
        rest = rest[unit.end():]
    cut = _ROLE_CUT.search(rest)
    end = cut.start() if cut else len(rest)
    if cut and rest[end] in "(（" and looks_like_role(rest[:end]):  # "Production Engineer (AI Network Infra)"
        close = _PAREN_CLOSE.match(rest, end)
        end = close.end() if close else end
    role = without_level(rest[:end].strip(" -–—|｜:：,，"))
    return role if 2 <= len(role) <= 60 else None


#: A business unit between the employer and the role ("TEG", "大装置", "CSIG"), then a separator.
_UNIT = re.compile(r"(?:[A-Z]{2,5}|[\u4e00-\u9fff]{2,4})\s{0,2}[,，|｜\-–—·\s]\s{0,2}")
_PAREN_CLOSE = re.compile(r"[(（](?![^)）]{0,30}(?:面|interview|intern|实习|社招|校招|届))[^)）]{1,30}[)）]", re.IGNORECASE)


_ROLE_WORD = re.compile(
    r"(?:engineer|developer|scientist|architect|manager|researcher|specialist|analyst|intern|programmer|"
    r"designer|consultant|director|technician|administrator|\bsre\b|\blead\b|工程师|开发|研发|架构师|研究员|"
    r"专家|实习生|经理|算法|负责人|程序员|[^\s]{1,8}岗(?:位)?$)",
    re.IGNORECASE,
)


#: A header's guess that is no employer's name: a path of section labels, a job number, a mail
#: service, a role, a padded line ("加入我们 / 社会招聘 / 研发类", "Gmail", "深圳技术-后端社招职位编号 …"),
#: a site's own buttons ("关注微信 意见反馈", "Role details").
_NOT_EMPLOYER = re.compile(r"/|\s{3}|\s=\s|\w@\w|职位编号|编号|招聘|招人|诚聘|内推|岗位说明|\S[-–—]\S+[-–—]\S|^(?:gmail|outlook|compose)$|"
                          r"关注|微信|公众号|意见反馈|扫码|扫描|帮助中心|登录|注册|^(?:role|job)\s+details$", re.IGNORECASE)


def plausible_employer(name: str | None) -> bool:
    """Whether a name the header gave can be the employer (else the document's recurring organisation is taken)."""
    return (name is not None and is_organisation_name(name) and len(name) <= 40 and not _NOT_EMPLOYER.search(name)
            and name.casefold() not in JOB_BOARDS and not looks_like_role(name) and not _page_furniture(name))


def _page_furniture(name: str) -> bool:
    """A page's decoration read as text: an emoji-led section label ("📍 Job Overview") or an
    icon's alternative text ("Location pin icon")."""
    return unicodedata.category(name[:1]) == "So" or name.casefold().endswith(" icon")


def looks_like_role(name: str) -> bool:
    """Whether a short line names a job (an engineer, 工程师 ...) rather than an employer."""
    return len(name) <= 120 and bool(_ROLE_WORD.search(name[:120])) and known_company(name) != name


def looks_like_company(name: str) -> bool:
    """Whether ``name`` is a known company or ends as an organisation's name does (科技, Inc., Labs)."""
    return known_company(name) == name or bool(_COMPANY_SUFFIX.fullmatch(name[:80]))


def _first_city(lines: Sequence[str]) -> str | None:
    return next((c for c in map(city, lines[:30]) if c), None)
