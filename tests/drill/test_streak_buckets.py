"""The streak counts study days from 15-minute buckets computed in SQL: exact in a
zone whose offset is not a whole hour, at the minutes either side of the day's start."""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from prep.drill import queue, streak
from prep.drill.cards import add_to_study
from prep.drill.models import Card, ReviewLog
from prep.extensions import db


def _log(card, user, when: datetime, version: int) -> None:
    db.session.add(ReviewLog(card_id=card.id, user_id=user.id, card_version=version, rating=3,
                             reviewed_at=when.astimezone(timezone.utc), duration_ms=1000, state_before="review",
                             state_after="review", card_before={}))


@pytest.mark.parametrize(("zone", "start_hour"), [("Asia/Kathmandu", 4), ("Australia/Eucla", 0),
                                                  ("America/St_Johns", 4)])
def test_streak_edges_in_quarter_hour_zones(make_user, make_question, zone, start_hour):
    user = make_user(timezone=zone, day_start_hour=start_hour)
    question = make_question()
    add_to_study(user, [question.id], datetime(2026, 3, 1, tzinfo=timezone.utc))
    db.session.commit()
    card = db.session.scalar(db.select(Card).where(Card.user_id == user.id))
    tz = ZoneInfo(zone)
    day0 = datetime(2026, 3, 20, start_hour, 0, tzinfo=tz)  # the start of a study day, local time
    # One minute after each of the last 3 study days began, and one minute before the 4th began:
    # that last review belongs to the day before it, so 4 days in a row.
    times = [day0 + timedelta(minutes=1), day0 - timedelta(days=1) + timedelta(minutes=1),
             day0 - timedelta(days=2) + timedelta(minutes=1), day0 - timedelta(days=2) - timedelta(minutes=1)]
    for version, when in enumerate(times):
        _log(card, user, when, 100 + version)
    db.session.commit()
    now = (day0 + timedelta(hours=3)).astimezone(timezone.utc)
    assert streak.current_streak(user, now) == 4
    # Two minutes before day0 began, today is the day before it: 3 days in a row up to then.
    assert streak.current_streak(user, (day0 - timedelta(minutes=2)).astimezone(timezone.utc)) == 3
    # And three days later, with nothing since, the streak is broken.
    assert streak.current_streak(user, now + timedelta(days=3)) == 0


def _days_of(buckets: list[int], tz: ZoneInfo, hour: int) -> set:
    """The study day of each bucket, converting every one (the rule streak_from_buckets must keep)."""
    return {(datetime.fromtimestamp(b * streak.BUCKET_S, timezone.utc).astimezone(tz) - timedelta(hours=hour)).date()
            for b in buckets}


@pytest.mark.parametrize("zone", ["America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kathmandu", "UTC"])
def test_walking_back_day_by_day_counts_as_converting_every_bucket(zone):
    """Random review histories across the DST changes of 2026, every day-start hour 0–6: the
    day-by-day walk through the sorted buckets gives the streak of the set of converted days."""
    rng = random.Random(zone)
    tz = ZoneInfo(zone)
    for trial in range(150):
        hour = trial % 7
        now = datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(minutes=rng.randrange(365 * 24 * 60))
        today = queue.study_day(now, zone, hour)
        run = rng.randrange(0, 12)  # a streak of about this many days, with gaps now and then
        moments = [now - timedelta(days=d, minutes=rng.randrange(0, 1440)) for d in range(run) if rng.random() > 0.1]
        moments += [now - timedelta(minutes=rng.randrange(0, 60 * 24 * 20)) for _ in range(rng.randrange(0, 5))]
        moments += [today.start + timedelta(minutes=m) for m in (-1, 0, 1) if rng.random() > 0.5]
        buckets = sorted({int(m.timestamp()) // streak.BUCKET_S for m in moments if m <= now}, reverse=True)
        expected = queue.streak(_days_of(buckets, tz, hour), today.day)
        assert streak.streak_from_buckets(buckets, today, tz, hour) == expected, (zone, hour, now, buckets)
