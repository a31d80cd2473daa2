"""The interview planner's model of one candidate's memory over the days of a plan: the session
and interview times of each day, a card after a Good review, the expected recall on an interview
day, and what reviews cost in answers (cached: the planner asks the same questions many times).

Pure module: no Flask, no ORM; ``now`` is passed in, days are the user's local study days
(index 0 is today).
"""
from __future__ import annotations

from datetime import datetime, time, timedelta, timezone

import fsrs

from ..drill import queue
from ..zones import user_day_start, user_zone
from . import recall
from .plans import MAX_REVIEWS_PER_INTERVIEW, PlanSettings


class MemoryModel:
    """The fsrs model with the candidate's settings and calibration, from ``now`` on. ``goal`` is
    the recall each card is planned to reach on its interview day (default: the target)."""

    def __init__(self, settings: PlanSettings, now: datetime, goal: float | None = None) -> None:
        if now.tzinfo is None:
            raise ValueError("now must be timezone-aware")
        self.settings = settings
        self.goal = settings.target if goal is None else goal
        self.now = now.astimezone(timezone.utc)
        self.scheduler = recall.scheduler_for(settings.scheduler)
        self.scale = settings.stability_scale
        self.tz = user_zone(settings.tz_name)
        self.day_start = user_day_start(settings.day_start_hour)
        self.today = queue.study_day(self.now, settings.tz_name, self.day_start).day
        self.horizon = 0  # the last interview's day index (set by the planner)
        self._expected: dict[tuple, float] = {}
        self._good: dict[tuple, fsrs.Card] = {}
        self._cost: dict[tuple, float] = {}
        self._first: dict[tuple[int, int], float] = {}

    # -- times ------------------------------------------------------------------------------
    def at(self, index: int, hour: int | None = None) -> datetime:
        """The UTC instant of the session (or the interview) on day ``today + index``."""
        day = self.today + timedelta(days=index)
        when = datetime.combine(day, time(hour if hour is not None else self.settings.session_hour),
                                tzinfo=self.tz).astimezone(timezone.utc)
        return max(when, self.now) if index == 0 and hour is None else when

    def interview_at(self, index: int) -> datetime:
        return self.at(index, self.settings.interview_hour)

    def last_day(self, card: fsrs.Card | None) -> int | None:
        if card is None or card.last_review is None:
            return None
        return (queue.study_day(card.last_review, self.settings.tz_name, self.day_start).day - self.today).days

    # -- cached model ----------------------------------------------------------------------
    @staticmethod
    def _key(card: fsrs.Card | None) -> tuple:
        if card is None:
            return (None,)
        return (card.state, card.step, card.stability, card.difficulty, card.last_review)

    def good(self, card: fsrs.Card | None, index: int) -> fsrs.Card:
        key = (self._key(card), index)
        if key not in self._good:
            when = self.at(index)
            self._good[key] = (recall.introduce(self.scheduler, when) if card is None
                               else recall.review_good(self.scheduler, card, when))
        return self._good[key]

    def expected(self, card: fsrs.Card | None, index: int | None, target_index: int) -> float:
        """Expected recall on interview day ``target_index`` after a last review on day ``index``
        (None: no more review)."""
        key = (self._key(card), index, target_index)
        if key not in self._expected:
            day_time = self.interview_at(target_index)
            if index is None:
                self._expected[key] = recall.retrievability(self.scheduler, card, day_time, self.scale)
            else:
                self._expected[key] = recall.expected_after(self.scheduler, card, self.at(index), day_time,
                                                            self.scale)
        return self._expected[key]

    def due_index(self, card: fsrs.Card, after: int) -> int:
        """The first day after ``after`` on which the predicted recall falls to the target."""
        for index in range(after + 1, self.horizon + 1):
            if recall.retrievability(self.scheduler, card, self.at(index), self.scale) < self.goal:
                return max(after + 1, index - 1)
        return self.horizon

    # -- costs ------------------------------------------------------------------------------
    def first_answer_cost(self, intro: int, target: int) -> float:
        """The reviews a first answer other than Good adds (the plan made again from that card
        brings it to the target), times its share of the candidate's first answers; 0 without
        their history. Counted on the introduction's day."""
        shares = self.settings.first_ratings
        if shares is None:
            return 0.0
        key = (intro, target)
        if key not in self._first:
            good = self._reviews_to_reach(self.good(None, intro), intro + 1, target)
            extra = 0.0
            for rating, share in zip((fsrs.Rating.Again, fsrs.Rating.Hard, fsrs.Rating.Easy),
                                     (shares[0], shares[1], shares[3])):
                if share:
                    card = recall.introduce(self.scheduler, self.at(intro), rating)
                    extra += share * (self._reviews_to_reach(card, intro + 1, target) - good)
            self._first[key] = max(0.0, extra)
        return self._first[key]

    def _reviews_to_reach(self, card: fsrs.Card, first: int, target: int) -> int:
        """How many reviews from day ``first`` bring ``card`` to the target on day ``target`` (each
        where its recall falls to the target, the last at the farthest day that reaches it)."""
        reviews = 0
        while first <= target - 1 and reviews < MAX_REVIEWS_PER_INTERVIEW:
            if self.expected(card, None, target) >= self.goal:
                break
            reviews += 1
            if self.expected(card, target - 1, target) >= self.goal:
                break
            due = min(self.due_index(card, first - 1), target - 2)
            if due < first:
                break
            card, first = self.good(card, due), due + 1
        return reviews

    def review_cost(self, card: fsrs.Card | None, index: int) -> float:
        """Answers a review on day ``index`` is expected to take: one, plus the relearning steps
        of a lapse times its probability."""
        key = (self._key(card), index)
        if key not in self._cost:
            p = recall.retrievability(self.scheduler, card, self.at(index), self.scale)
            self._cost[key] = 1.0 + (1.0 - p) * len(self.scheduler.relearning_steps)
        return self._cost[key]
