"""Database engine set-up: SQLite pragmas, and ``BEGIN IMMEDIATE`` for every transaction that
may write.

SQLite under several workers needs WAL, a busy timeout and write transactions that take the
write lock at BEGIN: a deferred transaction that reads and then writes fails at once with
"database is locked" when another connection holds the lock, whatever the busy timeout.
So every transaction starts with ``BEGIN IMMEDIATE`` (POST requests, the CLI, the scheduler),
except those of a request with a safe method (GET, HEAD, OPTIONS): GET never changes state
(``tests/test_database.py`` crawls every GET route and checks that none writes), so those take
a deferred ``BEGIN``. Under WAL a reader takes no lock that writers wait for, and it reads a
consistent snapshot; without this, every page view queued on the one write lock behind the
writers (the benchmark's next-card tail: p99 2.2 s).

The read-only mark is set when Flask dispatches a request (the ``request_started`` signal),
not from ``has_request_context()``: code that opens a ``test_request_context`` (the reminder
email renders templates in one) inside a writing transaction keeps ``BEGIN IMMEDIATE``.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, g, has_request_context, request, request_started
from sqlalchemy import event
from sqlalchemy.engine import Engine

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_READ_ONLY = "_prep_read_only_request"


def _mark_safe_request(sender: Flask, **_extra: Any) -> None:
    """Remember, for this request's app context, whether its transactions only read."""
    setattr(g, _READ_ONLY, request.method in SAFE_METHODS)


request_started.connect(_mark_safe_request)  # a module-level function: the weak reference stays alive


def read_only_request() -> bool:
    """True inside a dispatched GET/HEAD/OPTIONS request (its transactions begin deferred)."""
    return has_request_context() and bool(g.get(_READ_ONLY, False))


def begin_statement() -> str:
    """The BEGIN that SQLite transactions use here and now."""
    return "BEGIN" if read_only_request() else "BEGIN IMMEDIATE"


def configure_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
    """Install pragmas and immediate (write) or deferred (safe request) transactions on a
    SQLite engine (no-op for others)."""
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
        conn.exec_driver_sql(begin_statement())


def like_pattern(text: str) -> str:
    """A LIKE pattern matching ``text`` anywhere, with ``\\``, ``%`` and ``_`` escaped (use escape="\\")."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
