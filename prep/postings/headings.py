"""Stage 1 of extraction: which lines are section headings, and of what kind.

A heading is a line that, once numbering, Markdown ``#``/``**`` and a trailing colon are removed
(:func:`undecorate`), is a known section name (职位描述, 任职要求, Responsibilities, ...) or
matches the interview / noise patterns; ``Heading: text`` on one line also counts
(:func:`match_heading`). Unknown headings (``## Something``, ``**Something**``, ``【…】``) are
recognised by their shape (:func:`generic_heading`). Also the page furniture lines dropped
before anything else (Watch Jobs, 分享...).

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re

_REQUIRED = """最低要求 任职要求 岗位要求 任职资格 职位要求 基本要求 基本资格 资格要求 必备条件 我们希望你 任职条件 技能要求 硬性要求
Requirements|Minimum qualifications|Basic qualifications|Qualifications|Required qualifications|Required skills
What we need to see|What you need|What you'll need|What you bring|Who you are|Must have|Must-haves|Requirements and skills
You have|You should have|What we're looking for|What we are looking for|About you"""
_RESPONSIBILITIES = """工作职责 岗位职责 职责描述 主要职责 工作内容 职位职责 你将负责 你的职责 你将要做的 职位描述 岗位描述 工作描述
Responsibilities|Key responsibilities|Main responsibilities|What you'll do|What you will do|What you’ll be doing
What you'll be doing|What you will be doing|What your day will look like|Your responsibilities|Duties|Your mission|In this role you will
Job description|Description|The role|Your role|About the role|About this role|About the job|About job|About the position
Essential functions|Essential duties|Key duties|Duties and responsibilities"""
_NICE = """优先资格 加分项 加分条件 优先条件 优先考虑 更好的资格 额外加分 加分技能 优先 加分
Preferred qualifications|Nice to have|Nice-to-have|Nice to haves|Bonus points|Bonus|Pluses|Preferred skills
Ways to stand out from the crowd|Preferred|Good to have|It's a plus if|Extra credit|Desired qualifications|Desired skills
Desirable qualifications|Desirable skills|Additional qualifications|Preferred experience|Desired experience"""
_OTHER = """职位详情 职位介绍 岗位介绍 职位信息 岗位信息 关于这个职位 关于职位 关于岗位 职位概述 岗位概述 职位亮点 岗位亮点
技术栈 技能标签 职位标签 福利待遇 薪资福利待遇 我们提供 公司福利 公司介绍 公司简介 公司信息 工商信息 团队介绍 关于我们 关于团队
工作地点 工作城市 办公地点 AI洞察 优缺点分析 角色解读 申请策略 投递建议 求职建议 匹配度报告 职位点评 职位福利 福利 薪资
About us|About the team|About the company|Overview|Role overview|Position overview|Summary|Job summary
Skills|Tech stack|Technical skills|Technologies|Our stack|Benefits|Perks|What we offer|Compensation|Salary
Location|Work location|Application tips|How to apply|Equal opportunity|EEO statement|Why join us|Why us
What's in it for you|What we offer you|Why work with us|Why you'll love working here|Life at the company
Our team|The team|Who we are|Pay range|Base pay range|Additional information
Timing|Timeline|时间线|时间轴|面试时间线|投递时间线|Offer Letter|Next Step|Next steps|TL;DR"""
LOCATION_SECTIONS = {"工作地点", "工作城市", "办公地点", "location", "worklocation"}
_INTERVIEW_HEADINGS = re.compile(
    r"(?:常见|高频|典型|可能的?|模拟|参考|经典|推荐|热门|技术|历年)?面试(?:指南|指导|题|题目|问题|准备|真题|题库|"
    r"参考|攻略|考点|技巧|经验|提示|建议|环节|流程|过程|经过|(?:细节)?回顾|复盘|记录|参考题|可能会?问到?的?(?:问题)?|会问|常问|重点|内容|范围|要点)?|"
    r"面经|可能被问到的问题|高频考点|考点|笔试(?:题|题目|真题|题型|内容|范围)?|机试(?:题|题目)?|考察(?:点|内容|重点|方向)?|我们会考察|技术面重点|技术面|面试会聊什么|"
    r"(?:面试|技术面|笔试)?(?:会|可能)?(?:聊|问|考)(?:什么|些什么|哪些)|常见问题|问题清单|题目|真题|八股|"
    r"(?:(?:sample|common|typical|likely|possible|practice|example|expected|potential|technical|"
    r"frequently asked|top|behavioral|behavioural|coding|system design)\s+)?interview(?:\s+(?:questions?|preparation|"
    r"prep|guide|tips|topics|focus|areas|questions and answers|q&a))?|"
    r"(?:sample|common|typical|likely|possible|practice|example|expected|potential|technical|coding|design)\s+"
    r"(?:questions|topics|problems)|topics\s+(?:we|we'll|we\s+will|you)\s+.{0,30}|"
    r"what\s+(?:we'll|we\s+will|we)\s+(?:ask|discuss|cover|talk\s+about)(?:\s+.{0,30})?|"
    r"in\s+the\s+interview.{0,50}|questions?\s+(?:you\s+(?:may|might|could|will)\s+be\s+asked|to\s+expect|we\s+ask)|"
    r"expect\s+(?:questions|to\s+be\s+asked)(?:\s+(?:around|on|about|like|such\s+as|covering))?|"
    r"(?:how to prepare|preparing)(?:\s+for\s+(?:the|your|an)\s+interview)?|"
    r"how\s+we\s+interview|(?:our|the)\s+(?:interview(?:ing)?|selection|hiring)\s+(?:process|loop)|(?:the\s+)?selection\s+process|(?:the\s+)?(?:kinds?|types?|examples?)\s+of\s+(?:questions|prompts)(?:\s+.{0,30})?|"
    r"topics\s+(?:to\s+(?:expect|prepare)|for\s+(?:the\s+)?interviews?)|"
    # what a report says was asked: "Topics used in the interviews", "Questions I was asked", "What they asked"
    r"(?:topics|questions|problems)\s+(?:(?:that\s+were\s+|i\s+was\s+|we\s+were\s+)?(?:used|asked|covered|discussed))"
    r"(?:\s+(?:in|during)\s+(?:the|my|each)\s+(?:interviews?|rounds?))?|what\s+(?:they|the\s+interviewers?|was)\s+asked|"
    r".{0,8}(?:面试|笔试|技术面|面谈).{0,4}(?:考察|考点|考题|题|问题|方向|内容|重点|范围|会问|常问|问什么|聊).{0,6}",
    re.IGNORECASE,
)
_NOISE_HEADINGS = re.compile(
    r".{0,30}?的?(?:其他|其它)(?:在招)?(?:职位|岗位)(?:推荐)?|"
    r"(?:相似|相关|类似|推荐|热门|更多|附近|最新|精选)(?:的)?(?:职位|岗位|面经|帖子|文章|讨论|推荐|阅读|内容|话题)?"
    r"(?:推荐|列表)?|(?:职位|岗位)推荐|猜你喜欢|看过(?:该|此|这个)?(?:职位|岗位|帖子)的人还看了|大家都在看|"
    r"(?:全部)?评论(?:区)?(?:\s*[(（]?(?:共\s{0,2})?\d{1,6}\s{0,2}条?[)）]?)?|\d{1,6}\s*条(?:评论|回复)|回复|热门(?:评论|回答)|"
    r"相关|相关阅读|延伸阅读|推荐阅读|related|see\s+also|also\s+read|read\s+next|"
    r"(?:similar|related|recommended|other|more|popular|trending|latest|top)\s+(?:jobs|positions|roles|openings|"
    r"opportunities|posts|discussions|articles|threads|questions|interviews|reading)"
    r"(?:\s+(?:at|from|for|like\s+this|on)\b.{0,40})?|"
    r"(?:jobs|positions|roles)\s+you\s+(?:may|might)\s+(?:also\s+)?like|people\s+also\s+(?:viewed|asked|read)|"
    r"you\s+may\s+also\s+like|recommended\s+for\s+you|more\s+jobs?\s+(?:at|from|like\s+this)\b.{0,40}|"
    r"(?:\d{1,6}\s+)?(?:comments?|replies)(?:\s*[(（]?\d{1,6}[)）]?)?|discussion|leave\s+a\s+(?:comment|reply)|"
    r"add\s+a\s+comment|(?:other|more|related|similar)\s+interview\s+(?:reviews|questions|experiences)(?:\s+(?:for|at)\b.{0,40})?|"
    r"footer|site\s+map|sitemap|navigation|cookie\s+(?:settings|preferences|policy)|"
    r"faqs?|frequently\s+asked\s+questions|help(?:\s+cent(?:er|re))?|support|帮助中心|常见问题解答|投递问题|"
    r"(?:校园)?招聘常见问题|application\s+faqs?",
    re.IGNORECASE,
)
#: A heading that says what the hire will do, in words of its own ("The candidate will be reponsible
#: for the following tasks": a page's typo too).
_DUTIES_PHRASE = re.compile(r"(?:the\s+)?(?:candidate|engineer|hire|person|you)\s+will\s+be\s+res?ponsible\s+for\b.{0,40}",
                            re.IGNORECASE)
