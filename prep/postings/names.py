"""What a name in a posting's header is not, and an employer's name without its trimmings.

Job boards and forums put navigation bars, breadcrumbs, places and tags ("【内推】") where a
company or a title could be; :mod:`.identity` asks this module before taking a line for a name.
:func:`brand` gives an employer's name without its legal form, a careers suffix or a leading
city (the corpus scorer compares employers this way).

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re

#: Chinese cities (and 远程) a header line or an employer's name may start with.
CITIES_ZH = frozenset(
    "北京 上海 深圳 广州 杭州 成都 南京 武汉 西安 苏州 合肥 天津 重庆 长沙 厦门 青岛 大连 济南 郑州 沈阳 珠海 东莞 "
    "无锡 宁波 福州 昆明 佛山 常州 南昌 贵阳 哈尔滨 长春 石家庄 太原 南宁 海口 三亚 兰州 乌鲁木齐 呼和浩特 拉萨 "
    "香港 澳门 台北 新竹 台中 高雄 新加坡 东京 首尔 硅谷 远程 雄安".split()
)

#: English names of the cities (and "Remote") a header line or a role's last part may be.
_CITY_NAMES_EN = (
    "Beijing|Shanghai|Shenzhen|Guangzhou|Hangzhou|Chengdu|Nanjing|Wuhan|Xi'an|Xian|Suzhou|Hefei|Tianjin|"
    "Chongqing|Hong Kong|Taipei|Hsinchu|Singapore|Tokyo|Seoul|Bangalore|Bengaluru|Pune|Hyderabad|"
    "Santa Clara|San Jose|San Francisco|Mountain View|Sunnyvale|Palo Alto|Seattle|Redmond|Austin|Boston|"
    "New York|London|Cambridge|Munich|Berlin|Paris|Zurich|Tel Aviv|Yokneam|Toronto|Remote|Menlo Park|"
    "Cupertino|Los Angeles|Durham|Raleigh|Westford|Shanghai, China|Beijing, China|Dublin|Amsterdam|Warsaw"
).split("|")
CITIES_EN = frozenset(c.casefold() for c in _CITY_NAMES_EN)
#: A part that starts with a place: a city above ("Santa Clara (remote ok)") or "Austin, TX".
_PLACE_START = re.compile(
    r"(?:" + "|".join(re.escape(c) for c in sorted(_CITY_NAMES_EN, key=len, reverse=True)) + r")\b"
    r"|[A-Z][a-z]+,\s[A-Z]{2}\b"
)


def starts_with_place(part: str) -> bool:
    """Whether ``part`` (", Santa Clara (remote ok)" after a role) starts with a place."""
    return bool(_PLACE_START.match(part))


#: "【内推】", "[Hiring]", "【急招】" before a name.
_TAG = r"(?:内推|急招|招聘|热招|社招|校招|社会招聘|校园招聘|实习|hiring|urgent|referral)"
TAG_PREFIX = re.compile(r"^(?:[【\[]" + _TAG + r"(?:\s{0,2}[/、|,，]\s{0,2}" + _TAG + r"){0,4}[】\]]\s{0,3})+",
                        re.IGNORECASE)  # "【社招】", "[校招/社招/实习]"
_CAREERS = r"\s{0,3}(?:[-–—|｜·]\s{0,3})?(?:careers?|jobs|招聘官网|官方招聘|招聘|官网)$"
CAREERS_SUFFIX = re.compile(_CAREERS, re.IGNORECASE)
_LEGAL_FORM = re.compile(
    r"(?:科技|技术)?(?:国际|中国)?(?:[(（][\u4e00-\u9fff]{2,4}[)）])?(?:股份)?有限(?:责任)?公司$|(?<=[\u4e00-\u9fff]{2})科技$"
    r"|(?<=[\u4e00-\u9fff])\s{0,2}[(（][A-Za-z][A-Za-z0-9 .&-]{1,30}[)）]$"  # "…有限公司（chinamcloud）": its Latin name
    r"|,?\s+(?:inc\.?|ltd\.?|llc|gmbh|corp\.?|co\.,?\s*ltd\.?)$"
    r"|(?<=[A-Za-z0-9]{3})\s+technolog(?:y|ies)$|" + _CAREERS,  # ("Mellanox Technologies", as "…科技")
    re.IGNORECASE,
)
#: Short names candidates write for an employer whose full name the rest of prep uses.
SHORT_NAMES = {"字节": "字节跳动", "B站": "哔哩哔哩", "蚂蚁": "蚂蚁集团", "百川": "百川智能", "Nvidia": "NVIDIA"}
BRACKET_LABEL = re.compile(r"[【\[](?P<k>[^】\]]{1,12})[】\]]\s{0,3}(?P<v>\S.{0,150})")  # "【岗位】…"
AT_PREFIX = re.compile(r"^(?:at|@)\s+", re.IGNORECASE)  # "at Lumora Systems"
BREADCRUMB = re.compile(r"\s{0,3}(?:>|›|»|＞)\s{0,3}")
_NAV_WORDS = re.compile(
    r"^搜索\s|搜索框|登录|注册|切换城市|首页|下载\s?app|sign\s+in|log\s+in|sign\s+up|register|search\s+(?:for\s+)?jobs|"
    r"candidate\s+home|skip\s+to|main\s+menu|my\s+applications|^(?:track|save|share)\s+this\s+job\b|"
    r"^add\s+this\s+job\s+to\b|^open\s+(?:role|position)s?$|^back\s+to\s+(?:careers|jobs|search)\b|^apply(?:\s+now)?$",
    re.IGNORECASE,
)
_NAV_TOKENS = re.compile(r"(?:[\u4e00-\u9fff]{1,4}\s{1,6}){2,}(?:[\u4e00-\u9fff]{1,4}|app|APP)")
PLACE = re.compile(
    r"[A-Z][A-Za-z .'-]{1,30},\s{0,2}[A-Z]{2}(?:\s{1,2}\d{5})?(?:\s{0,2}[(（][^)）]{0,30}[)）])?\s{0,2}$|(?:greater\s+)?[A-Z][\w .'-]{1,30}\s(?:bay\s+)?"
    r"(?:metropolitan\s+)?area$|remote\b|[A-Za-z .,/-]{2,30}?[\s,/(-]remote\)?\s{0,2}$",  # "US Remote", "US,Remote"
    re.IGNORECASE,
)


def brand(name: str) -> str:
    """An employer's name without its legal form, a careers suffix or a leading city."""
    name = name.strip()
    for _ in range(2):
        name = _LEGAL_FORM.sub("", name).strip(" -–—|｜·")
    for prefix in CITIES_ZH:
        if name.startswith(prefix) and len(name) - len(prefix) >= 2 and not name.startswith(prefix + "市"):
            name = name[len(prefix):]
            break
    return name.strip()


