"""Questions told in prose: the lines of an interview report that narrate a round instead of
listing it ("面试官上来就问 X，我说 …，他又追问 Y。接着问 Z。", "Then he asked how X works.
Follow up: why Y? I did a modified Prim's.").

A prose line is cut into sentences; in each sentence, every *cue* (问/追问/接着问/让我…,
"he asked", "Follow up:", "a coding question: …") opens a question that runs to the next cue,
the end of the sentence, or the candidate's answer ("，我说 …", ", I said …"). A sentence with
no cue is a question only if it asks on its own (a question mark, or an asking or imperative
verb: "Walk me through …", "Given …, find …"); narration ("I did a modified Prim's.") is not.

Every pattern is applied to one sentence of a line already bounded in length, with bounded
repeats, so the work is linear in the input. Pure module: no Flask, no database.
"""
from __future__ import annotations

import re

from .asking import CJK, TRADITIONAL, hide_code_punctuation, judge_line, show_code_punctuation

#: A line longer than this is not read as prose (it is a pasted article, not a report's round).
MAX_PROSE_CHARS = 3_000
#: Shorter than this, a line is one question or none: the line-level judgement decides.
MIN_PROSE_CHARS = 24

#: A bracketed remark closing a line: the author's note on the question, not narration of the round.
_TRAILING_REMARK = re.compile(r"(?<=[?？])\s{0,2}[（(][^()（）]{4,300}[)）]\s{0,2}$")
_SENTENCE_END_ZH = re.compile(r"(?<=[。！？!?；;])|(?<=[\u4e00-\u9fff)）A-Za-z]\.)(?=\s)")  # (an author may end a sentence with ". ")
_SENTENCE_END_EN = re.compile(r"(?<=[.!?;])\s+(?=[\"'(“A-Z0-9])")
# An English abbreviation before a full stop does not end a sentence.
_ABBREVIATION = re.compile(r"(?:\b(?:e\.?g|i\.e|vs|etc|approx|cf|dr|mr|ms|no|fig)\.)$", re.IGNORECASE)

