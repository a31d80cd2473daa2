"""Signed one-click unsubscribe tokens and private calendar tokens.

Pure module: the secret key is passed in.
"""
from __future__ import annotations

import secrets

from itsdangerous import BadSignature, URLSafeSerializer

UNSUBSCRIBE_SALT = "prep.reminders.unsubscribe"


def unsubscribe_token(secret_key: str, user_id: int) -> str:
    """A token naming the user, signed with the app's secret: it cannot be made for anyone else."""
    return URLSafeSerializer(secret_key, salt=UNSUBSCRIBE_SALT).dumps({"u": user_id})


def read_unsubscribe_token(secret_key: str, token: str) -> int | None:
    """The user id in a valid token, or None for a forged, altered or malformed one."""
    try:
        data = URLSafeSerializer(secret_key, salt=UNSUBSCRIBE_SALT).loads(token)
    except BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        return None
    return data["u"]


def new_calendar_token() -> str:
    """A fresh random calendar token (the feed URL is its only protection)."""
    return secrets.token_urlsafe(24)
