"""Who may see a page: the access decorators, and the logged-in user as a plain object."""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

from flask import abort
from flask_login import current_user, login_required

if TYPE_CHECKING:
    from ..accounts.models import User

F = TypeVar("F", bound=Callable[..., Any])


def signed_in_user() -> User:
    """The logged-in user's row itself (not Flask-Login's proxy), to hand to services and queries.

    Only in views behind ``login_required`` (or a decorator below), where a user is logged in.
    """
    return current_user._get_current_object()


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
    """Admins only; others get 403, anonymous users the login page."""

    @wraps(view)
    @login_required
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not current_user.is_admin:
            abort(403)
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]
