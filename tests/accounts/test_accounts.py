"""Accounts: register, log in/out, password change, roles, hashing, CSRF."""
from __future__ import annotations

from sqlalchemy import select

from prep.accounts.models import Role, User
from prep.extensions import db
from tests.support.app import PASSWORD
from tests.support.pages import confirm_registration, csrf_token_from


def test_register_logs_in_and_hashes_with_argon2id(app, client):
    r = client.post("/register", data={"email": "New@Example.com"})
    assert r.status_code == 200  # "check your inbox": the mailed link's page sets the password and makes the account
    r = confirm_registration(app, client, "new@example.com", timezone="Asia/Shanghai")
    assert r.status_code == 302 and r.headers["Location"].endswith("/postings/new")  # bring a posting first
    landing = client.get("/postings/new").get_data(as_text=True)
    assert "Bring a job posting or an interview report, or start from a target role." in landing
    assert 'id="role-form"' in landing
    user = db.session.scalar(select(User).where(User.email == "new@example.com"))
    assert user.password_hash.startswith("$argon2id$")
    assert PASSWORD not in user.password_hash
    assert user.role is Role.candidate
    assert user.timezone == "Asia/Shanghai"
    assert client.get("/dashboard").status_code == 200


def test_register_bad_input_shows_errors_and_creates_nothing(app, client, make_user):
    make_user("taken@example.com")
    for data in ({"email": "not-an-email"}, {"email": ""}):
        r = client.post("/register", data=data)
        assert r.status_code == 400
        assert 'class="error"' in r.get_data(as_text=True)
    assert client.post("/register", data={"email": "a@example.com"}).status_code == 200
    for password, confirm in (("short", "short"), (PASSWORD, PASSWORD + "x"), ("", "")):  # on the link's page
        r = confirm_registration(app, client, "a@example.com", password, confirm=confirm)
        assert r.status_code == 400
        assert 'class="error"' in r.get_data(as_text=True)
    # A taken address answers like a new one (tests/accounts/test_register_privacy.py) and changes nothing.
    r = client.post("/register", data={"email": "TAKEN@example.com"})
    assert r.status_code == 200 and 'class="error"' not in r.get_data(as_text=True)
    assert db.session.scalar(select(db.func.count(User.id))) == 1


def test_unknown_timezone_falls_back_to_utc(app, client):
    client.post("/register", data={"email": "tz@example.com"})
    confirm_registration(app, client, "tz@example.com", timezone="Mars/Olympus")
    assert db.session.scalar(select(User.timezone).where(User.email == "tz@example.com")) == "UTC"


def test_login_wrong_password_same_message_as_unknown_email(client, make_user):
    user = make_user()
    wrong_pw = client.post("/login", data={"email": user.email, "password": "wrong password!"})
    unknown = client.post("/login", data={"email": "nobody@example.com", "password": "wrong password!"})
    assert wrong_pw.status_code == unknown.status_code == 400
    assert "Wrong email or password." in wrong_pw.get_data(as_text=True)
    assert "Wrong email or password." in unknown.get_data(as_text=True)


def test_login_then_logout_ends_session(client, make_user, login):
    user = make_user()
    login(user)
    assert client.get("/dashboard").status_code == 200
    assert client.post("/logout").status_code == 302
    assert client.get("/dashboard").status_code == 302  # back to the login page


def test_logout_get_does_not_log_out(client, make_user, login):
    login(make_user())
    assert client.get("/logout").status_code == 200
    assert client.get("/dashboard").status_code == 200


def test_open_redirect_after_login_is_refused(client, make_user):
    user = make_user()
    r = client.post("/login?next=//evil.example/x", data={"email": user.email, "password": PASSWORD})
    assert r.headers["Location"].endswith("/dashboard")


def test_backslash_redirect_target_is_refused():
    from prep.web.redirects import safe_local_target

    assert safe_local_target("/\\evil.example/x", "/home") == "/home"
    assert safe_local_target("/cards/3", "/home") == "/cards/3"


def test_change_password_logs_out_other_sessions(app, client, make_user, login):
    user = make_user()
    other = app.test_client()
    login(user)
    login(user, other)
    r = client.post("/settings/password", data={"current": PASSWORD, "password": "a brand new passphrase",
                                                "confirm": "a brand new passphrase"})
    assert r.status_code == 302
    assert client.get("/dashboard").status_code == 200
    assert other.get("/dashboard").status_code == 302
    assert client.post("/logout").status_code == 302
    r = client.post("/login", data={"email": user.email, "password": "a brand new passphrase"})
    assert r.status_code == 302