_REPEATED_NAME = re.compile(r"(?P<n>\S{2,30})(?:\s+(?P=n))+")  # "AMD AMD": a logo's alt text, then the name
#: A board's "Apply" button glued to the end of a title ("高级GPU虚拟化研发工程师Apply |").
APPLY_BUTTON = re.compile(r"(?<=\S)\s{0,2}Apply\s{0,3}\|?\s{0,3}$")


def collapse_repeat(name: str) -> str:
    """A name written twice in a row ("AMD AMD", "NVIDIA NVIDIA": a logo, then the name) once."""
    match = _REPEATED_NAME.fullmatch(name.strip())
    return match["n"] if match else name


def is_navigation(line: str) -> bool:
    """A job board's or forum's navigation bar ("首页 职位 公司 猎头 职场 APP", "Sign In Search for Jobs")."""
    return bool(_NAV_WORDS.search(line[:200])) or bool(_NAV_TOKENS.fullmatch(line.strip()[:120]))




#: What an employer's name never is: a rule line, a number or section label, a skill's name cut
#: short, or a document's own words (a report's or a guide's title, a blog's furniture, a date).
_NOT_AN_ORGANISATION = re.compile(
    r"[\W_\d]*|第.{1,6}(?:部分|章|节|篇|期)|[A-Za-z]\+{0,2}|[\u4e00-\u9fff]|q\d{0,2}|"
    r"职位简介|岗位简介|简介|摘要|目录|概述|正文|社招|校招|秋招|春招|实习|暑期实习|日常实习|内推|abstract|summary|overview|tags?|contents|tl;?dr|"
    r".{0,40}?(?:\binterview(?:s|ing)?\b|\bguide(?:lines?)?\b|\bpreparation\b|\bquestions?\b|\bblog\b|\bkits?\b|"
    r"\bnotes?\b|\bfaq\b|\btips\b|\bdate\b|\bduration\b|\bpanel(?:ists)?\b|\bdiscuss\b|\bposted\b|\bexperiences?\b|面试|面經|面经|笔记|题目|"
    r"感谢|许愿|还愿|上岸|[A-Za-z]kits|kitsblog).{0,80}|"
    r"[\u4e00-\u9fff]{1,8}[A-Za-z]|"  # "已O" of "已OC,感谢…": a sentence cut, not a name
    r"(?:已|我|你|他|她|在|是|就|被|把|给|跟|的|了|也|都|还|又|先|后).{0,20}|"  # a sentence's first words
    r"(?:[一二三四五六七八九十]{1,3}|\d{1,2})\s{0,2}[、.．].{0,40}|"  # a numbered section: "一、C++ 基础"
    r"(?:返回|提交|查看|登录|注册|分享|收藏|举报|点击|关注|下载).{0,20}|"  # a page's button: "返回职位列表", "提交建议"
    # a field of work, not who works in it: "存储" of "2025年存储面试题", "人工智能", "大模型推理"
    r"(?:存储|网络|操作系统|算法|后端|前端|客户端|推理|训练|人工智能|大模型|模型|数据库|计算机|嵌入式|驱动|芯片|编译器?|分布式|"
    r"系统|开发|测试|运维|通信|高性能|并行|计算|云原生|容器|安全|硬件|软件|基础|八股|机器学习|深度学习|图形学?|游戏)+|"
    r"(?:senior|staff|principal|junior|lead|candidate|interviewer|local\s+preview|view\s+on|sign\s+in|log\s+in)\b.{0,60}|"
    r"(?:how|what|why|which|when|where)\b.{0,80}|"  # a title that asks: "How variable spilling works"
    r"(?:phone|video|virtual|onsite|on-site|technical|coding|final|behaviou?ral|screening|take-home)|"  # a kind of interview
    r"(?:common|top|basic|advanced|general|popular|important|frequently|tricky|sample|typical|essential)|"  # how a list calls its questions
    r".{0,80}?[|｜{}<>].{0,80}",  # a table's row ("Field | Details"), a template's or a page's markup ("{{#include intro.md}}")
    re.IGNORECASE,
)
#: More words than an employer's name has: a sentence or a title.
_MAX_NAME_WORDS = 5


