"""Sessions: rotation at login, idle and absolute timeouts, cookie flags, replayed cookies refused."""
from __future__ import annotations

import time

import pytest

from tests.conftest import PASSWORD, make_app

NEW = "another long passphrase 7"


def _cookie(client, name):
    c = client.get_cookie(name)
    return c.value if c else None


def _shift(client, **delta):
    with client.session_transaction() as s:
        for key, seconds in delta.items():
            s[key] = s[key] - seconds


def test_session_rotated_at_login(client, make_user):
    user = make_user()
    client.post("/language", data={"lang": "en"})
    before = _cookie(client, "session")
    assert before
    client.post("/login", data={"email": user.email, "password": PASSWORD})
    after = _cookie(client, "session")
    assert after and after != before
    with client.session_transaction() as s:
        assert isinstance(s["login_at"], int)


def test_idle_timeout_logs_out_with_message_and_next(app, client, make_user, login):
    login(make_user())
    assert client.get("/dashboard").status_code == 200
    _shift(client, seen_at=121 * 60)
    r = client.get("/dashboard")
    assert r.status_code == 302 and "/login?next=/dashboard" in r.headers["Location"]
    assert "Your session expired" in client.get(r.headers["Location"]).get_data(as_text=True)
    assert client.get("/dashboard").status_code == 302


def test_absolute_timeout_even_when_active(client, make_user, login):
    login(make_user())
    _shift(client, login_at=15 * 86400)
    assert client.get("/dashboard").status_code == 302


def test_last_seen_rewritten_at_most_once_a_minute(client, make_user, login):
    login(make_user())
    client.get("/dashboard")
    r = client.get("/dashboard")
    assert "session=" not in (r.headers.get("Set-Cookie") or "")
    _shift(client, seen_at=61)
    r = client.get("/dashboard")
    assert "session=" in (r.headers.get("Set-Cookie") or "")


def test_session_cookie_replayed_after_logout_is_refused(app, client, make_user, login):
    login(make_user())
    captured = _cookie(client, "session")
    client.post("/logout")
    thief = app.test_client()
    thief.set_cookie("session", captured)
    assert thief.get("/dashboard").status_code == 302


@pytest.mark.parametrize("end", ["logout", "password"])
def test_remember_cookie_replayed_after_logout_or_password_change_is_refused(app, client, make_user, end):
    user = make_user()
    client.post("/login", data={"email": user.email, "password": PASSWORD, "remember": "y"})
    remember = _cookie(client, "remember_token")
    since = _cookie(client, "remember_since")
    assert remember and since
    # The remember cookies (no session) log in, for a session bounded like any other.
    fresh = app.test_client()
    fresh.set_cookie("remember_token", remember)
    fresh.set_cookie("remember_since", since)
    assert fresh.get("/dashboard").status_code == 200
    with fresh.session_transaction() as s:
        assert s["remember"] is True and s["login_at"] <= time.time()
    if end == "logout":
        client.post("/logout")
    else:
        r = client.post("/settings/password", data={"current": PASSWORD, "password": NEW, "confirm": NEW})
        assert r.status_code == 302
    replay = app.test_client()
    replay.set_cookie("remember_token", remember)
    replay.set_cookie("remember_since", since)
    assert replay.get("/dashboard").status_code == 302


def test_remember_cookie_bounded_by_absolute_timeout(app, client, make_user):
    user = make_user()
    r = client.post("/login", data={"email": user.email, "password": PASSWORD, "remember": "y"})
    header = next(h for h in r.headers.getlist("Set-Cookie") if h.startswith("remember_token="))
    assert "HttpOnly" in header and "SameSite=Lax" in header
    assert app.config["REMEMBER_COOKIE_DURATION"].days == app.config["SESSION_MAX_DAYS"] == 14
    assert app.config["PERMANENT_SESSION_LIFETIME"].days == 14


def test_cookie_flags_on_http(client, make_user):
    r = client.post("/login", data={"email": make_user().email, "password": PASSWORD})
    header = next(h for h in r.headers.getlist("Set-Cookie") if h.startswith("session="))
    assert "HttpOnly" in header and "SameSite=Lax" in header and "Secure" not in header
    assert "Strict-Transport-Security" not in r.headers


def test_cookie_flags_and_hsts_behind_https(tmp_path):
    app = make_app(tmp_path, BEHIND_HTTPS=True)
    from prep.accounts.service import create_user
    from prep.extensions import db
    with app.app_context():
        create_user("h@example.com", PASSWORD)
        db.session.commit()
        r = app.test_client().post("/login", data={"email": "h@example.com", "password": PASSWORD, "remember": "y"},
                                   base_url="https://localhost", headers={"X-Forwarded-Proto": "https"})
    cookies = r.headers.getlist("Set-Cookie")
    session = next(h for h in cookies if h.startswith("__Host-session="))
    assert "Secure" in session and "HttpOnly" in session and "Path=/" in session and "Domain" not in session
    assert "Secure" in next(h for h in cookies if h.startswith("remember_token="))
    assert r.headers["Strict-Transport-Security"].startswith("max-age=")


def test_config_from_environment():
    from prep.config import from_environ
    assert from_environ({"PREP_SESSION_IDLE_MINUTES": "30", "PREP_SESSION_MAX_DAYS": "3"}) == {
        "SESSION_IDLE_MINUTES": 30, "SESSION_MAX_DAYS": 3}


def test_short_idle_setting_applies(app, client, make_user, login):
    app.config["SESSION_IDLE_MINUTES"] = 1
    login(make_user())
    _shift(client, seen_at=90)
    assert client.get("/dashboard").status_code == 302


def test_session_restored_from_remember_cookie_keeps_the_login_time(app, client, make_user):
    from prep.accounts.sessions import _since_signer

    user = make_user()
    client.post("/login", data={"email": user.email, "password": PASSWORD, "remember": "y"})
    remember = _cookie(client, "remember_token")
    with app.test_request_context():
        old = _since_signer().dumps(int(time.time()) - 15 * 86400)  # a login 15 days ago
    assert _cookie(client, "remember_since")
    late = app.test_client()
    late.set_cookie("remember_token", remember)
    late.set_cookie("remember_since", old)
    assert late.get("/dashboard").status_code == 302  # past the absolute timeout
    forged = app.test_client()
    forged.set_cookie("remember_token", remember)
    forged.set_cookie("remember_since", "forged")
    assert forged.get("/dashboard").status_code == 302  # a bad since-cookie restores nothing
    alone = app.test_client()
    alone.set_cookie("remember_token", remember)
    assert alone.get("/dashboard").status_code == 302  # nor does the remember cookie without its issue time