_ADVICE_HEADINGS = re.compile(
    r"(?:(?:some|general|final|bonus|quick|my|interview|preparation|prep)\s+){0,2}(?:tips|advice)(?:\s+(?:and|&)\s+tricks)?"
    r"(?:\s+(?:for|on|before)\s+.{0,40})?|面试(?:技巧|建议|小贴士)|(?:给.{0,8}的)?(?:一些)?(?:建议|小贴士)|"
    r".{0,20}(?:自查|检查)清单|(?:self[- ]?)?check\s?list|cheat\s?sheet",
    re.IGNORECASE,
)
_HEADING_DECOR = re.compile(
    r"(?:#{1,6}\s{0,3})?[\u2190-\u21ff\u25a0-\u25ff\u2600-\u27bf\U0001f000-\U0001faff\ufe0f]{0,3}\s{0,2}"
    r"(?:\*\*|__)?[【\[「『]?\s{0,3}"
    r"(?:[一二三四五六七八九十]{1,3}\s{0,2}[、.．]|\d{1,2}\s{0,2}[、.．)）]|[（(]\s{0,2}[一二三四五六七八九十\d]{1,3}\s{0,2}[)）])?"
    r"\s{0,3}"
)
HEADING_TRAILERS = " \t:：*_】]」』"
_GENERIC_HEADING = re.compile(r"(?:#{1,6}\s{1,3}.{1,60}|(?:\*\*|__).{1,60}(?:\*\*|__)[:：]?|[【\[].{1,40}[】\]][:：]?|"
                              r"[^\s:：。.!！?？]{1,30}[:：])")
