"""The study streak: consecutive study days with reviews, counted from the database.

The days come from 15-minute buckets of review times computed in SQL (one row per bucket with
reviews, not one per review): every time zone's offset and every day-start hour is a whole
number of quarter hours, so a bucket never straddles the start of a study day.
"""
from __future__ import annotations

import functools
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import BigInteger, Integer, bindparam, cast, func, select

from ..accounts.models import User
from ..extensions import db
from ..zones import user_zone
from . import queue
from .models import ReviewLog

BUCKET_S = 900  # a quarter hour


def _bucket(column: Any, dialect: str) -> Any:
    """Quarter hours since the epoch of a UTC timestamp column."""
    if dialect == "postgresql":
        return cast(func.floor(func.extract("epoch", column)), BigInteger) // BUCKET_S
    return cast(func.strftime("%s", column), Integer) // BUCKET_S


def streak_from_buckets(buckets: list[int], today: queue.StudyDay, tz: Any, day_start_hour: int) -> int:
    """:func:`queue.streak` of the study days that hold these quarter-hour ``buckets`` (sorted
    newest first), ending on ``today``: walks back day by day from today through the sorted buckets
    instead of converting every bucket to a local date, so it costs one day's bounds per day of the
    streak. A bucket belongs to the study day whose [start, end) holds it (day starts are whole
    quarter hours)."""
    position, count = 0, 0

    def reviewed_on(day: queue.StudyDay) -> bool:
        nonlocal position
        start, end = int(day.start.timestamp()) // BUCKET_S, int(day.end.timestamp()) // BUCKET_S
        while position < len(buckets) and buckets[position] >= end:  # later days (or the future)
            position += 1
        return position < len(buckets) and buckets[position] >= start

    day = today if reviewed_on(today) else queue.day_bounds(today.day - timedelta(days=1), tz, day_start_hour)
    while reviewed_on(day):
        count += 1
        day = queue.day_bounds(day.day - timedelta(days=1), tz, day_start_hour)
    return count


@functools.cache
def _buckets_statement(dialect: str) -> Any:
    """The distinct quarter hours with reviews since ``since``, newest first, built once per
    dialect (bound per call: ``uid``, ``since``)."""
    bucket = _bucket(ReviewLog.reviewed_at, dialect).label("bucket")
    return select(bucket).distinct().where(ReviewLog.user_id == bindparam("uid"),
                                           ReviewLog.reviewed_at >= bindparam("since")).order_by(bucket.desc())


def current_streak(user: User, now: datetime, max_days: int = 3650) -> int:
    """Consecutive study days with reviews. Reads a short window first and widens it only when
    the streak reaches the window's edge, so long histories cost little."""
    day = queue.study_day(now, user.timezone, user.day_start_hour)
    tz = user_zone(user.timezone)  # a stored name that is not a place reads as UTC
    window = 64
    while True:
        since = day.start - timedelta(days=window)
        # The session's connection, not the session: a plain Core result (the ORM's row handling
        # cost as much as the query for a few hundred buckets).
        connection = db.session.connection()
        buckets = [int(b) for b in connection.execute(_buckets_statement(connection.dialect.name),
                                                      {"uid": user.id, "since": since}).scalars()]
        result = streak_from_buckets(buckets, day, tz, user.day_start_hour)
        if result < window - 1 or window >= max_days:
            return result
        window = min(max_days, window * 4)
