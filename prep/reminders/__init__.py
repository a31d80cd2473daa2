"""Daily review reminders (email, in-app, calendar feed). Wired into the app by ``init_app``."""
from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    """Register the reminders blueprint, CLI commands, template context and scheduler."""
