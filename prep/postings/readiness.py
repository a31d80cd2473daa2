"""Readiness for one posting's interview: how much of it the candidate would recall now, the
weakest questions, and whether the current pace of new cards covers the rest in time.

Pure module: no Flask, no database. ``today`` is the candidate's local study day.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date

#: A question is ready only once it was recalled again after the first review: right after a
#: single review the recall probability is near 1 but says nothing about memory yet.
MIN_REVIEWS_FOR_READY = 2


@dataclass(frozen=True)
class QuestionState:
    question_id: int
    text: str
    studied: bool            # a card exists
    reviewed: bool           # the card has left the new state
    retrievability: float    # 0 when not reviewed
    lapses: int = 0
    reviews: int = 0         # times rated in the drill (the card's reps)


@dataclass(frozen=True)
class Projection:
    interview_date: date
    days_left: int           # study days before the interview day (0 on the day itself)
    unseen: int              # questions not yet reviewed once
    pace_per_day: float      # new cards introduced per day lately
    needed_per_day: int      # new cards a day needed to see every question once by then
    on_track: bool


@dataclass(frozen=True)
class Readiness:
    total: int
    ready: int
    weakest: list[QuestionState]
    unseen: int
    projection: Projection | None
    interview_over: date | None = None  # the interview date, when it is before today

    @property
    def share(self) -> float:
        return self.ready / self.total if self.total else 0.0


def assess(states: list[QuestionState], desired_retention: float, *, today: date,
           interview_date: date | None = None, pace_per_day: float = 0.0, weakest: int = 5) -> Readiness:
    """A question is ready when it was reviewed at least :data:`MIN_REVIEWS_FOR_READY` times and
    its current retrievability is at least the desired retention. The weakest are the reviewed
    ones not ready, lowest retrievability first (most lapses first on ties), then the ones not
    reviewed yet."""
    def is_ready(s: QuestionState) -> bool:
        return s.reviewed and s.reviews >= MIN_REVIEWS_FOR_READY and s.retrievability >= desired_retention

    ready = sum(1 for s in states if is_ready(s))
    unseen = sum(1 for s in states if not s.reviewed)
    reviewed = sorted((s for s in states if s.reviewed and not is_ready(s)),
                      key=lambda s: (s.retrievability, -s.lapses, s.question_id))
    rest = [s for s in states if not s.reviewed]
    projection = None
    over = interview_date if interview_date is not None and interview_date < today else None
    if interview_date is not None and over is None:
        days_left = max(0, (interview_date - today).days)
        needed = math.ceil(unseen / days_left) if days_left else unseen
        projection = Projection(
            interview_date=interview_date, days_left=days_left, unseen=unseen, pace_per_day=pace_per_day,
            needed_per_day=needed, on_track=unseen == 0 or (days_left > 0 and pace_per_day * days_left >= unseen))
    return Readiness(total=len(states), ready=ready, weakest=(reviewed + rest)[:weakest], unseen=unseen,
                     projection=projection, interview_over=over)