def test_change_password_wrong_current_changes_nothing(client, make_user, login):
    user = make_user()
    login(user)
    before = user.password_hash
    r = client.post("/settings/password", data={"current": "not it at all", "password": "a brand new passphrase",
                                                "confirm": "a brand new passphrase"})
    assert r.status_code == 400
    db.session.refresh(user)
    assert user.password_hash == before


def test_session_cookie_flags(client, make_user):
    user = make_user()
    r = client.post("/login", data={"email": user.email, "password": PASSWORD})
    cookie = r.headers.get("Set-Cookie", "")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_settings_validation(client, make_user, login):
    user = make_user()
    login(user)
    r = client.post("/settings", data={"timezone": "Europe/Berlin", "day_start_hour": "30", "new_per_day": "10",
                                       "reviews_per_day": "100", "desired_retention": "0.9",
                                       "learning_steps": "1m 10x", "relearning_steps": "10m",
                                       "maximum_interval": "365"})
    assert r.status_code == 400
    text = r.get_data(as_text=True)
    assert "bad step" in text and "Number must be between" in text
    db.session.refresh(user)
    assert user.timezone == "UTC" and user.new_per_day == 20
    r = client.post("/settings", data={"timezone": "Europe/Berlin", "day_start_hour": "5", "new_per_day": "10",
                                       "reviews_per_day": "100", "desired_retention": "0.85",
                                       "learning_steps": "1m  10m", "relearning_steps": "",
                                       "maximum_interval": "365"})
    assert r.status_code == 302
    db.session.refresh(user)
    assert (user.timezone, user.day_start_hour, user.new_per_day, user.desired_retention) == (
        "Europe/Berlin", 5, 10, 0.85)
    assert user.learning_steps == "1m 10m" and user.relearning_steps == ""


def test_csrf_is_required_on_forms(csrf_app, make_user):
    client = csrf_app.test_client()
    user = make_user()
    # No token: refused, and nothing logs in.
    r = client.post("/login", data={"email": user.email, "password": PASSWORD})
    assert r.status_code == 400
    assert "form expired" in r.get_data(as_text=True).lower()
    token = csrf_token_from(client.get("/login").get_data(as_text=True))
    r = client.post("/login", data={"email": user.email, "password": PASSWORD, "csrf_token": token})
    assert r.status_code == 302
    # Logged in, a state-changing POST without a token is still refused.
    r = client.post("/questions", data={"text": "What is a queue pair in RDMA?", "lang": "auto", "tags": ""})
    assert r.status_code == 400


def test_users_create_cli(runner):
    result = runner.invoke(args=["users", "create", "teach@example.com", "--role", "instructor",
                                 "--password", PASSWORD])
    assert result.exit_code == 0, result.output
    user = db.session.scalar(select(User).where(User.email == "teach@example.com"))
    assert user.role is Role.instructor
    again = runner.invoke(args=["users", "create", "teach@example.com", "--password", PASSWORD])
    assert again.exit_code == 2 and "already exists" in again.output


def test_security_headers_on_every_response(client):
    for url in ("/login", "/does-not-exist", "/static/css/app.css"):
        r = client.get(url)
        r.close()
        csp = r.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Referrer-Policy"] == "same-origin"


def test_404_page_in_app_style(client):
    r = client.get("/nope")
    assert r.status_code == 404
    html = r.get_data(as_text=True)
    assert "Page not found" in html and 'class="site-header"' in html


def test_500_page_rolls_back_and_hides_the_traceback(app, client):
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/boom-test")
    def boom():
        raise RuntimeError("secret internals")

    r = client.get("/boom-test")
    assert r.status_code == 500
    html = r.get_data(as_text=True)
    assert "Something went wrong" in html and "secret internals" not in html and "Traceback" not in html


def test_login_is_rate_limited_per_account(client, make_user):
    user = make_user()
    for _ in range(5):
        assert client.post("/login", data={"email": user.email, "password": "wrong password!"}).status_code == 400
    r = client.post("/login", data={"email": user.email, "password": PASSWORD})
    assert r.status_code == 429
    assert "Too many attempts" in r.get_data(as_text=True)
    # Another account from the same address is not locked by that account's limit.
    other = make_user()
    assert client.post("/login", data={"email": other.email, "password": PASSWORD}).status_code == 302
