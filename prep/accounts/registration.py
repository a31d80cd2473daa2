"""Registration that does not tell whether an address has an account, and that nobody can take
over by registering someone else's address first.

Registering asks only for the address, and answers the same page with the same status for every
address. For an address with no account, the registration waits in ``pending_registrations`` and
the address gets a link; the page the link opens asks for the password (and a name and the time
zone), and sending it creates the account and logs its owner in on the same first screen as
before. For an address that has an account, nothing changes and its owner gets a mail saying they
already have one. Until the link is followed there is no account, so nothing can log in and tell
the two cases apart either.

Why the password is chosen at the link (as OWASP's guidance and most large services do) rather
than at registration: a password given before the address is proven belongs to whoever typed it.
When it was stored with the pending registration, an attacker could register the victim's address
with the attacker's password, and the victim, registering too, could follow the attacker's mail
(the two mails were identical) and create the account with the attacker's password. Now a
registration carries no secret: every link for an address is as good as another, and the account
gets the password of the person who read the mail. The link is a random token; only its SHA-256
is stored. A pending registration expires after ``REGISTER_CONFIRM_MAX_AGE`` seconds (default a
day) and is deleted by a later registration; creating the account deletes every pending one for
the address.
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
from ..mail import set_readable_text
from .models import PendingRegistration, Role, User
from .errors import InvalidEmail, PasswordRefused
from .passwords import hash_password, password_problem
from .reset import _header, deliver
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


def start(email: str, *, language: str | None, now: datetime) -> Started:
    """Register ``email``: a pending registration and its token for a new address, or the account
    that holds it. Raises :class:`InvalidEmail` for a malformed address, the same for every
    address. Adds to the session; the caller commits."""
    email = normalize_email(email)
    if not email or "@" not in email:
        raise InvalidEmail()
    db.session.execute(delete(PendingRegistration).where(PendingRegistration.created_at < now - timedelta(
        seconds=max_age())))
    user = find_user(email)
    if user is not None:
        return Started(email, existing=user)
    token = secrets.token_urlsafe(32)
    db.session.add(PendingRegistration(token_hash=_digest(token), email=email, language=language, created_at=now))
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


def confirm(token: str, password: str, *, display_name: str, timezone: str, language: str | None,
            now: datetime) -> User:
    """Create the account a link names, with the password chosen on the link's page (every other
    pending registration of the address goes); raises :class:`LinkInvalid`, :class:`LinkExpired`
    or :class:`PasswordRefused`. ``language`` (the page's footer choice) wins over the one
    registered. Commits."""
    pending = pending_for(token, now)
    if password_problem(password):
        raise PasswordRefused(password)
    user = User(email=pending.email, password_hash=hash_password(password), role=Role.candidate,
                display_name=display_name.strip()[:80], timezone=timezone, language=language or pending.language,
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
    set_readable_text(message, body)
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


def console_line(started: Started) -> tuple[str, str]:
    """What the server's console says of a registration when no mail server is set (what to do,
    the link): only the person running the server reads it."""
    base = current_app.config["BASE_URL"].rstrip("/")
    if started.existing is not None:
        return f"{started.email} already has an account (the mail says so); open this link to log in", \
            base + url_for("accounts.login")
    return f"open this link to confirm {started.email}", \
        base + url_for("accounts.confirm_registration", token=started.token)


def send(started: Started, language: str) -> None:
    """Compose now (in the request) and deliver, the same way for both kinds of address."""
    deliver(compose(started, language, clock.now()), "registration email", console_line(started))
