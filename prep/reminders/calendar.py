"""The private iCalendar feed (RFC 5545): one "Review N cards" event a day at the reminder time.

Pure module: no Flask, no database; the caller passes the per-day counts.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from icalendar import Calendar, Event
from ..zones import user_zone

EVENT_LENGTH = timedelta(minutes=15)
FEED_DAYS = 7


@dataclass(frozen=True)
class FeedDay:
    day: date       # local date
    cards: int      # cards the drill offers that day (today: exact; later days: a forecast)
    new: int = 0    # of which new cards (the rest are reviews)

    @property
    def summary(self) -> str:
        """The event's title: reviews and new cards named apart, as the plan and /stats count them."""
        def n(num: int, noun: str) -> str:
            return f"{num} {noun}" + ("" if num == 1 else "s")
        reviews = self.cards - self.new
        if not self.new:
            return f"Review {n(self.cards, 'card')}"
        if not reviews:
            return f"Learn {n(self.new, 'new card')}"
        return f"Study {n(self.cards, 'card')} ({n(reviews, 'review')}, {self.new} new)"


def build_feed(*, user_id: int, tz_name: str, remind_minute: int, days: Sequence[FeedDay], now: datetime,
               drill_url: str, domain: str) -> bytes:
    """The calendar as bytes: an event on each day with something to review."""
    tz = user_zone(tz_name)
    cal = Calendar()
    cal.add("prodid", "-//prep//daily review reminders//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", "prep: daily review")
    cal.add("x-wr-timezone", tz_name)
    cal.add("refresh-interval", timedelta(hours=1), parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", "PT1H")
    for feed_day in days:
        if feed_day.cards <= 0:
            continue
        start = datetime.combine(feed_day.day, time(remind_minute // 60, remind_minute % 60), tzinfo=tz)
        event = Event()
        event.add("uid", f"prep-review-{user_id}-{feed_day.day.isoformat()}@{domain}")
        event.add("dtstamp", now)
        event.add("dtstart", start)
        event.add("dtend", start + EVENT_LENGTH)
        event.add("summary", feed_day.summary)
        event.add("description", f"{feed_day.summary} in prep. Start the drill: {drill_url}")
        event.add("url", drill_url)
        event.add("transp", "TRANSPARENT")
        cal.add_component(event)
    cal.add_missing_timezones()
    return cal.to_ical()
