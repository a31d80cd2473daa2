"""The accounts feature's errors.

Each says what went wrong twice: in English as ``str(error)`` (the CLI, logs) and in the UI
language as ``error.message`` (a lazy translation, for a form). Views show ``message``; nothing
translates or branches on the English text.
"""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from .passwords import MAX_LENGTH, MIN_LENGTH, password_problem


class AccountError(ValueError):
    """A user-facing account problem (malformed address, refused password, duplicate email)."""

    def __init__(self, english: str, message: Any = None) -> None:
        super().__init__(english)
        self.message = message if message is not None else english


class InvalidEmail(AccountError):
    """The address is empty or has no "@"."""

    def __init__(self) -> None:
        super().__init__("Enter a valid email address.", _l("Enter a valid email address."))


class PasswordRefused(AccountError):
    """The password policy refuses the password (too short, too long, too common)."""

    def __init__(self, password: str) -> None:
        super().__init__(password_problem(password) or "", password_refusal(password))


class EmailTaken(AccountError):
    """An account already holds the address (the CLI's ``create-user``)."""

    def __init__(self) -> None:
        super().__init__("An account with this email already exists.")


def password_refusal(password: str) -> Any:
    """The policy's reason for refusing ``password`` (prep.accounts.passwords) as a lazy
    translation, or None when it is accepted."""
    if password_problem(password) is None:
        return None
    if len(password) < MIN_LENGTH:
        return _l("Use at least %(n)d characters (15 or more is better).", n=MIN_LENGTH)
    if len(password) > MAX_LENGTH:
        return _l("Use at most %(n)d characters.", n=MAX_LENGTH)
    return _l("This password is one of the most commonly used ones; choose another.")
