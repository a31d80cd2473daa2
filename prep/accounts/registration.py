"""Registration that does not tell whether an address has an account (issue 16 item 7).

Registering answers the same page with the same status for every address. For an address with
no account, the registration waits in ``pending_registrations`` and its owner gets a link; the
account is created (and its owner logged in, on the same first screen as before) when the link
is followed. For an address that has an account, nothing changes and its owner gets a mail
saying they already have one. Until the link is followed there is no account, so logging in
with the password just chosen cannot tell the two cases apart either. Both paths hash the
password and compose one mail, so they take about the same time.

Each registration has its own link and password: whoever registered someone else's address
cannot take it over (the owner's own link creates the account with the owner's password, and
every other pending link for the address dies with it). The link is a random token; only its
SHA-256 is stored. A pending registration expires after ``REGISTER_CONFIRM_MAX_AGE`` seconds
(default a day) and is deleted by a later registration.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from flask import current_app, render_template, url_for
from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from .. import clock
from ..extensions import db
from .models import PendingRegistration, Role, User
from .passwords import hash_password, password_problem
from .reset import _header, deliver
from .errors import InvalidEmail, PasswordRefused
from .service import find_user, normalize_email

DEFAULT_MAX_AGE = 86400  # seconds a link works
MAX_TOKEN_LENGTH = 100


class LinkInvalid(Exception):
    """The link is unknown, forged, or already used (the address has an account now)."""


class LinkExpired(Exception):
    """The link is older than ``REGISTER_CONFIRM_MAX_AGE``."""


@dataclass(frozen=True)
class Started:
    """What a registration did: ``token`` for a new address, or the ``existing`` account."""

    email: str
    token: str | None = None
    existing: User | None = None


def max_age() -> int:
    return max(60, int(current_app.config.get("REGISTER_CONFIRM_MAX_AGE", DEFAULT_MAX_AGE)))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def start(email: str, password: str, *, display_name: str, timezone: str, language: str | None,
          now: datetime) -> Started:
    """Register ``email``: a pending registration and its token for a new address, or the account
    that holds it. Raises :class:`AccountError` for a malformed address or a refused password, the
    same for every address. Adds to the session; the caller commits."""
    email = normalize_email(email)
    if not email or "@" not in email:
        raise InvalidEmail()
    if password_problem(password):
        raise PasswordRefused(password)
    password_hash = hash_password(password)  # on both paths: the same work whether or not the address is known
    db.session.execute(delete(PendingRegistration).where(PendingRegistration.created_at < now - timedelta(
        seconds=max_age())))
    user = find_user(email)
    if user is not None:
        return Started(email, existing=user)
    token = secrets.token_urlsafe(32)
    db.session.add(PendingRegistration(token_hash=_digest(token), email=email, password_hash=password_hash,
                                       display_name=display_name.strip()[:80], timezone=timezone,
                                       language=language, created_at=now))
    db.session.flush()
    return Started(email, token=token)


def pending_for(token: str, now: datetime) -> PendingRegistration:
    """The pending registration a link names; raises :class:`LinkInvalid` or :class:`LinkExpired`."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        raise LinkInvalid()
    pending = db.session.scalar(select(PendingRegistration).where(PendingRegistration.token_hash == _digest(token)))
    if pending is None or find_user(pending.email) is not None:
        raise LinkInvalid()
    if pending.created_at < now - timedelta(seconds=max_age()):
        raise LinkExpired()
    return pending


def confirm(token: str, now: datetime) -> User:
    """Create the account a link names (every other pending registration of the address goes);
    raises :class:`LinkInvalid` or :class:`LinkExpired`. Commits."""
    pending = pending_for(token, now)
    user = User(email=pending.email, password_hash=pending.password_hash, role=Role.candidate,
                display_name=pending.display_name, timezone=pending.timezone, language=pending.language,
                created_at=now)
    try:
        db.session.execute(delete(PendingRegistration).where(PendingRegistration.email == pending.email))
        db.session.add(user)
        db.session.commit()
    except IntegrityError:  # the same link followed twice at once: the other request made the account
        db.session.rollback()
        raise LinkInvalid() from None
    return user


def _message(to: str, name: str, subject: str, body: str, now: datetime) -> EmailMessage:
    message = EmailMessage()
    message["Subject"] = _header(subject)
    message["From"] = _header(current_app.config["MAIL_FROM"])
    name = _header(name)
    message["To"] = Address(display_name=name, addr_spec=_header(to)) if name else _header(to)
    message["Date"] = format_datetime(now)
    message["Message-ID"] = make_msgid(domain="prep.register")
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(body)
    return message


def compose(started: Started, language: str, now: datetime) -> EmailMessage:
    """The mail a registration sends: the link for a new address, "you already have an account"
    for a known one (in the account's language)."""
    base = current_app.config["BASE_URL"].rstrip("/")
    if started.existing is not None:
        user = started.existing
        with force_locale(user.language or language):
            subject = _("You already have a prep account")
            body = render_template("accounts/register_exists_email.txt",
                                   name=_header(user.display_name or "") or user.email.split("@")[0],
                                   login_link=base + url_for("accounts.login"),
                                   forgot_link=base + url_for("accounts.forgot_password"))
        return _message(user.email, user.display_name or "", subject, body, now)
    with force_locale(language):
        subject = _("Finish creating your prep account")
        body = render_template("accounts/register_email.txt", hours=max_age() // 3600 or 1,
                               link=base + url_for("accounts.confirm_registration", token=started.token))
    return _message(started.email, "", subject, body, now)


def send(started: Started, language: str) -> None:
    """Compose now (in the request) and deliver, the same way for both kinds of address."""
    deliver(compose(started, language, clock.now()), "registration email")
