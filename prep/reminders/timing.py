"""Reminder time maths: the local wall clock in a zone, whether today's reminder time has
passed, when it falls in UTC, and the retry back-off.

Pure module: no Flask, no database. ``now`` is always a UTC-aware datetime.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from datetime import date, datetime, time, timedelta, timezone
from ..zones import user_zone

MINUTES_PER_DAY = 24 * 60
BACKOFF_BASE = timedelta(minutes=5)
BACKOFF_MAX = timedelta(hours=2)
MAX_ATTEMPTS = 4
SEND_LEASE = timedelta(minutes=10)  # a 'sending' claim older than this was interrupted


def _require_aware(now: datetime) -> None:
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")


@dataclass(frozen=True)
class ZoneClock:
    """The local wall clock in one time zone at one instant."""

    zone: str
    local_date: date
    minute_of_day: int        # minutes since local midnight, 0..1439
    day_end: datetime         # the next local midnight, in UTC


def zone_clock(now: datetime, tz_name: str) -> ZoneClock:
    """The local date and time of day in ``tz_name`` at ``now``."""
    _require_aware(now)
    tz = user_zone(tz_name)
    local = now.astimezone(tz)
    next_midnight = datetime.combine(local.date() + timedelta(days=1), time(0), tzinfo=tz)
    return ZoneClock(zone=tz_name, local_date=local.date(), minute_of_day=local.hour * 60 + local.minute,
                     day_end=next_midnight.astimezone(timezone.utc))


def reminder_passed(now: datetime, tz_name: str, remind_minute: int) -> bool:
    """True once the local wall clock has reached the reminder time today.

    On a spring-forward day a reminder inside the skipped hour fires when the clock jumps past
    it; on a fall-back day it fires at the first of the two occurrences (the daily claim stops
    the second).
    """
    return zone_clock(now, tz_name).minute_of_day >= remind_minute


@lru_cache(maxsize=4096)  # pure; a sweep asks it for every due user, of a few (day, minute, zone)s
def reminder_instant(day: date, remind_minute: int, tz_name: str) -> datetime:
    """The UTC instant the local clock on ``day`` reaches the reminder time.

    An ambiguous time (fall back) gives its first occurrence; a time skipped by a spring-forward
    change gives the instant of the jump, when the clock passes it.
    """
    tz = user_zone(tz_name)
    wall = datetime.combine(day, time(remind_minute // 60, remind_minute % 60))
    first = wall.replace(tzinfo=tz, fold=0).astimezone(timezone.utc)
    if first.astimezone(tz).replace(tzinfo=None) == wall:
        return first
    second = wall.replace(tzinfo=tz, fold=1).astimezone(timezone.utc)
    lo, hi = min(first, second), max(first, second)  # the jump lies between the two readings
    while hi - lo > timedelta(minutes=1):
        mid = lo + (hi - lo) / 2
        if mid.astimezone(tz).replace(tzinfo=None) >= wall:
            hi = mid
        else:
            lo = mid
    return hi.replace(second=0, microsecond=0)


def next_reminder(now: datetime, tz_name: str, remind_minute: int, reminded_today: bool) -> datetime:
    """When the next reminder falls, in UTC: the next time the local clock in ``tz_name`` reads
    the chosen time (today's when it is still ahead and no reminder went out today, else
    tomorrow's). Never ``now`` itself: a reminder whose time has passed today without going out
    (nothing was due, or the user registered after it) waits for tomorrow's."""
    clock = zone_clock(now, tz_name)
    if not reminded_today and clock.minute_of_day < remind_minute:
        return reminder_instant(clock.local_date, remind_minute, tz_name)
    return reminder_instant(clock.local_date + timedelta(days=1), remind_minute, tz_name)


def first_reminder_reached(registered_at: datetime | None, day: date, remind_minute: int, tz_name: str) -> bool:
    """True when the reminder time on local ``day`` falls at or after ``registered_at``: a user
    hears nothing before the first reminder time after they registered."""
    if registered_at is None:
        return True
    if registered_at.tzinfo is None:
        registered_at = registered_at.replace(tzinfo=timezone.utc)
    return reminder_instant(day, remind_minute, tz_name) >= registered_at


def backoff(attempts: int) -> timedelta:
    """Delay before the next email attempt after ``attempts`` failed ones (5m, 15m, 45m, ...)."""
    if attempts < 1:
        return timedelta(0)
    return min(BACKOFF_BASE * (3 ** (attempts - 1)), BACKOFF_MAX)


def format_minute(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def parse_minute(text: str) -> int:
    """'HH:MM' (24-hour) to minutes after midnight."""
    hours, _, minutes = text.strip().partition(":")
    value = int(hours) * 60 + int(minutes or 0)
    if not (0 <= int(hours) < 24 and 0 <= int(minutes or 0) < 60):
        raise ValueError(f"not a time of day: {text!r}")
    return value