_MAX_HEADING_CHARS = 40
# "**1）RoCEv2 报文格式说一下？**", "**Q3: …?**": a numbered or asking item set in bold, not a heading.
_BOLD_ITEM = re.compile(r"(?:\*\*|__)\s{0,2}(?:(?:q|问题|题)?\s{0,2}\d{1,2}\s{0,2}[)）.、:：]|.{1,60}[?？]\s{0,2}(?:\*\*|__)$)",
                        re.IGNORECASE)


def heading_key(text: str) -> str:
    """A heading name as looked up: case-folded, without whitespace, with a plain apostrophe."""
    return "".join(text.casefold().replace("’", "'").split())


def _keys(block: str) -> frozenset[str]:
    return frozenset(
        heading_key(name)
        for line in block.strip().splitlines()
        for name in (line.split("|") if "|" in line else line.split())
    )


_SECTION_KINDS = {"required": _keys(_REQUIRED), "responsibilities": _keys(_RESPONSIBILITIES),
                  "nice": _keys(_NICE), "content": _keys(_OTHER)}
#: Kinds of block besides the section kinds above (see :mod:`.segment`).
#: A heading over an answer ("参考答案", "Sample Answer", "Solution"): its lines answer, they do not ask.
ANSWER_HEADING = re.compile(r"(?:(?:参考)?答案(?:提示|要点|示例|解析)?|解答|解析|(?:核心|解题)?思路|我的回答|参考回答|答题要点|回答要点|解决(?:方法|步骤|思路|方案)|解法|"
                             r"(?:(?:sample|example|model|reference|expected|suggested|ideal|strong|good)\s+)?answers?|"
                             r"solution|my\s+answer|approach|"
                             # what an interviewer's guide expects of the answer ("Expected Discussion Points",
                             # "Red Flags", "What good looks like", "评分标准")
                             r"expected(?:\s+(?:discussion\s+)?(?:points|topics|response))?|(?:red|green|yellow)\s+flags|"
                             r"what\s+(?:good|great)\s+looks\s+like|evaluation\s+criteria|scoring(?:\s+rubric)?|rubric|"
                             r"评分标准|扣分项)(?:\s{0,2}[（(][^()（）]{1,30}[)）])?",  # ("Model Answer (60-90 seconds)")
                             re.IGNORECASE)

