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
from sqlalchemy import MetaData, Table, text

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
            file = db.engine.url.database
            db.session.remove()
            db.engine.dispose()
        _SYNCED.update(rows=rows, report=report, key=key, linker=linker, file=file)
    return _SYNCED["rows"], _SYNCED["report"]


def load_shipped_content() -> Any:
    """Copy the synced rows into the current app's database (whose content tables are empty) and
    return the sync's report."""
    rows, report = _synced()
    if db.engine.dialect.name == "sqlite":
        _copy_in_sqlite(rows)
    else:
        _copy_in_postgresql(rows)
    _share_linker()
    return report


def _copy_in_sqlite(rows: dict[str, list[dict[str, Any]]]) -> None:
    """SQLite copies the rows from the synced file itself (``INSERT … SELECT`` over an attached
    database): the same rows as :func:`_copy_in_postgresql`, without turning thousands of them into parameters."""
    db.session.commit()  # ATTACH is refused inside a transaction
    connection = db.engine.raw_connection()
    try:
        sqlite = connection.driver_connection
        sqlite.execute("ATTACH DATABASE ? AS synced", (_SYNCED["file"],))
        try:
            sqlite.execute("BEGIN IMMEDIATE")
            for table in db.metadata.sorted_tables:
                if rows[table.name]:
                    sqlite.execute(_copy_statement(table, "main", "synced"))
            sqlite.execute("COMMIT")
        finally:
            sqlite.execute("DETACH DATABASE synced")
    finally:
        connection.close()


#: The PostgreSQL databases (by URL) holding a copy of the synced rows in the schema ``shipped``.
_SNAPSHOTS: set[str] = set()


def _copy_statement(table: Table, into: str, source: str) -> str:
    """``INSERT … SELECT`` of every column of ``table``, from the schema (or attached database)
    ``source`` into ``into``."""
    columns = ", ".join(f'"{column.name}"' for column in table.columns)
    return f'INSERT INTO {into}."{table.name}" ({columns}) SELECT {columns} FROM {source}."{table.name}"'


def _copy_in_postgresql(rows: dict[str, list[dict[str, Any]]]) -> None:
    """PostgreSQL copies the rows server-side from a copy of them kept in the session's database
    (the schema ``shipped``, made by the first test that asks; the tests empty only the app's tables)."""
    tables = [table for table in db.metadata.sorted_tables if rows[table.name]]
    url = db.engine.url.render_as_string(hide_password=False)
    if url not in _SNAPSHOTS:
        db.session.execute(text("DROP SCHEMA IF EXISTS shipped CASCADE"))
        db.session.execute(text("CREATE SCHEMA shipped"))
        copies = MetaData(schema="shipped")
        for table in tables:
            db.session.execute(text(f'CREATE TABLE shipped."{table.name}" (LIKE public."{table.name}")'))
            db.session.execute(table.to_metadata(copies).insert(), rows[table.name])
        db.session.commit()
        _SNAPSHOTS.add(url)
    for table in tables:
        db.session.execute(text(_copy_statement(table, "public", "shipped")))
        if "id" in table.c and table.c.id.autoincrement in (True, "auto"):  # explicit ids: move the sequence past them
            db.session.execute(text(
                f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', 'id'), MAX(id)) FROM \"{table.name}\""))
    db.session.commit()


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
