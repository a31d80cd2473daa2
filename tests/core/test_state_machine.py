"""A Hypothesis state machine over the whole service: register, log in, add questions,
rate cards, import export files with random and boundary values, poison rows directly in the
database (as an old version or a bad restore could have left them), and run the reminder sweep
at boundary times. After every step: no 5xx from any request, the sweep never aborts, the pages
a candidate reads answer, and every acknowledged rating is stored (a user's review log only
grows, by exactly one per acknowledged rating).

The examples are seeded (the same on every CI run, in four shards that can run side by side) and the password hash is made cheap
for this module only, so that thousands of examples fit in a CI run.
"""
from __future__ import annotations

import itertools
import json
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, seed, settings
from hypothesis import strategies as st
from hypothesis.stateful import (Bundle, RuleBasedStateMachine, initialize, invariant, rule,
                                 run_state_machine_as_test)
from sqlalchemy import func, select, text

from prep.drill.models import Card, ReviewLog
from prep.extensions import db
from tests.support.app import PASSWORD, make_app

#: Examples per CI run (each a sequence of up to STEPS steps), in SHARDS tests of a seed each.
EXAMPLES = int(__import__("os").environ.get("PREP_MACHINE_EXAMPLES", "2000"))
SHARDS = 4
STEPS = 6
_ids = itertools.count(1)
STATS = {"examples": 0, "accounts": 0, "acknowledged": 0}

pytestmark = pytest.mark.heavy
BOUNDARY_TIMES = [datetime(1970, 1, 1, tzinfo=timezone.utc), datetime(2000, 1, 1, tzinfo=timezone.utc),
                  datetime(2026, 12, 31, 23, 59, tzinfo=timezone.utc), datetime(2038, 1, 19, 3, 14, 8, tzinfo=timezone.utc),
                  datetime(9999, 12, 30, tzinfo=timezone.utc)]
ISO_BOUNDARIES = ["0001-01-01T00:00:00+00:00", "1969-12-31T23:59:59+00:00", "2026-03-10T12:00:00+00:00",
                  "9999-12-31T23:59:59+00:00", "2026-02-30T00:00:00+00:00", "not a date", "", None]
NUMBERS = st.one_of(st.sampled_from([0, -1, 1, 2**31, 2**63, -(2**63), 10**12, 1e308, -1e308, 1e-308, 0.5, 36500]),
                    st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False))
JSON_VALUES = st.one_of(NUMBERS, st.sampled_from(["NaN", "sNaN", "Infinity", "1e999", "", None, True, [], {}]))


@pytest.fixture(scope="module")
def machine_app(tmp_path_factory):
    import prep.accounts.passwords as passwords
    from argon2 import PasswordHasher

    saved = passwords._hasher, passwords._DUMMY_HASH
    passwords._hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)  # cheap, for this module only
    passwords._DUMMY_HASH = passwords._hasher.hash("dummy")
    app = make_app(tmp_path_factory.mktemp("machine"), RATELIMIT_ENABLED=False)
    # Registering mails a link that makes the account; keep each link's token
    # (the mail goes to the outbox as well) so the machine can follow it without reading files.
    from prep.accounts import registration

    send = registration.send

    def recording_send(started, language):
        if started.token:
            LINKS[started.email] = started.token
        return send(started, language)

    registration.send = recording_send
    yield app
    registration.send = send
    passwords._hasher, passwords._DUMMY_HASH = saved


LINKS: dict[str, str] = {}  # address → token of the newest registration link mailed to it


class Account:
    def __init__(self, email: str, client) -> None:
        self.email = email
        self.client = client
        self.user_id: int | None = None
        self.acknowledged = 0  # review logs the user must have, at least

    def __repr__(self) -> str:
        return f"Account({self.email!r})"


def _check(response, what: str):
    body = response.get_data(as_text=True)
    assert response.status_code < 500, f"{what}: {response.status_code}\n{body[:800]}"
    assert "Traceback" not in body, what
    return response


