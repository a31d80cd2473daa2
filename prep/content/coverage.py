"""Coverage: what no explanation covers yet, most asked first: the skills postings ask for, and
the questions real interviews asked (the field set) that no explanation answers.

Pure module: skill lists and field questions in, gaps out (the CLI and the instructor page read
the rows and the file).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..questions.normalize import guess_lang


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


@dataclass(frozen=True)
class FieldQuestion:
    """A question a real interview asked (in our words), what it is about, and which report."""

    text: str
    topic: str
    source: int | None = None


@dataclass(frozen=True)
class TopicMiss:
    """A topic whose field questions no explanation answers confidently: how many were asked, in
    how many reports, the questions, and the explanation that came closest (a weak link), if any."""

    topic: str
    asked: int
    reports: int
    questions: tuple[str, ...]
    closest: str | None

    @property
    def example_lang(self) -> str:
        """The language of the first question ('zh' or 'en'), for the page's ``lang``."""
        return guess_lang(self.questions[0]) if self.questions else "en"


def field_misses(questions: Iterable[FieldQuestion], rank: Callable[[str], Sequence[object]],
                 min_score: float) -> list[TopicMiss]:
    """The field questions whose best link (``rank(text)``: links with ``slug`` and ``score``, best
    first) scores under ``min_score``, grouped by topic, most asked first (then by reports, topic)."""
    missed: dict[str, list[FieldQuestion]] = defaultdict(list)
    closest: dict[str, Counter[str]] = defaultdict(Counter)
    for question in questions:
        links = rank(question.text)
        best = links[0] if links else None
        if best is not None and best.score >= min_score:
            continue
        missed[question.topic].append(question)
        if best is not None:
            closest[question.topic][best.slug] += 1
    gaps = [
        TopicMiss(topic, len(items), len({q.source for q in items if q.source is not None}) or len(items),
                  tuple(q.text for q in items),
                  closest[topic].most_common(1)[0][0] if closest[topic] else None)
        for topic, items in missed.items()
    ]
    return sorted(gaps, key=lambda gap: (-gap.asked, -gap.reports, gap.topic.casefold()))
