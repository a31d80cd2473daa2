"""Template helpers and access decorators shared by the blueprints."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import wraps
import re
from urllib.parse import urlsplit
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from flask import Flask, abort, request
from flask_babel import format_datetime, get_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required

from .errors import _render
from .zones import is_user_zone

F = TypeVar("F", bound=Callable[..., Any])


def instructor_required(view: F) -> F:
    """Instructors and admins only; candidates get 403, anonymous users the login page."""

    @wraps(view)
    @login_required
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not current_user.is_instructor:
            abort(403)
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def admin_required(view: F) -> F:
    @wraps(view)
    @login_required
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not current_user.is_admin:
            abort(403)
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def safe_local_target(target: str | None, default: str) -> str:
    """``target`` when it is a same-site relative path, else ``default`` (no open redirects)."""
    # Browsers read "/\\host" as "//host", so a backslash after the slash is refused too.
    if (target and target.startswith("/") and not target.startswith(("//", "/\\"))
            and not urlsplit(target).netloc):
        return target
    return default


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


# CLDR's "medium" pattern without the seconds.
_DATETIME_PATTERN = {"en": "MMM d, y, h:mm a", "zh": "y年M月d日 HH:mm"}


def _user_zone() -> str:
    if getattr(current_user, "is_authenticated", False) and is_user_zone(current_user.timezone):
        return current_user.timezone
    return "UTC"


def register_template_helpers(app: Flask) -> None:
    app.jinja_env.filters["local_time"] = local_time


#: The largest id a URL or form may name (an ``Integer`` column).
MAX_ID = 2**31 - 1
#: The last page number a list accepts (beyond it, the last page's emptiness is shown).
MAX_PAGE = 100_000


_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,12}")


def int_arg(name: str, default: int | None = None, *, lo: int = 0, hi: int = MAX_ID) -> int | None:
    """A whole-number query argument within [lo, hi]; ``default`` when absent, malformed or out
    of range (so ``?page=99999999999999999999`` cannot reach the database)."""
    raw = request.args.get(name, "")
    # ASCII digits only: str.isdigit() also takes '²', which int() refuses.
    if not _WHOLE_NUMBER.fullmatch(raw):
        return default
    value = int(raw)
    return value if lo <= value <= hi else default


def page_arg() -> int:
    """The ``page`` query argument: 1 to :data:`MAX_PAGE`."""
    return int_arg("page", 1, lo=1, hi=MAX_PAGE) or 1


def register_input_guard(app: Flask) -> None:
    """No request value may hold a NUL character: PostgreSQL refuses one in any text (a 500 from
    every search box and form), and no field of the app means one. A NUL in the path is a 404;
    in a query argument or a form field it is a 400 naming the field, before any view runs."""
    @app.before_request
    def refuse_nul():
        if "\x00" in request.path:
            abort(404)
        for source in (request.args, request.form if request.method in ("POST", "PUT", "PATCH") else None):
            if not source:
                continue
            for key, values in source.lists():
                if "\x00" in key or any("\x00" in v for v in values):
                    return _render(400, _("The field “%(field)s” holds a NUL character (\\0), which no field "
                                          "accepts. Remove it and send again; nothing was changed.",
                                          field=key.replace("\x00", "")[:40]), _("Bad input"))
        return None
