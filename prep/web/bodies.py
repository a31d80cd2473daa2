"""Request bodies larger than the app's default, for the few views that take a whole document.

``MAX_CONTENT_LENGTH`` and ``MAX_FORM_MEMORY_SIZE`` bound every request; a view marked with
:func:`allow_body` gets its own bounds instead (a posting pasted or uploaded: up to a million
characters, which is 4 MB of UTF-8 at most). The request reads them from the matched view, so
they hold from the first read of the body (CSRFProtect reads the form before any view runs).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import Flask, Request, current_app

View = TypeVar("View", bound=Callable)


def allow_body(*, content_length: int, form_memory: int) -> Callable[[View], View]:
    """Mark a view as taking bodies up to ``content_length`` bytes, with form fields (not files)
    up to ``form_memory`` bytes. Put it under ``@login_required`` (it copies the mark)."""
    def mark(view: View) -> View:
        view.body_limits = (content_length, form_memory)  # type: ignore[attr-defined]
        return view
    return mark


class BodyLimits(Request):
    """The body limits of the matched view when it has its own, else the app's (a mixin over the
    app's request class: :func:`register_body_limits`)."""

    def _view_limits(self) -> tuple[int, int] | None:
        if self.url_rule is None or not current_app:
            return None
        return getattr(current_app.view_functions.get(self.url_rule.endpoint), "body_limits", None)

    @property
    def max_content_length(self) -> int | None:  # type: ignore[override]
        limits = self._view_limits()
        return limits[0] if limits else super().max_content_length

    @property
    def max_form_memory_size(self) -> int | None:  # type: ignore[override]
        limits = self._view_limits()
        return limits[1] if limits else super().max_form_memory_size


def register_body_limits(app: Flask) -> None:
    """Over the request class the app has by now (prep.web.json_body's)."""
    app.request_class = type("BodyLimitedRequest", (BodyLimits, app.request_class), {})
