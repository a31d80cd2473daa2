"""The interview dates a candidate may give: from today to a year ahead, in study-day terms
(``today`` is the candidate's study day, :func:`prep.drill.queue_queries.study_day`).

A date past that is refused where it comes in (the forms, the import's review); one stored before
the check existed is treated as no interview ahead (:func:`ahead_within_range`). Pure module.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from .errors import InterviewDateError

#: How far ahead an interview date may lie: a year (today + 365 days is the last day).
MAX_DAYS_AHEAD = 365


@dataclass(frozen=True)
class DateRange:
    """The days an interview date may take, both ends included."""

    first: date
    last: date

    def __contains__(self, day: object) -> bool:
        return isinstance(day, date) and self.first <= day <= self.last


def allowed(today: date) -> DateRange:
    """The interview dates a candidate may give on ``today`` (their study day)."""
    return DateRange(today, latest(today))


def latest(today: date) -> date:
    """The last interview date a candidate may give on ``today``; a stored date after it (from
    before the check) is not planned for."""
    return today + timedelta(days=MAX_DAYS_AHEAD)


def ahead_within_range(day: date | None, today: date) -> bool:
    """A stored interview date the pages count down to: not past :func:`latest` (a past date is
    an interview that took place, and stays as it is)."""
    return day is not None and day <= latest(today)


def check(day: date | None, today: date) -> None:
    """Raise :class:`InterviewDateError` when ``day`` is given and outside :func:`allowed`."""
    if day is not None and day not in allowed(today):
        span = allowed(today)
        raise InterviewDateError(day, span.first, span.last)
