"""Registration does not tell whether an address has an account, and cannot be pre-taken.

Same page and status for a known and a new address; the known address gets a mail saying it
already has an account, the new one a link whose page sets the password, creates the account and
logs its owner in on the first screen. No account exists until the link is followed, so nothing
logs in before (else logging in would tell). Registering asks no password, so registering someone
else's address first takes nothing over, whichever of the mails its owner follows. On SQLite and
PostgreSQL, and once through a real SMTP server (aiosmtpd).
"""
from __future__ import annotations

import email
import re
import threading
import time
from email import policy
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from prep.accounts.models import PendingRegistration, User
from prep.accounts.passwords import verify_password
from prep.extensions import db
from tests.support.app import PASSWORD

OTHER = "another long passphrase 9"


def _mails(app) -> list[email.message.EmailMessage]:
    paths = sorted((Path(app.instance_path) / "outbox").glob("*.eml"), key=lambda p: p.stat().st_mtime_ns)
    return [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in paths]


def _body(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def _link(message) -> str | None:
    found = re.search(r"http\S+/register/confirm/\S+", _body(message))
    return found.group(0).split("127.0.0.1:5000", 1)[1] if found else None


def _register(client, address: str, **extra):
    return client.post("/register", data={"email": address, **extra})


def _confirm(client, link: str, password: str = PASSWORD, **extra):
    """Send the page the link opens: the password (twice) and whatever else is given."""
    return client.post(link, data={"password": password, "confirm": password, **extra})


def _page(response, address: str) -> str:
    """The page with the address it echoes and the per-session CSRF tokens taken out."""
    page = response.get_data(as_text=True).replace(address.strip().lower(), "ADDRESS")
    return re.sub(r'name="csrf_token"[^>]*value="[^"]*"', "CSRF", page)


def _users() -> int:
    return db.session.scalar(select(func.count()).select_from(User))


def test_known_and_new_addresses_get_the_same_answer(app, client, make_user):
    make_user("known@example.com")
    known = _register(client, "known@example.com")
    new = _register(app.test_client(), "new@example.com")
    assert known.status_code == new.status_code == 200
    assert _page(known, "known@example.com") == _page(new, "new@example.com")
    assert "Check your inbox" in new.get_data(as_text=True)
    # Spelled differently, the known address still answers the same page.
    assert _page(_register(app.test_client(), " KNOWN@Example.com"), "known@example.com") == \
        _page(new, "new@example.com")
    assert _users() == 1  # no account yet for the new address


def test_the_register_page_asks_no_password(client):
    page = client.get("/register").get_data(as_text=True)
    assert 'name="email"' in page and 'type="password"' not in page


def test_nothing_logs_in_before_the_link(app, client, make_user):
    """Else an attacker could register an address and try logging in: a login would mean the
    address was free. Registering takes no password, and a password sent with it is ignored."""
    make_user("known@example.com")
    for address in ("known@example.com", "fresh@example.com"):
        _register(app.test_client(), address, password=OTHER, confirm=OTHER)
        r = app.test_client().post("/login", data={"email": address, "password": OTHER})
        assert r.status_code == 400 and "Wrong email or password." in r.get_data(as_text=True), address
    assert client.post("/login", data={"email": "known@example.com", "password": PASSWORD}).status_code == 302


def test_the_mail_to_a_known_address_says_it_has_an_account(app, client, make_user):
    user = make_user("known@example.com", display_name="Kim")
    _register(client, "Known@example.com")
    [mail] = _mails(app)
    assert mail["To"].addresses[0].addr_spec == "known@example.com"
    assert mail["Subject"] == "You already have a prep account"
    body = _body(mail)
    assert "you already have an account" in body
    assert "http://127.0.0.1:5000/login" in body and "http://127.0.0.1:5000/password/forgot" in body
    assert _link(mail) is None  # nothing that logs in or creates anything
    db.session.refresh(user)
    assert verify_password(user.password_hash, PASSWORD)  # nothing changed on the account


def test_the_link_asks_the_password_and_creates_the_account(app, client):
    r = _register(client, "New@Example.com")
    assert r.status_code == 200
    [mail] = _mails(app)
    assert mail["To"].addresses[0].addr_spec == "new@example.com"
    assert mail["Subject"] == "Finish creating your prep account"
    assert "choose your password" in _body(mail)
    link = _link(mail)
    page = client.get(link)  # a mail scanner following the link creates nothing
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "new@example.com" in text
    assert 'name="password"' in text and 'name="confirm"' in text and 'autocomplete="new-password"' in text
    assert _users() == 0
    # A refused password or two that differ: a message next to the field, nothing created.
    bad = _confirm(client, link, "short")
    assert bad.status_code == 400 and "Use at least 8 characters" in bad.get_data(as_text=True)
    differ = client.post(link, data={"password": PASSWORD, "confirm": PASSWORD + "x",
                                     "display_name": "<script>alert(1)</script>"})
    assert differ.status_code == 400 and "The passwords differ." in differ.get_data(as_text=True)
    assert "<script>alert(1)" not in differ.get_data(as_text=True)  # the name is shown back escaped
    assert _users() == 0
    r = _confirm(client, link, display_name="Nan", timezone="Asia/Shanghai")
    assert r.status_code == 302 and r.headers["Location"].endswith("/postings/new")
    landing = client.get("/postings/new").get_data(as_text=True)
    assert "Bring a job posting or an interview report, or start from a target role." in landing
    user = db.session.scalar(select(User).where(User.email == "new@example.com"))
    assert user.password_hash.startswith("$argon2id$") and verify_password(user.password_hash, PASSWORD)
    assert (user.display_name, user.timezone) == ("Nan", "Asia/Shanghai")
    assert client.get_cookie("prep_device") is not None  # the owner's device is known from now on
    assert client.get("/dashboard").status_code == 200
    assert db.session.scalar(select(func.count()).select_from(PendingRegistration)) == 0
    # The link works once; the password logs in from now on.
    again = _confirm(app.test_client(), link, OTHER)
    assert again.status_code == 400 and "not valid" in again.get_data(as_text=True)
    assert app.test_client().get(link).status_code == 400
    assert app.test_client().post("/login", data={"email": "new@example.com", "password": PASSWORD}).status_code \
        == 302


def test_the_footer_language_carries_to_the_account_and_the_mail(app, client):
    client.post("/language", data={"lang": "zh"})
    page = _register(client, "zh@example.com").get_data(as_text=True)
    assert "请查收邮件" in page
    [mail] = _mails(app)
    assert mail["Subject"] == "完成创建你的 prep 账号"
    _confirm(client, _link(mail))
    assert db.session.scalar(select(User.language).where(User.email == "zh@example.com")) == "zh"


@pytest.mark.parametrize("followed", ["attackers", "victims"])
def test_someone_elses_registration_cannot_take_the_address(app, client, followed):
    """Pre-takeover: an attacker registers the victim's address first (with a password of the
    attacker's, as the old form took it); the victim registers too, gets two mails that look
    alike and follows either. The account gets the victim's password, never the attacker's."""
    attacker = app.test_client()
    _register(attacker, "victim@example.com", password=OTHER, confirm=OTHER)  # never sees the mail
    _register(client, "victim@example.com", password=PASSWORD, confirm=PASSWORD)
    attackers, victims = (_link(m) for m in _mails(app))
    link = attackers if followed == "attackers" else victims
    page = client.get(link).get_data(as_text=True)
    assert 'name="password"' in page  # the victim is asked for the password, whichever mail it was
    assert client.post(link, data={"password": PASSWORD, "confirm": PASSWORD}).status_code == 302
    user = db.session.scalar(select(User).where(User.email == "victim@example.com"))
    assert verify_password(user.password_hash, PASSWORD) and not verify_password(user.password_hash, OTHER)
    assert attacker.post("/login", data={"email": "victim@example.com", "password": OTHER}).status_code == 400
    assert attacker.get("/dashboard").status_code == 302  # the attacker has no session either
    # Every other link for the address died with the account: the attacker cannot set a password.
    other = victims if followed == "attackers" else attackers
    assert _confirm(attacker, other, OTHER).status_code == 400
    db.session.refresh(user)
    assert verify_password(user.password_hash, PASSWORD)


def test_expired_forged_and_odd_links(app, client):
    app.config["REGISTER_CONFIRM_MAX_AGE"] = 60
    _register(client, "late@example.com")
    link = _link(_mails(app)[0])
    pending = db.session.scalar(select(PendingRegistration))
    pending.created_at = pending.created_at.replace(year=pending.created_at.year - 1)
    db.session.commit()
    r = _confirm(client, link)
    assert r.status_code == 400 and "expired" in r.get_data(as_text=True)
    assert _users() == 0
    for token in ("forged", "x" * 5000, link.rsplit("/", 1)[1][:-2] + "ab", "%00", "é"):
        for method in (client.get, client.post):
            assert method(f"/register/confirm/{token}").status_code in (400, 404), token
    # A later registration clears the expired one.
    _register(app.test_client(), "later@example.com")
    assert db.session.scalar(select(PendingRegistration.email)) == "later@example.com"


def test_the_link_followed_twice_at_once_makes_one_account(app, client):
    _register(client, "twice@example.com")
    link = _link(_mails(app)[0])
    statuses: list[int] = []
    barrier = threading.Barrier(6)

    def follow() -> None:
        c = FlaskClient(app, app.response_class, use_cookies=True)  # each request its own context
        barrier.wait()
        statuses.append(_confirm(c, link).status_code)

    threads = [threading.Thread(target=follow) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(statuses) == [302] + [400] * 5, statuses
    assert _users() == 1


def test_bad_input_is_reported_alike_for_every_address(client, make_user):
    make_user("known@example.com")
    for address in ("known@example.com", "new@example.com"):
        r = _register(client, address.replace("@", " at "))
        assert r.status_code == 400 and "Enter a valid email address." in r.get_data(as_text=True)
    r = _register(client, "")
    assert r.status_code == 400 and 'class="error"' in r.get_data(as_text=True)


def test_the_confirmation_needs_the_csrf_token(csrf_app, client):
    _register(client, "csrf@example.com")  # the register page's own token is needed too
    client.get("/register")
    from tests.support.pages import csrf_token_from

    token = csrf_token_from(client.get("/register").get_data(as_text=True))
    assert _register(client, "csrf@example.com", csrf_token=token).status_code == 200
    link = _link(_mails(csrf_app)[0])
    assert _confirm(client, link).status_code == 400
    assert _users() == 0
    page = client.get(link).get_data(as_text=True)
    assert _confirm(client, link, csrf_token=csrf_token_from(page)).status_code == 302


def test_past_the_mails_an_address_may_get_the_answer_is_the_same_and_nothing_is_sent(app, make_user):
    """An address gets at most REGISTER_LIMIT_ACCOUNT mails per window; a registration past that
    is not refused (an attacker's must not block the owner's, whose inbox has working links) and
    answers the same page for a known and a new address."""
    make_user("known@example.com")
    pages = {}
    for address in ("known@example.com", "new@example.com"):
        for _ in range(3):
            assert _register(app.test_client(), address).status_code == 200
        r = _register(app.test_client(), address)
        assert r.status_code == 200 and "a short while ago" in r.get_data(as_text=True)
        pages[address] = _page(r, address)
    assert pages["known@example.com"] == pages["new@example.com"]
    assert len(_mails(app)) == 6  # three each, the fourth sent nothing
    assert db.session.scalar(select(func.count()).select_from(PendingRegistration)) == 3


# ---- through a real SMTP server, as in production (the mail is sent from a thread)

class _Inbox:
    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd hook name)
        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@pytest.fixture
def smtp_inbox(app):
    controller_module = pytest.importorskip("aiosmtpd.controller")
    from tests.support.live import free_port

    inbox = _Inbox()
    port = free_port()
    controller = controller_module.Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    app.config["SMTP_URL"] = f"smtp://127.0.0.1:{port}?timeout=5"
    try:
        yield inbox
    finally:
        controller.stop()


def _wait_for(inbox: _Inbox, n: int) -> None:
    deadline = time.monotonic() + 30
    while len(inbox.messages) < n and time.monotonic() < deadline:
        time.sleep(0.05)  # the mail is sent from another thread to a real SMTP server: poll


def test_both_mails_over_smtp(app, client, make_user, smtp_inbox):
    make_user("known@example.com")
    known = _register(client, "known@example.com")
    new = _register(app.test_client(), "new@example.com")
    assert _page(known, "known@example.com") == _page(new, "new@example.com")
    _wait_for(smtp_inbox, 2)
    by_address = {m["To"].addresses[0].addr_spec: m for m in smtp_inbox.messages}
    assert "you already have an account" in _body(by_address["known@example.com"])
    link = _link(by_address["new@example.com"])
    assert link and _confirm(app.test_client(), link).status_code == 302
    assert not list((Path(app.instance_path) / "outbox").glob("*.eml"))