class PrepMachine(RuleBasedStateMachine):
    app = None
    accounts = Bundle("accounts")

    def _logs(self, account: Account) -> int:
        if account.user_id is None:
            return 0
        return db.session.scalar(select(func.count(ReviewLog.id)).where(ReviewLog.user_id == account.user_id)) or 0

    @initialize(target=accounts)
    def first_account(self) -> Account:
        """Every example starts with a candidate who studies one question."""
        account = self._register("plain")
        _check(account.client.post("/questions", data={"text": f"First question {next(_ids)}?", "lang": "en",
                                                       "tags": ""}), "add question")
        return account

    @rule(target=accounts, variant=st.sampled_from(["plain", "upper", "spaces", "unicode", "long", "plus"]))
    def register(self, variant: str) -> Account:
        return self._register(variant)

    def _register(self, variant: str) -> Account:
        n = next(_ids)
        local = {"plain": f"u{n}", "upper": f"U{n}Mixed", "spaces": f"u{n}", "unicode": f"用户{n}",
                 "long": f"u{n}" + "x" * 60, "plus": f"u{n}+tag"}[variant]
        email = f"{local}@example.com"
        sent = f"  {email}  " if variant == "spaces" else email
        client = self.app.test_client()
        _check(client.post("/register", data={"email": sent}), "register")
        token = LINKS.pop(email.strip().lower(), None)
        if token is not None:  # the password is chosen on the page the mailed link opens
            _check(client.post(f"/register/confirm/{token}", data={"password": PASSWORD, "confirm": PASSWORD,
                                                                   "timezone": "Asia/Shanghai"}),
                   "confirm registration")
        account = Account(email, client)
        self._accounts_seen = [*getattr(self, "_accounts_seen", ()), account]
        _check(client.post("/login", data={"email": email, "password": PASSWORD}), "login")
        from prep.accounts.models import User
        user = db.session.scalar(select(User).where(func.lower(User.email) == email.strip().lower()))
        account.user_id = user.id if user is not None else None
        return account

    @rule(account=accounts, password=st.sampled_from([PASSWORD, "wrong password", "", "x" * 5000]))
    def login(self, account: Account, password: str) -> None:
        _check(account.client.post("/login", data={"email": account.email, "password": password}), "login")
        if password != PASSWORD:  # log back in so later steps act as the user
            account.client.post("/login", data={"email": account.email, "password": PASSWORD})

    @rule(account=accounts, words=st.text(min_size=0, max_size=60))
    def add_question(self, account: Account, words: str) -> None:
        _check(account.client.post("/questions", data={"text": f"Q{next(_ids)} {words}", "lang": "en", "tags": ""}),
               "add question")

    @rule(account=accounts, rating=st.integers(1, 4))
    def rate(self, account: Account, rating: int) -> None:
        self._rate(account, rating, stale=False)

    @rule(account=accounts, rating=st.one_of(st.integers(-1, 5), st.sampled_from(["x", "", "99999999999999999999"])),
          stale=st.booleans())
    def rate_badly(self, account: Account, rating, stale: bool) -> None:
        self._rate(account, rating, stale)

    def _rate(self, account: Account, rating, stale: bool) -> None:
        if account.user_id is None:
            return
        card = db.session.scalar(select(Card).where(Card.user_id == account.user_id).order_by(Card.id).limit(1))
        if card is None:
            return
        version = card.version - 1 if stale else card.version
        before = self._logs(account)
        response = _check(account.client.post("/drill/rate", data={"card_id": card.id, "version": version,
                                                                   "rating": rating}), "rate")
        after = self._logs(account)
        acknowledged = response.status_code in (200, 302) and rating in (1, 2, 3, 4) and not stale
        if acknowledged and after == before + 1:
            account.acknowledged += 1
        elif acknowledged:
            # The route answered success for a valid, current rating: it must have been stored.
            assert after == before + 1, (before, after, response.status_code)

    @rule(account=accounts, field=st.sampled_from(["due", "last_review", "added_at", "stability", "difficulty",
                                                   "reps", "lapses", "rating", "reviewed_at", "desired_retention",
                                                   "maximum_interval", "timezone", "learning_steps"]),
          value=st.one_of(JSON_VALUES, st.sampled_from(ISO_BOUNDARIES)))
    def import_file(self, account: Account, field: str, value) -> None:
        exported = account.client.get("/export/prep-export.json")
        if exported.status_code != 200:
            return
        data = json.loads(exported.get_data(as_text=True))
        data["cards"] = data.get("cards") or [{
            "question": {"text": f"Imported question {next(_ids)}", "tags": []}, "state": "review", "step": None,
            "stability": 3.0, "difficulty": 5.0, "due": "2026-03-12T00:00:00+00:00", "added_at": "2026-03-01T00:00:00+00:00",
            "last_review": "2026-03-09T00:00:00+00:00", "buried_until": None, "reps": 1, "lapses": 0, "version": 1,
            "suspended": False, "note": "", "reviews": [{"card_version": 0, "rating": 3, "reviewed_at": "2026-03-09T00:00:00+00:00",
                                                       "duration_ms": 1000, "state_before": "new", "state_after": "review",
                                                       "kind": "review", "card_before": {}}]}]
        card = data["cards"][0]
        card["question"] = {"text": f"Imported question {next(_ids)}", "tags": []}  # a new card, not skipped
        if field in ("rating", "reviewed_at"):
            for review in card.get("reviews") or []:
                review[field] = value
        elif field in ("desired_retention", "maximum_interval", "timezone", "learning_steps"):
            data.setdefault("user", {}).setdefault("settings", {})[field] = value
        else:
            card[field] = value
        raw = json.dumps(data, allow_nan=False) if not isinstance(value, float) else json.dumps(data)
        import io
        _check(account.client.post("/export/import", data={"file": (io.BytesIO(raw.encode()), "export.json")},
                                   content_type="multipart/form-data"), f"import {field}={value!r}")
        account.acknowledged = max(account.acknowledged, 0)

    @rule(account=accounts, column=st.sampled_from(["due", "stability", "difficulty", "reps", "lapses", "last_review"]),
          value=st.sampled_from(["far-future", "zero", "negative", "huge"]))
    def poison_a_row(self, account: Account, column: str, value: str) -> None:
        """A row as an old version or a bad restore could have left it, written past every check."""
        if account.user_id is None:
            return
        card = db.session.scalar(select(Card.id).where(Card.user_id == account.user_id).limit(1))
        if card is None:
            return
        if column in ("due", "last_review"):
            literal = {"far-future": "9999-12-31 23:59:59.000000", "zero": "0001-01-01 00:00:00.000000",
                       "negative": "1900-01-01 00:00:00.000000", "huge": "9999-12-31 23:59:59.999999"}[value]
        else:
            literal = {"far-future": 1e300, "zero": 0, "negative": -5, "huge": 2**62}[value]
        db.session.execute(text(f"UPDATE cards SET {column} = :v WHERE id = :id"), {"v": literal, "id": card})
        db.session.commit()

    @rule(when=st.one_of(st.sampled_from(BOUNDARY_TIMES),
                         st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
                                      timezones=st.just(timezone.utc))))
    def sweep(self, when: datetime) -> None:
        from prep.reminders import service as reminders

        report = reminders.sweep(when, dry_run=True)  # must not raise, whatever the rows hold
        db.session.commit()
        assert report is not None

    @rule(account=accounts, page=st.sampled_from(["/dashboard", "/drill", "/cards", "/stats", "/stats/questions",
                                                  "/questions", "/postings", "/settings", "/export"]))
    def read_a_page(self, account: Account, page: str) -> None:
        _check(account.client.get(page), page)

    @invariant()
    def acknowledged_ratings_are_stored(self) -> None:
        for account in getattr(self, "_accounts_seen", ()):
            assert self._logs(account) >= account.acknowledged

    def teardown(self) -> None:
        db.session.rollback()
        STATS["examples"] += 1
        STATS["accounts"] += len(getattr(self, "_accounts_seen", ()))
        STATS["acknowledged"] += sum(a.acknowledged for a in getattr(self, "_accounts_seen", ()))
        # Each example starts from an empty database, as Hypothesis expects (an example it shrinks or
        # replays must not depend on the ones before it); the sweep, which reads every user, and the
        # pages stay as cheap in the last example as in the first.
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
        LINKS.clear()


