"""Jinja filters and globals shared by every template."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from flask import Flask
from flask_babel import format_date, format_datetime, get_locale
from flask_login import current_user

from ..zones import is_user_zone

# CLDR's "medium" pattern without the seconds.
_DATETIME_PATTERN = {"en": "MMM d, y, h:mm a", "zh": "y年M月d日 HH:mm"}


def local_time(value: datetime | None, fmt: str | None = None) -> str:
    """Format a UTC datetime in the current user's time zone.

    Without ``fmt``, in the UI language's own short date-and-time pattern (Babel/CLDR:
    "Mar 10, 2026, 8:00 PM" in English, "2026年3月10日 20:00" in Chinese). A strftime ``fmt``
    (e.g. "%Y-%m-%d") keeps that exact, language-neutral format.
    """
    if value is None:
        return ""
    try:
        if fmt is not None:
            return value.astimezone(ZoneInfo(_user_zone())).strftime(fmt)
        # Flask-Babel converts to the user's zone (prep.i18n.select_timezone) and uses the UI locale.
        return format_datetime(value, _DATETIME_PATTERN.get(str(get_locale() or "en"), "medium"))
    except (OverflowError, ValueError):  # a stored time at the edge of the calendar (9999-12-31)
        return value.strftime(fmt or "%Y-%m-%d %H:%M UTC")


def local_date(value: datetime | None, width: str = "medium") -> str:
    """The day of a UTC datetime in the current user's time zone, in the UI language ("Mar 10, 2026",
    "2026年3月10日")."""
    if value is None:
        return ""
    try:
        return format_date(value, width)  # Flask-Babel moves a datetime to the user's zone first
    except (OverflowError, ValueError):
        return value.strftime("%Y-%m-%d")


def _user_zone() -> str:
    if getattr(current_user, "is_authenticated", False) and is_user_zone(current_user.timezone):
        return current_user.timezone
    return "UTC"


def register_template_helpers(app: Flask) -> None:
    """Add the shared filters to the app's Jinja environment."""
    app.jinja_env.filters["local_time"] = local_time
    app.jinja_env.filters["local_date"] = local_date
