"""Login and registration limits that hold and cannot lock the owner out.

Attempts are counted atomically before the password is checked, so twenty concurrent wrong
passwords against a limit of five get exactly five checks, on SQLite and PostgreSQL; the account
key is normalised; a success resets the client's count. Failures from one client do not refuse
the right password from another, and a device the owner logged in from is not refused even when
the account-wide limit is used up (prep.accounts.throttle). Registration and reset requests are
limited per client address; the mails to one address are limited, and a request past that is
answered as usual, never refused."""
from __future__ import annotations

import re
import threading
import uuid
from pathlib import Path

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


def test_registration_is_limited_per_address_and_its_mails_per_account(app, client):
    app.config["REGISTER_LIMIT_IP"] = "4 per hour"
    for _ in range(3):  # the same address three times: each answers "check your inbox"
        assert "a short while ago" not in client.post("/register", data={"email": "dup@example.com"}).get_data(
            as_text=True)
    fourth = client.post("/register", data={"email": "dup@example.com"})  # answered, nothing sent
    assert fourth.status_code == 200 and "a short while ago" in fourth.get_data(as_text=True)
    assert len(_outbox(app)) == 3
    assert client.post("/register", data={"email": "fifth@example.com"}).status_code == 429  # the address


def _outbox(app) -> list[Path]:
    return sorted((Path(app.instance_path) / "outbox").glob("*.eml"))


