"""Stage 3 of extraction: is the document an interview report (面经, a Glassdoor-style review)
or a job posting? Judged from its rounds, its title, its posting sections and report phrases.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from .asking import judge_line, strip_list_marker
from .headings import GENERIC, INTERVIEW, ROUND_KIND
from .rounds import ROUND_NUMBER
from .segment import Block

REPORT_TITLE = re.compile(
    r".{0,80}?(?:面经|面试经验|面试记录|面试复盘|面试总结|面试回顾|面试分享|面试真题|一面|二面|三面|终面|hr面|秋招|春招|"
    r"(?-i:\bVO\b)|(?:第[一二三四五]轮|vo|onsite|oa)\s{0,2}真题|"
    r"interview\s+(?:experience|report|review)|interview(?:ed)?\s+(?:at|with)\s|interviewed\s+for|my\s+(?:[\w.&+/-]{1,20}\s+){0,5}interviews?\b|"
    r"onsite\s+experience|"
    r"phone\s+screen|interview\s+questions\s+(?:at|from)|面试.{0,30}(?:体验|经历|感受)|"
    r"(?:公司|实习生?|社招|校招|岗位?)面试\s{0,2}$|"  # "2014s公司实习生面试": a title that ends with its interview
    r"(?-i:[A-Z][\w ,&()-]{2,60})\s(?:interview|Interview)\s{0,2}(?:\([\w ,.-]{1,20}\)\s{0,2})?(?:$|[,:|–—]\s|\s-\s))",
    re.IGNORECASE,
)
#: A line that opens with its round ("一面主要问项目和计网 50min:"): the report's own, not another's title.
_ROUND_OPENING = re.compile(r"\s{0,3}(?:[一二三四五六终]面|hr\s{0,2}面|第[一二三四五六]轮|" + ROUND_NUMBER + ")", re.IGNORECASE)
#: A title that can only be a report's, even over the posting the candidate applied to (a 面经 that
#: opens with the job description): "第8次面试回顾", "字节 GPU 面经", "Interview experience at …".
_OWN_REPORT_TITLE = re.compile(
    r".{0,60}?(?:面经|面經|面试(?:经验|经历|记录|复盘|总结|回顾|心得)|面試(?:經驗|經歷|記錄|復盤|總結|回顧)|"
    r"interview\s+(?:experience|report|review|recap)|interviewed\s+(?:at|with|for)\s)",
    re.IGNORECASE,
)
_REPORT_MARKERS = re.compile(
    r".{0,120}?(?:面试官|问了|问到|手撕|反问|面了|面试的时候|面试过程中|(?<![a-z])oc(?![a-z])|i\s+interviewed|i\s+applied|interviewer|they\s+asked|the\s+interviewer|"
    r"asked\s+me|got\s+the\s+offer|(?:got|was)\s+rejected|we\s+discussed|(?:he|she)\s+wanted\s+me\s+to|"
    r"i\s+had\s+(?:[\w-]+\s+){0,3}(?:interviews?|rounds?)\b)"  # "I had a recent interview …", "I had two rounds"
    r"|.{0,200}?\b(?:i\s+was\s+(?:also\s+)?asked|(?:the|my|first|second|final)\s+interviewer\s+(?:asked|started|discussed)|"
    r"interview\s+round\s+was|my\s+(?:first|second|third|final)\s+(?:interview|round)|"
    r"the\s+(?:first|second|third|final|next)\s+round\s+(?:was|started|began|covered|focused)|the\s+interview\s+(?:started|began|went|was\s+not)|"
    r"(?:first|next|second|third|last|final)\s+question\s+(?:was|he|she|they))",
    re.IGNORECASE,
)


def is_report(lines: list[str], blocks: list[Block]) -> bool:
    """Whether the document of ``lines`` (segmented into ``blocks``) is an interview report."""
    # A list of other reports' titles: short lines, not a report's own paragraphs ("一面是电话，…").
    # Lines inside a round ("二面明显压力大了", "结果第二天约三面了") are the report's own.
    # (A line that opens with its round, "一面主要问项目 50min:", is the report's own; a breadcrumb
    # repeats the title: "首页 > X面经" over "X面经".)
    titles = {line.rsplit(">", 1)[-1].strip() for block in blocks if block.kind in ("header", GENERIC)
              for line in block.lines[:400]
              if 6 < len(line) <= 60 and REPORT_TITLE.match(line) and not _ROUND_OPENING.match(line)}
    if len(titles) >= 4:  # a board's list of report titles, not a report
        return False
    if any(len(line) <= 80 and _OWN_REPORT_TITLE.match(line) for line in lines[:3]):
        return True
    rounds = sum(1 for b in blocks if b.kind == ROUND_KIND and b.name and not b.answer)
    if rounds >= 1 and any(REPORT_TITLE.match(line[:200]) for line in lines[:6]):
        return True
    posting_sections = sum(1 for b in blocks if b.kind in ("required", "responsibilities", "nice"))
    if rounds >= 2 and (posting_sections == 0 or _rounds_ask(blocks)):
        return True  # (a posting's own "Application Process" names its rounds, and asks nothing in them)
    # (a report written as one paragraph tells its interview sentence after sentence)
    markers = sum(1 for line in lines[:400] for sentence in (_SENTENCE_GAP.split(line[:3000])[:30] if len(line) > 200 else [line])
                  if _REPORT_MARKERS.match(sentence[:200]))
    if posting_sections == 0 and (rounds or any(REPORT_TITLE.match(line[:200]) for line in lines[:6])):
        return True
    return posting_sections == 0 and markers >= 3


def _rounds_ask(blocks: list[Block]) -> bool:
    """Whether a line under an interview round asks (a report's round, not a posting's list of its steps)."""
    return any(judge_line(line).asks for b in blocks if b.kind == ROUND_KIND and not b.answer for line in b.lines[:50])


#: A card's button over its hidden answer.
_REVEAL = re.compile(r"(?:show|view|reveal|see|toggle)\s+(?:the\s+)?(?:full\s+)?answer|查看答案|显示答案|展开答案|点击查看答案",
                     re.IGNORECASE)
#: Lines examined for :func:`is_question_list` (bounded work on a pathological paste).
_LIST_SCAN_LINES = 400
_ANSWER_LINE = re.compile(r"(?:答案|参考答案|参考回答(?:模板|思路)?|回答(?:模板|思路)|答|解析|"
                          r"(?:my\s+|short\s+|sample\s+|model\s+|reference\s+|suggested\s+)?(?:answer|explanation)|a)"
                          r"\s{0,2}(?:[:：]|$)", re.IGNORECASE)
_POSTING_KINDS = ("required", "responsibilities", "nice")
#: The document is about interviews: it says so, or narrates one.
_INTERVIEW_WORD = re.compile(r"面试|面試|面經|面经|八股|笔试|手撕|被问|问(?:了|的|到|我|得)|追问|这轮|[一二三四终]面|考察(?:你|点)|考点|"
                             r"interview|entrevista|entretien|vorstellungsgespr|面接|면접|(?:technical|tech|phone)\s+screen|"
                             r"\b(?:technical|coding|systems?|design|behaviou?ral|onsite|hr|final|first|second|third)\s+round\b|"
                             r"\b" + ROUND_NUMBER + "|"
                             r"asked\s+(?:me|about|to)|i\s+was\s+asked", re.IGNORECASE)
#: A heading may say it plainly: "GPU architecture-specific questions", "常见问题清单".
_QUESTIONS_HEADING = re.compile(r".{0,40}(?:questions|题目|问题|题)", re.IGNORECASE)
#: A technical question names a thing: an acronym, a code word, a technical noun.
_TECHNICAL = re.compile(
    r".{0,120}?(?:(?-i:[A-Z]{2,}|[A-Za-z]+\d|[a-z]+[A-Z])|[A-Za-z]+[_/.:+#]\w|原理|实现|机制|算法|优化|内存|显存|线程|进程|网络|协议|"
    r"锁|缓存|调度|并行|通信|编程|代码|数组|链表|树|矩阵|字符串|复杂度|带宽|延迟|吞吐|架构|存储|框架|模型|指针|函数|"
    r"(?<![a-z0-9_])(?:memory|thread|kernel|cache|latency|bandwidth|throughput|pointer|compiler|parallel|synchroni[sz]\w*|"
    r"algorithm|complexity|concurren\w*|architecture|architect|implement\w*|optimi[sz]\w*|design|protocol|network\w*|GPU|CPU|"
    r"systems?|deploy\w*|storage|database|scal(?:e|ing|able|ability)|fault|cluster\w*|stream\w*|server\w*|distributed|queue\w*)(?![a-z0-9_])|"
    # a behavioural question is asked in interviews only
    r"\b(?:tell\s+(?:me|us)\s+about\s+a\s+time|describe\s+a\s+(?:time|situation)|give\s+an\s+example\s+(?:of|where|when)|"
    r"(?:can|could)\s+you\s+share\s+a\s+time))",
    re.IGNORECASE)


#: Question headings over their answers, this many and this share of the headings: a question bank.
_HEADING_LIST_MIN = 5
_HEADING_LIST_SHARE = 0.4
#: A list without an interview word: this many technical questions, making this share of its lines.
_BARE_LIST_MIN = 6
_BARE_LIST_SHARE = 0.5
#: … or this many asking lines one after another (a list pasted whole, its answers after it; the
#: page's asking lines must still be technical as above).
_BARE_RUN_MIN = 8


def _longest_run(indices: list[int]) -> int:
    """The longest run of consecutive numbers in the sorted ``indices``."""
    best = run = 0
    previous = None
    for i in indices:
        run = run + 1 if previous is not None and i == previous + 1 else 1
        best = max(best, run)
        previous = i
    return best


def is_question_list(blocks: list[Block]) -> bool:
    """Whether a document that is not a report is a list of interview questions without a heading
    that says so (a question bank, "10 questions you may be asked", a Q&A page): no posting
    section, and either five or more question headings over their answers, or lines that ask —
    at least three asking lines making a fifth of its short lines, or at least two questions each
    followed by its answer (a long paragraph or an "答案:" line). Without a word of interviews in
    its title or headings, only a page that is little but technical questions (a list pasted
    without its title) is one."""
    if any(b.kind in _POSTING_KINDS for b in blocks):
        return False
    asked_headings = sum(1 for b in blocks if b.answer)  # headings that ask, each over its answer
    other_headings = sum(1 for b in blocks if b.name and not b.answer)
    if asked_headings >= _HEADING_LIST_MIN and asked_headings >= _HEADING_LIST_SHARE * (asked_headings + other_headings):
        return True  # a bank of questions as headings over their answers ("### 1. Override vs. Overload")
    lines = [line for b in blocks if b.kind in ("header", GENERIC, INTERVIEW, ROUND_KIND) and not b.reverse and not b.answer
             for line in ([b.name] if b.name else []) + b.lines][:_LIST_SCAN_LINES]
    # question cards, each with its "Show answer" button under it: a list of questions, whatever its title
    revealed = sum(1 for above, line in zip(lines, lines[1:]) if _REVEAL.fullmatch(line[:40]) and judge_line(above).asks)
    if revealed >= 2:
        return True
    # a line the page repeats (a flashcard's "How well did you know this?", a button under each
    # item) is its chrome: counted once
    lines = list(dict.fromkeys(lines))
    title = [line for b in blocks for line in b.lines[:3]][:3]  # the title and the line under it
    names = [b.name for b in blocks if b.name]
    judged = {i: judge_line(line) for i, line in enumerate(lines) if len(line) <= 300}  # the short lines
    every = [i for i, judgement in judged.items() if judgement.asks]
    asking = [i for i in every if _TECHNICAL.match(lines[i])]
    if not any(_INTERVIEW_WORD.search(line[:300]) for line in [*title, *names]) and not any(
            _QUESTIONS_HEADING.match(name) for name in [*names, *title[:1]]):
        # its title and headings do not say interview (a newsletter, a thread, news), unless the
        # page is little but technical questions (a list pasted without its title)
        if len(asking) < _BARE_LIST_MIN or len(asking) < 0.6 * len(every):
            return False
        if _longest_run(every) >= _BARE_RUN_MIN:
            return True  # a list of questions pasted whole, its answers (if any) after it
        return sum(1 for j in judged.values() if j.asks or j.topic) >= _BARE_LIST_SHARE * len(lines)
    if len(asking) < 0.6 * len(every):
        return False  # mostly questions about the process, the site or the reader: a FAQ, a thread
    if len(asking) >= 3 and len(asking) >= 0.2 * len(judged):
        return True
    answered = 0
    for i in asking:
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if (len(following) > 150 and not judge_line(following[:300]).asks) or _ANSWER_LINE.match(following):
            answered += 1
    return answered >= 2


def read_as(lines: list[str], blocks: list[Block]) -> tuple[bool, bool]:
    """Whether the document is an interview report, and (when it is not) whether it is read as a
    list of questions: :func:`is_question_list`, or a page with no posting section that speaks of
    interviews near its top and has lines that ask (a write-up without "interview" in its title,
    a Q&A page, a bank of questions under headings of its own), or a page with no word of interviews
    nor of a job that has three technical lines that ask (notes of questions under the names of the
    companies that asked them, a wiki page of tasks). Its sentences are then each
    judged (by the rules and the sentence model), not skipped as a posting's header."""
    report = is_report(lines, blocks)
    if report:
        return True, False
    if is_question_list(blocks):
        return False, True
    if lines and titled_as_questions(lines[0]):
        # a page titled as interview questions ("… Interview Questions", "CUDA 面试题"), though it may
        # also go over the job it prepares for ("Key Responsibilities Interpretation")
        # (a bare topic counts here: "Difference between mutex and semaphore." under such a title was asked)
        return False, sum(_asking_sentences(line, topics=True) for line in _own_lines(blocks)) >= 2
    if any(b.kind in _POSTING_KINDS for b in blocks):
        return False, False
    top = [line[:300] for line in lines[:30]] + [b.name for b in blocks[:30] if b.name]
    if not any(_INTERVIEW_WORD.search(line) or _REPORT_MARKERS.match(line) for line in top):
        # no word of interviews; nor of a job either: a page of questions with answers, a wiki, notes.
        # A line that asks is not a posting's: "What did you like about your previous job?"
        own = list(_own_lines(blocks))
        listed = sum(1 for line in own if len(line) <= 300 and strip_list_marker(line) != line and _asks(line))
        job_lines = sum(1 for line in lines[:_LIST_SCAN_LINES] if _POSTING_WORD.search(line[:300]) and not _asks(line))
        if job_lines and not (listed >= _MOSTLY_ASKING_MIN and listed >= 2 * job_lines):
            return False, False  # (a guide's many listed questions outweigh a few words of a job in its answers)
        asking = sum(1 for line in own if len(line) <= 300 and _TECHNICAL.match(line) and judge_line(line).asks)
        # (or a page made mostly of listed items that ask, technical or not: "- Why are you leaving
        # your job?"; a blog's rhetorical headings are no list)
        return False, asking >= _UNLABELLED_LIST_MIN or (listed >= _MOSTLY_ASKING_MIN and 2 * listed >= len(own))
    asking = sum(_asking_sentences(line) for line in _own_lines(blocks))
    return False, asking >= 2


