"""Password reset: same answer for any address, signed single-use expiring token, policy, sessions end."""
from __future__ import annotations

import email
import re
from datetime import timedelta
from email import policy
from pathlib import Path

from prep.accounts.models import User
from prep.accounts.passwords import verify_password
from prep.accounts.reset import compose, make_token
from prep.extensions import db
from tests.support.app import PASSWORD
from tests.support.clock import FIXED_NOW

NEW = "a brand new passphrase 42"


def _outbox(app) -> list[Path]:
    return sorted((Path(app.instance_path) / "outbox").glob("*.eml"))


def _link(app) -> str:
    [path] = _outbox(app)
    msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
    body = msg.get_body(preferencelist=("plain",)).get_content()
    return re.search(r"http\S+/password/reset/\S+", body).group(0)


def test_login_page_links_to_forgot_password(client):
    assert 'href="/password/forgot"' in client.get("/login").get_data(as_text=True)


def test_same_answer_for_known_and_unknown_address(app, client, make_user):
    user = make_user()
    known = client.post("/password/forgot", data={"email": user.email}, follow_redirects=True)
    unknown = client.post("/password/forgot", data={"email": "nobody@example.com"}, follow_redirects=True)
    assert known.status_code == unknown.status_code == 200
    message = "If an account exists for that address, we sent a link"
    assert message in known.get_data(as_text=True) and message in unknown.get_data(as_text=True)
    assert len(_outbox(app)) == 1  # only the real account got mail


def test_reset_changes_password_ends_sessions_and_is_single_use(app, client, make_user, login):
    user = make_user()
    other = app.test_client()
    login(user, other)
    assert other.get("/dashboard").status_code == 200
    client.post("/password/forgot", data={"email": user.email})
    path = _link(app).split("127.0.0.1:5000", 1)[1]
    assert client.get(path).status_code == 200
    bad = client.post(path, data={"password": "short", "confirm": "short"})
    assert bad.status_code == 400 and "Use at least 8 characters" in bad.get_data(as_text=True)
    common = client.post(path, data={"password": "password123", "confirm": "password123"})
    assert common.status_code == 400
    r = client.post(path, data={"password": NEW, "confirm": NEW})
    assert r.status_code == 302
    assert client.get_cookie("prep_device") is not None  # a known device from now on (prep.accounts.throttle)
    assert client.get("/dashboard").status_code == 200  # logged in fresh
    fresh = db.session.get(User, user.id)
    assert verify_password(fresh.password_hash, NEW)
    assert other.get("/dashboard").status_code == 302  # the other session ended
    again = client.post(path, data={"password": NEW + "x", "confirm": NEW + "x"})
    assert again.status_code == 400 and "not valid" in again.get_data(as_text=True)
    assert verify_password(db.session.get(User, user.id).password_hash, NEW)


def test_expired_and_forged_tokens(app, client, make_user, clock):
    user = make_user()
    app.config["PASSWORD_RESET_MAX_AGE"] = 1
    with app.test_request_context():
        token = make_token(user)
    clock.shift(timedelta(seconds=2.1))
    r = client.get(f"/password/reset/{token}")
    body = r.get_data(as_text=True)
    assert r.status_code == 400 and "expired" in body and 'href="/password/forgot"' in body
    r = client.post(f"/password/reset/{token}", data={"password": NEW, "confirm": NEW})
    assert r.status_code == 400
    assert client.get("/password/reset/" + token[:-3] + "abc").status_code == 400
    assert verify_password(db.session.get(User, user.id).password_hash, PASSWORD)


def test_email_in_users_language_and_no_header_injection(app, make_user):
    user = make_user(display_name="Mallory\r\nBcc: victim@example.com", language="zh")
    with app.test_request_context():
        msg = compose(user, "http://127.0.0.1:5000/password/reset/x", FIXED_NOW)
    raw = msg.as_bytes()
    assert b"\nBcc:" not in raw and b"\rBcc:" not in raw
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert parsed["Bcc"] is None
    assert parsed["To"].addresses[0].addr_spec == user.email
    assert parsed["Subject"] != "Reset your prep password"  # translated (zh)


def test_forgot_mails_are_limited_per_account_and_requests_per_client(app, client, make_user):
    """Three mails per address per window; a fourth request is answered (never refused, so an
    attacker's requests cannot stop the owner's) and sends nothing; the client address is limited."""
    user = make_user()
    for _ in range(3):
        assert client.post("/password/forgot", data={"email": user.email}).status_code == 302
    r = client.post("/password/forgot", data={"email": user.email}, follow_redirects=True)
    assert r.status_code == 200 and "in the last 15 minutes, and it still works" in r.get_data(as_text=True)
    assert len(_outbox(app)) == 3
    assert client.post("/password/forgot", data={"email": "other@example.com"}).status_code == 302
    app.config["RESET_LIMIT_IP"] = "5 per 15 minutes"  # five requests made from this client so far
    assert client.post("/password/forgot", data={"email": "third@example.com"}).status_code == 429