def _from(app, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def _log_in(client: FlaskClient, email: str, password: str) -> int:
    return client.post("/login", data={"email": email, "password": password}).status_code


def test_failures_from_one_client_do_not_refuse_the_owner_elsewhere(app, make_user):
    """Lock-out: five wrong passwords used to refuse the owner's right one for 15 minutes, from
    anywhere. Now they refuse the client that made them."""
    user = make_user("owner@example.com")
    attacker = _from(app, "203.0.113.9")
    assert [_log_in(attacker, user.email, "wrong password!") for _ in range(6)] == [400] * 5 + [429]
    assert _log_in(attacker, user.email, PASSWORD) == 429  # that client is refused, even the right password
    assert _log_in(_from(app, "198.51.100.7"), user.email, PASSWORD) == 302


def _hides_the_address(value: str) -> bool:
    return "owner" not in value and "example" not in value  # a digest of the address, not the address


def test_a_known_device_is_not_refused_when_the_account_limit_is_used(app, make_user):
    """Many addresses can use up the account-wide limit for clients it does not know; the device
    the owner logged in from before is still let in, and only its own failures count."""
    app.config["LOGIN_LIMIT_ACCOUNT"] = "10 per hour"
    user = make_user("owner@example.com")
    device = _from(app, "198.51.100.7")
    assert _log_in(device, user.email, PASSWORD) == 302  # a device cookie comes with the login
    cookie = device.get_cookie("prep_device")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax" and _hides_the_address(cookie.value)
    device.post("/logout")
    for n in range(5):  # five addresses, two wrong passwords each: the account-wide limit is used
        attacker = _from(app, f"203.0.113.{n}")
        assert [_log_in(attacker, user.email, "wrong password!") for _ in range(2)] == [400, 400]
    assert _log_in(_from(app, "192.0.2.1"), user.email, PASSWORD) == 429  # a new device now waits
    assert _log_in(device, " OWNER@example.com", PASSWORD) == 302  # the known one does not
    device.post("/logout")
    # And a known device's own failures are limited like any client's.
    assert [_log_in(device, user.email, "wrong password!") for _ in range(6)] == [400] * 5 + [429]


def test_a_device_cookie_cannot_be_forged_or_moved_to_another_account(app, make_user):
    app.config["LOGIN_LIMIT_ACCOUNT"] = "2 per hour"
    victim, mallory = make_user("victim@example.com"), make_user("mallory@example.com")
    attacker = _from(app, "203.0.113.9")
    assert _log_in(attacker, mallory.email, PASSWORD) == 302  # a real cookie, for the attacker's account
    attacker.post("/logout")
    for n in range(2):
        assert _log_in(_from(app, f"198.51.100.{n}"), victim.email, "wrong password!") == 400
    assert _log_in(attacker, victim.email, "wrong password!") == 429  # mallory's cookie does not help
    attacker.set_cookie("prep_device", "eyJhIjoieCIsIm4iOiJ5In0.forged.signature")
    assert _log_in(attacker, victim.email, "wrong password!") == 429


def test_the_owners_reset_request_is_accepted_whatever_others_asked(app, make_user):
    """Lock-out of the reset: three requests for an address used to refuse its owner's own for
    15 minutes. Now the owner's request is accepted; past the mails the address may get, it says
    that a link sent a short while ago still works (and it does)."""
    user = make_user("owner@example.com")
    attacker = _from(app, "203.0.113.9")
    for _ in range(5):
        assert attacker.post("/password/forgot", data={"email": user.email}).status_code == 302
    assert len(_outbox(app)) == 3  # no flood: three mails, whoever asks
    owner = _from(app, "198.51.100.7")
    r = owner.post("/password/forgot", data={"email": user.email}, follow_redirects=True)
    assert r.status_code == 200 and "still works" in r.get_data(as_text=True)
    body = _outbox(app)[-1].read_text()
    link = re.search(r"/password/reset/\S+", body.replace("=\n", "")).group(0)
    assert owner.post(link, data={"password": "my own new passphrase", "confirm": "my own new passphrase"}) \
        .status_code == 302
    # A client that asks too often is still refused (per client address).
    statuses = [attacker.post("/password/forgot", data={"email": f"x{n}@example.com"}).status_code for n in range(6)]
    assert statuses[-1] == 429


@pytest.mark.parametrize("text, expected", [("5 per 15 minutes", (5, 900)), ("3 per hour", (3, 3600)),
                                            ("10 per 1 day", (10, 86400))])
def test_limit_settings(text, expected):
    assert parse_limit(text) == expected


# ---- Redis: with PREP_REDIS_URL set, the counters live in Redis (INCR with
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
    [key] = [k for k in redis.scan_iter(match=f"*login-client*{tag}*")]  # the (account, client) pair
    assert int(redis.get(key)) == 20 and 0 < redis.ttl(key) <= 15 * 60  # counted in Redis, expiring
    assert int(redis.get(next(redis.scan_iter(match=f"*login-address*{tag}*")))) == 20
    assert int(redis.get(next(redis.scan_iter(match=f"*login-account*{tag}*")))) == 5  # past the pair: not counted
    assert _no_db_counters()  # nothing in the database table


def test_redis_counts_are_reset_and_given_back_like_the_database_ones(redis_app, make_user):
    app, redis, tag = redis_app
    user = make_user(f"again-{tag}@example.com")
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = f"10.{tag}"
    for _ in range(4):
        assert client.post("/login", data={"email": user.email, "password": "wrong password!"}).status_code == 400
    assert client.post("/login", data={"email": " " + user.email.upper(), "password": PASSWORD}).status_code == 302
    assert not list(redis.scan_iter(match=f"*login-client*{tag}*"))  # a success starts the count again
    assert int(redis.get(next(redis.scan_iter(match=f"*login-address*{tag}*")))) == 4  # not counted
    assert int(redis.get(next(redis.scan_iter(match=f"*login-account*{tag}*")))) == 4
    client.post("/logout")
    client.delete_cookie("prep_device")  # as a client the account does not know
    for _ in range(5):
        assert client.post("/login", data={"email": user.email, "password": "wrong password!"}).status_code == 400
    assert client.post("/login", data={"email": user.email, "password": PASSWORD}).status_code == 429
    assert _no_db_counters()


def test_concurrent_registrations_of_one_address_with_redis(redis_app):
    app, redis, tag = redis_app
    app.config["REGISTER_LIMIT_IP"] = "1000 per hour"
    email = f"new-{tag}@example.com"
    statuses = _concurrently(app, 12, lambda c: c.post("/register", data={"email": email}).status_code,
                             address=f"10.{tag}")
    assert statuses == [200] * 12  # never refused for the address's sake
    assert len(_outbox(app)) == 3 and int(redis.get(next(redis.scan_iter(match=f"*register-account*{tag}*")))) == 12


def test_concurrent_registrations_of_one_address(app):
    app.config["REGISTER_LIMIT_IP"] = "1000 per hour"
    statuses = _concurrently(app, 12, lambda c: c.post("/register", data={"email": "many@example.com"}).status_code)
    assert statuses == [200] * 12
    assert len(_outbox(app)) == 3  # exactly three mails, however close the requests


def test_limits_hold_when_redis_does_not_answer(app, make_user, caplog):
    app.config["REDIS_URL"] = "redis://127.0.0.1:9/0"  # the discard port: nothing listens
    user = make_user("down@example.com")
    client = app.test_client()
    for _ in range(5):
        assert client.post("/login", data={"email": user.email, "password": "wrong password!"}).status_code == 400
    assert client.post("/login", data={"email": user.email, "password": PASSWORD}).status_code == 429
    assert not _no_db_counters()  # counted in the database instead
    assert "Redis" in caplog.text


def test_forgot_password_limit_uses_the_normalised_address(app, client, make_user):
    user = make_user("forgot@example.com")
    for spelling in ["FORGOT@example.com", " forgot@example.com ", "ｆorgot@example.com"]:
        assert client.post("/password/forgot", data={"email": spelling}).status_code == 302
    r = client.post("/password/forgot", data={"email": user.email}, follow_redirects=True)
    assert "still works" in r.get_data(as_text=True)
    assert len(_outbox(app)) == 2  # the full-width spelling counts as the address but finds no account
