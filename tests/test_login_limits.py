"""Login and registration limits that hold (issue 16 item 7): attempts are counted atomically
before the password is checked, so twenty concurrent wrong passwords against a limit of five
get exactly five checks, on SQLite and PostgreSQL; the account key is normalised; a success
resets the account's count; registration is limited per address and per account."""
from __future__ import annotations

import threading
import uuid

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from prep.accounts.attempts import account_key, parse_limit
from prep.extensions import db
from tests.support.app import PASSWORD


def _concurrently(app, n: int, fn, address: str = "127.0.0.1") -> list[int]:
    statuses: list[int] = [0] * n
    barrier = threading.Barrier(n)

    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            client = FlaskClient(app, app.response_class, use_cookies=True)  # each request its own context
            client.environ_base["REMOTE_ADDR"] = address
            barrier.wait()
            statuses[i] = fn(client)
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors[:3]
    return statuses


def test_concurrent_wrong_passwords_get_exactly_the_limit(app, make_user):
    app.config["LOGIN_LIMIT_IP"] = "1000 per 15 minutes"
    email = make_user("target@example.com").email
    db.session.commit()
    statuses = _concurrently(app, 20, lambda c: c.post("/login", data={"email": email,
                                                                       "password": "wrong password!"}).status_code)
    assert sorted(statuses) == [400] * 5 + [429] * 15, statuses


def test_the_account_key_is_normalised(app, client, make_user):
    user = make_user("case@example.com")
    spellings = ["CASE@example.com", " case@example.com ", "Ｃase@example.com", "case@EXAMPLE.com", "case@example.com"]
    for email in spellings:
        assert client.post("/login", data={"email": email, "password": "wrong password!"}).status_code == 400
    assert client.post("/login", data={"email": user.email, "password": PASSWORD}).status_code == 429
    assert account_key(" Ｃase@Example.COM ") == "case@example.com"


def test_a_success_resets_the_account_count(client, make_user):
    user = make_user("reset@example.com")
    for _ in range(4):
        assert client.post("/login", data={"email": user.email, "password": "wrong password!"}).status_code == 400
    assert client.post("/login", data={"email": user.email, "password": PASSWORD}).status_code == 302
    client.post("/logout")
    for _ in range(5):
        assert client.post("/login", data={"email": user.email, "password": "wrong password!"}).status_code == 400


def test_the_address_limit_counts_failures_across_accounts(app, client, make_user):
    app.config["LOGIN_LIMIT_IP"] = "6 per 15 minutes"
    for n in range(6):
        assert client.post("/login", data={"email": f"nobody{n}@example.com", "password": "x" * 9}).status_code == 400
    assert client.post("/login", data={"email": "nobody9@example.com", "password": "x" * 9}).status_code == 429


def test_registration_is_limited_per_account_and_address(app, client):
    app.config["REGISTER_LIMIT_IP"] = "4 per hour"
    form = {"password": PASSWORD, "confirm": PASSWORD}
    for _ in range(3):  # the same address three times: each answers "check your inbox"
        assert client.post("/register", data={"email": "dup@example.com", **form}).status_code == 200
    assert client.post("/register", data={"email": "dup@example.com", **form}).status_code == 429
    assert client.post("/register", data={"email": "fifth@example.com", **form}).status_code == 429  # the address


@pytest.mark.parametrize("text, expected", [("5 per 15 minutes", (5, 900)), ("3 per hour", (3, 3600)),
                                            ("10 per 1 day", (10, 86400))])
def test_limit_settings(text, expected):
    assert parse_limit(text) == expected


# ---- Redis (issue 16 item 7): with PREP_REDIS_URL set, the counters live in Redis (INCR with
# an expiry, one script, atomic); without an answer from Redis they fall back to the database.

REDIS_DB = 11  # test_rate_limit_workers uses 13; keys here are unique per test and expire


@pytest.fixture
def redis_app(app):
    redis = pytest.importorskip("redis")
    url = f"redis://127.0.0.1:6379/{REDIS_DB}"
    client = redis.Redis.from_url(url, socket_timeout=2)
    try:
        client.ping()
    except redis.exceptions.RedisError:
        pytest.skip("Redis does not answer on 127.0.0.1:6379")
    app.config["REDIS_URL"] = url
    tag = uuid.uuid4().hex[:12]
    yield app, client, tag
    for key in client.scan_iter(match=f"*{tag}*"):
        client.delete(key)