def _own_lines(blocks: list[Block]) -> Iterator[str]:
    """The headings and lines of the blocks that may hold the page's questions (not the
    candidate's own questions, not an answer), at most :data:`_LIST_SCAN_LINES` a block."""
    for block in blocks:
        if not (block.reverse or block.answer):
            yield from (line for line in [block.name, *block.lines[:_LIST_SCAN_LINES]] if line)


#: Words of a job posting (or a job board): a page with none of them and no word of interviews is not a posting.
_POSTING_WORD = re.compile(r"岗位|职位|职责|任职|要求|薪|招聘|福利|工作地点|学历|responsibilit|qualification|requirement|"
                           r"apply|salary|benefits|experience|proficien|degree|years\s+of|we\s+are\s+looking|you\s+will|you['’]ll|"
                           r"who\s+you\s+are|job|hiring|role",
                           re.IGNORECASE)
_UNLABELLED_LIST_MIN = 3
_MOSTLY_ASKING_MIN = 5


_SENTENCE_GAP = re.compile(r"(?<=[.?!？。！])\s+")
#: A title that says the page is interview questions.
_LIST_TITLE = re.compile(r"[#\s]{0,8}.{0,120}?(?:interview\s+(?:questions?|q\s?&\s?a|prep)|(?:mock|practice)\s+interviews?\b|"
                         r"面试题|面试问题|面试八股|模拟面试|八股文?(?:整理|总结|合集)?$)", re.IGNORECASE)


def titled_as_questions(title: str) -> bool:
    """Whether a title says its page is interview questions ("GPU Engineer: Interview Questions",
    "CUDA 面试题", "Practice interview: storage engineer"), though it may name a role."""
    return bool(_LIST_TITLE.match(title[:200])) and not _POSTING_WORD.search(title[:200])


def _asks(line: str) -> bool:
    head = line[:300]
    return head.rstrip().endswith(("?", "？")) or judge_line(head).asks


def _asking_sentences(line: str, topics: bool = False) -> int:
    """How many questions a line that asks holds (several run together on one line each count);
    with ``topics``, a sentence naming a topic counts as one."""
    asked = sum(1 for part in _SENTENCE_GAP.split(line[:600])
                if (judged := judge_line(part)).asks or (topics and judged.topic))
    if not (asked or judge_line(line).asks or "？" in line or "?" in line):
        return 0  # (a paragraph may ask in its later sentences only: "2 questions from CTCI. Explain …")
    return max(1, asked)