CONTENT, INTERVIEW, NOISE, ROUND_KIND, GENERIC = "content", "interview", "noise", "round", "generic"


def classify_heading(name: str) -> str | None:
    """The kind of heading ``name`` (already undecorated) is, or None if it is not one."""
    if name and len(name) <= 2 * _MAX_HEADING_CHARS and _DUTIES_PHRASE.fullmatch(" ".join(name.split())):
        return "responsibilities"  # "The candidate will be responsible for the following tasks"
    if not name or len(name) > _MAX_HEADING_CHARS:
        return None
    key = heading_key(name)
    for kind, keys in _SECTION_KINDS.items():
        if key in keys:
            return kind
    spaced = " ".join(name.split())
    if _INTERVIEW_HEADINGS.fullmatch(spaced):
        return INTERVIEW
    if _NOISE_HEADINGS.fullmatch(spaced):
        return NOISE
    bare = _TRAILING_NOTE.sub("", name)  # "技术面重点（HR 整理，供参考）"
    if bare and bare != name:
        return classify_heading(bare)
    return None


_TRAILING_NOTE = re.compile(r"\s{0,2}[（(][^（()）]{1,30}[)）]\s{0,2}$")


def undecorate(line: str) -> str:
    """A heading line without its numbering, Markdown/bracket decoration and trailing colon."""
    name = line[_HEADING_DECOR.match(line).end():]
    return name.rstrip(HEADING_TRAILERS).strip()


def first_colon(text: str, start: int, end: int) -> int:
    """The index of the first colon (":" or "：") of ``text[start:end]`` past its first character, or -1."""
    return min((i for i in (text.find(":", start, end), text.find("：", start, end)) if i > 0), default=-1)


def match_heading(line: str) -> tuple[str, str, str] | None:
    """``(section name, kind, rest of the line)`` if ``line`` is a section heading, else None."""
    if len(line) <= 80:
        name = undecorate(line)
        if _ADVICE_HEADINGS.fullmatch(" ".join(name.split())):
            return name, NOISE, ""  # a section of advice ("Tips and Tricks for Interview Preparation", "面试建议"),
            # not a line of it ("Tips: focus on fundamentals")
        kind = classify_heading(name.rstrip("?？"))
        if kind:
            return name, kind, ""
    colon = first_colon(line, 0, 34)
    if colon > 0:
        name = undecorate(line[:colon])
        kind = classify_heading(name)
        rest = line[colon + 1:].strip()
        if kind and rest:
            return name, kind, rest
        if _MARKUP_HEADING.match(line) and rest and len(line) <= 80:
            # "## Prep notes: topics we'll dig into": a Markdown heading, named by either half
            after = undecorate(rest)
            kind = classify_heading(after)
            if kind:
                return undecorate(line), kind, ""
    return None


_MARKUP_HEADING = re.compile(r"#{1,6}\s|(?:\*\*|__)[^*_]{1,60}(?:\*\*|__)\s{0,2}$")


def generic_heading(line: str) -> str | None:
    """The name of an unknown heading (``## Something``, ``**Something**``, ``【…】``, ``Something：``)."""
    if len(line) > 64 or not _GENERIC_HEADING.fullmatch(line) or _BOLD_ITEM.match(line):
        return None
    if _MARKUP_HEADING.match(line):
        return undecorate(line) or None  # "## Notes: what to read" is a heading, colon and all
    name = undecorate(line)
    return name if 2 <= len(name) <= _MAX_HEADING_CHARS else None


#: Page furniture (buttons and links of a job board) dropped before anything else.
FURNITURE = frozenset(
    """watch jobs|举报|举报该职位|分享|收藏|立即申请|立即沟通|投递简历|apply|apply now|easy apply|save|save job|
    share|report job|report this job|sign in|登录|注册|返回顶部|back to top|查看更多|show more|see more|展开全部|
    收起|展开|点赞|评论|回复|关注|私信|赞|like|reply|follow|show less|read more|阅读全文""".replace("\n", "")
    .replace("    ", "").split("|")
)
