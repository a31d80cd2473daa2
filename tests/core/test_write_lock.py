"""SQLite writers in one process queue on a Python lock (``prep.database.WriteLock``) taken before
``BEGIN IMMEDIATE`` and given back after COMMIT or ROLLBACK, however the transaction or the
connection ends; safe requests take no lock, a thread never waits for itself, and a lock that
stays taken gives the same "database busy" answer as SQLite's own lock."""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError

from prep.database import WriteLock, write_lock
from prep.extensions import db
from tests.support.app import make_app


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[tuple[Flask, WriteLock]]:
    app = make_app(tmp_path, SQLITE_BUSY_TIMEOUT_MS=3000)
    with app.app_context():
        yield app, write_lock(str(db.engine.url.database))
        db.session.remove()
        db.engine.dispose()


def _held_elsewhere(lock: WriteLock) -> tuple[threading.Event, threading.Thread]:
    """Another thread takes ``lock`` and keeps it until the returned event is set."""
    taken, done = threading.Event(), threading.Event()

    def hold() -> None:
        lock.acquire(object(), 1)
        taken.set()
        done.wait(10)
        lock._holder, lock._owner = None, None
        lock._lock.release()

    thread = threading.Thread(target=hold)
    thread.start()
    assert taken.wait(5)
    return done, thread


def test_held_for_a_write_transaction_only(lite) -> None:
    _app, lock = lite
    db.session.execute(text("SELECT 1"))  # outside a request: BEGIN IMMEDIATE
    assert lock.held
    db.session.commit()
    assert not lock.held
    db.session.execute(text("SELECT 1"))
    db.session.rollback()
    assert not lock.held
    db.session.execute(text("SELECT 1"))
    db.session.close()  # no commit: the connection goes back to the pool and is rolled back
    assert not lock.held


def test_released_when_a_statement_fails_or_the_connection_is_invalidated(lite) -> None:
    _app, lock = lite
    with pytest.raises(OperationalError):
        db.session.execute(text("SELECT * FROM no_such_table"))
    db.session.rollback()
    assert not lock.held
    db.session.execute(text("SELECT 1"))
    db.session.connection().invalidate()
    assert not lock.held
    db.session.rollback()
    db.session.execute(text("SELECT 1"))  # a new connection takes it again
    assert lock.held
    db.session.commit()
    assert not lock.held


def test_a_second_writer_waits_on_the_lock_not_in_sqlite(lite) -> None:
    """While one thread writes, another thread's BEGIN IMMEDIATE is not sent until the first commits."""
    app, lock = lite
    sent: list[tuple[str, float]] = []

    def record(_conn, _cursor, statement, *_rest) -> None:
        sent.append((threading.current_thread().name, time.perf_counter()))

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        db.session.execute(text("SELECT 1"))
        failures: list[BaseException] = []

        def second() -> None:
            try:
                with app.app_context():
                    db.session.execute(text("SELECT 1"))
                    db.session.commit()
                    db.session.remove()
            except BaseException as err:  # reported below
                failures.append(err)

        thread = threading.Thread(target=second, name="second")
        thread.start()
        time.sleep(0.3)
        assert not [s for s in sent if s[0] == "second"]  # still waiting, on the Python lock
        committed = time.perf_counter()
        db.session.commit()
        thread.join(5)
        assert not failures and not thread.is_alive()
        begun = [t for name, t in sent if name == "second"]
        assert begun and min(begun) >= committed
        assert not lock.held
    finally:
        event.remove(db.engine, "before_cursor_execute", record)


def test_a_lock_that_stays_taken_gives_the_busy_page(tmp_path: Path) -> None:
    app = make_app(tmp_path, SQLITE_BUSY_TIMEOUT_MS=200)
    with app.app_context():
        lock = write_lock(str(db.engine.url.database))
        client = app.test_client()
        release, thread = _held_elsewhere(lock)
        try:
            assert client.get("/login").status_code == 200  # a GET takes no lock
            started = time.perf_counter()
            refused = client.post("/login", data={"email": "a@example.com", "password": "x"})
            assert refused.status_code == 503
            assert time.perf_counter() - started >= 0.2
        finally:
            release.set()
            thread.join(5)
        assert not lock.held
        assert client.post("/login", data={"email": "a@example.com", "password": "x"}).status_code != 503
        assert not lock.held
        db.session.remove()
        db.engine.dispose()


def test_a_thread_never_waits_for_itself(lite, tmp_path: Path) -> None:
    """A nested session on a second engine (same file, same thread) goes to SQLite, whose own
    lock refuses it after its busy timeout, as before; the outer transaction keeps the lock."""
    _app, lock = lite
    other = make_app(tmp_path / "other", SQLALCHEMY_DATABASE_URI=str(db.engine.url), SQLITE_BUSY_TIMEOUT_MS=100)
    db.session.execute(text("SELECT 1"))
    assert lock.held
    sent: list[str] = []
    with other.app_context():
        event.listen(db.engine, "before_cursor_execute", lambda *a: sent.append(a[2]))
        with pytest.raises(OperationalError, match="locked"):
            db.session.execute(text("SELECT 1"))
        db.session.rollback()
        assert sent and sent[0] == "BEGIN IMMEDIATE"  # it reached SQLite: no wait on its own lock
        assert lock.held  # the nested failure did not give back the outer transaction's lock
    db.session.commit()
    assert not lock.held
    with other.app_context():
        db.session.execute(text("SELECT 1"))
        db.session.commit()
        assert not lock.held
        db.session.remove()
        db.engine.dispose()


def test_a_forked_child_starts_with_the_lock_free(lite) -> None:
    _app, lock = lite
    db.session.execute(text("SELECT 1"))
    assert lock.held
    pid = os.fork()
    if pid == 0:  # the child: only report, never run pytest's teardown
        os._exit(0 if not lock.held else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert lock.held  # the parent's own transaction still holds it
    db.session.commit()
    assert not lock.held
