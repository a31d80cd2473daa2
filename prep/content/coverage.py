"""Coverage: the skills postings ask for that no explanation covers, most-asked first.

Pure module: skill lists in, gaps out (the CLI and the instructor page read the rows).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class SkillGap:
    """A skill ``postings`` postings name and no explanation lists in its ``skills``."""

    skill: str
    postings: int


def skill_gaps(posting_skills: Iterable[Iterable[str]], explanation_skills: Iterable[Iterable[str]],
               min_postings: int = 1) -> list[SkillGap]:
    """The skills named by at least ``min_postings`` postings (each posting counted once per
    skill) that no explanation covers, most-asked first, then by name. Names compare case-blind."""
    covered = {skill.casefold() for skills in explanation_skills for skill in skills}
    asked: Counter[str] = Counter()
    spelling: dict[str, str] = {}
    for skills in posting_skills:
        for skill in {s.casefold(): s for s in skills if s}.values():
            key = skill.casefold()
            spelling.setdefault(key, skill)
            asked[key] += 1
    gaps = [SkillGap(spelling[key], n) for key, n in asked.items() if key not in covered and n >= min_postings]
    return sorted(gaps, key=lambda gap: (-gap.postings, gap.skill.casefold()))