_CUE_ZH = re.compile(
    r"(?:^|[，,：:\s(（的]|面试官|上来就|直接|接着|然后|最后|之后|随后|又|还|也|再|先|就|他|她|对方|后来|开始|[写答做讲]完|(?<=[后来然着也就要都还])是)"
    r"(?P<cue>(?:追问(?:了)?(?:一下|我)?|问(?![完过题来])(?:了)?(?:我|一下|下)?|让我(?:现场|当场)?|要求我(?:现场)?|"
    r"考(?:了|察了?)|聊(?![不得天完])了?(?:一下|聊)?)\s{0,2}[:：]?\s{0,2}"
    r"|(?:还有|又|再|然后|接着|最后)?(?:出了|让我?(?:写|做)了?)?(?:一|两|几)?道[^：:，,。]{0,8}[：:]\s{0,2}"
    r"|(?:请|叫)我(?=介绍|讲|说|写|画|设计|推导)"  # "他请我介绍一遍…"
    r"|第[一二三四五六七八九十\d]{1,2}题(?:是)?\s{0,2}[:：]?\s{0,2}|(?:(?P<task>题目|任务|算法题?|编程题|代码题|手撕(?:的)?)|(?<=的)问题)(?:是|要|为)\s{0,2}[:：]?\s{0,2}"  # "第一题是给定…", "题目要设计…"
    r"|(?:然后)?一(?:道|题)(?=[A-Za-z\u4e00-\u9fff])(?!easy|medium|hard|简单|中等|困难|难))"  # "考了一题OOP，然后一题BST…"
)
_CUE_EN = re.compile(
    r"(?P<cue>\b(?:(?:he|she|they|the\s+interviewer|interviewer|the\s+(?:hm|manager|engineer))\s+"
    r"(?:then\s+|also\s+|later\s+|first\s+|next\s+|finally\s+)?"
    r"(?:asked|wanted\s+(?:me|us)\s+to|had\s+(?:me|us)|made\s+(?:me|us)|grilled\s+me\s+on)"
    r"|i\s+was\s+(?:also\s+|then\s+|later\s+)?asked|we\s+were\s+(?:also\s+)?asked"
    r"|^(?:then\s+|also\s+|finally\s+)?asked(?=\s+(?:me|us)\s+(?:to|about)\b)"  # "Asked me to code …" (no subject)
    r"|(?<=\band\s)(?:was|were)\s+(?:also\s+|then\s+)?asked)"
    r"(?:\s+(?:me|us))?(?:\s+(?:an?|one|another)(?:\s+\w+)?\s+questions?)?(?:\s+(?:to|about|on|for))?\s+"
    r"|\b(?:(?:the|my|his|her|their)\s+)?(?:first|next|second|third|fourth|last|final|other)\s+(?:(?:and|last|final)\s+){0,2}"
    r"(?:interview\s+)?(?:question|problem|task)\s+(?:was|is)\s+(?:about\s+|on\s+|to\s+)?"
    r"(?!an?\s+(?:\w+\s+)?(?:question|problem|task))"
    r"|\b(?:then\s+|next\s+|later\s+)?we\s+(?:then\s+|also\s+)?(?:discussed|talked\s+about|went\s+(?:over|through)|covered|"
    r"had\s+(?:an?\s+)?(?:\w+\s+)?(?:discussions?|chat|conversation)\s+(?:about|on|around))\s+"
    r"|\bfollow[- ]?ups?\s{0,2}[:：\-–—]\s*"
    r"|\bthere\s+(?:was|were)\s+(?:also\s+)?(?:a|an|one|another|some)\s+(?:\w+\s+)?questions?\s+(?:about|on)\s+"
    r"|\b(?:stuff|things|topics|questions|subjects)\s+(?:that\s+)?(?:came\s+up|were\s+(?:asked|covered|discussed))\s+"
    r"(?:included?|were)\s{0,2}:?\s+"
    r"|\b(?:questions?|things|details?|topics)(?:\s+[\w-]{1,20}){0,3}?\s{0,2},?\s+(?:such\s+as|like)\s+(?=(?:what|how|why|when|which|explain|describe|write|implement|design)\b)"
    r"|^(?:then|and\s+then|also|next|finally)\s{0,2}[:：]\s*"
    r"|\b(?:a|an|one|another|the)\s+(?:(?:quick|short|live|classic)\s+)?"
    r"(?:coding|programming|design|system\s+design|algorithm(?:ic)?|behaviou?ral|debugging|sql|math|probability)?\s*"
    r"(?:question|problem|exercise|task|challenge)(?:\s+(?:in|on)\s+[\w-]{1,20})?\s{0,2}[:：]\s*)",
    re.IGNORECASE,
)
# Where the candidate's answer or the narration takes over again after a question.
_ANSWER_ZH = re.compile(r"[，,]\s{0,2}(?:我(?!们(?:可不可以|能不能|可以|能否|怎么|如何|为什么|是否))|回答|"  # ("，我们可不可以…" asks on)
                        r"(?:他|她|面试官)(?:就)?(?:说|答|回答|讲了|提了|用了|写了|当时|想了|觉得|认为)|"
                        r"(?:讨论|争论|聊)了(?=[\d一二三两四五六七八九十几半]{1,3}\s{0,2}(?:分钟|小时|min))|"  # "，讨论了十分钟"
                        r"(?=[^，,。]{0,16}?(?:忘了|就好了|就行了|没(?:回)?答(?:上|出)|(?:回)?答不(?:上|出)|不会了)))")  # "，blabla后面忘了"
_ANSWER_EN = re.compile(r"[,;]\s{0,2}(?:i|we)\s+(?:said|answered|explained|mentioned|talked|went|used|did|wrote)\b",
                        re.IGNORECASE)
_LEADING_CONNECTOR = re.compile(r"(?:and\s+then|and|then|also|plus|so)\s*[,:]?\s+(?=\S)|(?:以及|还有|另外|然后)[，,]?",
                                re.IGNORECASE)
_MIN_QUESTION_CHARS = 6
# What opens the next clause of the narration ("…怎么保证不丢消息，又问了…"): not part of the question.
_TRAILING_CONNECTOR = re.compile(r"[，,]\s{0,2}(?:然后|接着|最后|之后|随后|后来|另外|紧接着|再|又|还|也|就|[写答做讲]完){1,3}$")


_NARRATION = re.compile(
    r"(?:i|we|he|she|they|the\s+interviewer|interviewer|my|our|it\s+was|this\s+was|started|finished|ended|"
    r"我|我们|他|她|面试官|对方|感觉|结果|然后|最后|之后|接着|整体|全程|这轮|这一轮|本轮)\b"
    r"|(?:我|我们|他|她|面试官|对方|感觉|结果|整体|全程|这轮|这一轮|本轮)",
    re.IGNORECASE,
)


