"""Template helpers and access decorators shared by the blueprints."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import wraps
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from flask import Flask, abort
from flask_login import current_user, login_required

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


def local_time(value: datetime | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """Format a UTC datetime in the current user's time zone."""
    if value is None:
        return ""
    tz = ZoneInfo(current_user.timezone) if getattr(current_user, "is_authenticated", False) else ZoneInfo("UTC")
    return value.astimezone(tz).strftime(fmt)


def register_template_helpers(app: Flask) -> None:
    app.jinja_env.filters["local_time"] = local_time
