"""The calendar channel: a private iCalendar feed (:mod:`prep.reminders.calendar`) the user's
calendar app reads. Nothing is sent: the settings page makes (or resets) the feed's secret link,
and ``/calendar/<token>.ics`` serves it. The sweep leaves feed channels alone."""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from .base import Channel


class CalendarFeedChannel(Channel):
    name = "calendar"
    label = _l("Calendar feed")
    noun = _l("calendar")
    kind = "feed"

    def fields(self) -> dict[str, Any]:
        return {}  # the link has its own button on the settings page

    def show(self, form: Any, row: Any | None) -> None:
        return None

    def apply(self, form: Any, row: Any) -> None:
        return None


CHANNEL = CalendarFeedChannel()