def _no_db_counters() -> bool:
    from prep.accounts.models import AttemptCounter

    return db.session.scalar(select(func.count()).select_from(AttemptCounter)) == 0


def test_concurrent_wrong_passwords_get_exactly_the_limit_with_redis(redis_app, make_user):
    app, redis, tag = redis_app
    email = make_user(f"target-{tag}@example.com").email
    db.session.commit()  # reading .email began a transaction (BEGIN IMMEDIATE on SQLite): end it
    address = f"10.{tag}"  # a per-test address key (any string will do for the counter)
    statuses = _concurrently(app, 20, lambda c: c.post("/login", data={"email": email,
                                                                       "password": "wrong password!"}).status_code,
                             address=address)
    assert sorted(statuses) == [400] * 5 + [429] * 15, statuses
    [key] = [k for k in redis.scan_iter(match=f"*login-account*{tag}*")]
    assert int(redis.get(key)) == 20 and 0 < redis.ttl(key) <= 15 * 60  # counted in Redis, expiring
    assert int(redis.get(next(redis.scan_iter(match=f"*login-address*{tag}*")))) == 20
    assert _no_db_counters()  # nothing in the database table


def test_redis_counts_are_reset_and_given_back_like_the_database_ones(redis_app, make_user):
    app, redis, tag = redis_app
    user = make_user(f"again-{tag}@example.com")
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = f"10.{tag}"
    for _ in range(4):
        assert client.post("/login", data={"email": user.email, "password": "wrong password!"}).status_code == 400
    assert client.post("/login", data={"email": " " + user.email.upper(), "password": PASSWORD}).status_code == 302
    assert not list(redis.scan_iter(match=f"*login-account*{tag}*"))  # a success starts the count again
    assert int(redis.get(next(redis.scan_iter(match=f"*login-address*{tag}*")))) == 4  # not counted
    client.post("/logout")
    for _ in range(5):
        assert client.post("/login", data={"email": user.email, "password": "wrong password!"}).status_code == 400
    assert client.post("/login", data={"email": user.email, "password": PASSWORD}).status_code == 429
    assert _no_db_counters()


def test_concurrent_registrations_of_one_address_with_redis(redis_app):
    app, redis, tag = redis_app
    app.config["REGISTER_LIMIT_IP"] = "1000 per hour"
    email = f"new-{tag}@example.com"
    statuses = _concurrently(app, 12, lambda c: c.post("/register", data={
        "email": email, "password": PASSWORD, "confirm": PASSWORD}).status_code, address=f"10.{tag}")
    assert sorted(statuses)[3:] == [429] * 9 and 429 not in sorted(statuses)[:3], statuses


def test_concurrent_registrations_of_one_address(app):
    app.config["REGISTER_LIMIT_IP"] = "1000 per hour"
    statuses = _concurrently(app, 12, lambda c: c.post("/register", data={
        "email": "many@example.com", "password": PASSWORD, "confirm": PASSWORD}).status_code)
    assert sorted(statuses)[3:] == [429] * 9 and 429 not in sorted(statuses)[:3], statuses


def test_limits_hold_when_redis_does_not_answer(app, make_user, caplog):
    app.config["REDIS_URL"] = "redis://127.0.0.1:9/0"  # the discard port: nothing listens
    user = make_user("down@example.com")
    client = app.test_client()
    for _ in range(5):
        assert client.post("/login", data={"email": user.email, "password": "wrong password!"}).status_code == 400
    assert client.post("/login", data={"email": user.email, "password": PASSWORD}).status_code == 429
    assert not _no_db_counters()  # counted in the database instead
    assert "Redis" in caplog.text


def test_forgot_password_limit_uses_the_normalised_address(client, make_user):
    user = make_user("forgot@example.com")
    for spelling in ["FORGOT@example.com", " forgot@example.com ", "ｆorgot@example.com"]:
        assert client.post("/password/forgot", data={"email": spelling}).status_code == 302
    assert client.post("/password/forgot", data={"email": user.email}).status_code == 429
