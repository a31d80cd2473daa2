"""GET never writes: every GET route, for every role, with a statement hook on the engine that
records (and refuses) any write a GET request sends: INSERT, UPDATE, DELETE, and every other
statement that changes the database or takes its write lock (CREATE, DROP, REPLACE, UPSERT,
``SELECT … FOR UPDATE``, SQLite's ``BEGIN IMMEDIATE`` …).

The world has candidate A studying a posting with an interview a month ahead and a stored plan,
so the pages that show a plan have one to show; and the crawl runs again on the next study day,
the day's first GET being the one that used to plan again and store bookings."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from flask import Flask, has_request_context, request
from sqlalchemy import text

from prep.drill import queue_queries
from prep.extensions import db
from prep.interview.models import InterviewSettings
from prep.reminders import timing
from prep.reminders.models import Notification
from tests.support.app import PASSWORD
from tests.support.access import ROLES, role_client, route_url
from tests.support.queries import statement_hook

#: Pages again with the query strings they read (a revealed card, a search, a language, a page).
WITH_QUERIES = ["/drill?show=1", "/search?q=queue+pair", "/questions?q=queue&tag=RDMA&page=2",
                "/explanations?q=rdma", "/explanations/rdma-verbs?lang=zh", "/export?lang=zh",
                "/cards?page=2", "/postings?page=2", "/dashboard?lang=zh", "/stats/questions?page=2",
                "/notifications?page=2", "/login?next=/dashboard"]

#: The first keyword of a statement that changes the database (or its schema, or its settings).
_WRITE_VERBS = ("INSERT", "UPDATE", "DELETE", "REPLACE", "UPSERT", "MERGE", "CREATE", "DROP", "ALTER", "TRUNCATE",
                "RENAME", "GRANT", "REVOKE", "VACUUM", "REINDEX", "ANALYZE", "CLUSTER", "REFRESH", "COPY", "LOCK",
                "ATTACH", "DETACH", "COMMENT", "SECURITY", "IMPORT", "NOTIFY", "CALL", "DO")
_COMMENTS = re.compile(r"/\*.*?\*/|--[^\n]*", re.S)
_FIRST_WORD = re.compile(r"\s*([A-Za-z]+)")
#: A data-changing statement inside a CTE (``WITH x AS (DELETE … RETURNING …) SELECT …``).
_DML_INSIDE = re.compile(r"\b(INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b", re.I)
#: Row locks a read has no use for, and SQLite's write lock taken at BEGIN.
_LOCKING = re.compile(r"\bFOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE)\b|^\s*BEGIN\s+(IMMEDIATE|EXCLUSIVE)\b", re.I)
_PRAGMA_SET = re.compile(r"^\s*PRAGMA\s+[\w.]+\s*(=|\()", re.I)


def is_write(statement: str) -> bool:
    """Whether ``statement`` changes the database or takes a lock only a writer needs."""
    sql = _COMMENTS.sub(" ", statement)
    first = _FIRST_WORD.match(sql)
    verb = first.group(1).upper() if first else ""
    if verb in _WRITE_VERBS or _LOCKING.search(sql) or _PRAGMA_SET.match(sql):
        return True
    return verb == "WITH" and bool(_DML_INSIDE.search(sql))


class GetWrote(AssertionError):
    """A GET request sent a write (raised by the hook, so the request stops at the write)."""


@dataclass
class Write:
    role: str
    url: str
    statement: str

    def __str__(self) -> str:
        return f"{self.role} GET {self.url}: {self.statement[:160]}"


@dataclass
class WriteGuard:
    """The hook: every write sent while a GET request is dispatched is recorded and refused."""

    writes: list[Write] = field(default_factory=list)
    role: str = ""
    reads: int = 0

    def __call__(self, _conn, _cursor, statement, _params, _context, _many) -> None:
        if not has_request_context() or request.method not in ("GET", "HEAD", "OPTIONS"):
            return
        if not is_write(statement):
            self.reads += 1
            return
        self.writes.append(Write(self.role, request.full_path.rstrip("?"), " ".join(statement.split())))
        raise GetWrote(statement)

    def all(self) -> list[str]:
        return [str(w) for w in self.writes]


@pytest.fixture
def guard(app: Flask) -> Iterator[WriteGuard]:
    with statement_hook(WriteGuard()) as hook:
        yield hook


@pytest.fixture
def interview_world(clock, app, world):
    """The access world, with candidate A's posting studied, an interview a month ahead (set
    through the page's form, which plans and stores bookings) and one rating."""
    ids, a = world["ids"], world["users"]["a"]
    client = role_client(app, world, "a")
    assert client.post(f"/postings/{ids['posting_id']}/study", data={"with_likely": "y"}).status_code == 302
    today = queue_queries.study_day(a, clock.now).day
    day = (today + timedelta(days=30)).isoformat()
    assert client.post(f"/postings/{ids['posting_id']}/interview", data={"interview_date": day}).status_code == 302
    assert client.post("/drill/rate", data={"card_id": ids["card_id"], "version": 0, "rating": 3}).status_code == 302
    settings = db.session.get(InterviewSettings, a.id)
    assert settings is not None and settings.planned_on == today
    local_date = timing.zone_clock(clock.now, a.timezone).local_date  # today's reminder banner
    db.session.add(Notification(user_id=a.id, local_date=local_date, due_count=1, message="You have 1 card"))
    db.session.commit()
    return world


