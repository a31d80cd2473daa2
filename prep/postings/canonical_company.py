"""Which company a posting or report is about, whatever name it gives: "字节", "ByteDance" and
"北京字节跳动科技有限公司" are one company, with one slug.

:mod:`.employer` finds the employer's *name* in a document; this module maps a name to the
company prep knows it as (``companies.toml``: names in both languages and the other names
candidates write). :func:`canonical` ignores case, full-width forms, spaces, traditional
characters, a legal form and a leading city, and takes a division after a known name for the
company itself ("腾讯TEG", "Google Cloud", "字节跳动-AML"). A name it does not know still gets a
stable slug from its own words (Chinese as pinyin): :func:`company_key`.

Pure module: no Flask, no database.
"""
from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..content.editor import suggested_slug
from .names import brand, simplified_names

#: The companies prep knows by more than one name.
DATA_FILE = Path(__file__).resolve().parent / "companies.toml"
#: Characters of a name that are read (a company's name is short; a longer field is a mistake).
MAX_NAME_CHARS = 200
#: Chinese words after a company's Chinese name that still name the company ("华为云", "京东科技").
DIVISION_WORDS = ("云", "集团", "科技", "公司", "中国", "研究院", "实验室", "控股", "总部", "智能", "技术")

_SEPARATORS = re.compile(r"[\s\-_·•/|｜–—.,，、:：()（）\[\]【】]+")
_WORD_END = re.compile(r"[a-z0-9]$")
_WORD_START = re.compile(r"[a-z0-9]")
_CJK = re.compile(r"[\u4e00-\u9fff]")


@dataclass(frozen=True)
class Company:
    """A company prep knows: its slug, its names in English and Chinese, the other names."""

    slug: str
    en: str
    zh: str
    aliases: tuple[str, ...]

    def name(self, lang: str | None) -> str:
        """Its name for a reader of ``lang`` (Chinese for "zh", else English)."""
        return self.zh if (lang or "").startswith("zh") else self.en

    @property
    def names(self) -> tuple[str, ...]:
        """Every name it is known by: English, Chinese, the aliases."""
        return tuple(dict.fromkeys((self.en, self.zh, *self.aliases)))


def fold(name: str) -> str:
    """``name`` as names are compared: NFKC (full-width forms), simplified characters, case
    folded, separators as single spaces."""
    text = simplified_names(unicodedata.normalize("NFKC", name[:MAX_NAME_CHARS])).casefold()
    return _SEPARATORS.sub(" ", text).strip()


def _squash(folded: str) -> str:
    return folded.replace(" ", "")


@dataclass(frozen=True)
class _Index:
    companies: tuple[Company, ...]
    by_slug: dict[str, Company]
    exact: dict[str, Company]                 # squashed name -> company
    prefixes: tuple[tuple[str, Company], ...]  # folded name, longest first


@lru_cache(maxsize=1)
def _index() -> _Index:
    data = tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))
    companies = tuple(Company(slug=e["slug"], en=e["en"], zh=e["zh"], aliases=tuple(e.get("aliases", ())))
                      for e in data["company"])
    exact: dict[str, Company] = {}
    for company in companies:
        for name in company.names:
            exact.setdefault(_squash(fold(name)), company)
    prefixes = sorted(((fold(n), c) for c in companies for n in c.names), key=lambda p: len(p[0]), reverse=True)
    return _Index(companies, {c.slug: c for c in companies}, exact, tuple(prefixes))


def known_companies() -> tuple[Company, ...]:
    """Every company of ``companies.toml``, in its order."""
    return _index().companies


def by_slug(slug: str) -> Company | None:
    """The known company with this slug."""
    return _index().by_slug.get(slug)


def _division_of(company: Company, alias: str, rest: str) -> bool:
    """Whether ``rest`` (what follows ``alias`` in a folded name) is a part of ``company``."""
    if not rest:
        return True
    if rest[0] == " ":  # "google cloud", "字节跳动 aml"
        return True
    if _WORD_END.search(alias) and _WORD_START.match(rest):
        return False  # "metabase" is not Meta
    if _CJK.search(alias[-1]) and _CJK.match(rest):
        # "京东方" is not 京东: a Chinese name runs on only into a division word or another of its names.
        return rest.startswith(DIVISION_WORDS) or _squash(rest) in {_squash(fold(n)) for n in company.names}
    return True  # "腾讯teg", "google中国"


def canonical(name: str | None) -> Company | None:
    """The known company ``name`` names (None when it names none prep knows)."""
    if not name or not name.strip():
        return None
    index = _index()
    forms = dict.fromkeys(f for f in (fold(name), fold(brand(name[:MAX_NAME_CHARS]))) if f)
    for form in forms:
        if (found := index.exact.get(_squash(form))) is not None:
            return found
    for form in forms:
        for alias, company in index.prefixes:
            if form.startswith(alias) and _division_of(company, alias, form[len(alias):]):
                return company
    return None


def company_key(name: str | None) -> str | None:
    """The slug a posting of ``name`` is stored and linked under: the known company's, else one
    made from the name's own words (Chinese as pinyin: 文远知行 → wen-yuan-zhi-xing); None for a
    name with neither letters nor Chinese characters."""
    company = canonical(name)
    if company is not None:
        return company.slug
    if not name:
        return None
    plain = unicodedata.normalize("NFKC", simplified_names(brand(name[:MAX_NAME_CHARS]) or name[:MAX_NAME_CHARS]))
    return suggested_slug(plain) or None


def matching_companies(query: str) -> list[Company]:
    """The known companies one of whose names contains ``query`` (folded, spaces ignored), or
    that ``query`` names (:func:`canonical`); in the data file's order."""
    wanted = _squash(fold(query))
    if not wanted:
        return []
    named = canonical(query)
    return [c for c in known_companies()
            if c is named or any(wanted in _squash(fold(n)) for n in c.names)]