def is_organisation_name(name: str) -> bool:
    """Whether ``name`` can be an employer's name: not a label, a rule line, a lone letter or
    character, a sentence, or a title's words ("Interview Preparation Guidelines", "Interview
    Date - 12th May", "Interview kitsBlog", "职位简介", "---")."""
    name = name.strip()
    return bool(name) and len(name.split()) <= _MAX_NAME_WORDS and not _NOT_AN_ORGANISATION.fullmatch(name)


#: Employers' names in traditional characters, read as the simplified names prep knows.
TRADITIONAL_NAMES = {"騰訊": "腾讯", "華為": "华为", "字節跳動": "字节跳动", "字節": "字节", "阿裡巴巴": "阿里巴巴", "阿裏": "阿里",
                     "螞蟻": "蚂蚁", "網易": "网易", "美團": "美团", "京東": "京东", "小紅書": "小红书", "英偉達": "英伟达",
                     "輝達": "NVIDIA", "商湯": "商汤", "滴滴": "滴滴", "攜程": "携程", "聯想": "联想", "中興": "中兴",
                     "拼多多": "拼多多", "快手": "快手", "寒武紀": "寒武纪", "摩爾線程": "摩尔线程", "壁仞": "壁仞",
                     "蔚來": "蔚来", "小鵬": "小鹏", "阿里雲": "阿里云", "騰訊雲": "腾讯云", "華為雲": "华为云"}
_TRADITIONAL_NAME = re.compile("|".join(sorted((k for k, v in TRADITIONAL_NAMES.items() if k != v), key=len, reverse=True)))


def simplified_names(text: str) -> str:
    """``text`` with the employers' names it writes in traditional characters in their simplified form."""
    return _TRADITIONAL_NAME.sub(lambda m: TRADITIONAL_NAMES[m.group()], text)
