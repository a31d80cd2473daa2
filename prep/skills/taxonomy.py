"""Load the shipped skills taxonomy (``taxonomy.yaml``), fold aliases to canonical names and
find skills in free text.

Pure module: no Flask, no database.

Matching rules (see :meth:`Taxonomy.find_skills`):

* every canonical name and alias is matched as a *whole token*: a term that starts or ends with
  a Latin letter or digit must not be glued to another Latin letter, digit or underscore there.
  CJK characters count as a boundary, so ``熟悉CUDA编程`` finds CUDA, while ``JavaScript`` never
  yields Java;
* ``aliases`` match case-insensitively; ``case_sensitive`` spellings (short or ambiguous tokens
  such as ``DP``, ``Go``, ``HIP``, ``perf``) match only exactly as written, and the short ones
  (three characters or fewer) must not touch a hyphen either (``TP-Link`` is not TP);
* a space inside a term matches one to three spaces, ``-`` or ``_`` (``KV Cache`` finds
  ``KV-Cache``); spellings without a separator are listed as aliases (``KVCache``);
* at any position the longest term wins, so ``GPUDirect RDMA`` is one skill, not two.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

DEFAULT_PATH = Path(__file__).with_name("taxonomy.yaml")

_LATIN = "A-Za-z0-9_"
# Extra guard for the canonical "Go": common English phrases that start with the verb "go".
_GO_PHRASES = r"(?!\s+(?:to|ahead|back|beyond|further|through|live|over|for|with|on|out|up)\b)"
# "C" alone is the language only in a list of languages, before "programming" or as what one writes
# in ("C and C++", "C, C++ and assembly", "C programming", "an interrupt handler in C?"), never
# "Series C", "C 轮" or "C端".
_C_LANGUAGE = (r"(?:(?=\s{0,2}(?:[,，、/&]\s{0,3}(?:and\b|or\b)?|and\b|or\b|和|及|与)\s{0,3}(?:C\+\+|C#|Python|Go\b|Rust|Java|"
               r"assembly|汇编|CUDA|Fortran|Shell|Bash|Perl|Objective-C)|\s{1,2}(?:programming|language|code)\b|\s{0,2}(?:语言|编程)"
               r"|\s{0,2}[(（]\s{0,2}C\+\+)"  # "C (C++ nice)", "Rust, C, or C++"
               r"|(?:(?<=\bin C)|(?<=\bwith C)|(?<=\busing C))(?=\s{0,2}(?:[?？.。!,，;；:)）]|$)))")  # "… routine in C?"
# "tensor/pipeline parallel": each word before the shared suffix is a term of its own.
_SHARED_SUFFIX = re.compile(r"(?<![A-Za-z])(?P<words>[A-Za-z]{3,12}(?:\s{0,2}/\s{0,2}[A-Za-z]{3,12}){1,4})"
                            r"[ \t-]{1,3}(?P<suffix>parallel(?:ism)?)\b", re.IGNORECASE)
_EXPANSION_WORD = re.compile(r"[A-Za-z][\w-]*")
_SLASH = re.compile(r"[A-Za-z]\s{0,2}/\s{0,2}[A-Za-z]")
# "Nsight Systems/Compute": each word after the shared first word is a term of its own.
_SHARED_PREFIX = re.compile(r"(?<![A-Za-z])(?P<head>[A-Za-z][\w-]{1,20})[ \t]{1,3}(?P<words>[A-Za-z][\w-]{1,15}"
                            r"(?:\s{0,2}/\s{0,2}[A-Za-z][\w-]{1,15}){1,4})")
_SEPARATOR = r"[ \t\u00a0\u3000_-]{1,3}"


class TaxonomyError(ValueError):
    """The taxonomy data is malformed; the message lists every problem found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("invalid taxonomy: " + "; ".join(problems))


@dataclass(frozen=True)
class Skill:
    """One canonical skill: its name, a category and the other spellings that mean it."""

    name: str
    category: str
    aliases: tuple[str, ...] = field(default_factory=tuple)
    case_sensitive: tuple[str, ...] = field(default_factory=tuple)

    def match_terms(self) -> Iterator[tuple[str, bool]]:
        """Every spelling to look for in text, with whether it must match case-sensitively."""
        if self.name not in self.case_sensitive:
            yield self.name, False
        for alias in self.aliases:
            yield alias, False
        for term in self.case_sensitive:
            yield term, True


