"""Atomic attempt limits (log in, register): count first, then act.

A limit that checks and then counts lets concurrent attempts through between the two (twelve
tries passed a limit of five). Here each attempt is counted by one statement, an upsert that
returns the new count, committed at once (call it first in the request, before anything else is
written: the commit ends the request's transaction, so no lock is held while argon2 runs); the
attempt goes ahead only when that count is within the limit. Counters live in the database, so every worker and every host
sees the same ones. A window is fixed: it starts at the first attempt and lasts ``seconds``.
"""
from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta

from sqlalchemy import case, delete, update
from sqlalchemy.dialects import postgresql, sqlite

from ..extensions import db
from .models import AttemptCounter


def account_key(email: str | None) -> str:
    """An address as the limit counts it: NFKC, trimmed, case-folded, at most 254 characters."""
    return unicodedata.normalize("NFKC", email or "").strip().casefold()[:254]


def take(kind: str, key: str, *, limit: int, seconds: int, now: datetime) -> bool:
    """Count one attempt at ``kind`` for ``key``; True when it is within ``limit`` per window."""
    name = f"{kind}:{key}"[:300]
    cutoff = now - timedelta(seconds=seconds)
    engine = db.engine
    insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
    table = AttemptCounter.__table__
    expired = table.c.window_start <= cutoff
    stmt = insert(table).values(key=name, window_start=now, count=1)
    stmt = stmt.on_conflict_do_update(
        index_elements=[table.c.key],
        set_={"count": case((expired, 1), else_=table.c.count + 1),
              "window_start": case((expired, now), else_=table.c.window_start)},
    ).returning(table.c.count)
    count = db.session.execute(stmt).scalar_one()
    db.session.commit()
    return count <= limit


def give_back(kind: str, key: str) -> None:
    """Uncount one attempt (a success that should not count against a shared address); part of
    the caller's transaction."""
    name = f"{kind}:{key}"[:300]
    db.session.execute(update(AttemptCounter).where(AttemptCounter.key == name, AttemptCounter.count > 0)
                       .values(count=AttemptCounter.count - 1))


def forget(kind: str, key: str) -> None:
    """Start the count again (after a successful login); part of the caller's transaction."""
    db.session.execute(delete(AttemptCounter).where(AttemptCounter.key == f"{kind}:{key}"[:300]))


def parse_limit(text: str) -> tuple[int, int]:
    """``"5 per 15 minutes"`` → (5, 900); the format of the LOGIN_LIMIT_* settings."""
    units = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
    parts = text.split()
    count = int(parts[0])
    amount = int(parts[2]) if len(parts) == 4 else 1
    unit = parts[-1].rstrip("s")
    return count, amount * units[unit]
