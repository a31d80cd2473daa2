"""Claiming a page of due reminders: the (user, local day, channel) row that makes each go out
once on each channel.

A page is claimed in a fixed number of statements whatever its size, each fed from arrays
rather than one bound row (or one ``IN`` parameter) per user: on PostgreSQL ``unnest`` over
array parameters (psycopg passes a Python list as one array), on SQLite ``json_each`` over one
JSON text. The first claims of a day are ONE ``INSERT ... SELECT ... ON CONFLICT (user_id,
local_date, channel) DO NOTHING RETURNING``: the unique constraint is the guard, so of two sweeps
racing for a user's channel exactly one gets the row back (PostgreSQL makes the second wait on the first's
uncommitted index entry, SQLite serialises writers). A claim to try again (a retry that is due,
or a 'sending' lease that expired) is a conditional ``UPDATE ... RETURNING``.

A push channel's claim (email, webhook) starts 'sending' under a lease with its first attempt;
a stored channel's (in-app) is 'sent' at once, its notification written in the same transaction.
On PostgreSQL the first claims, their first 'sending' attempts and the in-app notifications
are ONE statement (data-modifying CTEs fed from the claim insert's ``RETURNING``): one round
trip and one set of arrays a page instead of three; a row any of them cannot write fails the
whole statement, as it failed the page's transaction before. SQLite, which has no DML in
CTEs, runs the three statements.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import (Boolean, Date, Integer, String, and_, bindparam, case, cast, column, func, literal, null, or_,
                        select, true, update)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.types import TypeEngine

from ..dbtypes import UTCDateTime
from ..extensions import db
from . import timing
from .channels import pushed
from .channels.in_app import NAME as IN_APP
from .models import Notification, ReminderAttempt, ReminderLog, ReminderStatus
from .sweep_rules import DueUser, notification_text, split_claims


Columns = dict[str, TypeEngine[Any]]

_CLAIM_COLUMNS: Columns = {"user_id": Integer(), "local_date": Date(), "channel": String(), "due_count": Integer(),
                           "pushed": Boolean(), "expires_at": UTCDateTime()}
_NOTE_COLUMNS: Columns = {"user_id": Integer(), "local_date": Date(), "due_count": Integer(), "message": String()}
_ID_COLUMNS: Columns = {"id": Integer()}
_NOTE_ROW_COLUMNS: Columns = {"user_id": Integer(), "message": String()}


def _dialect() -> Any:
    return db.session.get_bind().dialect


def _insert(dialect: str, model: Any) -> Any:
    # The table, not the mapped class: an ORM insert given a parameter dict would be a bulk insert.
    if dialect == "postgresql":
        return postgresql.insert(model.__table__)
    if dialect == "sqlite":
        return sqlite.insert(model.__table__)
    raise NotImplementedError(  # pragma: no cover - the app supports SQLite and PostgreSQL
        f"reminder claims need INSERT ... ON CONFLICT; {dialect} is not supported")


def rows_source(dialect: str, name: str, columns: Columns) -> Any:
    """A FROM clause with one row per position of equal-length lists of values, one list per
    column of ``columns`` (name: type), bound as ONE JSON parameter: ``json_to_recordset`` on
    PostgreSQL (typed by its column list), ``json_each`` on SQLite; :func:`rows_params` gives
    the parameter. (One JSON text, which the C encoder writes, and not one array per column,
    which psycopg writes element by element in Python.) Its ``.c`` has the columns by name, typed."""
    if dialect == "postgresql":
        return (func.json_to_recordset(bindparam(f"{name}_json", type_=postgresql.JSON()))
                .table_valued(*[column(col, type_) for col, type_ in columns.items()])
                .render_derived(name=name, with_types=True))
    each = func.json_each(bindparam(f"{name}_json", type_=String())).table_valued("value").alias(f"{name}_rows")
    # Dates and timestamps are text in SQLite (a CAST would make numbers of them); the rest is cast.
    return select(*[(func.json_extract(each.c.value, f"$[{i}]") if isinstance(type_, (String, Date, UTCDateTime))
                     else cast(func.json_extract(each.c.value, f"$[{i}]"), type_)).label(col)
                    for i, (col, type_) in enumerate(columns.items())]).where(true()).subquery(name)


def rows_params(dialect: Any, name: str, columns: Columns, values: dict[str, list[Any]]) -> dict[str, Any]:
    """The parameter of :func:`rows_source` for ``values`` (column name: list of values)."""
    postgres = dialect.name == "postgresql"
    stored = []  # each column's values as the database reads them from JSON (its type's bind processor)
    for col, type_ in columns.items():
        process = type_.dialect_impl(dialect).bind_processor(dialect)
        if postgres and isinstance(type_, (Date, UTCDateTime)):  # ISO 8601 text, which PostgreSQL reads
            process = _iso if process is None else (lambda v, p=process: _iso(p(v)))
        if process is None:
            stored.append(values[col])
            continue
        seen: dict[Any, Any] = {}  # a page has a few distinct dates and day ends: each processed once
        stored.append([None if v is None else seen[v] if v in seen else seen.setdefault(v, process(v))
                       for v in values[col]])
    if postgres:  # the JSON type's own encoder writes it
        return {f"{name}_json": [dict(zip(columns, row)) for row in zip(*stored)]}
    return {f"{name}_json": json.dumps(list(zip(*stored)))}


def _iso(value: Any) -> Any:
    return None if value is None else value.isoformat()


def _id_in(dialect: str, column: ColumnElement[int]) -> ColumnElement[bool]:
    """``column`` is one of the ids of parameter ``ids`` (:func:`_ids_params`), one parameter."""
    if dialect == "postgresql":
        return column == func.any(cast(bindparam("ids", type_=postgresql.ARRAY(Integer())),
                                       postgresql.ARRAY(Integer())))
    return column.in_(select(rows_source(dialect, "ids", _ID_COLUMNS).c.id))


def _ids_params(dialect: Any, ids: Sequence[int]) -> dict[str, Any]:
    if dialect.name == "postgresql":
        return {"ids": list(ids)}
    return rows_params(dialect, "ids", _ID_COLUMNS, {"id": list(ids)})


def _transport_of(channel: ColumnElement[str]) -> ColumnElement[str]:
    """What carries a claim's first attempt: parameter ``transport_<name>`` of its channel."""
    return case(*[(channel == c.name, bindparam(f"transport_{c.name}", type_=String())) for c in pushed()],
                else_=channel)


