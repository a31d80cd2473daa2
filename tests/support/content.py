"""The shipped explanations (the repository's content/ folder) in a test's database.

Syncing the whole folder takes 10+ seconds of CPU and grows with every page, so it is done once per
test process, into a SQLite database of its own; a test that needs the shipped explanations gets
that database's rows copied into its own (SQLite or PostgreSQL) in a fraction of a second. The rows
are exactly what ``sync_tree`` wrote; a later ``prep init`` or sync finds every file unchanged."""
from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text

from prep.content.sync import _LINKER_CACHE, current_linker, linker_key_query, sync_tree
from prep.extensions import db

from .app import make_app

REPO_CONTENT = Path(__file__).resolve().parents[2] / "content"
_SYNCED: dict[str, Any] = {}


def _synced() -> tuple[dict[str, list[dict[str, Any]]], Any]:
    """Every table's rows after a sync of content/ into an empty database, and the sync's report."""
    if not _SYNCED:
        folder = Path(tempfile.mkdtemp(prefix="prep-content-"))
        atexit.register(shutil.rmtree, folder, True)
        app = make_app(folder)
        with app.app_context():
            report = sync_tree(REPO_CONTENT)
            db.session.commit()
            key = tuple(db.session.execute(linker_key_query()).one())
            linker = current_linker()
            rows = {table.name: [dict(row._mapping) for row in db.session.execute(table.select())]
                    for table in db.metadata.sorted_tables}
            db.session.remove()
            db.engine.dispose()
        _SYNCED.update(rows=rows, report=report, key=key, linker=linker)
    return _SYNCED["rows"], _SYNCED["report"]


def load_shipped_content() -> Any:
    """Copy the synced rows into the current app's database (whose content tables are empty) and
    return the sync's report."""
    rows, report = _synced()
    for table in db.metadata.sorted_tables:
        if rows[table.name]:
            db.session.execute(table.insert(), rows[table.name])
    if db.engine.dialect.name == "postgresql":  # explicit ids: move each id sequence past them
        for table in db.metadata.sorted_tables:
            if rows[table.name] and "id" in table.c and table.c.id.autoincrement in (True, "auto"):
                db.session.execute(text(
                    f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', 'id'), MAX(id)) FROM \"{table.name}\""))
    db.session.commit()
    _share_linker()
    return report


def _share_linker() -> None:
    """The linker over the shipped explanations, built once, for this database too: its rows are
    the synced ones (the same count and ids), so the index :func:`current_linker` would build from
    them is the same, and building it costs seconds."""
    key = tuple(db.session.execute(linker_key_query()).one())
    synced = _SYNCED["key"]
    if (key[0], key[2]) == (synced[0], synced[2]):
        _LINKER_CACHE[db.engine.url.render_as_string(hide_password=True)] = (key, _SYNCED["linker"])


@pytest.fixture
def shipped_content(app: Flask) -> Any:
    """The shipped explanations in the test's database (``CONTENT_DIR`` pointing at them)."""
    app.config["CONTENT_DIR"] = str(REPO_CONTENT)
    return load_shipped_content()
