"""Login and registration limits that hold (issue 16 item 7): attempts are counted atomically
before the password is checked, so twenty concurrent wrong passwords against a limit of five
get exactly five checks, on SQLite and PostgreSQL; the account key is normalised; a success
resets the account's count; registration is limited per address and per account."""
from __future__ import annotations

import threading

import pytest
from flask.testing import FlaskClient

from prep.accounts.attempts import account_key, parse_limit
from prep.extensions import db
from tests.conftest import PASSWORD


def _concurrently(app, n: int, fn) -> list[int]:
    statuses: list[int] = [0] * n
    barrier = threading.Barrier(n)

    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            client = FlaskClient(app, app.response_class, use_cookies=True)  # each request its own context
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
    for _ in range(3):  # the same address three times: the first creates it, then "already registered"
        assert client.post("/register", data={"email": "dup@example.com", **form}).status_code in (302, 400)
        client.post("/logout")
    assert client.post("/register", data={"email": "dup@example.com", **form}).status_code == 429
    assert client.post("/register", data={"email": "fifth@example.com", **form}).status_code == 429  # the address


@pytest.mark.parametrize("text, expected", [("5 per 15 minutes", (5, 900)), ("3 per hour", (3, 3600)),
                                            ("10 per 1 day", (10, 86400))])
def test_limit_settings(text, expected):
    assert parse_limit(text) == expected