def _transport_params(transports: Mapping[str, str]) -> dict[str, str]:
    return {f"transport_{c.name}": transports.get(c.name, c.name) for c in pushed()}


@lru_cache(maxsize=4)
def _fresh_statement(dialect: str) -> Any:
    """First claims of the day: one INSERT ... SELECT ... ON CONFLICT DO NOTHING RETURNING."""
    src = rows_source(dialect, "claims", _CLAIM_COLUMNS)
    push = src.c.pushed.is_(True)
    now = bindparam("now", type_=UTCDateTime())
    chosen = select(
        src.c.user_id, src.c.local_date, src.c.channel,
        case((push, literal(ReminderStatus.sending.value)), else_=literal(ReminderStatus.sent.value)),
        src.c.due_count, case((push, 1), else_=0), now,
        case((push, bindparam("lease", type_=UTCDateTime())), else_=null()),
        null(), src.c.expires_at, case((push, null()), else_=now), null(),
    ).where(true())  # SQLite: a WHERE keeps "ON CONFLICT" from being read as a join's ON
    return (_insert(dialect, ReminderLog)
            .from_select(["user_id", "local_date", "channel", "status", "due_count", "attempts", "claimed_at",
                          "lease_until", "next_attempt_at", "expires_at", "sent_at", "last_error"], chosen)
            .on_conflict_do_nothing(index_elements=["user_id", "local_date", "channel"])
            .returning(ReminderLog.id, ReminderLog.user_id, ReminderLog.channel))


