"""Likely questions for a posting that lists few or none: the bank's questions for its skills.

Pure ranking (no Flask, no database): each bank question carries the skills it is about (its
explanation's skills, its tags and the skills its text names), how many postings and interview
reports ask it, the slug of its explanation and its translation group. A question scores the
sum of the posting's weights of the skills they share (required sections and repeated mentions
weigh more, see :data:`prep.postings.extract.SKILL_WEIGHTS`), times ``1 + ln(1 + times asked)``;
questions without an explanation are not proposed (a candidate must be able to read the answer).

The list is spread over the posting's skills by how central each is: each pick goes to the skill
with the highest weight / (1 + questions it already has), which takes its best question left
(so a posting leading with RDMA and naming PFC, ECN and DCQCN gets questions on those too, not a
dozen on its first skill). One wording per question: a translation group gives one question
(in the reader's language when it has one), and a question the matcher finds to say what a
picked one (or one the posting asks) says is skipped; one question per explanation until every
explanation with a question has one.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from prep.questions.matcher import Concepts, Matcher, default_matcher

#: How many likely questions a posting shows by default.
DEFAULT_LIMIT = 12


@dataclass(frozen=True)
class BankQuestion:
    id: int
    text: str
    skills: frozenset[str]
    asked: int
    slug: str | None
    group: int | None = None   # translation group (None: its own)
    lang: str = "en"


@dataclass(frozen=True)
class LikelyQuestion:
    id: int
    text: str
    slug: str
    score: float
    skills: tuple[str, ...]
    asked: int


def rank_likely(skill_weights: Mapping[str, float], bank: Iterable[BankQuestion],
                exclude: Iterable[int] = (), limit: int = DEFAULT_LIMIT, *, exclude_groups: Iterable[int] = (),
                exclude_texts: Iterable[str] = (), lang: str | None = None,
                matcher: Matcher | None = None) -> list[LikelyQuestion]:
    """The ``limit`` questions for a posting with these skill weights, spread over its skills
    (see the module docstring), in the order picked. ``exclude``/``exclude_groups``: the
    questions (and groups) the posting asks; ``exclude_texts``: their wordings (a question
    saying the same is not proposed); ``lang``: the reader's language."""
    if limit <= 0:
        return []
    skipped, skipped_groups = set(exclude), set(exclude_groups)
    best_of_group: dict[int, tuple[tuple[float, bool, int], LikelyQuestion]] = {}
    for question in bank:
        group = question.group if question.group is not None else question.id
        if question.id in skipped or group in skipped_groups or not question.slug:
            continue
        shared = [s for s in skill_weights if s in question.skills]
        if not shared:
            continue
        score = sum(skill_weights[s] for s in shared) * (1.0 + math.log1p(max(0, question.asked)))
        ranked = LikelyQuestion(question.id, question.text, question.slug, round(score, 4), tuple(shared),
                                question.asked)
        key = (ranked.score, question.lang == lang, -question.id)
        if group not in best_of_group or key > best_of_group[group][0]:
            best_of_group[group] = (key, ranked)
    candidates = sorted((item[1] for item in best_of_group.values()), key=lambda q: (-q.score, -q.asked, q.id))
    return _spread(skill_weights, candidates, limit, list(exclude_texts), matcher or default_matcher())


def _spread(skill_weights: Mapping[str, float], candidates: list[LikelyQuestion], limit: int,
            asked_texts: list[str], matcher: Matcher) -> list[LikelyQuestion]:
    by_skill = {s: [q for q in candidates if s in q.skills] for s in skill_weights}
    meanings: dict[int, Concepts] = {}
    taken_meanings = [matcher.concepts(text) for text in asked_texts]

    def meaning(q: LikelyQuestion) -> Concepts:
        if q.id not in meanings:
            meanings[q.id] = matcher.concepts(q.text)
        return meanings[q.id]

    picked: list[LikelyQuestion] = []
    picked_ids: set[int] = set()
    for one_per_slug in (True, False):
        counts = {s: 0 for s in skill_weights}
        slugs = {q.slug for q in picked}
        while len(picked) < limit:
            choice = None
            for skill in sorted(by_skill, key=lambda s: (-skill_weights[s] / (1 + counts[s]), s)):
                for q in by_skill[skill]:
                    if q.id in picked_ids or (one_per_slug and q.slug in slugs):
                        continue
                    if any(matcher.same(meaning(q), other) for other in taken_meanings):
                        picked_ids.add(q.id)  # says what a picked or asked question says: never
                        continue
                    choice = (skill, q)
                    break
                if choice is not None:
                    break
            if choice is None:
                break
            skill, q = choice
            counts[skill] += 1
            picked.append(q)
            picked_ids.add(q.id)
            slugs.add(q.slug)
            taken_meanings.append(meaning(q))
    return picked
