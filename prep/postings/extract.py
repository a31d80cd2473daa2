"""Extract company, title, location, sections, skills and interview questions from a posting.

The input is the plain text of a job posting as users bring it: copied from a job board (page
furniture included), a recruiter's e-mail, a saved page reduced to text by
:mod:`prep.postings.decode`. The pipeline is line-based:

1. Lines are split into a *header* (everything before the first recognised section heading) and
   *sections*. A heading is a line that, once numbering, Markdown ``#``/``**`` and a trailing
   colon are removed, is a known section name (职位描述, 任职要求, Responsibilities, ...) or
   matches the interview / noise patterns; ``Heading: text`` on one line also counts.
2. Noise sections (英伟达 的其他在招职位, 相似职位推荐, Similar jobs, More jobs at ...) and
   their lines are dropped until the next real heading, as is page furniture (Watch Jobs, 分享...).
3. Skills are the taxonomy's canonical names found in the kept text, first mention first.
4. Questions are the asking lines of interview sections (面试指南, 常见面试题, Interview
   questions, ...): a line that ends in ``?``/``？`` or opens with an asking or imperative verb
   (请解释, 如何, 描述, Explain, How, Walk us through, ...), but not an advice line (复习...,
   对于..., Review..., Be ready..., Tips: ...). The text is kept exactly as written, minus list
   markers (``- ``, ``1、``, ``2.``, ``(3)``, ``①`` ...).
5. Company, title and location come from labels (``公司：``, ``Location:`` ...), a location
   section, or the job-board header layout: company on the first line, title on the next, a city
   line further down.

:func:`extract_posting` never raises on a ``str`` and is deterministic. Pure module: no Flask,
no database.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from prep.skills.taxonomy import Taxonomy, load_taxonomy

# ---------------------------------------------------------------------------------------------
# Result types


#: Question kinds, in the order the review checklist groups them.
KINDS = ("concept", "coding", "design", "behavioural")
#: What a document is: a job posting, or an interview report (面经, a Glassdoor-style review).
DOC_KINDS = ("posting", "report")
#: Below this confidence a question is shown unticked in the review checklist.
UNCERTAIN_BELOW = 0.6
#: At most this many questions are taken from one document; the rest are counted in ``truncated``.
MAX_QUESTIONS = 200


@dataclass(frozen=True)
class Question:
    """An interview question as written in the document, and where it came from.

    ``section`` is the heading (or round) it was found under; ``kind`` one of :data:`KINDS`;
    ``round`` the interview round of a report (一面, Round 2, phone screen ...) or None;
    ``confidence`` in [0, 1] how sure the engine is that the line is a question.
    """

    text: str
    section: str
    kind: str = "concept"
    round: str | None = None
    confidence: float = 1.0


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
# Section headings

_CONTENT_HEADINGS = """
职位详情 职位描述 岗位描述 职位介绍 岗位介绍 工作描述 职位信息 岗位信息 关于这个职位 关于职位 关于岗位
职位概述 岗位概述 职位亮点 岗位亮点
最低要求 任职要求 岗位要求 任职资格 职位要求 基本要求 基本资格 资格要求 必备条件 我们希望你 任职条件
工作职责 岗位职责 职责描述 主要职责 工作内容 职位职责 你将负责 你的职责 你将要做的
优先资格 加分项 加分条件 优先条件 优先考虑 更好的资格 额外加分 加分技能
技术栈 技能要求 技能标签 职位标签
福利待遇 薪资福利待遇 我们提供 公司福利 公司介绍 公司简介 团队介绍 关于我们 关于团队 工作地点 工作城市 办公地点
AI洞察 优缺点分析 角色解读 申请策略 投递建议 求职建议 匹配度报告 职位点评
About the role|About this role|About the job|About the position|About us|About the team|About the company
Job description|Description|Overview|Role overview|Position overview|Summary|The role|Your role|Job summary
Responsibilities|Key responsibilities|Main responsibilities|What you'll do|What you will do|What you’ll be doing
What you'll be doing|What you will be doing|Your responsibilities|Duties|Your mission
Requirements|Minimum qualifications|Basic qualifications|Qualifications|Required qualifications
What we need to see|What you need|What you'll need|What you bring|Who you are|Must have|Must-haves
Preferred qualifications|Nice to have|Nice-to-have|Nice to haves|Bonus points|Bonus|Pluses|Preferred skills
Ways to stand out from the crowd|Skills|Tech stack|Technical skills|Technologies|Our stack
Benefits|Perks|What we offer|Compensation|Salary|Location|Work location|Application tips|How to apply
"""
_LOCATION_SECTIONS = {"工作地点", "工作城市", "办公地点", "location", "worklocation"}
_INTERVIEW_HEADINGS = re.compile(
    r"(?:常见|高频|典型|可能的?|模拟|参考|经典|推荐|热门|技术|历年)?面试(?:指南|指导|题|题目|问题|准备|真题|题库|"
    r"参考|攻略|考点|技巧|经验|提示|建议|环节|流程|参考题)?|面经|可能被问到的问题|"
    r"(?:(?:sample|common|typical|likely|possible|practice|example|expected|potential|technical|"
    r"frequently asked|top|behavioral|behavioural)\s+)?interview(?:\s+(?:questions?|preparation|prep|guide|"
    r"tips|process|questions and answers|q&a))?|"
    r"(?:sample|common|typical|likely|possible|practice|example|expected|potential)\s+questions|"
    r"questions?\s+(?:you\s+(?:may|might|could)\s+be\s+asked|to\s+expect)|"
    r"(?:how to prepare|preparing)(?:\s+for\s+(?:the|your|an)\s+interview)?",
    re.IGNORECASE,
)
_NOISE_HEADINGS = re.compile(
    r".{0,30}?的?(?:其他|其它)(?:在招)?(?:职位|岗位)(?:推荐)?|"
    r"(?:相似|相关|类似|推荐|热门|更多|附近)(?:的)?(?:职位|岗位)(?:推荐)?|(?:职位|岗位)推荐|猜你喜欢|"
    r"看过(?:该|此|这个)?(?:职位|岗位)的人还看了|大家都在看|"
    r"(?:similar|related|recommended|other|more)\s+(?:jobs|positions|roles|openings|opportunities)"
    r"(?:\s+(?:at|from|for|like\s+this)\b.{0,40})?|"
    r"(?:jobs|positions|roles)\s+you\s+(?:may|might)\s+(?:also\s+)?like|people\s+also\s+viewed|"
    r"you\s+may\s+also\s+like|recommended\s+for\s+you|more\s+jobs?\s+(?:at|from|like\s+this)\b.{0,40}",
    re.IGNORECASE,
)
_HEADING_DECOR = re.compile(
    r"^(?:#{1,6}\s*)?(?:\*\*|__)?[【\[「『]?\s*"
    r"(?:[一二三四五六七八九十]{1,3}\s*[、.．]|\d{1,2}\s*[、.．)）]|[（(]\s*[一二三四五六七八九十\d]{1,3}\s*[)）])?\s*"
)
_HEADING_TAIL = re.compile(r"\s*[】\]」』]?\s*(?:\*\*|__)?\s*[:：]?\s*(?:\*\*|__)?\s*$")
_INLINE_HEADING = re.compile(r"^(?P<head>[^:：]{1,30}?)\s*[:：]\s*(?P<rest>\S.*)$")
_MAX_HEADING_CHARS = 40


def _heading_key(text: str) -> str:
    return re.sub(r"\s+", "", text.casefold().replace("’", "'"))


_HEADING_KEYS: frozenset[str] = frozenset(
    _heading_key(name)
    for line in _CONTENT_HEADINGS.strip().splitlines()
    for name in (line.split("|") if "|" in line else line.split())
)

_CONTENT, _INTERVIEW, _NOISE = "content", "interview", "noise"


def _classify_heading(name: str) -> str | None:
    """The kind of heading ``name`` (already undecorated) is, or None if it is not one."""
    if not name or len(name) > _MAX_HEADING_CHARS:
        return None
    spaced = " ".join(name.split())
    if _INTERVIEW_HEADINGS.fullmatch(spaced):
        return _INTERVIEW
    if _heading_key(name) in _HEADING_KEYS:
        return _CONTENT
    if _NOISE_HEADINGS.fullmatch(spaced):
        return _NOISE
    return None


def _match_heading(line: str) -> tuple[str, str, str] | None:
    """``(section name, kind, rest of the line)`` if ``line`` is a section heading, else None."""
    if len(line) > 200:
        return None
    name = _HEADING_TAIL.sub("", _HEADING_DECOR.sub("", line, count=1), count=1).strip()
    kind = _classify_heading(name)
    if kind:
        return name, kind, ""
    inline = _INLINE_HEADING.match(line)
    if inline:
        name = _HEADING_TAIL.sub("", _HEADING_DECOR.sub("", inline["head"], count=1)).strip()
        kind = _classify_heading(name)
        if kind:
            return name, kind, inline["rest"].strip()
    return None


_FURNITURE = frozenset(
    """watch jobs|举报|举报该职位|分享|收藏|立即申请|立即沟通|投递简历|apply|apply now|easy apply|save|save job|
    share|report job|report this job|sign in|登录|注册|返回顶部|back to top|查看更多|show more|see more|展开全部|
    收起|展开""".replace("\n", "").replace("    ", "").split("|")
)

# ---------------------------------------------------------------------------------------------
# Questions

_LIST_MARKER = re.compile(
    r"^(?:"
    r"[-–—•·●○◦▪▫■□◆◇►▶➤✓✔*+]\s*"
    r"|(?:Q|问题|题目)\s*\d{0,3}\s*[:：.．、)）]\s*"
    r"|\d{1,3}\s*(?:[、)）:：]|[.．](?!\d))\s*"
    r"|[（(]\s*(?:\d{1,3}|[一二三四五六七八九十]{1,3})\s*[)）]\s*"
    r"|[\u2460-\u2473\u2474-\u2487\u2488-\u249b\u3251-\u325f]\s*"
    r"|[一二三四五六七八九十]{1,3}\s*[、.．)）]\s*"
    r"|[a-zA-Z][.)]\s+"
    r")"
)
_ENDS_WITH_QUESTION_MARK = re.compile(r"[?？]\s*(?:[（(][^()（）]{0,60}[)）])?[\s\"'”’」』)）\]*]*$")
_SUBHEADING = re.compile(r"[:：]\s*$")
_TIP_LABEL = re.compile(r"^(?:tips?|note|hint|提示|建议|注意|小贴士|技巧)\s*[:：]", re.IGNORECASE)
_ADVICE = re.compile(
    r"^(?:复习|回顾|了解|准备|采用|对于|注意|建议|提前|熟悉|掌握|重点|确保|尝试|保持|多练|多做|练习|刷题|面试前|"
    r"面试时|面试中|提示|技巧|可以|务必|记得|突出|强调|展示|结合|关注|学习|阅读|温习|巩固|梳理|总结|"
    r"review|be\s+ready|be\s+prepared|tips?\b|prepare|brush\s+up|practi[cs]e|study|make\s+sure|expect|"
    r"focus|remember|read|familiari[sz]e|know\b|note\b|consider|use\b|try\b|bring|highlight|emphasi[sz]e|"
    r"show|research|revisit|refresh|get\s+familiar|think\s+about|keep|avoid|don'?t|do\s+not|spend|learn|"
    r"understand|dig\s+into|go\s+over)",
    re.IGNORECASE,
)
_ASKING = re.compile(
    r"^(?:请(?:解释|描述|说明|谈谈|介绍|比较|举例|列举|分析|设计|实现|写出|简述|阐述|讲讲|说说|回答|推导|给出|画出|"
    r"问)|如何|怎样|怎么|描述|解释|什么是|什么叫|为什么|为何|谈谈|说说|讲讲|聊聊|说明|比较|对比|介绍|举例|列举|"
    r"分析|设计|实现|手写|简述|阐述|论述|概述|推导|能否|是否|哪些|有哪些|"
    r"你(?:如何|会如何|怎么|是如何|会怎么|怎样|能否|是否|有没有|了解|知道|对)|"
    r"(?:explain|how|what|what's|when|why|where|which|who|describe|compare|contrast|discuss|design|implement|"
    r"write|define|outline|suppose|imagine|estimate|derive|sketch|summari[sz]e|list|diagnose|debug|"
    r"optimi[sz]e|analy[sz]e)\b|walk\s+(?:us|me)\s+through|tell\s+(?:us|me)\b|talk\s+(?:us\s+|me\s+)?"
    r"(?:about|through)|give\s+(?:an?\s+)?examples?|can\s+you|could\s+you|would\s+you|have\s+you|do\s+you|"
    r"in\s+what\s+way)",
    re.IGNORECASE,
)
_BOLD = re.compile(r"^(\*\*|__)(.+)\1$")


def strip_list_marker(line: str) -> str:
    """``line`` without its list marker(s) (``- ``, ``1、``, ``2.``, ``(3)``, ``①``, ``Q1:`` ...)."""
    text = line.strip()
    bold = _BOLD.match(text)
    if bold:
        text = bold.group(2).strip()
    for _ in range(2):  # "- 1. question" from an HTML list item
        stripped = _LIST_MARKER.sub("", text, count=1).strip()
        if stripped == text:
            break
        text = stripped
    bold = _BOLD.match(text)
    return bold.group(2).strip() if bold else text


def question_text(line: str) -> str | None:
    """The question in an interview-section line (marker removed), or None if it asks nothing."""
    text = strip_list_marker(line)
    if len(text) < 4 or _SUBHEADING.search(text) or _TIP_LABEL.match(text):
        return None
    if _ENDS_WITH_QUESTION_MARK.search(text):
        return text
    if _ADVICE.match(text):
        return None
    return text if _ASKING.match(text) else None


# ---------------------------------------------------------------------------------------------
# Company, title, location

_LABELS = {
    "company": re.compile(
        r"^(?:公司名称|公司|企业名称|企业|招聘公司|雇主|company|employer|organi[sz]ation)\s*[:：]\s*(?P<v>\S.{0,79})$",
        re.IGNORECASE,
    ),
    "title": re.compile(
        r"^(?:职位名称|职位|岗位名称|岗位|招聘职位|招聘岗位|job\s+title|position|title|role)\s*[:：]\s*(?P<v>\S.{0,99})$",
        re.IGNORECASE,
    ),
    "location": re.compile(
        r"^(?:工作地点|工作城市|办公地点|工作地址|地点|城市|location|work\s+location|office|based\s+in)"
        r"\s*[:：]\s*(?P<v>\S.{0,79})$",
        re.IGNORECASE,
    ),
}
_ANY_LABEL = re.compile(r"^[^:：]{1,20}[:：]")
_SENTENCE_END = re.compile(r"[。.!！?？;；]$")
_META = re.compile(
    r"^(?:发布于|更新于|posted|updated|reposted)|(?:小时|分钟|天|周|月)前|\b(?:ago|today|yesterday)\b|"
    r"估算|薪资|月薪|年薪|\d+\s*[kK万千]\s*[-–~]|[¥$€£]\s*\d",
    re.IGNORECASE,
)
_CITIES_ZH = frozenset(
    "北京 上海 深圳 广州 杭州 成都 南京 武汉 西安 苏州 合肥 天津 重庆 长沙 厦门 青岛 大连 济南 郑州 沈阳 珠海 东莞 "
    "无锡 宁波 福州 昆明 佛山 常州 南昌 贵阳 哈尔滨 长春 石家庄 太原 南宁 海口 三亚 兰州 乌鲁木齐 呼和浩特 拉萨 "
    "香港 澳门 台北 新竹 台中 高雄 新加坡 东京 首尔 硅谷 远程 雄安".split()
)
_CITIES_EN = frozenset(
    c.casefold()
    for c in (
        "Beijing|Shanghai|Shenzhen|Guangzhou|Hangzhou|Chengdu|Nanjing|Wuhan|Xi'an|Xian|Suzhou|Hefei|Tianjin|"
        "Chongqing|Hong Kong|Taipei|Hsinchu|Singapore|Tokyo|Seoul|Bangalore|Bengaluru|Pune|Hyderabad|"
        "Santa Clara|San Jose|San Francisco|Mountain View|Sunnyvale|Palo Alto|Seattle|Redmond|Austin|Boston|"
        "New York|London|Cambridge|Munich|Berlin|Paris|Zurich|Tel Aviv|Yokneam|Toronto|Remote"
    ).split("|")
)
_CITY_SEGMENTS = re.compile(r"\s*[·•|｜]\s*")


def _city(line: str) -> str | None:
    """The location a header line states (``北京市``, ``上海 · 后端开发``, ``Santa Clara, CA``)."""
    if len(line) > 60:
        return None
    first = _CITY_SEGMENTS.split(line, maxsplit=1)[0].strip()
    if not first:
        return None
    zh = first.removesuffix("市")
    if zh in _CITIES_ZH or (len(first) <= 12 and any(first.startswith(c + "市") for c in _CITIES_ZH)):
        return first
    head = re.split(r"\s*[,，]\s*", first, maxsplit=1)[0]
    if head.casefold() in _CITIES_EN and len(first) <= 40:
        return first
    return None


def _is_name_line(line: str) -> bool:
    """Whether a header line can be a company name or a job title."""
    return (
        len(line) <= 80
        and not _SENTENCE_END.search(line)
        and not _ANY_LABEL.match(line)
        and not _META.search(line)
        and _city(line) is None
    )


def _identity(
    header: list[str], kept: list[str], sections: dict[str, list[str]]
) -> tuple[str | None, str | None, str | None]:
    """``(company, title, location)`` from labels, a location section, then the header layout."""
    found: dict[str, str] = {}
    for line in kept[:400]:
        for key, pattern in _LABELS.items():
            if key not in found:
                match = pattern.match(line)
                if match:
                    found[key] = match["v"].strip()
    names: list[str] = []
    for line in header[:3]:
        if not _is_name_line(line):
            break
        if not names or names[-1] != line:  # job boards repeat the title
            names.append(line)
    company = found.get("company")
    title = found.get("title")
    if company is None and len(names) >= 2:
        company, header_title = names[0], names[1]
    else:
        header_title = next((n for n in names if n != company), None)
    title = title or header_title
    location = found.get("location")
    if location is None:
        for name, lines in sections.items():
            if _heading_key(name) in _LOCATION_SECTIONS and lines and len(lines[0]) <= 60:
                location = strip_list_marker(lines[0])
                break
    if location is None:
        location = next((c for c in map(_city, header[:30]) if c), None)
    return company, title, location


# ---------------------------------------------------------------------------------------------
# The pipeline


def extract_posting(text: str, taxonomy: Taxonomy | None = None) -> ExtractionResult:
    """Extract company, title, location, sections, skills and questions from posting ``text``.

    Pure and deterministic; never raises on a ``str``. ``taxonomy`` defaults to the shipped one.
    """
    taxonomy = taxonomy or load_taxonomy()
    header: list[str] = []
    kept: list[str] = []
    sections: dict[str, list[str]] = {}
    questions: dict[str, Question] = {}
    current: str | None = None
    kind: str | None = None
    recognised = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.casefold() in _FURNITURE:
            continue
        heading = _match_heading(line)
        if heading:
            name, kind, rest = heading
            if kind == _NOISE:
                current = None
                continue
            recognised = True
            current = name
            sections.setdefault(name, [])
            kept.append(line)
            if not rest:
                continue
            line = rest
        elif kind == _NOISE:
            continue
        if current is None:
            header.append(line)
            kept.append(line)
            continue
        sections[current].append(line)
        if heading is None:
            kept.append(line)
        if kind == _INTERVIEW:
            asked = question_text(line)
            if asked and asked not in questions:
                questions[asked] = Question(text=asked, section=current)
    company, title, location = _identity(header, kept, sections)
    return ExtractionResult(
        company=company,
        title=title,
        location=location,
        sections={name: "\n".join(lines) for name, lines in sections.items() if lines},
        skills=taxonomy.find_skills("\n".join(kept)),
        questions=list(questions.values()),
        recognised_sections=recognised,
    )