@lru_cache(maxsize=1)
def _fresh_statement_pg() -> Any:
    """PostgreSQL: the first claims of the day, the first attempt of each push claim won and
    the notification of each in-app claim won, in one statement."""
    fresh = _fresh_statement("postgresql")
    claimed = fresh.returning(ReminderLog.status, ReminderLog.attempts, ReminderLog.local_date,
                              ReminderLog.due_count).cte("claimed")
    now = bindparam("now", type_=UTCDateTime())
    attempts = ReminderAttempt.__table__.insert().from_select(
        ["log_id", "number", "started_at", "outcome", "transport"],
        select(claimed.c.id, claimed.c.attempts, now, literal("sending"), _transport_of(claimed.c.channel))
        .where(claimed.c.status == ReminderStatus.sending.value)).cte("attempts")
    notes_src = rows_source("postgresql", "note_rows", _NOTE_ROW_COLUMNS)
    notes = (postgresql.insert(Notification.__table__).from_select(
        ["user_id", "kind", "local_date", "due_count", "message", "created_at", "dismissed_at"],
        select(claimed.c.user_id, literal("daily_review"), claimed.c.local_date, claimed.c.due_count,
               notes_src.c.message, now, null())
        .select_from(claimed.join(notes_src, notes_src.c.user_id == claimed.c.user_id))
        .where(claimed.c.channel == IN_APP))
        .on_conflict_do_nothing(index_elements=["user_id", "local_date", "kind"]).cte("notes"))
    return select(claimed.c.id, claimed.c.user_id, claimed.c.channel).add_cte(attempts, notes)


def _claim_fresh(fresh: Sequence[DueUser], now: datetime, transports: Mapping[str, str],
                 push: frozenset[str]) -> dict[tuple[int, str], int]:
    """First claims of the day; returns {(user id, channel): log id} for those won. On
    PostgreSQL the same statement starts their attempts and writes their notifications."""
    dialect = _dialect()
    params = rows_params(dialect, "claims", _CLAIM_COLUMNS, {
        "user_id": [u.user_id for u in fresh], "local_date": [u.local_date for u in fresh],
        "channel": [u.channel for u in fresh], "due_count": [u.due_count for u in fresh],
        "pushed": [u.channel in push for u in fresh], "expires_at": [u.day_end for u in fresh]})
    params.update(now=now, lease=now + timing.SEND_LEASE)
    if dialect.name != "postgresql":
        return {(user_id, channel): log_id
                for log_id, user_id, channel in db.session.execute(_fresh_statement(dialect.name), params)}
    in_app = [u for u in fresh if u.channel == IN_APP]
    params.update(rows_params(dialect, "note_rows", _NOTE_ROW_COLUMNS, {
        "user_id": [u.user_id for u in in_app], "message": [notification_text(u.due_count) for u in in_app]}))
    params.update(_transport_params(transports))
    return {(user_id, channel): log_id
            for log_id, user_id, channel in db.session.connection().execute(_fresh_statement_pg(), params)}


@lru_cache(maxsize=4)
def _again_statements(dialect: str) -> tuple[Any, Any]:
    """Claims to try again: the conditional UPDATE ... RETURNING, and marking lost attempts."""
    now = bindparam("now", type_=UTCDateTime())
    claim_again = (
        update(ReminderLog.__table__)
        .where(_id_in(dialect, ReminderLog.id),
               or_(and_(ReminderLog.status == ReminderStatus.retry.value, ReminderLog.next_attempt_at <= now),
                   and_(ReminderLog.status == ReminderStatus.sending.value, ReminderLog.lease_until <= now)))
        .values(status=ReminderStatus.sending.value, attempts=ReminderLog.attempts + 1,
                claimed_at=now, lease_until=bindparam("lease", type_=UTCDateTime()), next_attempt_at=None)
        .returning(ReminderLog.id, ReminderLog.attempts)
        .execution_options(synchronize_session=False))
    lost = (update(ReminderAttempt.__table__)
            .where(_id_in(dialect, ReminderAttempt.log_id), ReminderAttempt.outcome == "sending")
            .values(outcome="lost", finished_at=now,
                    error="interrupted: the sending process stopped before recording the result")
            .execution_options(synchronize_session=False))
    return claim_again, lost