@dataclass
class Taxonomy:
    """The set of canonical skills, with alias lookup and a compiled text matcher."""

    skills: dict[str, Skill]
    _by_alias: dict[str, str] = field(default_factory=dict)
    _matcher: list[tuple[re.Pattern[str], int]] | None = field(default=None, init=False, repr=False, compare=False)
    _group_skill: list[str] = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for skill in self.skills.values():
            for term in (skill.name, *skill.aliases, *skill.case_sensitive):
                self._by_alias.setdefault(term.casefold(), skill.name)

    @property
    def names(self) -> set[str]:
        """The canonical skill names."""
        return set(self.skills)

    def canonical(self, term: str) -> str | None:
        """The canonical skill name for ``term`` (a name or an alias, any case), or None."""
        return self._by_alias.get(term.strip().casefold())

    def terms(self) -> dict[str, str]:
        """Every surface form (casefolded) mapped to its canonical name."""
        return dict(self._by_alias)

    def category(self, name: str) -> str | None:
        """The category of canonical skill ``name``, or None if it is not in the taxonomy."""
        skill = self.skills.get(name)
        return skill.category if skill else None

    def find_skills(self, text: str) -> list[str]:
        """Canonical names of the skills mentioned in ``text``, in order of first appearance."""
        seen: dict[str, None] = {}
        for _start, _end, name in self.skill_spans(text):
            seen.setdefault(name, None)
        return list(seen)

    def skill_spans(self, text: str) -> list[tuple[int, int, str]]:
        """Every skill mention in ``text`` as ``(start, end, canonical name)``, left to right."""
        spans = [
            (start, end, name)
            for start, end, name in self._matches(text)
            if not self._foreign_expansion(text, start, end, name)
        ]
        shared = self._shared_word_spans(text) if "/" in text else []
        return sorted(set(spans + shared)) if shared else spans

    def _foreign_expansion(self, text: str, start: int, end: int, name: str) -> bool:
        """Whether an abbreviation in brackets spells out words that are not this skill:
        "dynamic programming (DP)" is not data parallelism, "data parallelism (DP)" is."""
        abbr = text[start:end]
        if not (2 <= len(abbr) <= 6 and abbr.isupper() and start and text[start - 1] in "(（"
                and text[end:end + 1] in (")", "）")):
            return False
        words = _EXPANSION_WORD.findall(text[max(0, start - 80):start - 1])[-len(abbr):]
        if len(words) != len(abbr) or "".join(w[0] for w in words).casefold() != abbr.casefold():
            return False
        return self.canonical(" ".join(words)) != name

    def _shared_word_spans(self, text: str) -> list[tuple[int, int, str]]:
        """Skills written with a shared word: "tensor/pipeline parallel" is TP and PP, "Nsight
        Systems/Compute" is Nsight Systems and Nsight Compute."""
        spans = []
        covered = -1
        for slash in _SLASH.finditer(text):  # only around a slash: the patterns never run over plain text
            if slash.start() < covered:
                continue
            start, covered = max(0, slash.start() - 40), slash.start() + 100
            window = text[start:covered]
            for match in (*_SHARED_SUFFIX.finditer(window), *_SHARED_PREFIX.finditer(window)):
                parts = match.groupdict()
                at = start + match.start("words")
                for word in _EXPANSION_WORD.finditer(parts["words"]):
                    term = f"{parts['head']} {word[0]}" if "head" in parts else f"{word[0]} {parts['suffix']}"
                    name = self.canonical(term)
                    if name is not None:
                        spans.append((at + word.start(), at + word.end(), name))
        return spans

    def _matches(self, text: str) -> Iterator[tuple[int, int, str]]:
        """The terms in ``text``, left to right, as one regex of the three tries would find them
        (the leftmost match; at one position, the first trie's), each trie searched on its own:
        alone, each keeps the regex engine's scan for the characters it can start with, which
        one alternation of all three loses."""
        branches = self._compiled()
        found: list[re.Match[str] | None] = [branch.search(text) for branch, _ in branches]
        while True:
            best = None
            for index, match in enumerate(found):
                if match is not None and (best is None or match.start() < found[best].start()):
                    best = index
            if best is None:
                return
            match = found[best]
            offset = branches[best][1]
            if match.lastindex:
                yield match.start(), match.end(), self._group_skill[offset + match.lastindex - 1]
            end = match.end() if match.end() > match.start() else match.start() + 1
            for index, other in enumerate(found):  # a trie's next match is looked for past this one
                if other is not None and other.start() < end:
                    found[index] = branches[index][0].search(text, end)

    def _compiled(self) -> list[tuple[re.Pattern[str], int]]:
        """Build (once) the matcher: every term in a prefix trie, each trie compiled to a regex,
        with the number of the skills' groups before it."""
        if self._matcher is None:
            entries = [
                (term.strip(), sensitive, skill.name)
                for skill in self.skills.values()
                for term, sensitive in skill.match_terms()
                if term.strip()
            ]
            self._matcher, self._group_skill = _compile_matcher(entries)
        return self._matcher


_SEP_KEY = ("", False)  # trie key standing for "a separator" (a space inside the term)


@dataclass
class _TrieNode:
    """A node of the term trie; ``terminal`` is (canonical name, end guard) if a term ends here."""

    children: dict[tuple[str, bool], _TrieNode] = field(default_factory=dict)
    terminal: tuple[str, str] | None = None


