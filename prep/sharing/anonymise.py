"""What others see of a shared interview report: its text without the people in it.

Removes e-mail addresses, phone numbers (Chinese mobiles and landlines, international numbers),
WeChat and QQ ids, links to a person's page (GitHub, LinkedIn, 知乎, 微博, 牛客 …), @handles, and
the names of people where the text says it is a name (面试官王老师, 我叫李明, HR 小张, "my interviewer
was John Smith", "Mr. Lee"); dates lose their day (2024年3月15日 → 2024年3月, 2024-03-15 →
2024-03, March 15, 2024 → March 2024). Each find becomes a placeholder in the text's language
(〔姓名〕 / [name] …).

The author reads the result before sending and can edit it: this catches the usual shapes, it
does not promise to catch every name. Pure module: every pattern is a single pass with bounded
repeats, so the work is linear in the text.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

#: What a find is replaced with, per kind, in Chinese and in English text.
PLACEHOLDERS = {
    "zh": {"name": "〔姓名〕", "email": "〔邮箱〕", "phone": "〔电话〕", "wechat": "〔微信号〕", "qq": "〔QQ号〕",
           "link": "〔个人链接〕", "handle": "〔账号〕"},
    "en": {"name": "[name]", "email": "[email]", "phone": "[phone]", "wechat": "[WeChat id]", "qq": "[QQ id]",
           "link": "[personal link]", "handle": "[handle]"},
}

_CJK = re.compile(r"[\u4e00-\u9fff]")

_EMAIL = re.compile(r"[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){1,8}")

# Sites whose path names a person, and the path prefixes that do.
_PERSONAL_LINK = re.compile(
    r"(?:https?://)?(?:www\.|m\.|[a-z]{2}\.)?"
    r"(?:github\.com|gitee\.com|gitlab\.com|linkedin\.com/in|zhihu\.com/people|zhihu\.com/org|weibo\.com|"
    r"weibo\.cn|twitter\.com|x\.com|facebook\.com|instagram\.com|t\.me|medium\.com/@|juejin\.cn/user|"
    r"blog\.csdn\.net|nowcoder\.com/users|space\.bilibili\.com|xiaohongshu\.com/user/profile|leetcode\.cn/u|"
    r"leetcode\.com/u)"
    r"/[^\s<>\"'，。；、）)]{1,200}", re.I)

# Chinese numbers: mobiles (+86, spaces or dashes allowed between groups) and landlines (010-12345678).
_CN_MOBILE = r"(?:\+?86[\s\-]?)?1[3-9]\d[\s\-]?\d{4}[\s\-]?\d{4}"
_CN_LANDLINE = r"0\d{2,3}[\s\-]\d{7,8}"
# International: a + and a country code, then 6–14 digits in groups of at least two.
_INTERNATIONAL = r"\+\d{1,3}(?:[\s\-.]?\(?\d{2,5}\)?){2,5}"
# North American style without a country code: (415) 555-0134, 415-555-0134.
_NANP = r"\(\d{3}\)\s?\d{3}[\-.\s]\d{4}|\b\d{3}[\-.]\d{3}[\-.]\d{4}\b"
_PHONE = re.compile(rf"(?<![A-Za-z0-9_+]){_CN_MOBILE}(?!\d)|(?<![A-Za-z0-9_]){_CN_LANDLINE}(?!\d)|(?<![A-Za-z0-9_+]){_INTERNATIONAL}(?!\d)|{_NANP}")

# A label, then the id: 微信: abc_123, VX：xyz, wx号 abc, WeChat ID: foo, QQ: 123456, 扣扣 123456.
_ID_SEP = r"(?:\s{0,3}(?:号码|号|(?i:id)))?\s{0,3}[:：是为]?\s{0,3}"
_WECHAT = re.compile(rf"(?:微信|威信|薇信|[Vv]信|(?<![A-Za-z])(?i:vx|wx|wechat)(?![A-Za-z])){_ID_SEP}"
                     r"(?P<id>[A-Za-z][A-Za-z0-9_\-]{4,29}|1[3-9]\d{9})(?![A-Za-z0-9_\-])")
_QQ = re.compile(rf"(?:(?<![A-Za-z])(?i:qq)(?![A-Za-z])|扣扣)群?{_ID_SEP}(?P<id>[1-9]\d{{4,11}})(?!\d)")

_HANDLE = re.compile(r"(?<![A-Za-z0-9_.@])@([A-Za-z][A-Za-z0-9_.\-]{2,30}|[\u4e00-\u9fff][\u4e00-\u9fffA-Za-z0-9_]{1,15})")

# Common Chinese surnames (the 100 most frequent cover about 85% of people) and a few two-character ones.
_SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
             "姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
             "常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季"
             "裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦"
             "戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻"
             "苑迟邝")
_COMPOUND_SURNAMES = "欧阳|司马|上官|诸葛|东方|皇甫|尉迟|公孙|慕容|长孙|宇文|令狐|夏侯|司徒"
# Surnames that are also everyday words (和, 于, 成, 华为 …): not taken as the start of a name.
_AMBIGUOUS = set("和于向成时常明文全关连解应查古安单项路管谷师仇商沙荣华万金米宁钱高方程田石白毛龙牛")
_SURNAME = "(?:%s|[%s])" % (_COMPOUND_SURNAMES, "".join(c for c in _SURNAMES if c not in _AMBIGUOUS))
# A surname and a title: 王老师, 李总, 张经理, 王强老师 (the given name may follow the surname).
_ZH_TITLED = re.compile(
    rf"{_SURNAME}(?:[\u4e00-\u9fff]?(?P<title>老师|先生|女士|小姐|同学|经理|总监|主管|博士|教授|学长|学姐|师兄|师姐)|"
    r"(?P<boss>总)(?![结体部裁监线计量数共之的]))(?!们)")
# Where the text says a name follows: 面试官是王强, 我叫李明, 姓名：张伟, HR 小张, 内推人 Wang Wei.
_ZH_NAME_CUE = re.compile(
    r"(?P<cue>(?:面试官|面我的|主面|(?<![A-Za-z])(?i:hr)(?![A-Za-z])|内推人|推荐人|联系人|姓名|名字|我叫)"
    r"\s{0,2}(?:是|为|叫|：|:)?\s{0,2})"
    rf"(?:[小老](?![姐哥朋伙师板鸟铁])[{_SURNAMES}]|"
    rf"(?:{_SURNAME}[\u4e00-\u9fff]{{1,2}}|[A-Z][a-z]{{1,15}}(?: [A-Z][a-z]{{1,15}}){{0,2}})"
    r"(?=[\s，。、；;,.！!）)（(：:]|老师|同学|$))")
# English cues: Mr./Ms./Dr. Smith; "interviewer was John Smith"; "my name is"; "I'm"; "with Jane Doe".
_EN_NAME = r"[A-Z][a-z]{1,20}(?:[\-'][A-Z][a-z]{1,20})?"
_EN_FULL = rf"{_EN_NAME}(?: {_EN_NAME}){{0,2}}"
_EN_TITLED = re.compile(rf"\b(?P<cue>(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.? )(?:{_EN_FULL})")
_EN_NAME_CUE = re.compile(
    r"\b(?P<cue>(?:[Ii]nterviewer|[Rr]ecruiter|[Hh]iring manager|HR|[Ii]nterviewed by|[Rr]eferred by|[Rr]eferral from|"
    r"[Cc]ontact|[Mm]y name is|[Nn]ame|I'm|I am|[Ii]nterview with|[Mm]et with|[Ss]poke with|[Cc]hatted with|[Tt]alked to)"
    rf"(?: (?P<verb>was|is|were|named|called))?[:,]? )(?P<name>{_EN_FULL})\b(?P<after>[^\S\n]*(?:[a-z]|$)?)", re.M)
# A name written before its e-mail address: "Dana Whitfield <dana@…>", "Sam Lee (sam@…)".
_EN_NAME_BEFORE_EMAIL = re.compile(rf"\b(?:{_EN_NAME}(?: {_EN_NAME}){{1,2}})(?P<cue> ?[<(<（](?=[A-Za-z0-9._%+\-]{{1,64}}@))")
# Capitalised words an English cue may be followed by that are not names.
_NOT_NAMES = frozenset("""A An The This That My Our Their His Her Its Very Really Quite Also Then And But So Not
Friendly Nice Kind Senior Junior Lead Principal Staff Engineer Engineering Manager Team Director Chinese English
Interviewer Recruiter Hiring It We They He She You I There Here Round Onsite Phone Video Online Zoom Teams Google
Meta Amazon Apple Microsoft Nvidia ByteDance Tencent Alibaba Baidu Huawei Meituan Monday Tuesday Wednesday
Thursday Friday Saturday Sunday Yes No Good Great Ok Okay Fine Glad Happy Sorry Excited Available Interested
Looking Working Applying Currently Just Still About Over From At In On For With After Before During Asked Started
Gave Was Is Did Had Has Went Came Said Told Wanted Seemed Mostly First Second Third Last Next Two Three One
Software Hardware Backend Frontend Data Machine Learning Deep Research Scientist Intern New Grad Student
Why What How When Where Who Which Can Could Would Should Do Does Tell Explain Describe Design Implement Write
Let Please Sure Right Well Hmm Thanks Thank Me Us Them Follow Any Some Both All None Nothing Everything""".split())

# Dates: the day goes, the month stays.
_MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|December|"
           "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec")
_ZH_DATE = re.compile(r"(?P<keep>(?:\d{4}\s?年\s?)?\d{1,2}\s?月)\s?\d{1,2}\s?[日号]")
_ISO_DATE = re.compile(r"(?<![\d.\-/])(?P<keep>\d{4}(?P<sep>[\-/.])\d{1,2})(?P=sep)\d{1,2}(?![\d\-/])")
_EN_MONTH_DAY = re.compile(rf"\b(?P<month>{_MONTHS})\.? \d{{1,2}}(?:st|nd|rd|th)?\b(?:,? (?P<year>\d{{4}})\b)?")
_EN_DAY_MONTH = re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)? (?:of )?(?P<month>{_MONTHS})\b")


@dataclass(frozen=True)
class Anonymised:
    """The text others would see, and how many of each kind of find were replaced."""

    text: str
    found: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.found.values())


def text_language(text: str) -> str:
    """"zh" when the text has Chinese characters, else "en" (which placeholders to write)."""
    return "zh" if _CJK.search(text) else "en"


def anonymise(text: str, lang: str | None = None) -> Anonymised:
    """``text`` without the people in it (see the module's docstring); ``lang`` picks the
    placeholders ("zh" or "en"; by default the text's own, :func:`text_language`)."""
    marks = PLACEHOLDERS[lang if lang in PLACEHOLDERS else text_language(text)]
    found: Counter[str] = Counter()

    def replace(kind: str, keep: str = ""):
        """A find of ``kind`` becomes its placeholder; the named group ``keep`` (a cue) stays before it."""
        def replace_match(match: re.Match[str]) -> str:
            found[kind] += 1
            return (match.group(keep) if keep else "") + marks[kind]
        return replace_match

    def replace_id(kind: str):
        """The label stays (微信：, QQ ), the id after it goes."""
        def replace_match(match: re.Match[str]) -> str:
            found[kind] += 1
            return match.group(0)[: match.start("id") - match.start(0)] + marks[kind]
        return replace_match

    def replace_cued_name(match: re.Match[str]) -> str:
        # "Interviewer: Callback is one way" is a transcript's line, not a name: without a verb
        # ("was", "named"), one capitalised word followed by a lowercase one starts a sentence.
        words = match.group("name").split(" ")
        if not match.group("verb") and len(words) == 1 and match.group("after").strip():
            return match.group(0)
        kept = 0
        while kept < len(words) and words[kept] not in _NOT_NAMES:
            kept += 1
        if kept == 0:
            return match.group(0)
        found["name"] += 1
        return match.group("cue") + " ".join([marks["name"], *words[kept:]]) + match.group("after")

    def replace_titled_zh(match: re.Match[str]) -> str:
        found["name"] += 1
        return marks["name"] + (match.group("title") or match.group("boss"))

    # Order matters: e-mails and links before the handles and numbers inside them.
    text = _EN_NAME_BEFORE_EMAIL.sub(lambda m: replace("name")(m) + m.group("cue"), text)
    text = _EMAIL.sub(replace("email"), text)
    text = _PERSONAL_LINK.sub(replace("link"), text)
    text = _WECHAT.sub(replace_id("wechat"), text)
    text = _QQ.sub(replace_id("qq"), text)
    text = _PHONE.sub(replace("phone"), text)
    text = _HANDLE.sub(replace("handle"), text)
    text = _ZH_NAME_CUE.sub(replace("name", "cue"), text)
    text = _ZH_TITLED.sub(replace_titled_zh, text)
    text = _EN_TITLED.sub(replace("name", "cue"), text)
    text = _EN_NAME_CUE.sub(replace_cued_name, text)
    text = _ZH_DATE.sub(lambda m: m.group("keep"), text)
    text = _ISO_DATE.sub(lambda m: m.group("keep"), text)
    text = _EN_MONTH_DAY.sub(lambda m: m.group("month") + (" " + m.group("year") if m.group("year") else ""), text)
    text = _EN_DAY_MONTH.sub(lambda m: m.group("month"), text)
    return Anonymised(text, dict(found))


def month_of(day) -> str | None:
    """An interview date kept to its month ("2024-03"), or None."""
    return f"{day.year:04d}-{day.month:02d}" if day is not None else None
