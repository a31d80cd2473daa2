"""Likely questions for a posting that lists few or none: the bank's questions for its skills.

Pure ranking (no Flask, no database): each bank question carries the skills it is about (its
explanation's skills, its tags and the skills its text names), how many postings and interview
reports ask it, and the slug of its explanation. A question scores the sum of the posting's
weights of the skills they share (required sections and repeated mentions weigh more, see
:data:`prep.postings.extract.SKILL_WEIGHTS`), times ``1 + ln(1 + times asked)``; questions
without an explanation are not proposed (a candidate must be able to read the answer).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: How many likely questions a posting shows by default.
DEFAULT_LIMIT = 12


@dataclass(frozen=True)
class BankQuestion:
    id: int
    text: str
    skills: frozenset[str]
    asked: int
    slug: str | None


@dataclass(frozen=True)
class LikelyQuestion:
    id: int
    text: str
    slug: str
    score: float
    skills: tuple[str, ...]
    asked: int


def rank_likely(skill_weights: Mapping[str, float], bank: Iterable[BankQuestion],
                exclude: Iterable[int] = (), limit: int = DEFAULT_LIMIT) -> list[LikelyQuestion]:
    """The ``limit`` best bank questions for a posting with these skill weights."""
    skipped = set(exclude)
    ranked: list[LikelyQuestion] = []
    for question in bank:
        if question.id in skipped or not question.slug:
            continue
        shared = [s for s in skill_weights if s in question.skills]
        if not shared:
            continue
        score = sum(skill_weights[s] for s in shared) * (1.0 + math.log1p(max(0, question.asked)))
        ranked.append(LikelyQuestion(question.id, question.text, question.slug, round(score, 4),
                                     tuple(shared), question.asked))
    ranked.sort(key=lambda q: (-q.score, -q.asked, q.id))
    return ranked[:max(0, limit)]