def remembered_client(app: Flask, world):
    """Candidate A's browser with only the remember cookie: each page restores the session."""
    client = app.test_client()
    a = world["users"]["a"]
    assert client.post("/login", data={"email": a.email, "password": PASSWORD, "remember": "y"}).status_code == 302
    client.delete_cookie(app.config.get("SESSION_COOKIE_NAME", "session"))
    return client


def crawl(app: Flask, world, guard: WriteGuard, clients: dict | None = None) -> int:
    """GET every route (and :data:`WITH_QUERIES`) as each role, or with each of ``clients``; the
    number of requests. A response of 500 or more other than one the hook caused fails the test."""
    rules = [r for r in app.url_map.iter_rules() if "GET" in r.methods]
    urls = [route_url(rule, world["ids"]) for rule in rules] + WITH_QUERIES
    clients = clients or {role: role_client(app, world, role) for role in ROLES}
    crawled = 0
    for role, client in clients.items():
        guard.role = role
        if role == "remembered":
            client.delete_cookie(app.config.get("SESSION_COOKIE_NAME", "session"))
        for url in urls:
            before = len(guard.writes)
            try:
                response = client.get(url)
            except GetWrote:
                crawled += 1
                continue
            response.close()
            if len(guard.writes) == before:
                assert response.status_code < 500, (role, url, response.status_code)
            crawled += 1
    assert crawled == len(urls) * len(clients)
    return crawled


@pytest.mark.parametrize("statement", [
    "INSERT INTO cards (id) VALUES (1)", "  update cards set note = ''", "DELETE FROM bookings",
    "/* x */ REPLACE INTO t VALUES (1)", "UPSERT INTO t VALUES (1)", "CREATE TABLE t (x int)", "DROP TABLE t",
    "ALTER TABLE t ADD x int", "TRUNCATE t", "WITH gone AS (DELETE FROM t RETURNING id) SELECT id FROM gone",
    "SELECT id FROM cards WHERE id = 1 FOR UPDATE", "SELECT 1 FOR NO KEY UPDATE", "BEGIN IMMEDIATE",
    "PRAGMA user_version = 3", "VACUUM", "LOCK TABLE cards",
])
def test_the_hook_knows_a_write(statement):
    assert is_write(statement)


@pytest.mark.parametrize("statement", [
    "SELECT * FROM cards", "WITH x AS (SELECT 1) SELECT * FROM x", "BEGIN", "SAVEPOINT sa_1",
    "RELEASE SAVEPOINT sa_1", "ROLLBACK TO SAVEPOINT sa_1", "SELECT 'UPDATE t SET x = 1'", "PRAGMA foreign_keys",
    "SELECT updated_at, deleted FROM t",
])
def test_the_hook_lets_a_read_through(statement):
    assert not is_write(statement)


def test_the_hook_catches_a_write_in_a_get(app, guard):
    with app.test_request_context("/dashboard"), pytest.raises(GetWrote):
        db.session.execute(text("UPDATE users SET display_name = display_name"))
    db.session.rollback()
    assert len(guard.writes) == 1


def _all_clients(app: Flask, world) -> dict:
    return {**{role: role_client(app, world, role) for role in ROLES}, "remembered": remembered_client(app, world)}


def test_no_get_route_writes_on_a_planned_day(clock, app, interview_world, guard):
    """Every GET route × every role (and a session restored from the remember cookie on each
    page), the day's plan already made: nothing is written."""
    crawl(app, interview_world, guard, _all_clients(app, interview_world))
    assert guard.reads > 0
    assert guard.all() == []


def test_the_first_gets_of_a_new_study_day_write_nothing(clock, app, interview_world, guard):
    """The next study day (the candidate's first page of the day used to plan again and store
    bookings): every GET of every route writes nothing; the hook refuses each write, so a page
    that tried would try again on every later page and be listed for each."""
    clients = _all_clients(app, interview_world)
    clock.shift(timedelta(days=1))
    crawl(app, interview_world, guard, clients)
    assert guard.all() == []
