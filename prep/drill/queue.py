"""Today's queue, the rules: the user's local study day, the daily limits, which kind of card
comes next, what a plan (interview mode) books or holds back, and the counts every screen shows
about today (the drill header and its "all done" page, the dashboard, the reminders and the
stats page).

The database side (the queries that pick the next card and count today's cards) is
:mod:`prep.drill.queue_queries`. Pure module: no Flask, no database. ``now`` is always a
UTC-aware datetime.
"""
from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from enum import Enum
from zoneinfo import ZoneInfo

from ..zones import user_day_start, user_zone

LEARN_AHEAD = timedelta(minutes=20)  # as Anki: learning cards due this soon count as due


@dataclass(frozen=True)
class StudyDay:
    """One local study day, [start, end) in UTC."""

    day: date
    start: datetime
    end: datetime


def study_day(now: datetime, tz_name: str, day_start_hour: int = 4) -> StudyDay:
    """The study day containing ``now`` for a user in ``tz_name`` whose day starts at ``day_start_hour``.

    The day is computed on the local wall clock, so a DST change makes it 23 or 25 hours long.
    """
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    tz = user_zone(tz_name)
    day_start_hour = user_day_start(day_start_hour)
    local = now.astimezone(tz)
    day = local.date() if local.hour >= day_start_hour else local.date() - timedelta(days=1)
    return day_bounds(day, tz, day_start_hour)


def day_bounds(day: date, tz: ZoneInfo, day_start_hour: int) -> StudyDay:
    day_start_hour = user_day_start(day_start_hour)
    start = datetime.combine(day, time(day_start_hour), tzinfo=tz).astimezone(timezone.utc)
    end = datetime.combine(day + timedelta(days=1), time(day_start_hour), tzinfo=tz).astimezone(timezone.utc)
    return StudyDay(day=day, start=start, end=end)


@dataclass(frozen=True)
class Limits:
    new_per_day: int = 20
    reviews_per_day: int = 200


@dataclass(frozen=True)
class DoneToday:
    new: int = 0       # new cards introduced today
    reviews: int = 0   # review-state cards answered today
    answered: int | None = field(default=None, compare=False)  # every log today, any kind (None: not counted)
    cards: int | None = field(default=None, compare=False)     # the cards those logs are of, each once


@dataclass(frozen=True)
class Budget:
    new_left: int
    reviews_left: int


def budget(limits: Limits, done: DoneToday) -> Budget:
    """How many more new and review cards may be shown today."""
    return Budget(new_left=max(0, limits.new_per_day - done.new),
                  reviews_left=max(0, limits.reviews_per_day - done.reviews))


class Pick(str, Enum):
    learning = "learning"
    review = "review"
    new = "new"
    planned = "planned"  # booked for today by a plan (interview mode), whatever FSRS's due date
    learn_ahead = "learn_ahead"


def pick_order(b: Budget) -> list[Pick]:
    """Which kinds of card to look for, in order: learning due now, reviews due today (within
    the limit), new cards (within the limit), then learning cards due within the learn-ahead window."""
    order = [Pick.learning]
    if b.reviews_left > 0:
        order.append(Pick.review)
    if b.new_left > 0:
        order.append(Pick.new)
    order.append(Pick.learn_ahead)
    return order


def with_planned(order: list[Pick]) -> list[Pick]:
    """``order`` with the cards booked for today after the due reviews (before new cards and
    learn-ahead): a plan's bookings are not limited by the daily new and review limits."""
    at = next(i for i, p in enumerate(order) if p in (Pick.new, Pick.learn_ahead))
    return order[:at] + [Pick.planned] + order[at:]


def held_by_plan(booked_days: Collection[date], today: date, hold_days: Collection[date] = ()) -> bool:
    """Whether a plan holds a card back today (interview mode): it has bookings (or a ``hold``
    row, ``hold_days``) on a later day and no booking today, so it is not offered as an ordinary
    due review even when FSRS makes it due. With nothing ahead (after the interview) FSRS decides
    again. The queries' form of this rule is :func:`prep.drill.planned.not_held`."""
    return today not in booked_days and any(d > today for d in (*booked_days, *hold_days))