def _claim_again(again: Sequence[DueUser], now: datetime) -> dict[int, int]:
    """Claims to try again (a due retry, an expired lease); returns {log id: attempt number}."""
    dialect = _dialect()
    claim_again, lost = _again_statements(dialect.name)
    params = _ids_params(dialect, [u.log_id for u in again if u.log_id is not None])
    attempts = {log_id: int(n) for log_id, n in
                db.session.execute(claim_again, {**params, "now": now, "lease": now + timing.SEND_LEASE})}
    if attempts:
        db.session.execute(lost, {**_ids_params(dialect, list(attempts)), "now": now})
    return attempts


@lru_cache(maxsize=4)
def _attempts_statement(dialect: str) -> Any:
    """The 'sending' attempt of each push claim won: one INSERT ... SELECT from the claim rows."""
    return ReminderAttempt.__table__.insert().from_select(
        ["log_id", "number", "started_at", "outcome", "transport"],
        select(ReminderLog.id, ReminderLog.attempts, bindparam("now", type_=UTCDateTime()), literal("sending"),
               _transport_of(ReminderLog.channel)).where(_id_in(dialect, ReminderLog.id)))


@lru_cache(maxsize=4)
def _notify_statement(dialect: str) -> Any:
    """The in-app notifications of first claims: one INSERT ... SELECT ... ON CONFLICT DO NOTHING."""
    src = rows_source(dialect, "notes", _NOTE_COLUMNS)
    chosen = select(src.c.user_id, literal("daily_review"), src.c.local_date, src.c.due_count, src.c.message,
                    bindparam("now", type_=UTCDateTime()), null()).where(true())
    return (_insert(dialect, Notification)
            .from_select(["user_id", "kind", "local_date", "due_count", "message", "created_at", "dismissed_at"],
                         chosen)
            .on_conflict_do_nothing(index_elements=["user_id", "local_date", "kind"]))


def _notify(users: Sequence[DueUser], now: datetime) -> None:
    dialect = _dialect()
    params = rows_params(dialect, "notes", _NOTE_COLUMNS, {
        "user_id": [u.user_id for u in users], "local_date": [u.local_date for u in users],
        "due_count": [u.due_count for u in users], "message": [notification_text(u.due_count) for u in users]})
    db.session.execute(_notify_statement(dialect.name), {**params, "now": now})


def claim(due: Sequence[DueUser], now: datetime, transports: Mapping[str, str] | None = None) -> list[DueUser]:
    """Claim the reminders in ``due`` for this process; returns those it won, with their log ids
    and attempt numbers. ``transports``: what carries each push channel (as its attempts
    record it; default the channel's name). A fixed number of statements; the caller commits."""
    fresh, again = split_claims(due)
    transports = transports or {}
    push = frozenset(c.name for c in pushed())
    dialect = _dialect()
    won: list[DueUser] = []
    if fresh:
        ids = _claim_fresh(fresh, now, transports, push)
        won += [u.claimed(ids[(u.user_id, u.channel)], 1 if u.channel in push else 0)
                for u in fresh if (u.user_id, u.channel) in ids]
    if again:
        attempts = _claim_again(again, now)
        won += [u.claimed(u.log_id, attempts[u.log_id]) for u in again if u.log_id in attempts]
    # PostgreSQL: the fresh claims' attempts and notifications came with their claim statement.
    started = [u for u in won if dialect.name != "postgresql" or u.log_status is not None]
    senders = [u.log_id for u in started if u.channel in push and u.log_id is not None]
    if senders:
        db.session.execute(_attempts_statement(dialect.name),
                           {**_ids_params(dialect, senders), "now": now, **_transport_params(transports)})
    in_app = [u for u in started if u.channel == IN_APP and u.log_status is None]
    if in_app:
        _notify(in_app, now)
    return won
