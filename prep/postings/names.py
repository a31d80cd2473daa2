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
TAG_PREFIX = re.compile(r"^(?:[【\[](?:内推|急招|招聘|热招|社招|校招|hiring|urgent|referral)[】\]]\s{0,3})+", re.IGNORECASE)
_CAREERS = r"\s{0,3}(?:[-–—|｜·]\s{0,3})?(?:careers?|jobs|招聘官网|官方招聘|招聘|官网)$"
CAREERS_SUFFIX = re.compile(_CAREERS, re.IGNORECASE)
_LEGAL_FORM = re.compile(
    r"(?:科技|技术)?(?:[(（][\u4e00-\u9fff]{2,4}[)）])?(?:股份)?有限(?:责任)?公司$|(?<=[\u4e00-\u9fff]{2})科技$"
    r"|,?\s+(?:inc\.?|ltd\.?|llc|gmbh|corp\.?|co\.,?\s*ltd\.?)$|" + _CAREERS,
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
    r"(?:metropolitan\s+)?area$|remote\b",
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


