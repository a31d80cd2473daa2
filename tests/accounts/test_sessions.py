"""Sessions: rotation at login, idle and absolute timeouts, cookie flags, replayed cookies refused."""
from __future__ import annotations

import time

import pytest

from tests.support.app import PASSWORD, make_app

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
    assert remember
    # The remember cookie (no session) logs in, for a session bounded like any other.
    fresh = app.test_client()
    fresh.set_cookie("remember_token", remember)
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
    user = make_user()
    client.post("/login", data={"email": user.email, "password": PASSWORD, "remember": "y"})
    with client.session_transaction() as s:
        login_at = s["login_at"]
    assert _cookie(client, "remember_since") is None  # the token carries the time itself
    later = app.test_client()
    later.set_cookie("remember_token", _cookie(client, "remember_token"))
    assert later.get("/dashboard").status_code == 200
    with later.session_transaction() as s:
        assert s["login_at"] == login_at  # not the time of the restore
    stale = app.test_client()  # a browser that still sends the old separate cookie gets it deleted
    stale.set_cookie("remember_since", "anything")
    r = stale.get("/login")
    assert any(h.startswith("remember_since=;") for h in r.headers.getlist("Set-Cookie"))


def _forged_remember(app, payload: str) -> str:
    """A remember cookie signed with the app's key (as Flask-Login signs it) for ``payload``."""
    from flask_login.utils import encode_cookie

    with app.test_request_context():
        return encode_cookie(payload)


def test_remember_token_carries_its_issue_time_and_expires_with_the_session(app, client, make_user):
    """The remember token itself carries the login time, so no other cookie can
    extend it. A token issued 15 days ago (absolute lifetime 14) or a token with no time restores
    nothing, even beside a fresh ``remember_since`` cookie taken from the attacker's own login."""
    victim, attacker = make_user(), make_user()
    client.post("/login", data={"email": victim.email, "password": PASSWORD, "remember": "y"})
    token = _cookie(client, "remember_token")
    mine = app.test_client()
    mine.post("/login", data={"email": attacker.email, "password": PASSWORD, "remember": "y"})
    fresh_since = _cookie(mine, "remember_since")  # None once the separate cookie is gone
    now = int(time.time())
    ident = victim.get_id()
    old = [_forged_remember(app, ident),  # no issue time (the format before the fix)
           _forged_remember(app, f"{ident}:{now - 15 * 86400}"),  # issued 15 days ago
           _forged_remember(app, f"{ident}:{now + 3600}"),  # issued in the future
           _forged_remember(app, f"{ident}:x")]
    for n, cookie in enumerate(old):
        thief = app.test_client()
        thief.set_cookie("remember_token", cookie)
        if fresh_since:
            thief.set_cookie("remember_since", fresh_since)
        assert thief.get("/dashboard").status_code == 302, n
    # The genuine token still restores a session, whose login time is the token's.
    assert token.split("|")[0] != ident  # the token is not the bare identity any more
    issued = int(token.split("|")[0].rsplit(":", 1)[1])
    assert now - 60 <= issued <= now + 1
    back = app.test_client()
    back.set_cookie("remember_token", token)
    assert back.get("/dashboard").status_code == 200
    with back.session_transaction() as s:
        assert s["login_at"] == issued and s["remember"] is True
    # A token issued 13 days ago still works, for the one day left.
    recent = app.test_client()
    recent.set_cookie("remember_token", _forged_remember(app, f"{ident}:{now - 13 * 86400}"))
    assert recent.get("/dashboard").status_code == 200
    with recent.session_transaction() as s:
        assert s["login_at"] == now - 13 * 86400
    _shift(recent, login_at=2 * 86400)  # a day later still active: the absolute limit ends it
    assert recent.get("/dashboard").status_code == 302
