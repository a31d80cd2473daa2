"""Daily queue rules: the user's local study day and what to show next.

Pure module: no Flask, no database. ``now`` is always a UTC-aware datetime.
"""
from __future__ import annotations

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
