"""``prep init``: create tables and load the shipped content and sample data, idempotently."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from flask import Flask

from .extensions import db


def initialise(app: Flask) -> Iterator[str]:
    """Create missing tables, then sync the content directory; yields progress lines."""
    from .content.sync import sync_tree

    db.create_all()
    yield f"database ready: {db.engine.url.render_as_string(hide_password=True)}"
    content_dir = Path(app.config["CONTENT_DIR"])
    if content_dir.is_dir():
        report = sync_tree(content_dir)
        db.session.commit()
        yield from report.problems
        yield report.summary()
    else:
        yield f"no content directory at {content_dir}; skipped"
