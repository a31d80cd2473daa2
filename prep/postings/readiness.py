"""Readiness for one posting's interview: how much of it the candidate would recall now, the
weakest questions, and whether the current pace of new cards covers the rest in time.

Pure module: no Flask, no database. ``today`` is the candidate's local study day.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
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
    """The posting page's figures over one set of questions (the posting's, and the likely ones
    the candidate chose): every figure below is of the same ``total`` questions."""

    total: int
    ready: int               # reviewed twice or more and recalled now with at least the desired retention
    weakest: list[QuestionState]
    unseen: int              # not reviewed yet
    projection: Projection | None
    interview_over: date | None = None  # the interview date, when it is before today
    recall_now: float = 0.0  # the mean chance of recalling each question now (unseen ones count 0)
    once_recalled: int = 0   # reviewed once, recalled now at the desired retention: ready after one more review
    recall_of: dict[int, float] = field(default_factory=dict)  # question id -> its chance of recall now

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
    # A question recalled now at the desired retention is not weak, even when not ready yet
    # (reviewed once): it is counted apart, so "weakest" never leads with one at 100 %.
    once = [s for s in states if s.reviewed and not is_ready(s) and s.retrievability >= desired_retention]
    reviewed = sorted((s for s in states if s.reviewed and s.retrievability < desired_retention),
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
                     projection=projection, interview_over=over, recall_now=recall_now(states),
                     once_recalled=len(once), recall_of={s.question_id: s.retrievability for s in states})


def recall_now(states: list[QuestionState]) -> float:
    """Recall now of a set of questions: the mean chance of recalling each now, a question not
    reviewed yet counting 0 (so it is at least ``ready x retention / total``)."""
    return sum(s.retrievability if s.reviewed else 0.0 for s in states) / len(states) if states else 0.0


def pace_per_day(introduced: int, first_day: date | None, today: date, window_days: int) -> float:
    """New cards introduced a day lately: ``introduced`` over the study days from the first of
    them (``first_day``, within the last ``window_days``) to today, both included. A candidate who
    started today with 7 new cards has a pace of 7, not 7 / 14."""
    if not introduced or first_day is None:
        return 0.0
    return introduced / max(1, min(window_days, (today - first_day).days + 1))
