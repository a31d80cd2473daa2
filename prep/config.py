"""Application configuration read from ``PREP_*`` environment variables.

Each setting has an explicit parser; nothing is guessed from the shape of a value.
A bad value raises :class:`ConfigError` naming the variable, before the app starts.
"""
from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent


class ConfigError(ValueError):
    """A configuration value is missing or malformed."""


def _parse_bool(name: str, raw: str) -> bool:
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off", ""}:
        return False
    raise ConfigError(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def _parse_int(name: str, raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, got {raw!r}") from None


def _parse_positive_int(name: str, raw: str) -> int:
    value = _parse_int(name, raw)
    if value < 1:
        raise ConfigError(f"{name} must be at least 1, got {raw!r}")
    return value


def _parse_str(name: str, raw: str) -> str:
    if not raw.strip():
        raise ConfigError(f"{name} must not be empty")
    return raw.strip()


def _parse_score(name: str, raw: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number from 0 to 1, got {raw!r}") from None
    if not 0.0 <= value <= 1.0:
        raise ConfigError(f"{name} must be a number from 0 to 1, got {raw!r}")
    return value


# env var suffix -> (Flask config key, parser)
_SETTINGS: dict[str, tuple[str, Callable[[str, str], Any]]] = {
    "DATABASE_URL": ("SQLALCHEMY_DATABASE_URI", _parse_str),
    "SECRET_KEY": ("SECRET_KEY", _parse_str),
    "CONTENT_DIR": ("CONTENT_DIR", _parse_str),
    "SMTP_URL": ("SMTP_URL", _parse_str),
    "MAIL_FROM": ("MAIL_FROM", _parse_str),
    "BASE_URL": ("BASE_URL", _parse_str),
    "REDIS_URL": ("REDIS_URL", _parse_str),
    "REMINDER_QUEUE": ("REMINDER_QUEUE", _parse_str),
    "WEBHOOK_ALLOW_PRIVATE": ("WEBHOOK_ALLOW_PRIVATE", _parse_bool),
    "PLAN_RUNNER": ("PLAN_RUNNER", _parse_str),
    "PLAN_QUEUE": ("PLAN_QUEUE", _parse_str),
    "BEHIND_HTTPS": ("BEHIND_HTTPS", _parse_bool),
    "SCHEDULER": ("SCHEDULER_ENABLED", _parse_bool),
    "SQLITE_BUSY_TIMEOUT_MS": ("SQLITE_BUSY_TIMEOUT_MS", _parse_int),
    "MAX_CONTENT_LENGTH": ("MAX_CONTENT_LENGTH", _parse_int),
    "SESSION_IDLE_MINUTES": ("SESSION_IDLE_MINUTES", _parse_int),
    "SESSION_MAX_DAYS": ("SESSION_MAX_DAYS", _parse_int),
    "OPTIMIZE_MAX_HISTORY_PER_CARD": ("OPTIMIZE_MAX_HISTORY_PER_CARD", _parse_positive_int),
    "LINK_MIN_SCORE": ("LINK_MIN_SCORE", _parse_score),
}


def defaults(instance_path: Path) -> dict[str, Any]:
    """Built-in defaults, before the environment and explicit overrides."""
    return {
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance_path / 'prep.sqlite3'}",
        "CONTENT_DIR": str(REPO_ROOT / "content"),
        "SMTP_URL": None,
        "MAIL_FROM": "prep <prep@localhost>",
        "BASE_URL": "http://127.0.0.1:5000",
        "REDIS_URL": None,
        "REMINDER_QUEUE": "prep-reminders",
        # Reminder webhooks may go to http:// and private-network addresses (an intranet bot).
        "WEBHOOK_ALLOW_PRIVATE": False,
        # Where interview plans are made: "thread" (a background thread), "rq" (PREP_REDIS_URL's
        # queue, run by `prep worker`), "inline" (after the commit, tests); None: rq with Redis.
        "PLAN_RUNNER": None,
        "PLAN_QUEUE": "prep-plans",
        "BEHIND_HTTPS": False,
        "SCHEDULER_ENABLED": True,
        "SQLITE_BUSY_TIMEOUT_MS": 15000,
        "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
        "SESSION_IDLE_MINUTES": 120,
        "SESSION_MAX_DAYS": 14,
        # The optimiser fits on each card's most recent reviews only (prep.optimize.fit).
        "OPTIMIZE_MAX_HISTORY_PER_CARD": 1000,
        # An automatic link scoring under this is a "suggested explanation", not the answer, and
        # its question stays in the instructors' unanswered queue (prep.questions.models).
        "LINK_MIN_SCORE": 0.65,
        # Form fields of most pages (Flask's default is 500 KB); the posting pages, which take a
        # whole document, set their own (prep.postings.routes).
        "MAX_FORM_MEMORY_SIZE": 1_100_000,
        # The review checklist posts up to ten fields per row (wording, kind, round, section, match,
        # where it was found …), up to 200 questions and the rows added to them.
        "MAX_FORM_PARTS": 2500,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "WTF_CSRF_TIME_LIMIT": None,
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
    }


def from_environ(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The settings present in the environment, parsed."""
    environ = os.environ if environ is None else environ
    out: dict[str, Any] = {}
    for suffix, (key, parser) in _SETTINGS.items():
        name = f"PREP_{suffix}"
        if name in environ:
            out[key] = parser(name, environ[name])
    return out


def load_or_create_secret_key(instance_path: Path) -> str:
    """Read the instance's secret key, creating it (mode 0600) on first use."""
    path = instance_path / "secret_key"
    if path.exists():
        key = path.read_text(encoding="utf-8").strip()
        if key:
            return key
    instance_path.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(key + "\n")
    return key
