"""The reminder sweep's pure rules (prep.reminders.sweep_rules): plain values in, decisions out,
at fixed times; no app, no database."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from prep.reminders import timing
from prep.reminders.sweep_rules import (DueUser, clocks_at, message_id, next_attempt, notification_text,
                                        split_claims, streak)

NOW = datetime(2025, 3, 10, 1, 5, tzinfo=timezone.utc)  # 09:05 in Shanghai


def due_user(**changes) -> DueUser:
    values = dict(user_id=7, email="a@example.com", display_name="A", timezone="Asia/Shanghai", remind_minute=540,
                  local_date=date(2025, 3, 10), day_end=datetime(2025, 3, 10, 16, 0, tzinfo=timezone.utc),
                  learning=1, reviews=2, new=3)
    values.update(changes)
    return DueUser(**values)


def test_a_failed_send_is_retried_with_back_off_until_the_attempts_or_the_day_run_out() -> None:
    assert next_attempt(due_user(attempts=1), NOW) == NOW + timing.backoff(1)
    assert next_attempt(due_user(attempts=timing.MAX_ATTEMPTS), NOW) is None
    assert next_attempt(due_user(attempts=1, day_end=NOW + timing.backoff(1)), NOW) is None


def test_fresh_claims_and_retries_are_told_apart_per_channel() -> None:
    fresh, again, webhook_fresh = due_user(user_id=1), due_user(user_id=2, log_id=5), \
        due_user(user_id=2, channel="webhook", destination="https://hooks.example.com/x")
    assert split_claims([fresh, again, webhook_fresh]) == ([fresh, webhook_fresh], [again])


def test_what_a_reminder_says() -> None:
    user = due_user()
    assert user.due_count == 6 and user.channel == "email"
    on_webhook = user.on_channel("webhook", "https://hooks.example.com/x", {"format": "feishu"}, 9, "retry", 2)
    assert (on_webhook.user_id, on_webhook.channel, on_webhook.log_id, on_webhook.attempts) == (7, "webhook", 9, 2)
    assert on_webhook.options == {"format": "feishu"} and user.log_id is None
    assert message_id(user, "prep.example") == "<reminder-7-2025-03-10@prep.example>"
    assert notification_text(1) == "You have 1 card to review today."
    assert notification_text(6) == "You have 6 cards to review today."


def test_a_streak_counts_local_study_days_up_to_today_or_yesterday() -> None:
    # Shanghai, days start at 04:00 local (20:00 UTC the day before).
    reviews = [datetime(2025, 3, 9, 1, 0, tzinfo=timezone.utc), datetime(2025, 3, 8, 1, 0, tzinfo=timezone.utc),
               datetime(2025, 3, 6, 1, 0, tzinfo=timezone.utc)]
    assert streak(reviews, NOW, "Asia/Shanghai", 4) == 2  # none yet today: yesterday's streak holds
    assert streak(reviews + [NOW - timedelta(minutes=1)], NOW, "Asia/Shanghai", 4) == 3
    assert streak([], NOW, "Asia/Shanghai", 4) == 0


def test_the_clocks_of_a_sweep_leave_out_unknown_zones() -> None:
    clocks = clocks_at(NOW, [("Asia/Shanghai", 4), ("Not/AZone", 4), ("Europe/Berlin", 0)])
    assert clocks is not None and clocks.zones == ("Asia/Shanghai", "Europe/Berlin")
    assert clocks.clocks["Asia/Shanghai"].local_date == date(2025, 3, 10)
    assert clocks_at(NOW, [("Not/AZone", 4)]) is None
    with pytest.raises(ValueError):
        clocks_at(NOW.replace(tzinfo=None), [("Asia/Shanghai", 4)])
