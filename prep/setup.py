"""``prep init``: create tables and load the shipped content and sample data, idempotently."""
from __future__ import annotations

from collections.abc import Iterator

from flask import Flask

from .extensions import db


def initialise(app: Flask) -> Iterator[str]:
    """Create missing tables, then load content; yields progress lines."""
    db.create_all()
    yield f"database ready: {db.engine.url.render_as_string(hide_password=True)}"
