"""One line of a posting or interview report: is it an interview question, of which kind, how sure.

Line-level judgements the extraction pipeline (:mod:`prep.postings.extract`) combines with the
line's context (the section or interview round it sits in). Every pattern here is anchored at
the start of the line or applied to a bounded prefix, with bounded repeats, and lines longer
than :data:`MAX_QUESTION_CHARS` are never questions, so the cost per line is bounded and the
whole pass is linear in the input.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from prep.chinese_script import simplified_characters

from .headings import ANSWER_HEADING, first_colon

#: A line longer than this is prose (a paragraph, an answer), not a question to drill.
MAX_QUESTION_CHARS = 300
_MIN_CHARS = 4

_LIST_MARKER = re.compile(
    r"(?:"
    r"[-–—•·●○◦▪▫■□◆◇►▶▸▹▻➤➢➔→⁃∙・◉◎★☆✦✧❖✓✔*+]\s{0,4}"
    r"|[§\uf0a7\uf0b7\uf0d8\uf076]\s{1,4}(?=\S)"  # a word processor's bullets: "§ How would you …"
    r"|(?:Q|问题|题目)\s{0,2}\d{0,3}(?:-\d{1,2})?\s{0,2}[:：.．、)）]\s{0,4}"
    r"|\d{1,3}\s{0,2}(?:[、)）:：]|[.．](?!\d))\s{0,4}"
    r"|\d{1,2}[,，](?=\s{0,2}[^\s\d,，])\s{0,4}"  # "3,网络编程是否熟悉" (never "1,000" or "1,2,3")
    r"|\d{1,3}-\s{1,4}(?=\S)"  # "1- KV cache 怎么估算？" (never "1-3年")
    r"|\d{1,3}-\d{1,3}[.．、]\s{0,4}(?=\S)"  # "1-1.介绍一下中断", a sub-question's number (never "3-5年")
    r"|\d{1,2}\s{1,2}(?=[\u4e00-\u9fff])(?![轮年个位次天周月人道题种家条项倍核卡台节层路级小分秒元万千亿])"
    r"|Q\d{1,3}(?=[\u4e00-\u9fff])"  # "Q2你对虚函数…"
    r"|(?:[一二三四五六七八九十]{1,3}|\d{1,2})问(?!题)\s{0,2}[:：、.]?\s{0,2}(?=[\u4e00-\u9fffA-Za-z])"  # "十四问…": the fourteenth question
    r"|0\d(?=(?:Why|What|How|When|Where|Which|Who|Explain|Describe|Design|Implement|Compare|Is|Are|Can|Do|Does)\b)"  # "01Why …" cards
    r"|[（(]\s{0,2}(?:\d{1,3}|[一二三四五六七八九十]{1,3}|[a-zA-Z])\s{0,2}[)）]\s{0,4}"
    r"|[\u2460-\u2473\u2474-\u2487\u2488-\u249b\u3251-\u325f\u2776-\u277f]\s{0,4}"
    r"|\d{1,2}\ufe0f?\u20e3\s{0,4}|\U0001f51f\s{0,4}"
    r"|[一二三四五六七八九十]{1,3}\s{0,2}[、.．)）:：]\s{0,4}"
    r"|[a-zA-Z][.)]\s{1,4}"
    r"|#{1,6}\s{1,4}"
    r"|\[[ xX✓✔]\]\s{1,4}(?=\S)"  # a task list's box: "- [ ] 解释 occupancy", "- [x] …"
    r")"
)
_BOLD = re.compile(r"(\*\*|__)(.{1,400})\1")
_MARKDOWN_LINK = re.compile(r"\[([^\[\]]{1,200})\]\([^()\s]{1,300}\)")


def strip_list_marker(line: str) -> str:
    """``line`` without its list marker(s) (``- ``, ``1、``, ``2.``, ``(3)``, ``①``, ``Q1:`` ...)."""
    text = line.strip()
    for _ in range(3):  # "- 1. **question**" from an HTML list item
        bold = _BOLD.fullmatch(text)
        if bold:
            text = bold.group(2).strip()
        match = _LIST_MARKER.match(text)
        if not match or match.end() == 0:
            break
        text = text[match.end():].strip()
    bold = _BOLD.fullmatch(text)
    return bold.group(2).strip() if bold else text


_CLOSERS = " \t\"'”’」』)）]】*_`.。!！~～"


def ends_with_question_mark(text: str) -> bool:
    """Whether ``text`` ends with ``?``/``？`` (closing quotes, brackets, a short parenthetical
    note such as ``（二面）`` and spaces after it allowed). A scan from the end, not a regex."""
    tail = text[-120:].rstrip(_CLOSERS + " ")
    if tail.endswith(("?", "？")):
        return True
    if text[-120:].rstrip().endswith((")", "）")):  # "…? (asked twice)"
        body = text[-120:].rstrip().rstrip(")）")
        cut = max(body.rfind("("), body.rfind("（"))
        if cut >= 0 and len(body) - cut <= 60:
            return body[:cut].rstrip(_CLOSERS + " ").endswith(("?", "？"))
    return False


# --- What a question opens with -------------------------------------------------------------------

_ASKING_ZH = re.compile(
    r"(?:[A-Za-z][\w+#./-]{0,14}\s{0,2}(?=写|实现|手写|手撕|解释|说说|讲讲|介绍|描述|设计|比较))?"
    r"(?:然后|接着|最后|之后|另外|再|又|还|先|紧接着)?(?:请(?:你|您)?|麻烦|能不能|可以|(?:让|叫|要|要求)我(?:现场|当场)?)?"
    r"(?:先)?(?:简要|简单|详细|具体|大概|大致)?"
    r"(?:解释|描述|说明|谈谈|介绍|比较|举例|列举|分析|设计|实现|写出|简述|阐述|讲讲|说说|回答|推导|给出|画出|讲解|编写|找出|计算(?!机)|"
    r"用[^，。,；;？?]{1,12}?(?:实现|写|编写|计算)|"
    r"说一个|讲一个|举一个|举个|给定|给你|输入一个|试着|写一段|写段|"
    r"讲一下|讲下|说一下|说下|介绍一下|介绍下|聊一下|聊聊|谈一下|问了|问到|问|追问|又问|接着问|还问了|"
    r"手撕|手写|写一个|写个|写一下|实现一个|实现一下|设计一个|设计一下|"
    r"如何|怎样|怎么|什么是|什么叫|为什么|为何|论述|概述|区别|对比|能否|是否|哪些|有哪些|有没有|"
    r"你(?:如何|会如何|怎么|是如何|会怎么|怎样|能否|是否|有没有|了解|知道|对|觉得|认为|会|遇到|做过|用过|在))",
)
_ASKING_EN = re.compile(
    r"(?:(?:so|then|and|also|next|finally|q|please)[,:]?\s{1,3})?"
    r"(?:explain|how|what|what's|when|why|where|which|who|whom|whose|is|are|does|do|did|can|could|would|should|"
    r"will|has|have|describe|compare|contrast|discuss|design|implement|write|code|define|outline|suppose|consider|explore|"
    r"imagine|estimate|derive|sketch|summari[sz]e|list|diagnose|debug|optimi[sz]e|analy[sz]e|calculate|provide|prove|"
    r"compute|reverse|find|given|build|introduce|walk\s+(?:us|me)\s+through|tell\s+(?:us|me)|talk\s+(?:us\s+|me\s+)?"
    r"(?:about|through)|give\s+(?:an?\s+)?examples?|in\s+what\s+way|they\s+asked|asked\s+(?:about|me|to|how|"
    r"what|why|for)|he\s+asked|she\s+asked|interviewer\s+asked|we\s+discussed|deep\s+dive|dove\s+into|"
    r"dug\s+into|follow-?ups?:?)\b",
    re.IGNORECASE,
)
_CONCEPT_NOUN = re.compile(  # a topic line of a report: "NCCL ring allreduce 原理", "RDMA和TCP的区别"
    r".{0,120}?(?:原理|区别|机制|流程|过程|优缺点|作用|实现方式|底层|场景|瓶颈|对比|算法|是什么|为什么|怎么|如何|怎样|多少|"
    r"difference|differences|vs\.?|versus|trade-?offs?|internals|how\s+it\s+works)",
    re.IGNORECASE,
)

_ZH_QUESTION_WORD = re.compile(
    r"怎么|如何|为什么|为何|什么|哪些|哪个|哪几|哪种|多少|几[种次个倍层步轮路条类级]|多(?:大|久|长|快|高|远)|是否|有何|"
    r"有什么|能否|谁|干啥|干嘛|吗$|呢$|么$|"
    r"(?<!知道)(?<!确定)(?<!清楚)(?<!记得)(?P<a>[\u4e00-\u9fff])[不没](?P=a)")  # the A-not-A question: 能不能, 是不是,
# 有没有, 了不了解, 支不支持; not one the writer says they do not know ("不知道有没有风")
#: A Chinese question that ends with a colon, its answer below: a question word, no word of a label
#: ("面试官问了如下问题:", "常见问题:", "注意事项:") and no advice ("如何准备面试:").
_ASKS_OVER_ANSWER = re.compile(r"(?!.{0,40}(?:问题|题目|如下|以下|下面|准备|复习|注意|建议|技巧))"
                               r"[^:：]{0,60}?(?:怎么|如何|为什么|为何|哪些|多少|是否|能否)[^:：]{0,60}[:：]")
#: A Chinese character (the extraction stages tell the two languages apart with it).
CJK = re.compile(r"[\u4e00-\u9fff]")
_LABEL_DASH = re.compile(r"\s[-–—]\s")
#: A label glued to its question by a dash: "OS concepts-what is mutual exclusion?", "tech questions-What are …?".
_GLUED_LABEL = re.compile(r"[A-Za-z][A-Za-z ]{2,50}?[a-z][-–—](?=(?:what|how|why|when|which|where|who|explain|describe|"
                          r"difference)\b)", re.IGNORECASE)
#: The narration of what was asked, before it: "问了", "面试官又问了我", "然后问了一下".
_ASKED = r"(?:面试官)?(?:又|还|也|先|然后|接着)?问了(?:我)?(?:一下)?(?=[^么什些哪几多，,。])"
#: "Finally, I was asked to write a lambda function.", "Next, he asked me about …": the task, not the telling.
_ASKED_EN = (r"(?:(?:then|next|finally|later|also|after\s+that|lastly),?\s{1,2})?(?:i\s+was|we\s+were|he|she|they|the\s+interviewer)"
             r"\s{1,2}(?:also\s{1,2}|then\s{1,2})?asked\s{1,2}(?:(?:me|us)\s{1,2})?(?:to|about)\s{1,2}")
_NARRATIVE_PREFIX = re.compile(
    r"(?:然后|接着|最后|之后|又|还|再)?(?:让我|叫我|要求我?|让)(?:写|做|手写|手撕|撕)(?:了)?(?:个|一个|一道|道|两道)?"
    r"(?:题|算法题|代码题|代码|编程题)?[，,：:\s]{1,3}"
    r"|(?:面试官)?(?:又|还)?追问(?:了)?\s{0,2}[:：]\s{0,2}|(?:interviewer\s+)?follow[- ]?up\s{0,2}[:：]\s{0,2}"
    r"|" + _ASKED_EN + r"|" + _ASKED,  # "问了线程同步" → "线程同步"
    re.IGNORECASE)


# --- What a question is not ---------------------------------------------------------------------

_ADVICE = re.compile(
    r"(?:复习|回顾|了解|准备|采用|对于|注意|建议|提前|熟悉|掌握|重点复习|确保|尝试|保持|多练|多做|练习|刷题|面试前|"
    r"面试时|面试中|提示|技巧|可以(?!说|讲|谈|介绍)|务必|记得|突出|强调|展示|结合|关注|学习|阅读|温习|巩固|梳理|总结|"
    r"review|be\s+ready|be\s+prepared|tips?\b|prepare|brush\s+up|practi[cs]e|study|make\s+sure|expect\b|"
    r"focus|remember|read\b|familiari[sz]e|know\b|note\b|consider|use\b|try\b|bring|highlight|emphasi[sz]e|"
    r"show\b|research|revisit|refresh|get\s+familiar|think\s+about|keep|avoid|don'?t|do\s+not|spend|learn|"
    r"understand|dig\s+into|go\s+over|we\s+(?:will|'ll)\s+(?:send|contact|reach)|good\s+luck)",
    re.IGNORECASE,
)
_DROP_ZH = re.compile(
    r".{0,40}?(?:自我介绍|反问|我问了?|我问他|我问面试官|问面试官|期望薪|薪资|薪水|工资|待遇|年包|签字费|"
    r"什么时候(?:能)?(?:入职|到岗)|入职时间|到岗|实习时长|能实习多久|实习多久|一周(?:能)?(?:来|实习)几天|"
    r"(?<![a-z])(?:offer|oc|base|hc|lz|mark|dd)(?![a-z])|意向书|"
    r"凉了|凉凉|挂了|被挂|已挂|攒人品|攒rp|许愿|祝好运|好运|求offer|求过|求捞|蹲|等通知|感谢|谢谢|祝大家|"
    r"楼主|同问|码住|插眼|求内推|内推码|点赞|收藏|举报|投递|网申|笔试时间|面试时间|面试体验|"
    r"面试官(?:人)?(?:很|挺|非常)?(?:好|nice|和蔼)|面试流程|招聘流程|氛围|面经(?!历)|凉经|面试经验|值得|卷吗|大家|"
    r"有没有人|有人知道|求问|难不难|难度如何|难度怎么样|多不多|(?<![a-z])hr\s{0,2}(?:问了?|聊了?|说)|点个?赞|一键三连|"
    r"远程办公|(?<!\d)(?:996|007)(?!\d)|几轮|多少轮|多久.{0,4}(?:反馈|回复|结果|通知)|加班|出差|转正|留用|学历要求|(?:需要|要求).{0,12}经验吗)",
    re.IGNORECASE,
)
#: The candidate answering in the first person ("我觉得是…", "嗯，我当时说…"): an answer, not a question.
#: The candidate telling what they did ("I was able to explain …", "I struggled with …", "So I used a heap."):
#: narration, not a question (as "我觉得…", "我回答…").
_MY_DOING_EN = re.compile(r"(?:(?:so|then|and|but|finally|eventually|overall),?\s{1,2})?i\s{1,2}(?:was|wasn't|did|didn't|made|solved|"
                          r"struggled|positioned|had|think|thought|felt|tried|used|wrote|explained|answered|said|mentioned|got|"
                          r"managed|could|couldn't|went|started|finished|ended|gave|proposed|came|realized|realised|forgot|"
                          r"stumbled|applied|cleared|received)\b", re.IGNORECASE)
_MY_ANSWER_ZH = re.compile(r"(?:[嗯额呃啊]+[，,。.\s]{0,3})?我(?:觉得|认为|说|答|回答|当时|的回答|的理解|理解的?是|记得|猜)|"
                           r"回答了|(?:他|她|面试官)(?:又|还|就)?(?:提示|介绍|解释|补充)(?:了|说|道)?(?!一下)")  # the answer, the interviewer's hint
_DROP_EN = re.compile(
    r".{0,60}?\b(?:introduce\s+yourself|tell\s+(?:me|us)\s+about\s+yourself|self[- ]introduction|"
    r"i\s+asked|my\s+questions?\s+(?:for|to)|questions?\s+for\s+(?:the|them|him|her)|reverse\s+q|"
    r"expected\s+(?:salary|compensation)|salary|compensation|notice\s+period|start\s+date|when\s+can\s+you\s+start|"
    r"visa|sponsorship|relocat\w*|(?:got|get|received|an|the|verbal|written)\s+offer|rejected|rejection|ghosted|"
    r"good\s+luck|wish\s+me|fingers\s+crossed|update:|edit:|thanks|thank\s+you|upvote|"
    r"appl(?:y|ied|ying)\s+(?:for|to|online|through|via|again)|application\s+(?:process|status|form|portal)|"
    r"recruiter|hiring\s+process|interview\s+process|hear\s+back|heard\s+back|resume\b|cv\b|referral|"
    r"contact\s+(?:us|support|recruit\w*|hr|our)|email\s+us|reach\s+out|^(?:any\s+)?(?:other\s+)?questions\s*\?|"
    r"still\s+stuck|need\s+help|why\s+join|why\s+us\b|why\s+work|what'?s\s+in\s+it|what\s+we\s+offer|"
    r"what\s+you'?ll\s+(?:do|get|bring)|who\s+we\s+are|who\s+you\s+are|benefits\s+package|perks|"
    r"equal\s+opportunity|accommodations?\b|disabilit|privacy|(?:use|accept|allow|reject|manage|our)\s+(?:all\s+)?cookies|cookie\s+(?:policy|settings|preferences|consent)|"
    r"^(?:do|can|should|will|must|may)\s+i\b|^am\s+i\b|^is\s+(?:there|the\s+(?:role|position|job|salary|team))\b|"
    r"^(?:is|are)\s+(?:remote|on-?call|relocation)|on-?call\b|how\s+did\s+you\s+(?:hear|find|learn)\s+about|"
    r"legally\s+authori[sz]ed|authori[sz]ation\s+to\s+work|gender|pronouns|ethnicity|(?<!data\s)(?<!data-)\brace\b(?![\s-]{1,3}(?:conditions?|free|detect))|veteran|"
    r"^(?:can|could|do|does|did|are|is|will|has|have)\s+(?:the\s+candidates?|candidates|they)\b|"  # a rubric
    r"^are\s+you\s+(?:prepared|ready)\b|^did\s+you\s+know\b|^by\s+(?-i:[A-Z])|"  # a promotion, a byline
    r"linkedin\s+profile|cover\s+letter|^why\s+(?-i:[A-Z][a-z]{2,30}(?:\s[A-Z][a-z]{2,30})?)\s{0,2}\?\s{0,2}\*?$)",
    re.IGNORECASE,
)
_RHETORICAL_ZH = re.compile(
    r".{0,20}?(?:为什么(?:选择|加入)(?:我们|我司|[^\s，,。？?]{1,12}[？?]\s{0,2}$)|我们(?:能)?(?:提供|给你)什么|你将(?:获得|得到)|你能得到|"
    r"为什么是我们|加入我们|福利|有疑问|有问题.{0,6}(?:联系|邮件|邮箱)|联系我们)"
)
_PROJECT_ONLY = re.compile(
    r"(?:介绍|讲|说)(?:一下|下)?(?:这个|你的|该|那个)项目(?:是什么|是做什么的)?[,，]?(?:你在其中(?:做了|负责)(?:什么|哪些)(?:工作)?)?|"
    r"(?:聊|问|讲|介绍|深挖|挖)?(?:了)?(?:一下|下)?(?:简历|项目|实习|论文)(?:经历|经验)?"
    r"(?:[，,。、\s]{0,3}.{0,12}?(?:很细|深挖|细节|为主|半小时|\d{1,3}\s*(?:min|分钟)|全程|很多|一堆|比较久))?[。.!！]?",
    re.IGNORECASE,
)
_PROJECT_ONLY_EN = re.compile(
    r"(?:my|your)\s+experience\s+(?:in|with)\s+.{1,30}|.{1,30}\bprojects?\s+experience|"
    r"(?:describe|explain|present|introduce)\s+(?:my|your|the)\s+(?:[\w-]+\s+){0,4}(?:projects?|implementation|internships?|"
    r"thesis|research|library)\b.{0,40}|what(?:'s|\s+is|\s+was)\s+the\s+challenge\s+in\s+(?:this|that|your|the)\s+project\??|"
    r"(?:talked|chatted|went)\s+(?:about|through|over)\s+(?:my|the)\s+(?:projects?|resume|cv|internships?|"
    r"background|experience)[^a-z]{0,3}(?:in\s+(?:detail|depth))?[.!]?|"
    r"(?:projects?|resume)\s+(?:deep\s+dive|discussion|walkthrough)[.!]?",
    re.IGNORECASE,
)
_TIP_LABEL = re.compile(r"(?:(?:resume\s+)?tips?(?:\s{0,2}\d{1,2})?|note|hint|提示|建议|注意|小贴士|技巧|ps|p\.s\.|what\s+it\s+tests|why\s+(?:it|this)\s+matters|"
                        r"what\s+(?:they|interviewers?)\s+(?:look|are\s+looking)\s+for|思路|解析|解法|考点|分析|"
                        r"考[核察](?:重点|目标|要点|点))\s{0,2}[:：]",
                        re.IGNORECASE)
_ANSWER_CUT = re.compile(r"\s{0,3}(?:——|--|->|→|=>|答[:：]|答案[:：]|参考答案[:：]|回答[:：]|我答|我说|我回答|(?<![A-Za-z0-9_])A[:：]|(?<![A-Za-z0-9_])ans(?:wer)?[:：]|"
                         r"[，,]\s{0,2}(?:我)?(?:说了|答了|讲了|回答了?)|[。.]\s{0,2}(?:我)?回答了?|[，,]\s{0,2}我(?:又|也|就|还|当时|先)(?:说了?|答了?|讲了?|回答了?|用了|写了|提到了?)|"
                         r"[，,]\s{0,2}这是一道|[，,]\s{0,2}我(?!们)[^，,。？?]{0,8}?(?:说|答|讲|聊|提|写|用)(?:了|到|的是)|"
                         r"[(（]\s{0,2}(?:i|we|我|我们)\b|[(（]\s{0,2}(?:我|我们))", re.IGNORECASE)
#: "印象最深的两个问题：…", "Question 3: …": a label naming the question before it.
_QUESTION_LABEL = re.compile(r"(?![^：:]{0,14}(?:编程|算法|代码|手撕|设计|coding|design|system))[^：:?？]{0,14}(?:问题|题目|题|questions?|topic|prompt)\s{0,2}\d{0,2}\s{0,2}(?:[(（][^()（）]{1,8}[)）])?\s{0,2}[：:]\s{0,2}",
                             re.IGNORECASE)

#: An address at the end of a line, bare or in brackets ("… https://leetcode.cn/problems/x/", "…（http://…）").
_TRAILING_URL = re.compile(r"\s{0,3}[（(\[]?\s{0,2}(?:https?|ftp)://[^\s（）()\[\]]{1,500}+\s{0,2}[)）\]]?\s{0,3}$")


def _without_trailing_urls(text: str) -> str:
    """``text`` without the addresses its author put after it (at most four; each looked for in the
    line's last characters only), or as it was if it is nothing but addresses."""
    rest = text
    for _ in range(4):
        tail = rest[-600:]
        url = _TRAILING_URL.search(tail)
        if url is None:
            break
        rest = rest[: len(rest) - len(tail) + url.start()]
    return rest.rstrip() or text

#: A Markdown table's row: cells between bars.
_TABLE_ROW = re.compile(r"\|(?:[^|\n]{0,200}\|){2,40}[^|\n]{0,200}")
#: A line that narrates what was asked ("问了线程同步", "面试官又问了我…"): what follows is the question.
_ASKED_CUE = re.compile(_ASKED + "|" + _ASKED_EN, re.IGNORECASE)
_QUOTE_OPENERS = "\"'“‘「『"
#: A short label in bold that ends with its colon ("**L1：**", "**反例：**", "**Code reading:**"); not an answer's.
#: A topic in bold, then a colon and a statement about it ("**服务器架构**:考察了…", "**Caching**: we covered …").
_DESCRIBED_TOPIC = re.compile(r"(?:\*\*|__)?(?P<t>(?![AaＡ]\s{0,2}$|答|answer|解析|思路|参考|提示|注意|note|tip|hint|example|例)"
                              r"[^*_\n：:?？]{2,24})(?:\*\*|__)\s{0,2}[：:]\s{0,2}(?P<rest>\S.{12,})", re.IGNORECASE)
_BOLD_LABEL = re.compile(r"(?:\*\*|__)?(?![AaＡ]\s{0,2}[：:]|答|answer)[^*_\n：:?？]{1,16}[：:]\s{0,2}(?:\*\*|__)\s{0,2}(?=\S)",
                         re.IGNORECASE)

# --- Kinds --------------------------------------------------------------------------------------

_CODING = re.compile(
    r"(?:手撕|手写|撕|写代码|代码|编程题|算法题|leetcode|lc\s?\d|力扣|hot\s?100|写一个|写个|实现一个|"
    r"实现一下|实现(?:一个)?(?:线程安全|无锁|lru|环形|单例|生产者|读写锁|memcpy|快排|堆)|"
    r"\bimplement\b|\bwrite\s+(?:a|an|the|some)?\s*(?:function|code|program|class|kernel|method)|\bcode\s+(?:a|an|up)\b|"
    r"\bcoding\b|\blive\s+cod|reverse\s+a\s+linked|linked\s+list|binary\s+tree|two\s+sum|\blru\b)",
    re.IGNORECASE,
)
_DESIGN = re.compile(
    r"(?:设计一个|设计一套|系统设计|架构设计|如何设计|怎么设计|设计.{0,20}(?:系统|服务|平台|架构|集群|框架)|"
    r"\bsystem\s+design\b|\bdesign\s+(?:a|an|the)\b|\bhow\s+would\s+you\s+(?:design|architect|build|scale)|"
    r"\barchitect\s+(?:a|an)\b)",
    re.IGNORECASE,
)
_BEHAVIOURAL = re.compile(
    r"(?:你(?:遇到过|做过|解决过|参与过|负责过|最有|最难|最大|的优点|的缺点|的优缺点|如何处理|怎么处理|"
    r"为什么想|为什么选择|为什么离开|的职业规划|未来.{0,4}规划)|讲一个你|说一个你|举一个你|介绍一个你|"
    r"最有挑战|最难的|最大的挑战|(?:团队|同事|意见|人际)冲突|发生冲突|冲突时|分歧|失败的经历|压力|团队合作|"
    r"tell\s+(?:me|us)\s+about\s+a\s+time|describe\s+a\s+(?:time|situation|project|conflict)|"
    r"a\s+time\s+(?:when|you)|walk\s+(?:me|us)\s+through\s+(?:a|your|one)\s+(?:project|past)|"
    r"\byour\s+(?:experience|biggest|greatest|most|past|previous|favou?rite|strengths?|weakness)|"
    r"conflict\s+with|(?:team|interpersonal)\s+conflict|(?:resolve[ds]?|handled?)\s+(?:a\s+)?conflict|\bdisagree|\bfailure\b|\bmistake\b|why\s+do\s+you\s+want|why\s+(?:this|our)\s+(?:role|team|company)|"
    r"\bstar\s+method|\bleadership\b)",
    re.IGNORECASE,
)


def question_kind(text: str) -> str:
    """``coding``, ``design``, ``behavioural`` or ``concept`` (the default)."""
    head = text[:MAX_QUESTION_CHARS]
    if _BEHAVIOURAL.search(head[:150]):
        return "behavioural"
    if _CODING.search(head):
        return "coding"
    if _DESIGN.search(head):
        return "design"
    return "concept"


@dataclass(frozen=True)
class LineJudgement:
    """What one line says: ``text`` (cleaned) and how it asks (``mark``, ``verb``, ``topic``)."""

    text: str
    mark: bool  # ends with a question mark
    verb: bool  # opens with an asking or imperative verb
    topic: bool  # a bare topic ("X 原理", "A vs B") — a question only inside an interview round
    dropped: str | None  # why it is certainly not a question to drill, if it is not

    @property
    def asks(self) -> bool:
        return self.dropped is None and (self.mark or self.verb)


#: An interviewer's turn in a transcript ("**Interviewer:** …", "面试官：…"): what follows is what was asked.
_INTERVIEWER_TURN = re.compile(r"(?:\*\*|__)?\s{0,2}(?:interviewer|面试官|考官)\s{0,2}(?:\*\*|__)?\s{0,2}[:：]\s{0,2}(?:\*\*|__)?\s{0,2}",
                               re.IGNORECASE)
#: A turn quoted whole: the quotes are not part of the question.
_QUOTED = re.compile(r'["“「『](.{4,}?)["”」』]', re.DOTALL)
_QUOTE_MARKS = re.compile(r'["“”「」『』]')


def interviewer_turn(line: str) -> bool:
    """Whether ``line`` is the interviewer's turn of a transcript ("Interviewer: …", "面试官：…")."""
    return _INTERVIEWER_TURN.match(line) is not None


def clean_question(line: str) -> str:
    """The question of a line: list markers, a trailing answer note and colons removed."""
    text = strip_list_marker(_MARKDOWN_LINK.sub(r"\1", line) if "](" in line else line)
    if "://" in text:
        text = _without_trailing_urls(text)  # "进程内存如何排查 https://…": a reference after the question
    described = _DESCRIBED_TOPIC.match(text)  # "**I/O多路复用**：通过讨论select与epoll的区别…": the topic, then
    if described and not ends_with_question_mark(text) and not _ASKING_EN.match(described["rest"]) \
            and not _ASKING_ZH.match(described["rest"].translate(TRADITIONAL)):
        return described["t"].strip()  # what the report says of it
    narrative = _NARRATIVE_PREFIX.match(text)
    if narrative and len(text) - narrative.end() >= 4:  # "然后让我写个题，实现一个…" → "实现一个…"
        text = text[narrative.end():]
    cut = _ANSWER_CUT.search(text, 4) if len(text) > 4 else None
    if cut:
        text = text[: cut.start()].rstrip(" ，,;；:：")
    label = _QUESTION_LABEL.match(text)
    if label and len(text) - label.end() >= 4:
        text = text[label.end():]
    bold = _BOLD_LABEL.match(text)  # "**L2：**推导公式…", "**反例：**启用…": a tag in bold before the question
    if bold and len(text) - bold.end() >= 4 and text[bold.end()] not in _QUOTE_OPENERS:  # ('**Common Mistake:** "…"')
        text = text[bold.end():]
    turn = _INTERVIEWER_TURN.match(text)  # '**Interviewer:** "We train …. Why?"': the quoted turn is the question
    # … and so is a whole line in quotes ('- “Implement an LRU cache …”', an example question)
    quoted = _QUOTED.fullmatch(text[turn.end():].strip() if turn else text.strip().strip("*_"))
    if quoted and _QUOTE_MARKS.search(quoted.group(1)):
        quoted = None  # '"A" or "B"': two quotations, not one
    if quoted:
        text = quoted.group(1)
    elif turn and len(text) - turn.end() >= 4:
        text = text[turn.end():]  # "Interviewer: What if …?": the turn's words
    elif '"' in text or "“" in text or "「" in text:
        introduced = _INTRODUCED_QUOTE.search(text[-320:])  # 'A memory question came up: "How is -2 stored …?"'
        if introduced:
            text = introduced["q"]
    return _CLOSING_SEMICOLON.sub("", text.strip().strip("*_").strip())  # ("- 介绍一下项目;": an item's closing semicolon)


_CLOSING_SEMICOLON = re.compile(r"(?<=[\u4e00-\u9fff])\s{0,2}[;；]\s{0,2}$")


#: A quoted question a sentence introduces with a colon at its end.
_INTRODUCED_QUOTE = re.compile(r"[:：]\s{0,3}[\"“「](?P<q>[^\"“”「」]{6,300}?[?？])[\"”」]\s{0,2}[.。]?\s{0,2}$")


def opens_asking(text: str) -> bool:
    """Whether ``text`` opens as a question or a task does ("Explain …", "Explore …", "如何 …"),
    whatever follows."""
    text = clean_question(text)
    return bool(_ASKING_EN.match(text) or _ASKING_ZH.match(text.translate(TRADITIONAL)))


def judge_line(line: str) -> LineJudgement:
    """Judge one line on its own (context is the caller's). Cached: the stages ask about the
    same lines more than once (the document's kind, its runs of questions, the questions), and
    a document's short lines all fit (a long line is judged afresh: the cache stays small)."""
    return _judged(line) if len(line) <= _CACHED_CHARS else _judge(line)


#: Lines this short are cached, this many of them (a whole document's: its lines are read at most
#: 20,000; the cache holds a few megabytes at most).
_CACHED_CHARS = 200
_CACHED_LINES = 20_000


@lru_cache(maxsize=_CACHED_LINES)
def _judged(line: str) -> LineJudgement:
    return _judge(line)


def _judge(line: str) -> LineJudgement:
    text = clean_question(line)
    task = _TASK_LABEL.match(text)  # "算法题：最小覆盖子串", "Coding Question: …": a task
    task = task if task and len(text) - task.end() >= 4 else None
    # "第1题：请手绘…", "问题2：…": the line says it is a question (clean_question took the label off)
    labelled = _QUESTION_LABEL.match(strip_list_marker(line))
    if task and _LABEL_WORD.search(task.group()):  # "Design Question: Implementing a singleton …"
        text = text[task.end():].strip()
    text = _without_answer_after_colon(_without_answer_note(text))
    probe = text.translate(TRADITIONAL)  # 說/講/麼 … read as 说/讲/么 by the patterns below
    dropped = None
    if len(text) < _MIN_CHARS:
        dropped = "short"
    elif len(text) > MAX_QUESTION_CHARS:
        first = _FIRST_SENTENCE.match(text)  # "Implement a kernel for C = A·B in CUDA. Specify: 1) …"
        if first and 12 <= len(first.group()) <= MAX_QUESTION_CHARS and _ASKING_EN.match(first.group()):
            return judge_line(first.group())
        dropped = "long"
    elif text.startswith("|") and text.count("|") >= 3 and _TABLE_ROW.fullmatch(text[:2000]):
        dropped = "a table's row"  # ("| 协议 | https | 决定用哪套规则 |": the cells that ask were taken out of it)
    elif text.endswith((":", "：")) and _ASKS_OVER_ANSWER.fullmatch(probe):
        return judge_line(text.rstrip(":：").rstrip())  # "6:如何进行路由,路由表如何查找:" over its answer
    elif text.endswith((":", "：", " -", " –", " —")) or _TIP_LABEL.match(text) or _notes_or_answers(line):
        dropped = "label"
    elif _DROP_ZH.match(probe) or _DROP_EN.match(text) or _RHETORICAL_ZH.match(probe) or _ASKER_IS_I.match(text) \
            or _MY_ANSWER_ZH.match(probe) or (_MY_DOING_EN.match(text) and not ends_with_question_mark(text)):
        dropped = "not a technical question"
    elif _PROJECT_ONLY.fullmatch(probe) or _PROJECT_ONLY_EN.fullmatch(text):
        dropped = "project talk without a topic"
    elif _TRANSITION.fullmatch(probe):
        dropped = "a transition to the next topic"
    elif _HEADLINE_EN.match(text) and not ends_with_question_mark(text) and _title_cased(text):
        dropped = "a headline"  # "Why C++ Depth Dominates HFT Interviews", "How NVIDIA Tests CUDA Skills"
    if dropped:
        return LineJudgement(text, False, False, False, dropped)
    listed = strip_list_marker(line) != line.strip()
    mark = ends_with_question_mark(text) or _asks_then_explains(text) or (listed and _CARD_QUESTION.match(text) is not None)
    asked = _ASKED_CUE.match(strip_list_marker(line)[:40].translate(TRADITIONAL)) is not None  # "问了线程同步": asked, by the narration
    verb = bool(task or labelled or asked) or bool(_ASKING_ZH.match(probe) or _ASKING_EN.match(text)) or (
        not mark and _asks_without_mark_zh(probe, listed)) or bool(len(text) <= 120 and _LATER_IMPERATIVE.search(probe))
    glued = _GLUED_LABEL.match(text) if mark else None
    if glued:  # "OS concepts-what is mutual exclusion?": a topic's label glued to the question by a dash
        return judge_line(text[glued.end():])
    if not verb and not mark:  # "System design: Design a …", "Behavioral - Describe a …"
        colon = first_colon(text, 0, 24)
        dash = _LABEL_DASH.search(text, 0, 28)
        cut = colon + 1 if colon > 0 else (dash.end() if dash else -1)
        if cut > 0:
            after = judge_line(text[cut:])
            if after.asks:
                return after
            if colon > 0 and _ASKED_LABEL.match(probe[:colon + 1]) and after.dropped is None \
                    and _ZH_QUESTION_WORD.search(after.text.translate(TRADITIONAL)[:150]):
                return LineJudgement(after.text, False, True, False, None)  # "面试很爱问的几个点:A是什么,B…。"
    if not mark and _ADVICE.match(text) and not (text.startswith("对于") and _ZH_QUESTION_WORD.search(text[:80])):
        # ("对于临界区有什么保护方法" asks about what follows "对于")
        return LineJudgement(text, False, False, False, "advice")
    topic = bool(not mark and not verb and len(text) <= 80 and _CONCEPT_NOUN.match(probe))
    return LineJudgement(text, mark, verb, topic, None)


#: A bold label opening a line ("**考核重点：** …", "- **Approach 2 (Brute Force):** …").
_BOLD_NOTE_LABEL = re.compile(r"\s{0,3}(?:[-*+•]\s{1,3})?\*\*(?P<l>[^*\n]{1,40}?)\s{0,2}(?:[:：]\s{0,2}\*\*|\*\*\s{0,2}[:：])")
_LABEL_NUMBER = re.compile(r"\s{0,2}(?:\d{1,2}|[(（][^()（）]{0,30}[)）])\s{0,2}")


def _notes_or_answers(line: str) -> bool:
    """Whether ``line`` opens with a bold label that says what follows is a note or an answer
    ("**考核重点：** 理解…", "**Approach 2 (Brute Force):** …", "**参考答案：** …"), which
    :func:`clean_question` takes off as it takes off an item's tag ("**L2：**")."""
    if "**" not in line[:8]:
        return False
    label = _BOLD_NOTE_LABEL.match(line)
    if label is None:
        return False
    name = _LABEL_NUMBER.sub(" ", label["l"]).strip()
    return bool(_TIP_LABEL.match(name + ":")) or ANSWER_HEADING.fullmatch(name) is not None


#: A headline, not a question: a wh-word and a clause without the inverted verb a question has
#: ("Why C++ Depth Dominates …", "How NVIDIA Tests …"; not "Why does …", "How to …", "How many …").
_HEADLINE_EN = re.compile(r"(?:why|how|when|where)\s+(?!(?:to|come|not|is|are|was|were|do|does|did|can|could|would|should|"
                          r"will|shall|may|might|must|has|have|had|many|much|long|often|far|big|large|fast|well|"
                          r"about|exactly)\b)(?-i:[A-Z0-9])", re.IGNORECASE)
_LONG_WORD = re.compile(r"[A-Za-z][a-z]{3,}")


def _title_cased(text: str) -> bool:
    """Whether the words of ``text`` are capitalised as a title's are (three of four words of four
    letters or more, two of them at least)."""
    words = _LONG_WORD.findall(text[:200])
    return len(words) >= 2 and sum(1 for w in words if w[0].isupper()) >= 0.75 * len(words)


#: "算法题：", "编程题:", "场景题：", "手撕：", "Coding Question:", "Design question -": the rest is a task.
_TASK_LABEL = re.compile(
    r"(?:算法题|编程题|代码题|场景题|设计题|智力题|手[撕写](?:代码|题)?|(?:最后|然后|接着)?(?:现场)?写代码|第\s{0,2}[\d一二三四五六七八九十]{1,3}\s{0,2}[题问]|"
    r"(?:coding|design|system\s+design|algorithm(?:ic)?)"
    r"\s+(?:question|problem|task|exercise))\s{0,2}\d{0,2}\s{0,2}[:：\-–—]\s{0,2}",
    re.IGNORECASE)
# A label saying what follows was asked ("面试很爱问的几个点:", "常考:", "问了这些:").
_ASKED_LABEL = re.compile(r".{0,20}(?:问|考|聊)(?:的|了|到|过)?.{0,8}[:：]")
_LABEL_WORD = re.compile(r"\b(?:question|problem|task|exercise)\b", re.IGNORECASE)
#: The asker is "I" ("How do I reset my password?", "Can I apply twice?"): the candidate's own question.
_ASKER_IS_I = re.compile(r".{0,40}?\b(?:do|did|does|can|could|should|will|would|am|was|may|must|have|"
                         r"didn't|don't|doesn't|can't|won't|wasn't|haven't)\s+i\b(?!/)",
                         re.IGNORECASE)
# A question mark, then a short clause that explains it ("…的特点嘛?比如它们的应用场景。").
_EXPLAINS = re.compile(r"\s{0,2}(?:比如|例如|譬如|即|就是说|也就是|像|考虑|假设|假如|e\.g\.|i\.e\.|for\s+example|such\s+as|like|"
                       r"assume|consider|given)", re.IGNORECASE)
_MAX_EXPLANATION = 60
# A note in brackets after a question: the candidate's answer ("智能指针有哪些(auto_ptr, unique_ptr)",
# "(they use 128-bit loads)", "(我答了…)"), when the question before it is complete.
_NOTE = re.compile(r"\s{0,2}[(（](?P<note>[^()（）]{2,200})[)）][。.!！]?\s{0,2}$")
_NOTE_BY_CANDIDATE = re.compile(r"(?:i|we|my|they|it|this|he|she|我|我们|他|她|面试官|答)\b|[我他她答]", re.IGNORECASE)
#: A note that tells how the candidate answered ("绝了，不知道咋讲。。说了存放地址和端口", "说了观察者模式").
_ANSWERED = re.compile(r"说了|讲了|答了|回答了|答的|不知道|不会|没答|答出|忘了|懵了|蒙了")
#: How often a question was asked ("3次", "x2", "高频"): the author's count, not the question.
_TIMES_ASKED = re.compile(r"\s{0,2}(?:\d{1,3}\s{0,2}次|[x×]\s{0,2}\d{1,3}|\d{1,3}\s{0,2}times|高频|常考)\s{0,2}", re.IGNORECASE)
_COMPLETE_ZH = re.compile(r".*(?:有哪些|哪些|是什么|原理|为什么|为何|怎么办|怎么做|如何|吗|么|呢|区别|作用|机制)$")


def _without_answer_after_colon(text: str) -> str:
    """``text`` without the answer its author wrote after a colon ("linux做过什么:webserver",
    "进程间通信方式有哪些：管道、消息队列…"): the part before the colon asks with a question word
    and is no label, the part after it asks nothing."""
    colon = first_colon(text, 4, 41)
    if colon < 0 or "?" in text[colon:] or "？" in text[colon:]:
        return text
    head, tail = text[:colon].strip(), text[colon + 1:].strip()
    probe = head.translate(TRADITIONAL)
    if len(tail) < 2 or not (_ZH_QUESTION_WORD.search(probe) or _ZH_TOPIC_ASKED.search(probe)) \
            or _TASK_LABEL.match(head + "：") or _ASKED_LABEL.match(head + "：") or _QUESTION_LABEL.match(head + "：") \
            or _TIP_LABEL.match(head + "：") or _ASKING_ZH.match(tail.translate(TRADITIONAL)) or _TAIL_GOES_ON.match(tail):
        return text
    return head


#: A topic a question names without a question word: "A和B的区别", "X的原理".
_ZH_TOPIC_ASKED = re.compile(r"(?:区别|异同|原理|优缺点|优劣)$")
#: What goes on with the question after its colon, not its answer: its requirements, its example.
_TAIL_GOES_ON = re.compile(r"要求|给定|输入|输出|其中|比如|例如|假设|如果|已知|条件|场景|追问|follow", re.IGNORECASE)


def _without_answer_note(text: str) -> str:
    """``text`` without a bracketed answer or remark after a complete question."""
    note = _NOTE.search(text[-220:])
    if note is None:
        return text
    start = len(text) - len(text[-220:]) + note.start()
    head = text[:start].rstrip()
    if len(head) < 4:
        return text
    content = note["note"].strip()
    if _NOTE_BY_CANDIDATE.match(content) or _COMPLETE_ZH.match(head.translate(TRADITIONAL)[-40:]) \
            or _ANSWERED.search(content) or _TIMES_ASKED.fullmatch(content):
        return head
    if len(head) <= 20 and _REMARK.search(content):
        return head  # "反转链表(送分)", "买卖股票(麻了,题目看都不想看)": the author's remark on a problem's name
    if head.endswith(("?", "？")) and (_ENUMERATION.search(content) or _GUESS.match(content) or _STATES.search(content)):
        return head  # "…卡在哪些指标上?(FLOPS、显存带宽、PCIe 带宽等等)", "…了解哪些？（可能和RAG相关）"
    return text


# "用了这么久python，试着手写一个python的装饰器": a clause that tells the candidate to do something.
_LATER_IMPERATIVE = re.compile(r"[，,]\s{0,2}(?:请|那)?(?:试着|手写|手撕|写一个|写个|实现一个|设计一个|说说|讲讲|谈谈|解释一下|介绍一下)(?!了)")
_FIRST_SENTENCE = re.compile(r".{12,300}?[.?!](?=\s)")
_ENUMERATION = re.compile(r"[^、,，]{1,40}[、,，][^、,，]{1,40}[、,，]|等等|\betc\b")
# "然后问系统", "接下来问操作系统", "顺着项目问了 GPU 相关": the report moving on, not a question.
_TRANSITION = re.compile(r"(?:然后|接下来|接着|之后|开始|顺着.{1,8}?)(?:又)?(?:问|聊|考)(?:了)?(?:一些|一下|点)?\s{0,2}"
                         r"[^?？，,。]{1,8}?(?:相关|方面|部分|的)?[。.]?")
_REMARK = re.compile(r"送分|麻了|秒了|没写出|写出来|写完|跑了|过了|吐槽|想放我|看都不想|\bac\b|\beasy\b|[\U0001F600-\U0001F64F]",
                     re.IGNORECASE)
_STATES = re.compile(r"(?:是|不是|不会|会|因为|所以|用的)[^?？]{0,40}$|\b(?:yes|no|because)\b", re.IGNORECASE)
_GUESS = re.compile(r"可能|应该|大概|好像|估计|感觉|猜|maybe|probably|i\s+think", re.IGNORECASE)


#: A listed card's question: its first sentence, a short one ending in a question mark, over the answer
#: in sentences after it ("6. MLA reduction strategy? Compress KV through a low-rank projection.").
_CARD_QUESTION = re.compile(r"[^?？。.!！]{4,120}[?？]\s{1,3}(?=[A-Z\u4e00-\u9fff])")


def _asks_then_explains(text: str) -> bool:
    """A question mark inside the line, followed only by a short clause that explains the question."""
    last = max(text.rfind("?"), text.rfind("？"))
    return 4 <= last and len(text) - last - 1 <= _MAX_EXPLANATION and bool(_EXPLAINS.match(text, last + 1))


#: Traditional characters read as simplified (one character for one, so a match's positions are
#: the original text's).
TRADITIONAL = simplified_characters()


def _asks_without_mark_zh(text: str, listed: bool = False) -> bool:
    """A Chinese line that asks with a question word and no "？" ("通信量怎么估算"); not a
    statement that ends with "。" (unless it is a short listed item: "- 移动语义解决什么问题。")."""
    head = text[:150]
    ends = text.endswith(("。", ".", "！", "!")) and not (listed and len(text) <= 40 and text.endswith(("。", ".")))
    return len(text) <= 120 and not ends and bool(CJK.search(head)) and bool(_ZH_QUESTION_WORD.search(head))


def question_text(line: str) -> str | None:
    """The question in an interview-section line (marker removed), or None if it asks nothing."""
    judgement = judge_line(line)
    return judgement.text if judgement.asks else None


_SPLIT = re.compile(r"[；;]|(?<=[？?])\s{0,3}(?=\S)")
_SEMICOLON = re.compile(r"[；;]")
_FOLLOW_UP = re.compile(r"(?:then|and|also|what\s+if|how\s+about|follow[- ]?up|discuss|analy[sz]e|extend|justify|"
                        r"再|然后|如果|那|追问)\b|(?:再|然后|如果|那么|追问)",
                        re.IGNORECASE)
_INLINE_ENUM = re.compile(r"(?:(?<=[\s：:，,。；;])|^)(?:\d{1,2}\s?[)）、]|[（(]\d{1,2}[)）]|[\u2460-\u2473])\s{0,2}")


#: "cuda实现：reduction，softmax，matrix transpose", "手撕：LRU、快排、topk": a task label, then names.
_TASK_LIST = re.compile(r"[^:：，,。]{0,12}?(?:实现|手撕|手写|代码题|编程题|算法题|coding|implement(?:ation)?s?)\s{0,2}[:：]\s{0,2}",
                        re.IGNORECASE)
_NAME_SEPARATOR = re.compile(r"\s{0,2}[,，、；;]\s{0,2}")
#: The names of such a list: at least this many, each at most this long (the author's remark after
#: them, "大部分情况下都是实现kernel即可", ends the list).
_TASK_LIST_MIN, _TASK_NAME_CHARS, _TASK_NAME_CJK = 3, 20, 8


def task_names(body: str) -> list[str]:
    """The tasks a task label lists by name, or [] when the line is not such a list."""
    label = _TASK_LIST.match(body)
    if not label:
        return []
    names = []
    for name in _NAME_SEPARATOR.split(body[label.end():].rstrip("。.")):
        if not name or len(name) > _TASK_NAME_CHARS or len(CJK.findall(name)) > _TASK_NAME_CJK:
            break
        names.append(name)
    return names if len(names) >= _TASK_LIST_MIN else []


_CODE_SPAN = re.compile(r"`[^`\n]{1,200}`")
_CODE_PUNCTUATION = ";；.?？。!！"
_IN_CODE = str.maketrans(_CODE_PUNCTUATION, "".join(chr(0xE000 + i) for i in range(len(_CODE_PUNCTUATION))))
_OUT_OF_CODE = str.maketrans("".join(chr(0xE000 + i) for i in range(len(_CODE_PUNCTUATION))), _CODE_PUNCTUATION)


def hide_code_punctuation(line: str) -> str:
    """``line`` with the sentence punctuation inside inline code spans (`` `A *p = nullptr;` ``)
    replaced by stand-ins, so that a sentence splitter does not cut there; :func:`show_code_punctuation`
    puts it back."""
    if "`" not in line:
        return line
    return _CODE_SPAN.sub(lambda m: m.group().translate(_IN_CODE), line)


def show_code_punctuation(text: str) -> str:
    return text.translate(_OUT_OF_CODE)


def split_questions(line: str) -> list[str]:
    """The questions of a line that asks several: ``问了：1）A 2）B``, ``A？B？`` and ``A；B`` on
    an unnumbered line; a numbered or bulleted item is one question, however many "？" it has
    ("KV Cache 是什么？为什么…" asks one thing and its follow-up)."""
    if len(line) > MAX_QUESTION_CHARS * 2:
        return [line]
    body = strip_list_marker(line)
    marks = list(_INLINE_ENUM.finditer(body))
    if len(marks) >= 2:
        parts = [body[m.end(): marks[i + 1].start() if i + 1 < len(marks) else len(body)].strip(" ，,、；;")
                 for i, m in enumerate(marks)]
        parts = [p for p in parts if len(p) >= _MIN_CHARS]
        if len(parts) >= 2:
            return parts
    tasks = task_names(body)
    if tasks:
        return tasks
    if not any(c in line for c in "；;？?"):
        return [line]
    # A line splits on "；" only: "A？B" on one line is a question and its follow-up, and so is
    # "A; then, B" (a follow-up opened by a connector).
    parts = []
    for part in _SEMICOLON.split(body):
        part = part.strip(" ，,、")
        if parts and _FOLLOW_UP.match(part):
            parts[-1] = f"{parts[-1]}; {part}"
        else:
            parts.append(part)
    parts = [p for p in parts if p]
    if len(parts) < 2 or any(len(p) < _MIN_CHARS for p in parts):
        return [line]
    if body != line.strip() and not all(judge_line(p).asks for p in parts):
        return [line]  # a listed item whose parts do not each ask is one question ("A;一些容器的特点;…")
    return parts
