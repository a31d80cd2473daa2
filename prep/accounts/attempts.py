"""Atomic attempt limits (log in, register, password reset): count first, then act.

A limit that checks and then counts lets concurrent attempts through between the two (twelve
tries passed a limit of five). Here each attempt is counted by one atomic step that returns the
new count, and the attempt goes ahead only when that count is within the limit:

* with ``REDIS_URL`` set, in Redis: one Lua script (``INCR``, and ``EXPIRE`` when the key is new
  or has no expiry), so every worker and host shares the counters and a window ends by itself;
* otherwise, or when Redis does not answer (logged; the limits keep holding, counted in the
  database until Redis is back), in the database: one upsert that returns the new count,
  committed at once (call it first in the request, before anything else is written: the commit
  ends the request's transaction, so no lock is held while argon2 runs).

A window is fixed: it starts at the first attempt and lasts ``seconds``.
"""
from __future__ import annotations

import logging
import unicodedata
from datetime import datetime, timedelta
from typing import Any

import redis
from flask import current_app
from sqlalchemy import case, delete, update
from sqlalchemy.dialects import postgresql, sqlite

from ..extensions import db
from .models import AttemptCounter

log = logging.getLogger(__name__)

REDIS_PREFIX = "prep:attempts:"
REDIS_TIMEOUT = 1.0  # seconds; a Redis that hangs must not hold a login for long
# INCR, and an expiry for a new key (or one left without: never a counter that lives forever).
_TAKE_SCRIPT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
"""
_GIVE_BACK_SCRIPT = """
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then return redis.call('DECR', KEYS[1]) end
return 0
"""


def account_key(email: str | None) -> str:
    """An address as the limit counts it: NFKC, trimmed, case-folded, at most 254 characters."""
    return unicodedata.normalize("NFKC", email or "").strip().casefold()[:254]


def _name(kind: str, key: str) -> str:
    return f"{kind}:{key}"[:300]


def _redis() -> tuple[Any, dict[str, Any]] | None:
    """The app's Redis client and its scripts when ``REDIS_URL`` is set (one per app and URL)."""
    url = current_app.config.get("REDIS_URL")
    if not url:
        return None
    clients = current_app.extensions.setdefault("prep.attempts.redis", {})
    if url not in clients:
        client = redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT)
        clients[url] = (client, {"take": client.register_script(_TAKE_SCRIPT),
                                 "give_back": client.register_script(_GIVE_BACK_SCRIPT)})
    return clients[url]


def _in_redis(action: str, name: str, *args: object) -> Any:
    """Run ``action`` (``take``, ``give_back``, ``forget``) on Redis; None when Redis is not
    configured or does not answer (logged), so the caller uses the database."""
    found = _redis()
    if found is None:
        return None

    client, scripts = found
    try:
        if action == "forget":
            return client.delete(REDIS_PREFIX + name)
        return scripts[action](keys=[REDIS_PREFIX + name], args=list(args))
    except redis.RedisError as err:
        log.warning("attempt limits: Redis did not answer (%s); counting in the database", type(err).__name__)
        return None


def take(kind: str, key: str, *, limit: int, seconds: int, now: datetime) -> bool:
    """Count one attempt at ``kind`` for ``key``; True when it is within ``limit`` per window."""
    name = _name(kind, key)
    counted = _in_redis("take", name, max(1, int(seconds)))
    if counted is not None:
        return int(counted) <= limit
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
    """Uncount one attempt (a success that should not count against a shared address); in the
    database, part of the caller's transaction."""
    name = _name(kind, key)
    if _in_redis("give_back", name) is not None:
        return
    db.session.execute(update(AttemptCounter).where(AttemptCounter.key == name, AttemptCounter.count > 0)
                       .values(count=AttemptCounter.count - 1))


def forget(kind: str, key: str) -> None:
    """Start the count again (after a successful login): in Redis when configured, and in the
    database (counts taken there while Redis was away), part of the caller's transaction."""
    name = _name(kind, key)
    _in_redis("forget", name)
    db.session.execute(delete(AttemptCounter).where(AttemptCounter.key == name))


def parse_limit(text: str) -> tuple[int, int]:
    """``"5 per 15 minutes"`` → (5, 900); the format of the LOGIN_LIMIT_* settings."""
    units = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
    parts = text.split()
    count = int(parts[0])
    amount = int(parts[2]) if len(parts) == 4 else 1
    unit = parts[-1].rstrip("s")
    return count, amount * units[unit]
