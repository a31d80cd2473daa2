"""Claiming a page of due reminders: the (user, local day) row that makes each go out once.

A page is claimed in a fixed number of statements whatever its size, each fed from arrays
rather than one bound row (or one ``IN`` parameter) per user: on PostgreSQL ``unnest`` over
array parameters (psycopg passes a Python list as one array), on SQLite ``json_each`` over one
JSON text. The first claim of a day is ONE ``INSERT ... SELECT ... ON CONFLICT (user_id,
local_date) DO NOTHING RETURNING``: the unique constraint is the guard, so of two sweeps racing
for a user exactly one gets the row back (PostgreSQL makes the second wait on the first's
uncommitted index entry, SQLite serialises writers). A claim to try again (a retry that is due,
or a 'sending' lease that expired) is a conditional ``UPDATE ... RETURNING``.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import (Boolean, Date, Integer, String, and_, bindparam, case, cast, func, literal, null, or_, select,
                        true, update)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.types import TypeEngine

from ..dbtypes import UTCDateTime
from ..extensions import db
from . import timing
from .models import Notification, ReminderAttempt, ReminderLog, ReminderStatus
from .sweep_rules import DueUser, notification_text, split_claims


def _dialect() -> Any:
    return db.session.get_bind().dialect


def _insert(model: Any) -> Any:
    dialect = _dialect().name
    if dialect == "postgresql":
        return postgresql.insert(model)
    if dialect == "sqlite":
        return sqlite.insert(model)
    raise NotImplementedError(  # pragma: no cover - the app supports SQLite and PostgreSQL
        f"reminder claims need INSERT ... ON CONFLICT; {dialect} is not supported")


def rows_source(name: str, columns: dict[str, tuple[TypeEngine[Any], list[Any]]]) -> Any:
    """A FROM clause with one row per position of the equal-length ``columns`` lists: each
    column a (type, values) pair, bound as ONE parameter (an array each on PostgreSQL, one JSON
    text on SQLite). The returned object's ``.c`` has the columns by name, typed."""
    dialect = _dialect()
    names = list(columns)
    if dialect.name == "postgresql":
        arrays = [cast(bindparam(f"{name}_{col}", values, type_=postgresql.ARRAY(type_)), postgresql.ARRAY(type_))
                  for col, (type_, values) in columns.items()]
        return func.unnest(*arrays).table_valued(*names).render_derived(name=name)
    # SQLite: one JSON array of rows, each value as the column's type stores it.
    processors = [type_.dialect_impl(dialect).bind_processor(dialect) for type_, _ in columns.values()]
    rows = [[(p(v) if p is not None and v is not None else v) for p, v in zip(processors, values, strict=True)]
            for values in zip(*(values for _, values in columns.values()), strict=True)]
    each = func.json_each(bindparam(f"{name}_json", json.dumps(rows), type_=String())).table_valued("value")
    each = each.alias(f"{name}_rows")
    return select(*[cast(func.json_extract(each.c.value, f"$[{i}]"), type_).label(col) if not _is_text_like(type_)
                    else func.json_extract(each.c.value, f"$[{i}]").label(col)
                    for i, (col, (type_, _)) in enumerate(columns.items())]).where(true()).subquery(name)


def _is_text_like(type_: TypeEngine[Any]) -> bool:
    # Dates and timestamps are stored by SQLite as text: a CAST would turn them into numbers.
    return isinstance(type_, (String, Date, UTCDateTime))


def id_in(column: ColumnElement[int], ids: Sequence[int]) -> ColumnElement[bool]:
    """``column`` is one of ``ids``, bound as one parameter (not one per id)."""
    if _dialect().name == "postgresql":
        return column == func.any(cast(bindparam("ids", list(ids), type_=postgresql.ARRAY(Integer())),
                                       postgresql.ARRAY(Integer())))
    source = rows_source("ids", {"id": (Integer(), list(ids))})
    return column.in_(select(source.c.id))


