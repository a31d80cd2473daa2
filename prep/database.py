"""Database engine set-up: SQLite pragmas, and ``BEGIN IMMEDIATE`` for every transaction that
may write.

SQLite under several workers needs WAL, a busy timeout and write transactions that take the
write lock at BEGIN: a deferred transaction that reads and then writes fails at once with
"database is locked" when another connection holds the lock, whatever the busy timeout.
So every transaction starts with ``BEGIN IMMEDIATE`` (POST requests, the CLI, the scheduler),
except those of a request with a safe method (GET, HEAD, OPTIONS): GET never changes state
(``tests/core/test_database.py`` crawls every GET route and checks that none writes), so those take
a deferred ``BEGIN``. Under WAL a reader takes no lock that writers wait for, and it reads a
consistent snapshot; without this, every page view queued on the one write lock behind the
writers (the benchmark's next-card tail: p99 2.2 s).

The read-only mark is set when Flask dispatches a request (the ``request_started`` signal),
not from ``has_request_context()``: code that opens a ``test_request_context`` (the reminder
email renders templates in one) inside a writing transaction keeps ``BEGIN IMMEDIATE``.

Within one process, writers to a SQLite file queue on a Python lock (``WriteLock``) taken just
before ``BEGIN IMMEDIATE`` and released once the transaction's COMMIT or ROLLBACK has run.
Without it every waiting thread polls SQLite's busy handler, which sleeps in steps of up to
100 ms and wakes in no order: a rating could lose several rounds (p99 ≈ 440 ms with 8 clients).
Only one thread per process then contends for SQLite's lock with other processes.
"""
from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, g, has_app_context, has_request_context, request, request_started
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_READ_ONLY = "_prep_read_only_request"


def _mark_safe_request(sender: Flask, **_extra: Any) -> None:
    """Remember, for this request's app context, whether its transactions only read."""
    setattr(g, _READ_ONLY, request.method in SAFE_METHODS)


request_started.connect(_mark_safe_request)  # a module-level function: the weak reference stays alive


def read_only_request() -> bool:
    """True inside a dispatched GET/HEAD/OPTIONS request (its transactions begin deferred)."""
    return has_request_context() and bool(g.get(_READ_ONLY, False))


_READING = "_prep_reading_only"


@contextmanager
def reading_only() -> Iterator[None]:
    """Transactions begun inside take a deferred BEGIN, outside any request too (a background
    job's long read, such as making a plan, must not hold the write lock); the caller ends the
    transaction before writing."""
    previous = g.get(_READING, False)
    setattr(g, _READING, True)
    try:
        yield
    finally:
        setattr(g, _READING, previous)


def begin_statement() -> str:
    """The BEGIN that SQLite transactions use here and now."""
    reading = has_app_context() and bool(g.get(_READING, False))
    return "BEGIN" if reading or read_only_request() else "BEGIN IMMEDIATE"


class WriteLock:
    """One writing transaction at a time, per process, on one SQLite file.

    ``acquire`` is called before ``BEGIN IMMEDIATE`` with the raw DBAPI connection that will
    hold SQLite's lock; ``release`` with any connection is a no-op unless it is that one, so it
    can be called from every way a transaction or a connection ends. A thread that already holds
    the lock through another connection (a nested session in the CLI or a test) does not wait for
    itself: its second connection goes straight to SQLite, which decides as it did before.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holder: Any = None
        self._owner: int | None = None

    def acquire(self, dbapi_conn: Any, timeout_s: float) -> bool:
        """Take the lock for ``dbapi_conn``; False when this thread already holds it elsewhere.
        Raises OperationalError ("database is locked") after ``timeout_s``."""
        me = threading.get_ident()
        if self._owner == me:
            return False
        if not self._lock.acquire(timeout=timeout_s):
            raise OperationalError("BEGIN IMMEDIATE", None, sqlite3.OperationalError("database is locked"))
        self._holder, self._owner = dbapi_conn, me
        return True

    def release(self, dbapi_conn: Any) -> None:
        if dbapi_conn is not None and dbapi_conn is self._holder:
            self._holder = self._owner = None
            self._lock.release()

    @property
    def held(self) -> bool:
        return self._lock.locked()


_WRITE_LOCKS: dict[str, WriteLock] = {}
_WRITE_LOCKS_GUARD = threading.Lock()


def write_lock(path: str) -> WriteLock:
    """The process's write lock for the SQLite file at ``path`` (one per file, shared by engines)."""
    key = os.path.realpath(path)
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(key, WriteLock())


def _free_in_child() -> None:
    """A forked child (a gunicorn worker) starts with every write lock free: whichever parent
    thread held one does not exist in the child."""
    global _WRITE_LOCKS_GUARD
    _WRITE_LOCKS_GUARD = threading.Lock()
    for lock in _WRITE_LOCKS.values():
        lock.__init__()


os.register_at_fork(after_in_child=_free_in_child)


def _raw(conn: Any) -> Any:
    """The DBAPI connection behind a pool proxy (or the connection itself)."""
    return getattr(conn, "dbapi_connection", conn)


def _install_write_lock(engine: Engine, lock: WriteLock, timeout_s: float) -> None:
    """Queue this engine's writing transactions on ``lock``: taken before BEGIN IMMEDIATE, given
    back after COMMIT/ROLLBACK (the dialect's, so after SQLite has released its own lock), and
    whenever the connection is returned, invalidated or closed without one."""
    dialect = engine.dialect

    def released_after(step: Any) -> Any:
        def run(dbapi_conn: Any) -> None:
            try:
                step(dbapi_conn)
            finally:
                lock.release(_raw(dbapi_conn))
        return run

    dialect.do_commit = released_after(dialect.do_commit)  # type: ignore[method-assign]
    dialect.do_rollback = released_after(dialect.do_rollback)  # type: ignore[method-assign]

    def give_back(dbapi_conn: Any, *_rest: Any) -> None:
        lock.release(dbapi_conn)

    for name in ("checkin", "invalidate", "soft_invalidate", "close", "detach", "close_detached"):
        event.listen(engine, name, give_back)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        statement = begin_statement()
        raw = _raw(conn.connection)
        took = statement == "BEGIN IMMEDIATE" and lock.acquire(raw, timeout_s)
        try:
            conn.exec_driver_sql(statement)
        except BaseException:
            if took:
                lock.release(raw)
            raise


def configure_sqlite(engine: Engine, busy_timeout_ms: int) -> None:
    """Install pragmas and immediate (write) or deferred (safe request) transactions on a
    SQLite engine (no-op for others)."""
    if engine.dialect.name != "sqlite":
        return
    on_file = engine.url.database not in (None, "", ":memory:")

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Let SQLAlchemy emit BEGIN itself (pysqlite's own transaction handling is off).
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        if on_file:
            cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = NORMAL")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.close()

    if on_file and not str(engine.url.database).startswith("file:"):
        _install_write_lock(engine, write_lock(str(engine.url.database)), busy_timeout_ms / 1000)
        return

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql(begin_statement())


def like_pattern(text: str) -> str:
    """A LIKE pattern matching ``text`` anywhere, with ``\\``, ``%`` and ``_`` escaped (use escape="\\")."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