def _run_shard(machine_app, shard: int) -> None:
    """One shard of the examples: shards differ by seed, so the workers of a parallel run share the
    work; each shard is the same on every run."""
    PrepMachine.app = machine_app
    STATS.update(examples=0, accounts=0, acknowledged=0)
    examples = EXAMPLES // SHARDS
    machine = seed(shard)(type(f"PrepMachineShard{shard}", (PrepMachine,), {}))
    with machine_app.app_context():
        run_state_machine_as_test(machine, settings=settings(
            max_examples=examples, stateful_step_count=STEPS, deadline=None, database=None,
            suppress_health_check=list(HealthCheck)))
    print(STATS)
    # The machine did real work: accounts were made and ratings acknowledged and stored.
    assert STATS["accounts"] > examples // 4 and STATS["acknowledged"] > examples // 20, STATS


# One class per shard: a parallel run (pytest-xdist, --dist loadscope) gives each class to a worker.
class TestShard0:
    def test_state_machine(self, machine_app) -> None:
        _run_shard(machine_app, 0)


class TestShard1:
    def test_state_machine(self, machine_app) -> None:
        _run_shard(machine_app, 1)


class TestShard2:
    def test_state_machine(self, machine_app) -> None:
        _run_shard(machine_app, 2)


class TestShard3:
    def test_state_machine(self, machine_app) -> None:
        _run_shard(machine_app, 3)