def forecast_days(due_day: date, booked_days: Collection[date], hold_days: Collection[date] = (), *,
                  holdable: bool = True) -> tuple[date | None, frozenset[date]]:
    """Where a studied card counts in a forecast of the drill's days (the stats page, the
    calendar feed): on its FSRS due day ``due_day`` unless the plan holds it back then
    (:func:`held_by_plan`; only review cards are held, ``holdable``: learning steps never are),
    and on each day the plan booked it. Returns (the due day or None, the booked days other than
    the due day, so a card counts once a day)."""
    due = None if holdable and held_by_plan(booked_days, due_day, hold_days) else due_day
    return due, frozenset(booked_days) - {due}


def streak(review_days: set[date], today: date) -> int:
    """Consecutive study days with at least one review, ending today (or yesterday, if today
    has none yet: a streak is not broken until the day is over)."""
    day = today if today in review_days else today - timedelta(days=1)
    count = 0
    while day in review_days:
        count += 1
        day -= timedelta(days=1)
    return count


# --- the counts ---------------------------------------------------------------------------
# :func:`queue_counts` turns what one query counted (:class:`Tally`, read by
# :func:`prep.drill.queue_queries.tally`, or per user by the reminder sweep with the same columns
# from :func:`prep.drill.queue_queries.tally_columns`) into "due now / learning later today / new
# allowed today / buried until tomorrow".

@dataclass(frozen=True)
class Tally:
    """One user's cards as counted by the one query (unsuspended cards only, except the total and
    ``suspended``). A learning card "due now" is due within :data:`LEARN_AHEAD`: the drill
    shows it when nothing else is left, so it is never counted as later."""

    learning_now: int = 0        # learning/relearning, not buried, due by now + LEARN_AHEAD
    learning_later: int = 0      # learning/relearning, not buried, due later in the study day
    next_learning: datetime | None = None  # the earliest of ``learning_later``
    reviews_due: int = 0         # review state, not buried, due before the study day ends
    new: int = 0                 # new, not buried
    buried: int = 0              # buried until later (a sibling's rating or Bury)
    total: int = 0
    suspended: int = 0
    planned: int = 0             # review state, not buried, booked for today by interview mode, due
                                 # after the study day ends and not answered today (beyond ``reviews_due``)


@dataclass(frozen=True)
class QueueCounts:
    """What every screen says about today. ``reviews_now`` and ``new_today`` are within the
    daily limits; ``new_today`` is 0 once the new-card limit is reached."""

    learning_now: int
    reviews_now: int
    new_today: int
    learning_later: int
    next_learning: datetime | None
    buried: int
    total_cards: int
    suspended: int
    new_limit_reached: bool
    planned_now: int = 0  # review cards interview mode booked for today that FSRS has not made due

    @property
    def due_now(self) -> int:
        """Cards due now, interview bookings included (they come past the daily review limit)."""
        return self.learning_now + self.reviews_now + self.planned_now

    @property
    def remaining_now(self) -> int:
        """Cards the drill would show now, one after another (interview bookings included)."""
        return self.due_now + self.new_today

    @property
    def remaining_today(self) -> int:
        """Everything left today, including learning cards that come back later."""
        return self.remaining_now + self.learning_later


def queue_counts(tally: Tally, limits: Limits, done: DoneToday) -> QueueCounts:
    """The counts from the one query's :class:`Tally`, within the daily limits (the review cards
    interview mode booked for today beyond the due ones, ``tally.planned``, come past them)."""
    b: Budget = budget(limits, done)
    return QueueCounts(
        learning_now=tally.learning_now, reviews_now=min(tally.reviews_due, b.reviews_left),
        new_today=min(tally.new, b.new_left), learning_later=tally.learning_later,
        next_learning=tally.next_learning if tally.learning_later else None, buried=tally.buried,
        total_cards=tally.total, suspended=tally.suspended, new_limit_reached=b.new_left == 0 and tally.new > 0,
        planned_now=tally.planned)


def minutes_until(when: datetime | None, now: datetime) -> int | None:
    """Whole minutes (rounded up, at least 1) from ``now`` until ``when``; None without a time."""
    if when is None:
        return None
    return max(1, math.ceil((when - now).total_seconds() / 60))
