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

from .asking import judge_line, question_kind, question_text, split_questions, strip_list_marker
from .identity import find_identity

__all__ = ["DOC_KINDS", "KINDS", "MAX_QUESTIONS", "UNCERTAIN_BELOW", "ExtractionResult", "Question",
           "extract_posting", "question_text", "strip_list_marker"]

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

_REQUIRED = """最低要求 任职要求 岗位要求 任职资格 职位要求 基本要求 基本资格 资格要求 必备条件 我们希望你 任职条件 技能要求 硬性要求
Requirements|Minimum qualifications|Basic qualifications|Qualifications|Required qualifications|Required skills
What we need to see|What you need|What you'll need|What you bring|Who you are|Must have|Must-haves|Requirements and skills
You have|You should have|What we're looking for|What we are looking for|About you"""
_RESPONSIBILITIES = """工作职责 岗位职责 职责描述 主要职责 工作内容 职位职责 你将负责 你的职责 你将要做的 职位描述 岗位描述 工作描述
Responsibilities|Key responsibilities|Main responsibilities|What you'll do|What you will do|What you’ll be doing
What you'll be doing|What you will be doing|Your responsibilities|Duties|Your mission|In this role you will
Job description|Description|The role|Your role|About the role|About this role|About the job|About the position"""
_NICE = """优先资格 加分项 加分条件 优先条件 优先考虑 更好的资格 额外加分 加分技能 优先 加分
Preferred qualifications|Nice to have|Nice-to-have|Nice to haves|Bonus points|Bonus|Pluses|Preferred skills
Ways to stand out from the crowd|Preferred|Good to have|It's a plus if|Extra credit"""
_OTHER = """职位详情 职位介绍 岗位介绍 职位信息 岗位信息 关于这个职位 关于职位 关于岗位 职位概述 岗位概述 职位亮点 岗位亮点
技术栈 技能标签 职位标签 福利待遇 薪资福利待遇 我们提供 公司福利 公司介绍 公司简介 公司信息 工商信息 团队介绍 关于我们 关于团队
工作地点 工作城市 办公地点 AI洞察 优缺点分析 角色解读 申请策略 投递建议 求职建议 匹配度报告 职位点评 职位福利 福利 薪资
About us|About the team|About the company|Overview|Role overview|Position overview|Summary|Job summary
Skills|Tech stack|Technical skills|Technologies|Our stack|Benefits|Perks|What we offer|Compensation|Salary
Location|Work location|Application tips|How to apply|Equal opportunity|EEO statement|Why join us|Why us
What's in it for you|What we offer you|Why work with us|Why you'll love working here|Life at the company
Our team|The team|Who we are|Pay range|Base pay range|Additional information"""
_LOCATION_SECTIONS = {"工作地点", "工作城市", "办公地点", "location", "worklocation"}
_INTERVIEW_HEADINGS = re.compile(
    r"(?:常见|高频|典型|可能的?|模拟|参考|经典|推荐|热门|技术|历年)?面试(?:指南|指导|题|题目|问题|准备|真题|题库|"
    r"参考|攻略|考点|技巧|经验|提示|建议|环节|流程|参考题|可能会?问到?的?(?:问题)?|会问|常问|重点|内容|范围|要点)?|"
    r"面经|可能被问到的问题|高频考点|考点|笔试(?:题|题目|真题|题型|内容|范围)?|机试(?:题|题目)?|考察(?:点|内容|重点|方向)?|我们会考察|技术面重点|技术面|面试会聊什么|"
    r"(?:面试|技术面|笔试)?(?:会|可能)?(?:聊|问|考)(?:什么|些什么|哪些)|常见问题|问题清单|题目|真题|八股|"
    r"(?:(?:sample|common|typical|likely|possible|practice|example|expected|potential|technical|"
    r"frequently asked|top|behavioral|behavioural|coding|system design)\s+)?interview(?:\s+(?:questions?|preparation|"
    r"prep|guide|tips|topics|focus|areas|questions and answers|q&a))?|"
    r"(?:sample|common|typical|likely|possible|practice|example|expected|potential|technical|coding|design)\s+"
    r"(?:questions|topics|problems)|topics\s+(?:we|we'll|we\s+will|you)\s+.{0,30}|"
    r"what\s+(?:we'll|we\s+will|we)\s+(?:ask|discuss|cover|talk\s+about)(?:\s+.{0,30})?|"
    r"in\s+the\s+interview.{0,50}|questions?\s+(?:you\s+(?:may|might|could|will)\s+be\s+asked|to\s+expect|we\s+ask)|"
    r"(?:how to prepare|preparing)(?:\s+for\s+(?:the|your|an)\s+interview)?",
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
_ROUND = re.compile(
    r"(?P<r>(?:第\s{0,2}[一二三四五六七八九十\d]{1,2}\s{0,2}(?:轮|面)(?:面试)?|"
    r"(?:技术|业务|交叉|主管|总监|leader|部门|hr|hrbp|终|加|老板|cto|vp)\s{0,2}面(?:试)?|"
    r"(?:技术)?(?:一|二|三|四|五|六|终)\s{0,2}面|笔试|机考|电话面(?:试)?|视频面(?:试)?|群面|oa|"
    r"round\s{0,2}\d{1,2}|(?:first|second|third|fourth|fifth|final|last|1st|2nd|3rd|4th|5th)\s+round|"
    r"(?:technical\s+|recruiter\s+|initial\s+)?phone\s+(?:screen(?:ing)?|interview)|recruiter\s+(?:call|screen|chat)|"
    r"online\s+assessment|(?:virtual\s+)?on-?site(?:\s+(?:interview|loop|round))?|(?:super\s*day)|"
    r"hiring\s+manager(?:\s+(?:round|interview|chat|call))?|(?:system\s+design|coding|behaviou?ral|technical|"
    r"team\s+match(?:ing)?)\s+(?:round|interview|screen)|bar\s+raiser|technical\s+screen|take-?home))"
    r"(?P<tail>.{0,200})",
    re.IGNORECASE,
)
_ROUND_TAIL_META = re.compile(  # "（60min）", "- 45 分钟", "(video, 2 interviewers)", " 11.20"
    r"(?:\s{0,3}(?:[(（\[【][^)）\]】]{0,40}[)）\]】]|\d{1,3}\s{0,2}(?:min|mins|minutes|分钟|小时|h|hours?)\b|"
    r"\d{1,2}[./月]\d{1,2}日?|[~\-–—,，、/]))*",
    re.IGNORECASE,
)
_REVERSE = re.compile(r"(?:反问(?:环节)?|我的问题|questions?\s+i\s+asked|my\s+questions|reverse\s+q(?:&|and)?a)"
                      r"\s{0,2}[:：]?", re.IGNORECASE)
_REPORT_TITLE = re.compile(
    r".{0,80}?(?:面经|面试经验|面试记录|面试复盘|面试总结|面试分享|一面|二面|三面|终面|hr面|秋招|春招|"
    r"interview\s+(?:experience|report|review)|interviewed\s+(?:at|with|for)|my\s+interview|onsite\s+experience|"
    r"phone\s+screen|interview\s+questions\s+(?:at|from))",
    re.IGNORECASE,
)
_REPORT_MARKERS = re.compile(
    r".{0,40}?(?:面试官|问了|问到|手撕|反问|oc|i\s+interviewed|i\s+applied|interviewer|they\s+asked|the\s+interviewer|"
    r"asked\s+me|got\s+the\s+offer|got\s+rejected)",
    re.IGNORECASE,
)
_HEADING_DECOR = re.compile(
    r"(?:#{1,6}\s{0,3})?(?:\*\*|__)?[【\[「『]?\s{0,3}"
    r"(?:[一二三四五六七八九十]{1,3}\s{0,2}[、.．]|\d{1,2}\s{0,2}[、.．)）]|[（(]\s{0,2}[一二三四五六七八九十\d]{1,3}\s{0,2}[)）])?"
    r"\s{0,3}"
)
_HEADING_TRAILERS = " \t:：*_】]」』"
_GENERIC_HEADING = re.compile(r"(?:#{1,6}\s{1,3}.{1,60}|(?:\*\*|__).{1,60}(?:\*\*|__)[:：]?|[【\[].{1,40}[】\]][:：]?|"
                              r"[^\s:：。.!！?？]{1,30}[:：])")
_MAX_HEADING_CHARS = 40
#: Lines past this many are only scanned for skills (bounded work for a pathological paste).
MAX_LINES = 20_000
MAX_LINE_CHARS = 2_000


def _heading_key(text: str) -> str:
    return "".join(text.casefold().replace("’", "'").split())


def _keys(block: str) -> frozenset[str]:
    return frozenset(
        _heading_key(name)
        for line in block.strip().splitlines()
        for name in (line.split("|") if "|" in line else line.split())
    )


_SECTION_KINDS = {"required": _keys(_REQUIRED), "responsibilities": _keys(_RESPONSIBILITIES),
                  "nice": _keys(_NICE), "content": _keys(_OTHER)}
#: How much a skill mention counts, by the kind of section it is in.
SKILL_WEIGHTS = {"required": 2.0, "responsibilities": 1.5, "header": 1.5, "interview": 1.5, "round": 1.5,
                 "nice": 1.0, "content": 1.0, "generic": 1.0}

_CONTENT, _INTERVIEW, _NOISE, _ROUND_KIND, _GENERIC = "content", "interview", "noise", "round", "generic"


def _classify_heading(name: str) -> str | None:
    """The kind of heading ``name`` (already undecorated) is, or None if it is not one."""
    if not name or len(name) > _MAX_HEADING_CHARS:
        return None
    key = _heading_key(name)
    for kind, keys in _SECTION_KINDS.items():
        if key in keys:
            return kind
    spaced = " ".join(name.split())
    if _INTERVIEW_HEADINGS.fullmatch(spaced):
        return _INTERVIEW
    if _NOISE_HEADINGS.fullmatch(spaced):
        return _NOISE
    bare = _TRAILING_NOTE.sub("", name)  # "技术面重点（HR 整理，供参考）"
    if bare and bare != name:
        return _classify_heading(bare)
    return None


_TRAILING_NOTE = re.compile(r"\s{0,2}[（(][^（()）]{1,30}[)）]\s{0,2}$")


def _undecorate(line: str) -> str:
    """A heading line without its numbering, Markdown/bracket decoration and trailing colon."""
    name = line[_HEADING_DECOR.match(line).end():]
    return name.rstrip(_HEADING_TRAILERS).strip()


def _round(line: str) -> tuple[str, str] | None:
    """``(round label, rest of the line)`` if ``line`` opens an interview round."""
    if len(line) > 240:
        return None
    text = _undecorate(line) if len(line) <= 80 else line
    match = _ROUND.match(text)
    if not match:
        return None
    label, tail = match["r"].strip(), match["tail"]
    if tail[:1].isalnum() and tail[:1].isascii() and label[-1:].isascii():
        return None  # "online assessments are …", "Roundtable"
    meta = _ROUND_TAIL_META.match(tail)
    rest = tail[meta.end():] if meta else tail
    text_after = rest.lstrip(" :：-—–").strip()
    if not text_after:
        return label, ""
    separated = (tail.lstrip()[:1] in _ROUND_SEPARATORS or tail[:1] in "(（[【"
                 or rest.lstrip()[:1] in _ROUND_SEPARATORS)
    return (label, text_after) if separated else None


_ROUND_SEPARATORS = (":", "：", "-", "—", "–")


def _match_heading(line: str) -> tuple[str, str, str] | None:
    """``(section name, kind, rest of the line)`` if ``line`` is a section heading, else None."""
    if len(line) <= 80:
        name = _undecorate(line)
        kind = _classify_heading(name.rstrip("?？"))
        if kind:
            return name, kind, ""
    colon = min((i for i in (line.find(":", 0, 34), line.find("：", 0, 34)) if i > 0), default=-1)
    if colon > 0:
        name = _undecorate(line[:colon])
        kind = _classify_heading(name)
        rest = line[colon + 1:].strip()
        if kind and rest:
            return name, kind, rest
    return None


def _generic_heading(line: str) -> str | None:
    """The name of an unknown heading (``## Something``, ``**Something**``, ``【…】``, ``Something：``)."""
    if len(line) > 64 or not _GENERIC_HEADING.fullmatch(line):
        return None
    name = _undecorate(line)
    return name if 2 <= len(name) <= _MAX_HEADING_CHARS else None


_FURNITURE = frozenset(
    """watch jobs|举报|举报该职位|分享|收藏|立即申请|立即沟通|投递简历|apply|apply now|easy apply|save|save job|
    share|report job|report this job|sign in|登录|注册|返回顶部|back to top|查看更多|show more|see more|展开全部|
    收起|展开|点赞|评论|回复|关注|私信|赞|like|reply|follow|show less|read more|阅读全文""".replace("\n", "")
    .replace("    ", "").split("|")
)


# ---------------------------------------------------------------------------------------------
# The pipeline


@dataclass
class _Block:
    name: str
    kind: str  # required | responsibilities | nice | content | interview | round | generic | header
    round: str | None
    lines: list[str] = field(default_factory=list)
    reverse: bool = False  # inside a round's 反问 part


def _segment(lines: list[str]) -> tuple[list[_Block], bool]:
    """Lines into blocks under their headings (noise dropped); whether any known heading was seen."""
    blocks = [_Block("", "header", None)]
    recognised = False
    noise = False
    current_round: str | None = None
    for index, line in enumerate(lines):
        heading = _match_heading(line)
        if heading:
            name, kind, rest = heading
            if kind == _NOISE:
                noise = True
                continue
            noise = False
            recognised = True
            if kind != _INTERVIEW:
                current_round = None
            blocks.append(_Block(name, kind, current_round if kind == _INTERVIEW else None))
            if rest:
                blocks[-1].lines.append(rest)
            continue
        round_ = _round(line)
        if round_:
            noise = False
            recognised = True
            current_round, rest = round_
            blocks.append(_Block(current_round, _ROUND_KIND, current_round))
            # "Round 1 - Hiring manager (45 min)": a description of the round, not a question
            if rest and (len(rest) > 40 or judge_line(rest).asks):
                blocks[-1].lines.append(rest)
            continue
        if noise:
            continue
        generic = _generic_heading(line)
        if generic and len(blocks) == 1 and not blocks[0].lines:
            blocks[0].lines.append(generic)  # "【Job title】" or "## Title" opening the page: the header
            continue
        if not generic and (len(blocks) > 1 or len(blocks[0].lines) >= 2):
            generic = _plain_heading(line, lines[index + 1] if index + 1 < len(lines) else "")
        if generic:
            reverse = bool(_REVERSE.fullmatch(generic) or _REVERSE.fullmatch(line))
            if reverse and blocks[-1].kind in (_ROUND_KIND, _INTERVIEW, "header", _GENERIC):
                blocks.append(_Block(generic, blocks[-1].kind, blocks[-1].round, reverse=True))
                continue
            if not any(c in line.rstrip(_HEADING_TRAILERS) for c in ":："):  # "Label: text" is a line
                # a sub-heading inside a round stays in that round ("算法题：", "## Coding")
                parent = blocks[-1]
                if parent.kind in (_ROUND_KIND, _INTERVIEW) and not parent.reverse:
                    blocks.append(_Block(generic, parent.kind, parent.round))
                else:
                    blocks.append(_Block(generic, _GENERIC, None))
                continue
        if _REVERSE.match(line) and blocks[-1].kind in (_ROUND_KIND, _INTERVIEW, "header", _GENERIC):
            continue  # "反问：…" on one line
        blocks[-1].lines.append(line)
    return blocks, recognised


def _plain_heading(line: str, following: str) -> str | None:
    """A short plain line that introduces a list ("Be ready to discuss", "Things we ask about"):
    no list marker, no sentence or question punctuation, and a list item on the next line."""
    if not following or len(line) > 60 or len(line) < 2:
        return None
    if line[-1:] in "。.!！?？;；,，" or strip_list_marker(line) != line:
        return None
    if strip_list_marker(following) == following.strip():
        return None
    judged = judge_line(line)
    if judged.asks or _round(line):
        return None
    return line.rstrip(_HEADING_TRAILERS).strip() or None


def _is_report(lines: list[str], blocks: list[_Block]) -> bool:
    kept = [line for block in blocks for line in block.lines][:400]
    titles = sum(1 for line in kept if len(line) > 6 and _REPORT_TITLE.match(line[:200]))
    if titles >= 4:  # a board's list of report titles, not a report
        return False
    rounds = sum(1 for b in blocks if b.kind == _ROUND_KIND)
    if rounds >= 1 and any(_REPORT_TITLE.match(line[:200]) for line in lines[:6]):
        return True
    if rounds >= 2:
        return True
    posting_sections = sum(1 for b in blocks if b.kind in ("required", "responsibilities", "nice"))
    markers = sum(1 for line in lines[:400] if _REPORT_MARKERS.match(line[:200]))
    if posting_sections == 0 and (rounds or any(_REPORT_TITLE.match(line[:200]) for line in lines[:6])):
        return True
    return posting_sections == 0 and markers >= 3


_INTERVIEW_HINT = re.compile(r"面试|考察|考点|问|题|interview|ask|question|discuss|topic|quiz|chat\s+about",
                             re.IGNORECASE)


def _score_generic(block: _Block) -> bool:
    """Whether an unknown heading's lines are a list of questions (judged by what they look like)."""
    judged = [judge_line(line) for line in block.lines[:200]]
    asking = sum(1 for j in judged if j.asks)
    if asking < 2:
        return False
    hint = _INTERVIEW_HINT.search(block.name)
    return asking >= 0.6 * len(judged) or (hint is not None and asking >= 0.3 * len(judged))


def _rhetorical(index: int, lines: list[str]) -> bool:
    """A question followed by prose about the employer ("Why join us?" then a paragraph)."""
    following = lines[index + 1: index + 3]
    return bool(following) and all(not judge_line(n).asks and len(n) > 40 for n in following)


def _questions(blocks: list[_Block], report: bool) -> tuple[list[Question], int]:
    """The questions of the question-bearing blocks (at most :data:`MAX_QUESTIONS`), and how many
    more candidate lines (ending in a question mark or listed) were left unexamined past the cap."""
    found: dict[str, tuple[str, str, str | None, float]] = {}
    truncated = 0
    for block in blocks:
        if block.reverse:
            continue
        kind = block.kind
        if kind not in (_INTERVIEW, _ROUND_KIND, _GENERIC, "header"):
            continue
        if kind == "header" and not report:
            continue
        if len(found) >= MAX_QUESTIONS:
            truncated += sum(1 for line in block.lines if line.endswith(("?", "？")) or line[:1] in "-•*0123456789")
            continue
        if kind == _GENERIC and not report and not _score_generic(block):
            continue
        in_round = kind == _ROUND_KIND or (report and kind in (_INTERVIEW, _GENERIC, "header"))
        hinted = kind == _GENERIC and _INTERVIEW_HINT.search(block.name) is not None
        section = block.name or (block.round or "")
        for index, line in enumerate(block.lines):
            if len(found) >= MAX_QUESTIONS:
                rest = block.lines[index:]
                truncated += sum(1 for r in rest if r.endswith(("?", "？")) or r[:1] in "-•*0123456789")
                break
            if len(line) > MAX_LINE_CHARS:
                continue
            for part in split_questions(line):
                judgement = judge_line(part)
                if judgement.dropped:
                    continue
                if judgement.mark or judgement.verb:
                    confidence = 0.9 if judgement.mark else 0.85
                    if kind == _GENERIC and not report:
                        confidence -= 0.1
                    if kind == "header" and report:
                        confidence -= 0.15
                    if not in_round and kind not in (_INTERVIEW,) and judgement.mark and _rhetorical(index, block.lines):
                        continue
                elif judgement.topic and (in_round or kind == _INTERVIEW or hinted):
                    confidence = 0.65 if in_round else 0.6
                elif kind == _INTERVIEW and len(judgement.text) <= 150 and strip_list_marker(part) != part.strip() \
                        and _looks_technical(judgement.text) and not _ADVISING.search(judgement.text[:150]):
                    confidence = 0.6  # an item under a known interview heading ("编程题：给定…，求…")
                elif in_round and kind == _ROUND_KIND and len(judgement.text) <= 60 and _looks_technical(judgement.text):
                    confidence = 0.5
                else:
                    continue
                if len(judgement.text) > 150:
                    confidence -= 0.2
                found.setdefault(judgement.text.casefold(),
                                 (judgement.text, section, block.round, round(max(0.05, confidence), 2)))
    questions = [Question(text=text, section=section, kind=question_kind(text), round=round_, confidence=conf)
                 for text, section, round_, conf in list(found.values())[:MAX_QUESTIONS]]
    return questions, truncated


_TECHNICAL = re.compile(r".{0,60}?(?:[A-Za-z]{2,}|原理|实现|机制|算法|优化|内存|线程|进程|网络|协议|锁|缓存|调度|并行|通信|"
                        r"编程|代码|数组|链表|树|图|矩阵|字符串|复杂度|带宽|延迟|吞吐|架构|存储|数据结构)")


_ADVISING = re.compile(r"建议|推荐|阅读|关注|复习|准备|了解一下|注意|熟悉|掌握|recommend|suggest|read|review|prepare|"
                       r"familiar|brush\s+up|focus", re.IGNORECASE)


def _looks_technical(text: str) -> bool:
    return bool(_TECHNICAL.match(text))


def extract_posting(text: str, taxonomy: Taxonomy | None = None) -> ExtractionResult:
    """Extract company, title, location, sections, skills and questions from ``text`` (a job
    posting or an interview report).

    Pure and deterministic; never raises on a ``str``; linear in the length of ``text``.
    ``taxonomy`` defaults to the shipped one.
    """
    taxonomy = taxonomy or load_taxonomy()
    lines: list[str] = []
    tail: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or (len(line) <= 20 and line.casefold() in _FURNITURE):
            continue
        if len(lines) < MAX_LINES:
            lines.append(line)
        else:
            tail.append(line)
    blocks, recognised = _segment(lines)
    report = _is_report(lines, blocks)
    questions, truncated = _questions(blocks, report)

    kept: list[str] = []
    weights: dict[str, float] = {}
    sections: dict[str, list[str]] = {}
    location_lines: list[str] = []
    for block in blocks:
        kept.extend(block.lines)
        if block.name and block.kind != "header":
            sections.setdefault(block.name, []).extend(block.lines)
        if _heading_key(block.name) in _LOCATION_SECTIONS:
            location_lines.extend(strip_list_marker(line) for line in block.lines)
        weight = SKILL_WEIGHTS.get(block.kind, 1.0)
        if block.lines:
            for skill_name in _mentions(taxonomy, "\n".join(block.lines)):
                weights[skill_name] = weights.get(skill_name, 0.0) + weight
    for skill_name in _mentions(taxonomy, "\n".join(tail)):
        weights[skill_name] = weights.get(skill_name, 0.0) + 1.0
    skills = list(weights)  # first mention first: blocks are in document order
    header = blocks[0].lines if not report else lines[:8]
    if not report and lines and lines[0].startswith("#") and not blocks[0].lines:
        header = [lines[0].lstrip("# ")]  # a Markdown document's title heading
    company, title, location = find_identity(header, kept, location_lines, report)
    return ExtractionResult(
        company=company,
        title=title,
        location=location,
        sections={name: "\n".join(body) for name, body in sections.items() if body},
        skills=skills,
        questions=questions,
        recognised_sections=recognised,
        doc_kind="report" if report else "posting",
        rounds=list(dict.fromkeys(b.round for b in blocks if b.kind == _ROUND_KIND and b.round)),
        skill_weights={name: weights[name] for name in skills},
        truncated=truncated,
    )


def _mentions(taxonomy: Taxonomy, text: str) -> list[str]:
    """Every skill mention in ``text`` (repeats included), by canonical name."""
    return [name for _start, _end, name in taxonomy.skill_spans(text)]