def is_prose(line: str) -> bool:
    """Whether ``line`` narrates (several sentences with a cue or a narrating one, one sentence with several cues, or long)
    rather than states one question, however many sentences that question takes ("A job hangs
    at NCCL init. How do you troubleshoot it?" is one question)."""
    if len(line) < MIN_PROSE_CHARS or len(line) > MAX_PROSE_CHARS:
        return False
    line = _TRAILING_REMARK.sub("", line)  # "8. arp在哪一层?干了什么?(问这个是因为我…)": a remark on the question
    if len(line) < MIN_PROSE_CHARS:
        return False
    chinese = bool(CJK.search(line[:400]))
    cue_re = _CUE_ZH if chinese else _CUE_EN
    parts = sentences(line.translate(TRADITIONAL) if chinese else line)
    if len(parts) < 2 and len(line) <= 150:
        # one sentence is one question, unless it tells several ("考了一题X，然后一题Y，一题Z") or
        # opens with its narration ("They asked a question about X.": X is the question)
        cues = [c for c in cue_re.finditer(parts[0] if parts else "") if c.end() > c.start("cue")]
        if chinese:  # (or names its problem after the round: "第二轮是系统设计，题目是设计一个…")
            return len(cues) >= 2 or any(c.group("task") and c.start("cue") > 0 for c in cues)
        return bool(cues) and cues[0].start("cue") == 0
    if any(_NARRATION.match(part) and not part.rstrip().endswith(("?", "？")) for part in parts):
        # (a sentence that asks is no narration: "他的目的是什么?" follows a question up)
        return True
    return any(c.end() > c.start("cue") for part in parts for c in cue_re.finditer(part))


def sentences(line: str) -> list[str]:
    """The sentences of ``line`` (Chinese and English punctuation; not inside inline code)."""
    if "`" in line and (hidden := hide_code_punctuation(line)) != line:
        return [show_code_punctuation(part) for part in sentences(hidden)]
    if CJK.search(line[:400]):
        parts = _SENTENCE_END_ZH.split(line)
    else:
        parts = []
        start = 0
        for match in _SENTENCE_END_EN.finditer(line):
            if _ABBREVIATION.search(line[max(0, match.start() - 8): match.start()]):
                continue
            parts.append(line[start: match.start()])
            start = match.end()
        parts.append(line[start:])
    return [p.strip() for p in parts if p.strip()]


def prose_questions(line: str) -> list[tuple[str, str]]:
    """The questions told in the prose ``line``, as ``(text, how)`` pairs: ``how`` is ``"cue"``
    when a cue ("问", "he asked") introduced the question, ``"asks"`` when the sentence asks on
    its own, ``"topic"`` for a bare topic ("A vs B, pros/cons") the caller may take in a round,
    ``"series"`` for each task or topic of a cue's series ("asked about paging, TLB and caches")."""
    found: list[tuple[str, str]] = []
    for sentence in sentences(line):
        cue_re = _CUE_ZH if CJK.search(sentence) else _CUE_EN
        probe = sentence.translate(TRADITIONAL) if cue_re is _CUE_ZH else sentence  # 題/讓/請 read as 题/让/请
        cues = [c for c in cue_re.finditer(probe) if c.end() > c.start("cue")]
        head_end = cues[0].start() if cues else len(sentence)  # (without what leads to the cue: "…直接问")
        head = _clean(sentence[:head_end])
        if head and len(head) >= _MIN_QUESTION_CHARS and not (cues and _ANNOUNCES_TASK.fullmatch(head)) \
                and not head.startswith("我"):  # ("我直接brute force了，…": the candidate's own doing)
            # ("最后手撕了一道题，题目是…": the head only announces the task its cue states)
            judgement = judge_line(head)
            if judgement.asks:  # "Walk me through X. Then: …" has its own question first
                found.append((judgement.text, "asks"))
            elif judgement.topic and (not cues or cues[0]["cue"].startswith("追问")):
                found.append((judgement.text, "topic"))  # (a follow-up's cue: the head is what it follows up)
        for index, cue in enumerate(cues):
            end = cues[index + 1].start("cue") if index + 1 < len(cues) else len(sentence)
            text = _clean(sentence[cue.end(): end])
            if not text or len(text) < _MIN_QUESTION_CHARS:
                continue
            parts = [text] if found and _DISCUSSES.search(cue.group("cue")) else _enumerated_tasks(text)
            # (after a question of the line, "We talked about X, Y, Z" discusses it: one follow-up)
            if len(parts) > 1:  # each listed task or topic on its own ("my CV" is none)
                found.extend((part, "series") for part in parts if judge_line(part).dropped in (None, "short"))
            elif judge_line(text).dropped is None:
                found.append((text, "cue"))
    return found


