"""``prep init``: create tables and load the shipped content and sample data, idempotently (the bootstrap of a new installation)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from flask import Flask
from flask_migrate import stamp, upgrade
from sqlalchemy import inspect

from . import clock
from .content.sync import sync_tree
from .extensions import db
from .postings.service import load_sample_postings, rekey_postings


def migrate_database() -> str:
    """Bring the schema to the newest migration, keeping every row.

    A database whose tables were made by ``create_all`` at the current schema (the tests do
    that) and that has no migration record is stamped instead of migrated.
    """
    db.session.close()  # no open transaction may hold SQLite's write lock while Alembic migrates
    tables = set(inspect(db.engine).get_table_names())
    if "alembic_version" not in tables and tables and set(db.metadata.tables) <= tables:
        stamp()
        return "schema: existing tables stamped at the newest migration"
    upgrade()
    return "schema: migrated to the newest version"


def initialise(app: Flask) -> Iterator[str]:
    """Create missing tables, sync the content directory, load the sample postings, derive the
    postings' company and role keys; yields progress."""
    yield migrate_database()
    yield f"database ready: {db.engine.url.render_as_string(hide_password=True)}"
    content_dir = Path(app.config["CONTENT_DIR"])
    if content_dir.is_dir():
        report = sync_tree(content_dir)
        db.session.commit()
        yield from report.problems
        yield report.summary()
    else:
        yield f"no content directory at {content_dir}; skipped"
    yield from load_sample_postings(now=clock.now())
    yield rekey_postings()
    db.session.commit()
