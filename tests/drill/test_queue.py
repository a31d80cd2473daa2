"""Pure queue rules: the local study day (with DST), budgets, pick order, streaks."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from prep.drill import queue

UTC = timezone.utc


@pytest.mark.parametrize("now, tz, start_hour, expected_day", [
    (datetime(2026, 3, 10, 3, 59, tzinfo=UTC), "UTC", 4, date(2026, 3, 9)),
    (datetime(2026, 3, 10, 4, 0, tzinfo=UTC), "UTC", 4, date(2026, 3, 10)),
    # 01:00 UTC is 09:00 in Shanghai: already the 10th there.
    (datetime(2026, 3, 10, 1, 0, tzinfo=UTC), "Asia/Shanghai", 4, date(2026, 3, 10)),
    # 19:59 UTC is 03:59 next day in Shanghai: still the 10th's study day.
    (datetime(2026, 3, 10, 19, 59, tzinfo=UTC), "Asia/Shanghai", 4, date(2026, 3, 10)),
    (datetime(2026, 3, 10, 20, 0, tzinfo=UTC), "Asia/Shanghai", 4, date(2026, 3, 11)),
    # Far west: 10:00 UTC is 23:00 the day before in Pago Pago (UTC-11).
    (datetime(2026, 3, 10, 10, 0, tzinfo=UTC), "Pacific/Pago_Pago", 4, date(2026, 3, 9)),
    (datetime(2026, 3, 10, 0, 30, tzinfo=UTC), "UTC", 0, date(2026, 3, 10)),
])
def test_study_day(now, tz, start_hour, expected_day):
    day = queue.study_day(now, tz, start_hour)
    assert day.day == expected_day
    assert day.start <= now < day.end


def test_study_day_across_spring_forward_is_23_hours():
    # US DST starts 2026-03-08 at 02:00 local in New York.
    day = queue.study_day(datetime(2026, 3, 8, 12, 0, tzinfo=UTC), "America/New_York", 4)
    assert day.day == date(2026, 3, 8)
    assert day.start == datetime(2026, 3, 8, 8, 0, tzinfo=UTC)   # 04:00 EDT, after the 02:00 switch
    assert day.end - day.start == timedelta(hours=24)
    saturday = queue.study_day(datetime(2026, 3, 7, 12, 0, tzinfo=UTC), "America/New_York", 4)
    # 04:00 EST on the 7th = 09:00 UTC; 04:00 EDT on the 8th = 08:00 UTC: 23 hours.
    assert saturday.start == datetime(2026, 3, 7, 9, 0, tzinfo=UTC)
    assert saturday.end == datetime(2026, 3, 8, 8, 0, tzinfo=UTC)
    assert saturday.end - saturday.start == timedelta(hours=23)


def test_study_day_across_fall_back_is_25_hours():
    # EU DST ends 2026-10-25 at 03:00 local in Berlin; with the day starting at 02:00 the hour repeats.
    day = queue.study_day(datetime(2026, 10, 24, 12, 0, tzinfo=UTC), "Europe/Berlin", 4)
    assert day.start == datetime(2026, 10, 24, 2, 0, tzinfo=UTC)  # 04:00 CEST
    assert day.end == datetime(2026, 10, 25, 3, 0, tzinfo=UTC)    # 04:00 CET
    assert day.end - day.start == timedelta(hours=25)


def test_naive_now_is_refused():
    with pytest.raises(ValueError):
        queue.study_day(datetime(2026, 1, 1), "UTC")


def test_budget_and_pick_order():
    limits = queue.Limits(new_per_day=5, reviews_per_day=10)
    b = queue.budget(limits, queue.DoneToday(new=5, reviews=3))
    assert b == queue.Budget(new_left=0, reviews_left=7)
    assert queue.pick_order(b) == [queue.Pick.learning, queue.Pick.review, queue.Pick.learn_ahead]
    b = queue.budget(limits, queue.DoneToday(new=9, reviews=12))
    assert b == queue.Budget(0, 0)
    assert queue.pick_order(queue.Budget(2, 2))[0] is queue.Pick.learning


@pytest.mark.parametrize("days, today, expected", [
    (set(), date(2026, 1, 10), 0),
    ({date(2026, 1, 10)}, date(2026, 1, 10), 1),
    ({date(2026, 1, 9), date(2026, 1, 8)}, date(2026, 1, 10), 2),  # today not yet studied: not broken
    ({date(2026, 1, 10), date(2026, 1, 9), date(2026, 1, 7)}, date(2026, 1, 10), 2),
    ({date(2026, 1, 8)}, date(2026, 1, 10), 0),
])
def test_streak(days, today, expected):
    assert queue.streak(days, today) == expected


def test_planned_cards_come_after_due_reviews_and_before_new_ones():
    assert queue.with_planned(queue.pick_order(queue.Budget(2, 2))) == [
        queue.Pick.learning, queue.Pick.review, queue.Pick.planned, queue.Pick.new, queue.Pick.learn_ahead]
    # the daily limits reached: the plan's bookings still come
    assert queue.with_planned(queue.pick_order(queue.Budget(0, 0))) == [
        queue.Pick.learning, queue.Pick.planned, queue.Pick.learn_ahead]


@pytest.mark.parametrize(("booked", "expected"), [
    (set(), False),                                               # no plan: FSRS decides
    ({date(2026, 3, 12)}, True),                                  # booked later, not today: held
    ({date(2026, 3, 10), date(2026, 3, 12)}, False),              # booked today too: offered today
    ({date(2026, 3, 10)}, False),                                 # booked today only
    ({date(2026, 3, 8)}, False),                                  # bookings over (interview passed)
])
def test_a_card_with_bookings_ahead_waits_for_them(booked, expected):
    assert queue.held_by_plan(booked, date(2026, 3, 10)) is expected
