"""Transactions: GET never writes (every GET route crawled with data, on both databases), so on
SQLite a GET begins a deferred transaction and does not wait for the write lock; writes (POST,
the CLI, the scheduler) still take it at BEGIN (``BEGIN IMMEDIATE``)."""
from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from flask import Flask, has_request_context, request
from sqlalchemy import event, func, select

from prep.drill.models import Card, ReviewLog
from prep.extensions import db
from prep.reminders import timing
from prep.reminders.models import Notification
from tests.support.app import PASSWORD, make_app
from tests.support.access import ROLES, role_client, route_url

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|TRUNCATE)\b", re.IGNORECASE)


class Statements:
    """Every SQL statement sent to the engine, with the method of the request that sent it."""

    def __init__(self) -> None:
        self.seen: list[tuple[str | None, str]] = []

    def __call__(self, _conn, _cursor, statement, _params, _context, _many) -> None:
        self.seen.append((request.method if has_request_context() else None, statement))

    def writes(self, method: str) -> list[str]:
        return [s for m, s in self.seen if m == method and WRITE.match(s)]

    def begins(self, method: str | None) -> list[str]:
        return [s.strip().upper() for m, s in self.seen if m == method and s.strip().upper().startswith("BEGIN")]


@pytest.fixture
def statements(app: Flask) -> Iterator[Statements]:
    recorder = Statements()
    event.listen(db.engine, "before_cursor_execute", recorder)
    yield recorder
    event.remove(db.engine, "before_cursor_execute", recorder)


def _with_history(app: Flask, world, now: datetime) -> None:
    """Give candidate A a rating (undo, stats, history) and today's reminder notification (banner)."""
    a = world["users"]["a"]
    card = db.session.get(Card, world["ids"]["card_id"])
    client = role_client(app, world, "a")
    assert client.post("/drill/rate", data={"card_id": card.id, "version": card.version, "rating": 3}).status_code == 302
    local_date = timing.zone_clock(now, a.timezone).local_date
    db.session.add(Notification(user_id=a.id, local_date=local_date, due_count=1, message="You have 1 card"))
    db.session.commit()
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 1


def test_no_get_route_writes(app: Flask, world, statements: Statements, clock) -> None:
    _with_history(app, world, clock.now)
    rules = [r for r in app.url_map.iter_rules() if "GET" in r.methods]
    statements.seen.clear()
    crawled = 0
    for role in ROLES:
        client = role_client(app, world, role)
        for rule in rules:
            response = client.get(route_url(rule, world["ids"]))
            response.close()
            assert response.status_code < 500, (role, rule.rule, response.status_code)
            crawled += 1
    assert crawled == len(rules) * len(ROLES)
    assert any(m == "GET" and "review_logs" in s for m, s in statements.seen)  # the crawl did read data
    assert statements.writes("GET") == []
    if db.engine.dialect.name == "sqlite":
        assert statements.begins("GET") and set(statements.begins("GET")) == {"BEGIN"}


def test_writes_still_begin_immediate(app: Flask, world, statements: Statements) -> None:
    if db.engine.dialect.name != "sqlite":
        pytest.skip("BEGIN IMMEDIATE is SQLite's")
    card = db.session.get(Card, world["ids"]["card_id"])
    client = role_client(app, world, "a")
    statements.seen.clear()
    assert client.post("/drill/rate", data={"card_id": card.id, "version": card.version, "rating": 3}).status_code == 302
    assert statements.writes("POST")
    assert set(statements.begins("POST")) == {"BEGIN IMMEDIATE"}
    db.session.scalar(select(func.count(Card.id)))  # outside any request: the CLI, the scheduler
    assert set(statements.begins(None)) == {"BEGIN IMMEDIATE"}
    # A request context made by code (the reminder email renders in one) is not a dispatched GET.
    statements.seen.clear()
    db.session.commit()
    with app.test_request_context("/"):
        db.session.scalar(select(func.count(Card.id)))
    assert set(statements.begins("GET")) == {"BEGIN IMMEDIATE"}


def test_a_get_does_not_wait_for_a_writer(tmp_path: Path, world) -> None:
    """With another connection holding SQLite's write lock, pages still render; a rating waits for
    the lock (busy timeout) and is refused with the "database busy" page, nothing half-written."""
    path = Path(db.engine.url.database or "") if db.engine.dialect.name == "sqlite" else None
    if path is None:
        pytest.skip("SQLite's write lock")
    card_id, email = world["ids"]["card_id"], world["users"]["a"].email
    version = db.session.get(Card, card_id).version
    db.session.commit()  # the test's own transaction ends: the second app needs the lock to start
    app = make_app(tmp_path / "second", SQLALCHEMY_DATABASE_URI=f"sqlite:///{path}", SQLITE_BUSY_TIMEOUT_MS=200)
    with app.app_context():
        client = app.test_client()
        assert client.post("/login", data={"email": email, "password": PASSWORD}).status_code == 302
        holder = sqlite3.connect(path, isolation_level=None, timeout=0)
        holder.execute("BEGIN IMMEDIATE")
        try:
            page = client.get("/drill")
            assert page.status_code == 200 and 'name="rating"' in page.get_data(as_text=True)
            assert client.get("/dashboard").status_code == 200
            rated = client.post("/drill/rate", data={"card_id": card_id, "version": version, "rating": 3})
            assert rated.status_code == 503
        finally:
            holder.rollback()
            holder.close()
        assert db.session.scalar(select(func.count(ReviewLog.id))) == 0
        db.session.remove()
        db.engine.dispose()
