"""Reminders, pure parts: time maths across DST and far zones, back-off, SMTP URLs, tokens,
the iCalendar feed. Fixed clocks only."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from icalendar import Calendar

from prep.reminders import calendar, timing, tokens
from prep.mail import SmtpSettings, SmtpUrlError, parse_smtp_url

UTC = timezone.utc


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.mark.parametrize(("zone", "day", "minute", "expected_utc"), [
    ("Asia/Shanghai", date(2026, 3, 10), 9 * 60, "2026-03-10T01:00"),
    ("UTC", date(2026, 3, 10), 9 * 60, "2026-03-10T09:00"),
    ("Pacific/Kiritimati", date(2026, 3, 10), 9 * 60, "2026-03-09T19:00"),  # UTC+14
    ("Pacific/Pago_Pago", date(2026, 3, 10), 9 * 60, "2026-03-10T20:00"),   # UTC-11
    ("America/Los_Angeles", date(2026, 3, 7), 9 * 60, "2026-03-07T17:00"),  # PST, before the change
    ("America/Los_Angeles", date(2026, 3, 8), 9 * 60, "2026-03-08T16:00"),  # PDT, the day of it
    ("America/Los_Angeles", date(2026, 3, 9), 9 * 60, "2026-03-09T16:00"),
    ("America/Los_Angeles", date(2026, 3, 8), 2 * 60 + 30, "2026-03-08T10:00"),  # skipped: fires at the jump
    ("America/Los_Angeles", date(2026, 11, 1), 60 + 30, "2026-11-01T08:30"),     # repeated: first occurrence
    ("Asia/Kolkata", date(2026, 3, 10), 9 * 60, "2026-03-10T03:30"),
])
def test_reminder_instant(zone: str, day: date, minute: int, expected_utc: str) -> None:
    assert timing.reminder_instant(day, minute, zone) == at(expected_utc)


@pytest.mark.parametrize(("zone", "now", "minute", "passed", "local_date"), [
    ("Asia/Shanghai", "2026-03-10T00:59", 540, False, date(2026, 3, 10)),
    ("Asia/Shanghai", "2026-03-10T01:00", 540, True, date(2026, 3, 10)),
    ("Pacific/Kiritimati", "2026-03-09T18:59", 540, False, date(2026, 3, 10)),
    ("Pacific/Kiritimati", "2026-03-09T19:00", 540, True, date(2026, 3, 10)),
    ("America/Los_Angeles", "2026-03-07T16:59", 540, False, date(2026, 3, 7)),
    ("America/Los_Angeles", "2026-03-07T17:00", 540, True, date(2026, 3, 7)),
    ("America/Los_Angeles", "2026-03-08T15:59", 540, False, date(2026, 3, 8)),
    ("America/Los_Angeles", "2026-03-08T16:00", 540, True, date(2026, 3, 8)),
    # 02:30 does not exist on 8 March; the clock passes it at 03:00 PDT (10:00 UTC).
    ("America/Los_Angeles", "2026-03-08T09:59", 150, False, date(2026, 3, 8)),
    ("America/Los_Angeles", "2026-03-08T10:00", 150, True, date(2026, 3, 8)),
    # Late in the local evening: still the same local day, not yet the next one.
    ("America/Los_Angeles", "2026-03-10T06:59", 540, True, date(2026, 3, 9)),
])
def test_reminder_passed_and_local_date(zone: str, now: str, minute: int, passed: bool, local_date: date) -> None:
    assert timing.reminder_passed(at(now), zone, minute) is passed
    assert timing.zone_clock(at(now), zone).local_date == local_date


def test_day_end_is_next_local_midnight_across_dst() -> None:
    # 8 March in Los Angeles is 23 hours long.
    clock = timing.zone_clock(at("2026-03-08T12:00"), "America/Los_Angeles")
    assert clock.day_end == at("2026-03-09T07:00")
    assert timing.zone_clock(at("2026-03-07T12:00"), "America/Los_Angeles").day_end == at("2026-03-08T08:00")


def test_naive_now_is_refused() -> None:
    with pytest.raises(ValueError):
        timing.zone_clock(datetime(2026, 3, 10, 12, 0), "UTC")


def test_next_reminder() -> None:
    now = at("2026-03-10T00:30")
    assert timing.next_reminder(now, "Asia/Shanghai", 540, reminded_today=False) == at("2026-03-10T01:00")
    assert timing.next_reminder(now, "Asia/Shanghai", 540, reminded_today=True) == at("2026-03-11T01:00")
    # At 22:08 local with the setting at 09:00 the next reminder is tomorrow's
    # 09:00, not "now" (the page said "Next reminder 10:08 PM").
    later = at("2026-03-10T14:08")
    assert timing.next_reminder(later, "Asia/Shanghai", 540, reminded_today=False) == at("2026-03-11T01:00")


@pytest.mark.parametrize(("now", "minute", "expected_utc"), [
    ("2026-03-07T18:00", 9 * 60, "2026-03-08T16:00"),   # Sat 10:00 PST -> Sun 09:00 PDT (spring forward)
    ("2026-03-08T09:00", 2 * 60 + 30, "2026-03-08T10:00"),  # 02:30 is skipped that night: the jump
    ("2026-10-31T17:00", 9 * 60, "2026-11-01T17:00"),   # Sat 10:00 PDT -> Sun 09:00 PST (fall back)
    ("2026-11-01T08:00", 60 + 30, "2026-11-01T08:30"),  # 01:30 happens twice: the first one
    ("2026-11-01T08:45", 60 + 30, "2026-11-02T09:30"),  # past the first 01:30 (and it went out)
])
def test_next_reminder_across_dst(now: str, minute: int, expected_utc: str) -> None:
    reminded = now == "2026-11-01T08:45"
    assert timing.next_reminder(at(now), "America/Los_Angeles", minute, reminded_today=reminded) == at(expected_utc)


def test_first_reminder_is_after_registering() -> None:
    nine = date(2026, 3, 10)  # 09:00 Shanghai is 01:00 UTC
    assert timing.first_reminder_reached(at("2026-03-10T00:59"), nine, 540, "Asia/Shanghai")
    assert timing.first_reminder_reached(at("2026-03-10T01:00"), nine, 540, "Asia/Shanghai")
    assert not timing.first_reminder_reached(at("2026-03-10T01:01"), nine, 540, "Asia/Shanghai")
    assert not timing.first_reminder_reached(at("2026-03-10T14:07"), nine, 540, "Asia/Shanghai")
    assert timing.first_reminder_reached(at("2026-03-10T14:07"), date(2026, 3, 11), 540, "Asia/Shanghai")
    assert timing.first_reminder_reached(None, nine, 540, "Asia/Shanghai")


def test_backoff_grows_and_is_capped() -> None:
    delays = [timing.backoff(n) for n in range(1, 7)]
    assert delays[:3] == [timedelta(minutes=5), timedelta(minutes=15), timedelta(minutes=45)]
    assert delays == sorted(delays)
    assert max(delays) == timing.BACKOFF_MAX


@pytest.mark.parametrize(("text", "minute"), [("09:00", 540), ("00:00", 0), ("23:59", 1439), ("7:5", 425)])
def test_parse_and_format_minute(text: str, minute: int) -> None:
    assert timing.parse_minute(text) == minute
    assert timing.parse_minute(timing.format_minute(minute)) == minute


@pytest.mark.parametrize("bad", ["24:00", "12:60", "noon"])
def test_parse_minute_refuses(bad: str) -> None:
    with pytest.raises(ValueError):
        timing.parse_minute(bad)


@pytest.mark.parametrize(("url", "expected"), [
    ("smtp://user:pa%40ss@mail.example.com:587?starttls=1",
     SmtpSettings(host="mail.example.com", port=587, username="user", password="pa@ss", starttls=True)),
    ("smtps://u:p@mail.example.com", SmtpSettings(host="mail.example.com", port=465, username="u", password="p",
                                                 ssl=True)),
    ("smtp://127.0.0.1:2525", SmtpSettings(host="127.0.0.1", port=2525)),
    ("smtp://localhost", SmtpSettings(host="localhost", port=25)),
    ("smtp://localhost?timeout=3", SmtpSettings(host="localhost", port=25, timeout=3.0)),
])
def test_parse_smtp_url(url: str, expected: SmtpSettings) -> None:
    assert parse_smtp_url(url) == expected


@pytest.mark.parametrize("bad", ["http://x", "smtp://", "smtps://h?starttls=1", "smtp://h?starttls=maybe",
                                 "smtp://h:notaport"])
def test_parse_smtp_url_refuses(bad: str) -> None:
    with pytest.raises(SmtpUrlError):
        parse_smtp_url(bad)


def test_unsubscribe_token_round_trip_and_tampering() -> None:
    token = tokens.unsubscribe_token("secret", 7)
    assert tokens.read_unsubscribe_token("secret", token) == 7
    assert tokens.read_unsubscribe_token("other-secret", token) is None
    assert tokens.read_unsubscribe_token("secret", token[:-2] + ("A" if token[-2] != "A" else "B") + token[-1]) is None
    assert tokens.read_unsubscribe_token("secret", "garbage") is None
    # Another user's id cannot be swapped in: the signature covers it.
    other = tokens.unsubscribe_token("secret", 8)
    forged = other.split(".")[0] + "." + token.split(".")[1]
    assert tokens.read_unsubscribe_token("secret", forged) is None


def test_calendar_feed_events_in_the_users_zone() -> None:
    now = at("2026-03-07T12:00")
    days = [calendar.FeedDay(date(2026, 3, 7), 12), calendar.FeedDay(date(2026, 3, 8), 0),
            calendar.FeedDay(date(2026, 3, 9), 1)]
    body = calendar.build_feed(user_id=3, tz_name="America/Los_Angeles", remind_minute=540, days=days, now=now,
                               drill_url="http://prep.test/drill", domain="prep.test")
    cal = Calendar.from_ical(body)
    events = cal.walk("VEVENT")
    assert [str(e["summary"]) for e in events] == ["Review 12 cards", "Review 1 card"]
    mixed = [calendar.FeedDay(date(2026, 3, 7), 13, new=10), calendar.FeedDay(date(2026, 3, 8), 2, new=2)]
    assert [d.summary for d in mixed] == ["Study 13 cards (3 reviews, 10 new)", "Learn 2 new cards"]
    starts = [e.decoded("dtstart") for e in events]
    assert [s.astimezone(UTC) for s in starts] == [at("2026-03-07T17:00"), at("2026-03-09T16:00")]  # PST, PDT
    assert all(e["dtstart"].params["TZID"] == "America/Los_Angeles" for e in events)
    assert [str(e["uid"]) for e in events] == ["prep-review-3-2026-03-07@prep.test", "prep-review-3-2026-03-09@prep.test"]
    assert cal.walk("VTIMEZONE"), "the feed carries its VTIMEZONE"
    assert b"VERSION:2.0" in body and b"PRODID:" in body