def _claim_fresh(fresh: Sequence[DueUser], now: datetime) -> dict[int, int]:
    """First claims of the day: one INSERT ... SELECT; returns {user id: log id} for those won."""
    src = rows_source("claims", {
        "user_id": (Integer(), [u.user_id for u in fresh]),
        "local_date": (Date(), [u.local_date for u in fresh]),
        "channels": (String(), [",".join(u.channels) for u in fresh]),
        "due_count": (Integer(), [u.due_count for u in fresh]),
        "by_email": (Boolean(), [bool(u.email_channel) for u in fresh]),
        "expires_at": (UTCDateTime(), [u.day_end for u in fresh]),
    })
    by_email = src.c.by_email.is_(True)
    at_now = literal(now, UTCDateTime())
    chosen = select(
        src.c.user_id, src.c.local_date, src.c.channels,
        case((by_email, literal(ReminderStatus.sending.value)), else_=literal(ReminderStatus.sent.value)),
        src.c.due_count, case((by_email, 1), else_=0), at_now,
        case((by_email, literal(now + timing.SEND_LEASE, UTCDateTime())), else_=null()),
        null(), src.c.expires_at, case((by_email, null()), else_=at_now), null(),
    ).where(true())  # SQLite: a WHERE keeps "ON CONFLICT" from being read as a join's ON
    stmt = (_insert(ReminderLog)
            .from_select(["user_id", "local_date", "channels", "status", "due_count", "attempts", "claimed_at",
                          "lease_until", "next_attempt_at", "expires_at", "sent_at", "last_error"], chosen)
            .on_conflict_do_nothing(index_elements=["user_id", "local_date"])
            .returning(ReminderLog.id, ReminderLog.user_id))
    return {user_id: log_id for log_id, user_id in db.session.execute(stmt)}


def _claim_again(again: Sequence[DueUser], now: datetime) -> dict[int, int]:
    """Claims to try again (a due retry, an expired lease); returns {log id: attempt number}."""
    stmt = (update(ReminderLog)
            .where(id_in(ReminderLog.id, [u.log_id for u in again if u.log_id is not None]),
                   or_(and_(ReminderLog.status == ReminderStatus.retry.value, ReminderLog.next_attempt_at <= now),
                       and_(ReminderLog.status == ReminderStatus.sending.value, ReminderLog.lease_until <= now)))
            .values(status=ReminderStatus.sending.value, attempts=ReminderLog.attempts + 1,
                    claimed_at=now, lease_until=now + timing.SEND_LEASE, next_attempt_at=None)
            .returning(ReminderLog.id, ReminderLog.attempts)
            .execution_options(synchronize_session=False))
    attempts = {log_id: int(n) for log_id, n in db.session.execute(stmt)}
    if attempts:
        db.session.execute(
            update(ReminderAttempt)
            .where(id_in(ReminderAttempt.log_id, list(attempts)), ReminderAttempt.outcome == "sending")
            .values(outcome="lost", finished_at=now, error="interrupted: the sending process stopped "
                                                         "before recording the result")
            .execution_options(synchronize_session=False))
    return attempts


def _notify(users: Sequence[DueUser], now: datetime) -> None:
    """The in-app notifications of first claims: one INSERT ... SELECT ... ON CONFLICT DO NOTHING."""
    src = rows_source("notes", {
        "user_id": (Integer(), [u.user_id for u in users]),
        "local_date": (Date(), [u.local_date for u in users]),
        "due_count": (Integer(), [u.due_count for u in users]),
        "message": (String(), [notification_text(u.due_count) for u in users]),
    })
    chosen = select(src.c.user_id, literal("daily_review"), src.c.local_date, src.c.due_count, src.c.message,
                    literal(now, UTCDateTime()), null()).where(true())
    db.session.execute(
        _insert(Notification)
        .from_select(["user_id", "kind", "local_date", "due_count", "message", "created_at", "dismissed_at"], chosen)
        .on_conflict_do_nothing(index_elements=["user_id", "local_date", "kind"]))


def claim(due: Sequence[DueUser], now: datetime, transport_name: str = "") -> list[DueUser]:
    """Claim the reminders in ``due`` for this process; returns those it won, with their log ids
    and attempt numbers. A fixed number of statements; the caller commits."""
    fresh, again = split_claims(due)
    won: list[DueUser] = []
    if fresh:
        ids = _claim_fresh(fresh, now)
        won += [replace(u, log_id=ids[u.user_id], attempts=1 if u.email_channel else 0)
                for u in fresh if u.user_id in ids]
    if again:
        attempts = _claim_again(again, now)
        won += [replace(u, attempts=attempts[u.log_id]) for u in again if u.log_id in attempts]
    senders = [u.log_id for u in won if u.email_channel and u.log_id is not None]
    if senders:  # set-based: one INSERT ... SELECT from the claim rows just written
        db.session.execute(ReminderAttempt.__table__.insert().from_select(
            ["log_id", "number", "started_at", "outcome", "transport"],
            select(ReminderLog.id, ReminderLog.attempts, literal(now, UTCDateTime()), literal("sending"),
                   literal(transport_name)).where(id_in(ReminderLog.id, senders))))
    in_app = [u for u in won if u.in_app_channel and u.log_status is None]
    if in_app:
        _notify(in_app, now)
    return won
