"""Limits on guessing passwords and on account mail that an attacker cannot turn into a lock-out.

Counting attempts per account alone lets anyone lock an account: five wrong passwords for an
address, from anywhere, used to refuse its owner's right password for 15 minutes. Here (after
OWASP's guidance on blocking brute force without lock-out, "device cookies"):

* **Log in from a known device.** A successful login leaves a signed device cookie naming the
  account (a digest of its address, never the address) and a random nonce. A login that presents a
  valid one for the address typed is counted only against that device (``LOGIN_LIMIT_CLIENT``):
  failures anywhere else never refuse it, and nobody without the password can get such a cookie.
* **Log in from another client** is counted per client address (``LOGIN_LIMIT_IP``, across
  accounts), per (account, client address) pair (``LOGIN_LIMIT_CLIENT``) and per account over
  all such clients (``LOGIN_LIMIT_ACCOUNT``, much higher). The owner on a new device is refused
  only when an attacker used the whole account-wide budget from many addresses; on a device they
  logged in from before they are not refused at all.
* **Mail an address** (a reset link, a registration link): at most ``RESET_LIMIT_ACCOUNT`` /
  ``REGISTER_LIMIT_ACCOUNT`` mails per window, so nobody can flood an inbox; a request past
  that is accepted and answered like the others, but sends nothing new. It is never refused, so
  an attacker's requests cannot stop the owner's: they can only make the owner's mail arrive
  earlier, and the links sent within the window still work (they live longer than it).

Every count goes through :mod:`prep.accounts.attempts` (atomic, in Redis when configured).
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import datetime

from flask import Response, current_app
from itsdangerous import BadSignature, URLSafeTimedSerializer

from .attempts import forget, give_back, parse_limit, take

DEVICE_SALT = "prep.login-device"
DEVICE_DAYS = 365  # a device not used to log in for this long is a new device again

LIMITS = {  # setting: default
    "LOGIN_LIMIT_IP": "20 per 15 minutes",
    "LOGIN_LIMIT_CLIENT": "5 per 15 minutes",
    "LOGIN_LIMIT_ACCOUNT": "50 per hour",
    "REGISTER_LIMIT_IP": "10 per hour",
    "REGISTER_LIMIT_ACCOUNT": "3 per hour",
    "RESET_LIMIT_IP": "10 per 15 minutes",
    "RESET_LIMIT_ACCOUNT": "3 per 15 minutes",
}


def limit_of(setting: str) -> tuple[int, int]:
    """(count, seconds) of a limit setting (``"5 per 15 minutes"``)."""
    return parse_limit(current_app.config.get(setting, LIMITS[setting]))


def _take(kind: str, key: str, setting: str, now: datetime) -> bool:
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return True
    limit, seconds = limit_of(setting)
    return take(kind, key, limit=limit, seconds=seconds, now=now)


# ---- the device cookie

def device_cookie_name() -> str:
    return "__Host-prep_device" if current_app.config.get("SESSION_COOKIE_SECURE") else "prep_device"


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=DEVICE_SALT)


def _account_digest(account: str) -> str:
    return hashlib.sha256(account.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def known_device(cookie: str | None, account: str) -> str | None:
    """The nonce of a valid device cookie issued to ``account`` (an :func:`account_key`), else None."""
    if not cookie or len(cookie) > 500:
        return None
    try:
        data = _serializer().loads(cookie, max_age=DEVICE_DAYS * 86400)
    except BadSignature:
        return None
    if not isinstance(data, dict) or data.get("a") != _account_digest(account) or not isinstance(data.get("n"), str):
        return None
    return data["n"]


def remember_device(response: Response, account: str) -> None:
    """Give the browser a fresh device cookie for ``account`` (after a successful login)."""
    value = _serializer().dumps({"a": _account_digest(account), "n": secrets.token_urlsafe(12)})
    response.set_cookie(device_cookie_name(), value, max_age=DEVICE_DAYS * 86400, path="/", httponly=True,
                        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")), samesite="Lax")


# ---- log in

def _client(account: str, address: str, device: str | None) -> str:
    return f"{account}|device:{device}" if device else f"{account}|ip:{address}"


def admit_login(account: str, address: str, device: str | None, now: datetime) -> bool:
    """Count a login attempt before the password is checked; True when it may go ahead.
    ``device``: :func:`known_device` for the address typed."""
    if device is not None:  # only this device's own failures count
        return _take("login-client", _client(account, address, device), "LOGIN_LIMIT_CLIENT", now)
    return (_take("login-address", address, "LOGIN_LIMIT_IP", now)
            and _take("login-client", _client(account, address, None), "LOGIN_LIMIT_CLIENT", now)
            and _take("login-account", account, "LOGIN_LIMIT_ACCOUNT", now))


def login_succeeded(account: str, address: str, device: str | None) -> None:
    """After the right password: this client's count starts again; the shared counts get back the
    one attempt (the failures others made stay counted). In the caller's transaction."""
    forget("login-client", _client(account, address, device))
    if device is None:
        give_back("login-address", address)
        give_back("login-account", account)


# ---- register and reset: the client's requests, and the mails to one address

def admit_request(kind: str, address: str, now: datetime) -> bool:
    """Count a registration or reset request (``kind``: ``"register"``, ``"reset"``) from a
    client address; False past ``<KIND>_LIMIT_IP`` (the view answers 429)."""
    return _take(f"{kind}-address", address, f"{kind.upper()}_LIMIT_IP", now)


def may_mail(kind: str, account: str, now: datetime) -> bool:
    """Count a mail to ``account`` for a registration or reset; False past
    ``<KIND>_LIMIT_ACCOUNT``: accept the request, answer it as usual, send nothing new."""
    return _take(f"{kind}-account", account, f"{kind.upper()}_LIMIT_ACCOUNT", now)


def mail_window_minutes(kind: str) -> int:
    """How long, in minutes, a mail to one address holds back further ones once the limit is hit."""
    return max(1, limit_of(f"{kind.upper()}_LIMIT_ACCOUNT")[1] // 60)
