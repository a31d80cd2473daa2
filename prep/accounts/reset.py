"""Password reset: a signed, expiring, single-use token, and the email that carries it.

The token (itsdangerous, salted, signed with the app's secret key) embeds the user id and a
fingerprint of the current password hash and session version: once the password changes (or the
user logs out everywhere) the fingerprint no longer matches and the token is dead.
"""
from __future__ import annotations

import hashlib
import threading
from email.headerregistry import Address
from email.message import EmailMessage
from datetime import datetime
from email.utils import format_datetime, make_msgid

from flask import current_app, render_template, url_for
from flask_babel import force_locale
from flask_babel import gettext as _
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from .. import clock
from ..extensions import db
from ..mail import SEND_ERRORS, announce_link, app_transport, set_readable_text
from .models import User

SALT = "prep.password-reset"
DEFAULT_MAX_AGE = 3600  # seconds


class TokenExpired(Exception):
    """The link is older than the reset lifetime."""


class TokenInvalid(Exception):
    """The link is forged, malformed, already used or for a changed password."""


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=SALT)


def fingerprint(user: User) -> str:
    raw = f"{user.password_hash}:{user.session_version}".encode()
    return hashlib.sha256(raw).hexdigest()[:20]


def make_token(user: User) -> str:
    return _serializer().dumps({"u": user.id, "f": fingerprint(user)})


def user_for_token(token: str) -> User:
    """The user a valid token belongs to; raises TokenExpired or TokenInvalid."""
    max_age = int(current_app.config.get("PASSWORD_RESET_MAX_AGE", DEFAULT_MAX_AGE))
    try:
        data = _serializer().loads(token, max_age=max_age)
    except SignatureExpired:
        raise TokenExpired() from None
    except BadSignature:
        raise TokenInvalid() from None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        raise TokenInvalid()
    user = db.session.get(User, data["u"])
    if user is None or data.get("f") != fingerprint(user):
        raise TokenInvalid()
    return user


def _header(value: str) -> str:
    """No CR/LF (or other control characters) in a header value: they cannot start a new header."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in value).split())


def compose(user: User, link: str, now: datetime) -> EmailMessage:
    message = EmailMessage()
    name = _header(user.display_name or "")
    with force_locale(user.language or "en"):
        message["Subject"] = _header(_("Reset your prep password"))
        body = render_template("accounts/reset_email.txt", name=name or user.email.split("@")[0], link=link,
                               minutes=int(current_app.config.get("PASSWORD_RESET_MAX_AGE", DEFAULT_MAX_AGE)) // 60)
    message["From"] = _header(current_app.config["MAIL_FROM"])
    message["To"] = Address(display_name=name, addr_spec=_header(user.email)) if name else _header(user.email)
    message["Date"] = format_datetime(now)
    message["Message-ID"] = make_msgid(domain="prep.password-reset")
    message["Auto-Submitted"] = "auto-generated"
    set_readable_text(message, body)
    return message


def deliver(message: EmailMessage, what: str, console: tuple[str, str] | None = None) -> None:
    """Send a composed message: over SMTP in a thread, so the response time does not reveal
    whether an account exists (a failure is logged, naming ``what``), else to the outbox, and then
    ``console`` (what to do, the link) is printed on the server's console (there is no mail for a
    person to open)."""
    transport = app_transport()
    log = current_app.logger

    def run() -> None:
        try:
            transport.send(message)
        except SEND_ERRORS as err:
            log.warning("%s not sent: %s", what, type(err).__name__)

    if transport.name == "smtp":
        threading.Thread(target=run, daemon=True).start()
    else:
        run()
        if console is not None:
            announce_link(*console)


def send_reset_email(user: User) -> None:
    """Compose now (in the request), deliver (see :func:`deliver`)."""
    # BASE_URL, not the request's Host header: a forged Host cannot point the link elsewhere.
    link = current_app.config["BASE_URL"].rstrip("/") + url_for("accounts.reset_password", token=make_token(user))
    deliver(compose(user, link, clock.now()), f"password reset email to user {user.id}",
            (f"open this link to choose a new password for {user.email}", link))


def spend_like_send() -> None:
    """For an unknown address: the same token and composition work as a real reset, sent nowhere."""
    stand_in = User(id=0, email="nobody@invalid", password_hash="", session_version=0, display_name="")
    compose(stand_in, current_app.config["BASE_URL"].rstrip("/")
            + url_for("accounts.reset_password", token=make_token(stand_in)), clock.now())
