"""Database engine set-up: SQLite pragmas and ``BEGIN IMMEDIATE`` for write transactions.

SQLite under several workers needs WAL, a busy timeout and write transactions that take the
write lock at BEGIN: a deferred transaction that reads and then writes fails at once with
"database is locked" when another connection holds the lock, whatever the busy timeout.
We start every SQLAlchemy transaction with ``BEGIN IMMEDIATE``. Read-only requests also pay
for the lock, which SQLite serialises quickly; correctness under concurrency wins here.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine


def configure_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
    """Install pragmas and immediate transactions on a SQLite engine (no-op for others)."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy emit BEGIN itself (pysqlite's own transaction handling is off).
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        if engine.url.database not in (None, "", ":memory:"):
            cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