_ANNOUNCES_TASK = re.compile(r".{0,12}?(?:[一两二三几]道(?:算法|编程|代码|设计|场景)?题|一题)")
_SERIES = re.compile(r",\s+(?:and\s+|or\s+)?|\s+and\s+(?=\w+ing\b)")


def _enumerated_tasks(text: str) -> list[str]:
    """An English cue's text that lists several tasks ("write code for reversing bits in a range,
    checking if the compiler is little endian, and reversing a linked list") or topics ("bit
    manipulation, pointers, and paging") as those tasks or topics: each was asked."""
    if CJK.search(text[:200]):
        return [text]
    if text.count(";") >= 2:  # "included X; how to Y; what Z": a series set apart by semicolons
        parts = [p.strip() for p in text.split(";")]
        return [p for p in parts if len(p) >= _MIN_QUESTION_CHARS] or [text]
    if text.count(",") < 2:
        return [text]
    hidden = _ENCLOSED.sub(lambda m: m.group().replace(",", _HIDDEN_COMMA), _AND_SO_ON.sub("", text))
    parts = [p.strip().replace(_HIDDEN_COMMA, ",") for p in _SERIES.split(hidden) if p.strip()]
    if len(parts) >= 3 and " and " in parts[-1]:  # "…, interrupt latency and the volatile keyword"
        parts[-1:] = [p.strip() for p in parts[-1].split(" and ", 1)]
    if len(parts) >= 3 and all(_TASK_START.match(p) for p in parts[1:]) and not (
            _OBJECT_OF.search(parts[0]) and all(len(p.split()) <= 3 for p in parts[1:])):
        return parts
    # (one task with its details: "a 4:1 mux, with the input as 1 for 00, C for 01, …"; one topic
    # whose object is the series: "my experience with databases, message queues and payments")
    return [text]


#: A phrase whose last words take the series after it as their object ("… with databases, …").
_OBJECT_OF = re.compile(r"\S+\s+\S+\s+(?:with|of|between|among|across|in|on|for|to)\s+\S+$", re.IGNORECASE)


#: A cue that tells what was discussed rather than asked ("we talked about", "we had a discussion on").
_DISCUSSES = re.compile(r"talked|discuss|went\s+(?:over|through)|covered|chat|conversation", re.IGNORECASE)
#: What a series is not cut inside: inline code, brackets ("a log of `(timestamp, switch, port)` lines").
_ENCLOSED = re.compile(r"`[^`]{0,200}`|\([^()]{0,200}\)|\[[^\[\]]{0,200}\]")
_HIDDEN_COMMA = "\ue000"
_AND_SO_ON = re.compile(r",?\s{0,2}(?:and\s+so\s+on|etc\.?)\s{0,2}$", re.IGNORECASE)
#: A listed task or topic starts with a word ("checking …", "the roles of …", "OS concepts"), not a
#: preposition or a value.
_TASK_START = re.compile(r"(?!(?:with|without|for|from|as|to|of|in|on|at|by|into|over|under|like|such|where|when|"
                         r"including|especially|particularly|mainly|mostly|etc|e\.g|i\.e|"
                         r"which|that)\b)[A-Za-z][A-Za-z0-9+#/-]+", re.IGNORECASE)  # ("OS concepts", "C++ templates")


def _clean(text: str) -> str:
    """A question clause without the answer after it, leading connectors and end punctuation."""
    answer = (_ANSWER_ZH if CJK.search(text) else _ANSWER_EN).search(text)
    if answer:
        text = text[: answer.start()]
    text = text.strip(" ，,、;；:：")
    connector = _LEADING_CONNECTOR.match(text)
    if connector:
        text = text[connector.end():]
    text = _TRAILING_CONNECTOR.sub("", text).rstrip(" 。.!！;；,，")
    if text.startswith(("了", "的")):
        text = text[1:]
    return text.strip()