def _compile_matcher(entries: list[tuple[str, bool, str]]) -> tuple[list[tuple[re.Pattern[str], int]], list[str]]:
    """Compile ``(term, case_sensitive, canonical)`` entries into regexes (one a trie) and their group map.

    A flat alternation of a few hundred terms costs tens of milliseconds per posting, so the
    terms go into prefix tries: terms starting with a Latin letter or digit (behind a
    look-behind guard), short case-sensitive tokens (whose guard also excludes a hyphen) and the
    rest (CJK-first). Each term end is an empty capturing group, so ``match.lastindex`` says
    which skill matched; within a trie, longer continuations are tried before a term may end.
    """
    tries = {"latin": _TrieNode(), "short": _TrieNode(), "other": _TrieNode()}
    for term, sensitive, name in entries:
        short = sensitive and len(term) <= 3
        latin_start = term[0].isascii() and term[0].isalnum()
        node = tries["short" if short and latin_start else "latin" if latin_start else "other"]
        for word_index, word in enumerate(term.split()):
            if word_index:
                node = node.children.setdefault(_SEP_KEY, _TrieNode())
            for char in word:
                node = node.children.setdefault((char if sensitive else char.lower(), sensitive), _TrieNode())
        if node.terminal is None:
            guard = ""
            if term[-1].isascii() and term[-1].isalnum():
                # (a longer term may carry its version: "NVMe2.0", "PCIe5.0", "CUDA12", never "NVMe2x")
                guard = f"(?![{_LATIN}-])" if short else (f"(?![A-Za-z_])(?![0-9]+[{_LATIN}])" if term[-1].isalpha()
                                                          else f"(?![{_LATIN}])")
            if sensitive and term in ("Go", "GO"):
                guard += _GO_PHRASES
            if sensitive and term == "C":
                guard += _C_LANGUAGE
            node.terminal = (name, guard)

    group_skill: list[str] = []

    def render(node: _TrieNode) -> str:
        parts = []
        # Separators last, so a literal continuation ("TensorRT-LLM") is tried first.
        for key, child in sorted(node.children.items(), key=lambda kv: (kv[0] == _SEP_KEY, kv[0])):
            char, sensitive = key
            if key == _SEP_KEY:
                head = _SEPARATOR
            elif sensitive:
                head = f"(?-i:{re.escape(char)})"
            else:
                head = re.escape(char)
            parts.append(head + render(child))
        if node.terminal is not None:
            name, guard = node.terminal
            group_skill.append(name)  # groups are numbered in the order they are rendered
            parts.append(guard + "()")
        return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"

    branches: list[tuple[re.Pattern[str], int]] = []
    for kind, guard in (("latin", f"(?<![{_LATIN}])"), ("short", f"(?<![{_LATIN}-])"), ("other", "")):
        if tries[kind].children:
            offset = len(group_skill)  # the groups of the tries before this one
            branches.append((re.compile(guard + render(tries[kind]), re.IGNORECASE), offset))
    return branches, group_skill


def parse_taxonomy(data: object) -> Taxonomy:
    """Build a Taxonomy from the YAML structure
    ``{"skills": [{"name", "category", "aliases", "case_sensitive"}]}``.

    Raises :class:`TaxonomyError` (a ValueError) listing every problem: a missing name or
    category, a duplicate name, a non-list alias field, or a spelling claimed by two skills.
    """
    if not isinstance(data, dict) or not isinstance(data.get("skills"), list):
        raise TaxonomyError(["taxonomy must be a mapping with a 'skills' list"])
    problems: list[str] = []
    skills: dict[str, Skill] = {}
    owner: dict[str, str] = {}
    for index, entry in enumerate(data["skills"]):
        if not isinstance(entry, dict) or not str(entry.get("name") or "").strip():
            problems.append(f"entry {index} has no name")
            continue
        name = str(entry["name"]).strip()
        lists: dict[str, tuple[str, ...]] = {}
        for key in ("aliases", "case_sensitive"):
            raw = entry.get(key) or []
            if not isinstance(raw, list):
                problems.append(f"{name}: '{key}' must be a list")
                raw = []
            lists[key] = tuple(str(a).strip() for a in raw if str(a).strip())
        category = str(entry.get("category") or "").strip()
        if not category:
            problems.append(f"{name}: no category")
        if name in skills:
            problems.append(f"duplicate skill name {name}")
            continue
        for term in (name, *lists["aliases"], *lists["case_sensitive"]):
            key = term.casefold()
            if owner.setdefault(key, name) != name:
                problems.append(f"{name}: spelling {term!r} already belongs to {owner[key]}")
        skills[name] = Skill(
            name=name,
            category=category or "other",
            aliases=lists["aliases"],
            case_sensitive=lists["case_sensitive"],
        )
    if problems:
        raise TaxonomyError(problems)
    return Taxonomy(skills=skills)


@lru_cache(maxsize=8)
def load_taxonomy(path: str | Path | None = None) -> Taxonomy:
    """Load and cache the taxonomy file (the shipped one by default)."""
    with open(path or DEFAULT_PATH, encoding="utf-8") as fh:
        return parse_taxonomy(yaml.safe_load(fh))


def find_skills(text: str, taxonomy: Taxonomy | None = None) -> list[str]:
    """Canonical skills mentioned in ``text`` (shipped taxonomy by default), first mention first."""
    return (taxonomy or load_taxonomy()).find_skills(text)
