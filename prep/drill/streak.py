"""The study streak: consecutive study days with reviews, counted from the database.

The days come from 15-minute buckets of review times computed in SQL (one row per bucket with
reviews, not one per review): every time zone's offset and every day-start hour is a whole
number of quarter hours, so a bucket never straddles the start of a study day.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import BigInteger, Integer, cast, func, select

from ..accounts.models import User
from ..extensions import db
from ..zones import user_zone
from . import queue
from .models import ReviewLog

BUCKET_S = 900  # a quarter hour


def _bucket(column: Any) -> Any:
    """Quarter hours since the epoch of a UTC timestamp column."""
    if db.session.get_bind().dialect.name == "postgresql":
        return cast(func.floor(func.extract("epoch", column)), BigInteger) // BUCKET_S
    return cast(func.strftime("%s", column), Integer) // BUCKET_S


def current_streak(user: User, now: datetime, max_days: int = 3650) -> int:
    """Consecutive study days with reviews. Reads a short window first and widens it only when
    the streak reaches the window's edge, so long histories cost little."""
    day = queue.study_day(now, user.timezone, user.day_start_hour)
    tz = user_zone(user.timezone)  # a stored name that is not a place reads as UTC
    shift = timedelta(hours=user.day_start_hour)
    window = 64
    while True:
        since = day.start - timedelta(days=window)
        buckets = db.session.scalars(select(_bucket(ReviewLog.reviewed_at)).distinct().where(
            ReviewLog.user_id == user.id, ReviewLog.reviewed_at >= since))
        days = {(datetime.fromtimestamp(int(b) * BUCKET_S, timezone.utc).astimezone(tz) - shift).date()
                for b in buckets}
        result = queue.streak(days, day.day)
        if result < window - 1 or window >= max_days:
            return result
        window = min(max_days, window * 4)
