"""The reminder sweep: find the users due a reminder, claim each (user, local day) once, send.

One sweep reminds every due user, a page at a time. Finding is one query for the distinct
(time zone, day start) pairs, then one query per page: the next :data:`BATCH_SIZE` candidates
by user id (keyset pagination) joined to their settings and today's claim, with card counts
and today's review counts computed for those users only (by index), the per-zone local date
and time of day passed in as ``CASE`` parameters computed in Python (see :mod:`.timing`).
So a page costs the same whatever the number of users, and a sweep is linear in them.
Claiming a page is a fixed number of statements too (an executemany ``INSERT ... ON CONFLICT
DO NOTHING RETURNING`` under the unique (user_id, local_date) constraint, and a conditional
``UPDATE ... RETURNING`` for retries); sent emails are recorded in groups (two statements).

Exactly once: a claim row is committed before any email is sent; a second sweep (another
process, or the same one later) finds the day claimed. After the SMTP server accepts the
message, the row is marked 'sent' in the transaction that follows at once. A failed send is
retried with back-off and marked 'failed' after :data:`timing.MAX_ATTEMPTS`; a 'sending' row
whose lease expired (the process died mid-send) is retried. Each attempt is a row in
``reminder_attempts``. The Message-ID is the same for every attempt of one reminder, so a
receiving server can drop a copy if a process died after the SMTP server accepted it but
before 'sent' was written (the one window no database can close).

Functions here never call Flask; the caller supplies the transport and the message composer.
"""
from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from email.message import EmailMessage
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import Date, String, and_, case, func, literal, or_, select, update
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.sql.elements import ColumnElement

from ..accounts.models import User
from ..drill import queue
from ..drill.models import Card, CardState, ReviewLog
from ..extensions import db
from ..dbtypes import UTCDateTime
from ..questions.models import Question
from . import timing
from .models import (DEFAULT_EMAIL, DEFAULT_ENABLED, DEFAULT_IN_APP, DEFAULT_MINUTE, Notification,
                     ReminderAttempt, ReminderLog, ReminderSettings, ReminderStatus)
from .transport import SEND_ERRORS, Transport

log = logging.getLogger(__name__)

BATCH_SIZE = 500
TOP_QUESTIONS = 3
STREAK_LOOKBACK = timedelta(days=400)


@dataclass(frozen=True)
class DueUser:
    """A user whose reminder is due now, with what they have to study."""

    user_id: int
    email: str
    display_name: str
    timezone: str
    remind_minute: int
    local_date: date
    day_end: datetime          # next local midnight (UTC): retries stop there
    email_channel: bool
    in_app_channel: bool
    learning: int
    reviews: int
    new: int
    log_id: int | None = None  # an existing claim to retry
    log_status: str | None = None
    attempts: int = 0
    language: str | None = None  # the user's UI language, when set

    @property
    def due_count(self) -> int:
        return self.learning + self.reviews + self.new

    @property
    def channels(self) -> tuple[str, ...]:
        return tuple(name for name, on in (("email", self.email_channel), ("in_app", self.in_app_channel)) if on)


@dataclass(frozen=True)
class ReminderEmail:
    """What a reminder email says; :func:`run_sweep`'s ``compose`` turns it into a message."""

    user: DueUser
    top_questions: tuple[str, ...]
    streak: int
    message_id: str


@dataclass
class SweepReport:
    now: datetime
    dry_run: bool = False
    due: list[DueUser] = field(default_factory=list)
    claimed: list[DueUser] = field(default_factory=list)
    sent: list[DueUser] = field(default_factory=list)
    in_app_only: list[DueUser] = field(default_factory=list)
    retrying: list[tuple[DueUser, str]] = field(default_factory=list)
    failed: list[tuple[DueUser, str]] = field(default_factory=list)
    #: Users skipped because their own data could not be turned into a reminder (logged; the
    #: rest of the sweep goes on). ``SKIPPED_USERS`` counts them for the process.
    skipped: list[tuple[DueUser, str]] = field(default_factory=list)
    #: Users whose rows made finding or claiming their reminder fail (user id, error): left
    #: out of this sweep (logged, counted in ``SKIPPED_USERS``); the next sweep tries again.
    unreadable: list[tuple[int, str]] = field(default_factory=list)
    expired: int = 0

    def lines(self) -> list[str]:
        """Human-readable lines for the CLI."""
        out: list[str] = []
        verb = "would remind" if self.dry_run else "reminded"
        users = self.due if self.dry_run else self.sent + self.in_app_only
        for u in users:
            out.append(f"{verb} {u.email} ({u.timezone}, {timing.format_minute(u.remind_minute)} local, "
                       f"{u.local_date.isoformat()}): {u.due_count} due "
                       f"[{u.learning} learning, {u.reviews} review, {u.new} new] via {', '.join(u.channels)}"
                       + _attempt_note(u, self.dry_run))
        for u, error in self.retrying:
            out.append(f"send to {u.email} failed, will retry: {error}")
        for u, error in self.failed:
            out.append(f"send to {u.email} failed for good: {error}")
        for u, error in self.skipped:
            out.append(f"skipped {u.email}: their data could not be used ({error}); see the log")
        for user_id, error in self.unreadable:
            out.append(f"skipped user {user_id}: their reminder could not be found or claimed ({error}); see the log")
        if self.expired:
            out.append(f"{self.expired} unsent reminder(s) from an ended day marked failed")
        if self.dry_run:
            out.append(f"dry run at {self.now.isoformat()}: {len(self.due)} reminder(s) due, nothing sent")
        else:
            out.append(f"sweep at {self.now.isoformat()}: {len(self.sent)} email(s) sent, "
                       f"{len(self.in_app_only)} in-app only, {len(self.retrying)} to retry, "
                       f"{len(self.failed)} failed")
        return out


def _attempt_note(u: DueUser, dry_run: bool) -> str:
    if dry_run:
        return f" (retry, attempt {u.attempts + 1})" if u.log_id else ""
    return f" (attempt {u.attempts})" if u.attempts > 1 else ""


# --- finding ---------------------------------------------------------------------------------

def _least(a: Any, b: Any) -> ColumnElement[int]:
    return case((a < b, a), else_=b)


def _positive(a: Any) -> ColumnElement[int]:
    return case((a > 0, a), else_=0)


def _settings_columns() -> dict[str, ColumnElement[Any]]:
    return {
        "enabled": func.coalesce(ReminderSettings.enabled, literal(DEFAULT_ENABLED)),
        "email": func.coalesce(ReminderSettings.email, literal(DEFAULT_EMAIL)),
        "in_app": func.coalesce(ReminderSettings.in_app, literal(DEFAULT_IN_APP)),
        "minute": func.coalesce(ReminderSettings.remind_minute, DEFAULT_MINUTE),
    }


def _wanted(s: dict[str, ColumnElement[Any]]) -> ColumnElement[bool]:
    return and_(s["enabled"].is_(True), or_(s["email"].is_(True), s["in_app"].is_(True)))


def _zone_pairs() -> list[tuple[str, int]]:
    """Query 1: the distinct (time zone, day start hour) pairs of users who want reminders."""
    s = _settings_columns()
    rows = db.session.execute(
        select(User.timezone, User.day_start_hour).distinct()
        .outerjoin(ReminderSettings, ReminderSettings.user_id == User.id)
        .where(_wanted(s))
    ).all()
    return [(str(z), int(h)) for z, h in rows]


def _language_column() -> ColumnElement[Any]:
    column = getattr(User, "language", None)
    return column if column is not None else literal(None, String(8))


def _valid_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
        return True
    except (ZoneInfoNotFoundError, ValueError):
        return False


@dataclass(frozen=True)
class ZoneClocks:
    """The local clocks at ``now`` of every (time zone, day start) pair with reminders wanted:
    computed once per sweep (query 1), used by every page."""

    now: datetime
    pairs: tuple[tuple[str, int], ...]
    zones: tuple[str, ...]
    clocks: dict[str, timing.ZoneClock]
    days: dict[tuple[str, int], queue.StudyDay]


def zone_clocks(now: datetime) -> ZoneClocks | None:
    """Query 1 of a sweep; None when nobody wants reminders."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    pairs = tuple((z, h) for z, h in _zone_pairs() if _valid_zone(z))
    if not pairs:
        return None
    zones = tuple(sorted({z for z, _ in pairs}))
    return ZoneClocks(now=now, pairs=pairs, zones=zones, clocks={z: timing.zone_clock(now, z) for z in zones},
                      days={(z, h): queue.study_day(now, z, h) for z, h in pairs})


@dataclass(frozen=True)
class DuePage:
    """One page of candidates: the due users among them, and where the next page starts."""

    due: list[DueUser]
    last_id: int | None  # the last candidate's user id; None when this was the last page

    @property
    def more(self) -> bool:
        return self.last_id is not None


def find_due_page(zc: ZoneClocks, *, after_id: int = 0, batch_size: int = BATCH_SIZE,
                  user_id: int | None = None) -> DuePage:
    """One query: the next ``batch_size`` candidates by user id after ``after_id`` (keyset
    pagination on the primary key), each with its card and today's review counts, computed for
    those users only (index ``ix_cards_user_due`` and ``ix_review_logs_user_time``). A candidate
    wants a reminder, has reached its time today and has no claim today (or a claim to retry);
    those with nothing to study are skipped in Python, after the page."""
    now, zones, clocks, days = zc.now, zc.zones, zc.clocks, zc.days

    def by_zone(value: Callable[[timing.ZoneClock], Any], type_: Any) -> ColumnElement[Any]:
        return case(*[(User.timezone == z, literal(value(clocks[z]), type_)) for z in zones])

    def by_pair(value: Callable[[queue.StudyDay], datetime]) -> ColumnElement[datetime]:
        return case(*[(and_(User.timezone == z, User.day_start_hour == h), literal(value(days[(z, h)]), UTCDateTime()))
                      for z, h in zc.pairs])

    local_date = by_zone(lambda c: c.local_date, Date())
    minute_now = by_zone(lambda c: c.minute_of_day, db.Integer())
    study_start = by_pair(lambda d: d.start)
    study_end = by_pair(lambda d: d.end)
    s = _settings_columns()
    claimable = or_(
        ReminderLog.id.is_(None),
        and_(ReminderLog.status == ReminderStatus.retry.value, ReminderLog.next_attempt_at <= now),
        and_(ReminderLog.status == ReminderStatus.sending.value, ReminderLog.lease_until <= now),
    )
    candidates = (
        select(User.id.label("user_id"), User.email, User.display_name, User.timezone,
               User.reviews_per_day, User.new_per_day, s["minute"].label("minute"), s["email"].label("email_on"),
               s["in_app"].label("in_app_on"), ReminderLog.id.label("log_id"), ReminderLog.status.label("log_status"),
               ReminderLog.attempts.label("attempts"), _language_column().label("language"))
        .outerjoin(ReminderSettings, ReminderSettings.user_id == User.id)
        .outerjoin(ReminderLog, and_(ReminderLog.user_id == User.id, ReminderLog.local_date == local_date))
        .where(User.id > after_id, _wanted(s), User.timezone.in_(zones), minute_now >= s["minute"], claimable,
               *([User.id == user_id] if user_id is not None else []))
        .order_by(User.id)
        .limit(batch_size)
        .cte("candidates")
    )
    candidate_ids = select(candidates.c.user_id)
    active = and_(Card.suspended.is_(False), or_(Card.buried_until.is_(None), Card.buried_until <= now))
    learning_states = Card.state.in_([CardState.learning, CardState.relearning])
    card_counts = (
        select(Card.user_id.label("user_id"),
               func.sum(case((and_(active, learning_states, Card.due <= now), 1), else_=0)).label("learning"),
               func.sum(case((and_(active, Card.state == CardState.review, Card.due < study_end), 1),
                             else_=0)).label("reviews"),
               func.sum(case((and_(active, Card.state == CardState.new), 1), else_=0)).label("new"))
        .join(User, User.id == Card.user_id)
        .where(Card.user_id.in_(candidate_ids))
        .group_by(Card.user_id)
        .subquery("card_counts")
    )
    done = (
        select(ReviewLog.user_id.label("user_id"),
               func.sum(case((ReviewLog.state_before == CardState.new.value, 1), else_=0)).label("new_done"),
               func.sum(case((ReviewLog.state_before == CardState.review.value, 1), else_=0)).label("reviews_done"))
        .join(User, User.id == ReviewLog.user_id)
        .where(ReviewLog.user_id.in_(candidate_ids), ReviewLog.kind == "review",
               ReviewLog.reviewed_at >= study_start, ReviewLog.reviewed_at < study_end)
        .group_by(ReviewLog.user_id)
        .subquery("done_today")
    )
    c = candidates.c
    learning = func.coalesce(card_counts.c.learning, 0)
    reviews = _least(func.coalesce(card_counts.c.reviews, 0),
                     _positive(c.reviews_per_day - func.coalesce(done.c.reviews_done, 0)))
    new = _least(func.coalesce(card_counts.c.new, 0),
                 _positive(c.new_per_day - func.coalesce(done.c.new_done, 0)))
    stmt = (
        select(c.user_id, c.email, c.display_name, c.timezone, c.minute, c.email_on, c.in_app_on,
               learning, reviews, new, c.log_id, c.log_status, c.attempts, c.language)
        .outerjoin(card_counts, card_counts.c.user_id == c.user_id)
        .outerjoin(done, done.c.user_id == c.user_id)
        .order_by(c.user_id)
    )
    rows = db.session.execute(stmt).all()
    out = []
    for row in rows:
        if int(row[7]) + int(row[8]) + int(row[9]) <= 0:
            continue
        clock = clocks[row[3]]
        out.append(DueUser(
            user_id=row[0], email=row[1], display_name=row[2] or "", timezone=row[3], remind_minute=int(row[4]),
            email_channel=bool(row[5]), in_app_channel=bool(row[6]), local_date=clock.local_date,
            day_end=clock.day_end, learning=int(row[7]), reviews=int(row[8]), new=int(row[9]),
            log_id=row[10], log_status=row[11], attempts=int(row[12] or 0), language=row[13]))
    return DuePage(due=out, last_id=rows[-1][0] if len(rows) >= batch_size else None)


def find_due(now: datetime, *, batch_size: int = BATCH_SIZE) -> list[DueUser]:
    """Every user whose reminder is due at ``now``: one query for the zones, then one per page
    of ``batch_size`` candidates."""
    zc = zone_clocks(now)
    out: list[DueUser] = []
    after = 0
    while zc is not None:
        page = find_due_page(zc, after_id=after, batch_size=batch_size)
        out += page.due
        if page.last_id is None:
            break
        after = page.last_id
    return out


# --- claiming --------------------------------------------------------------------------------

def _insert(model: Any) -> Any:
    dialect = db.session.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert
    else:  # pragma: no cover - the app supports SQLite and PostgreSQL
        raise NotImplementedError(f"reminder claims need INSERT ... ON CONFLICT; {dialect} is not supported")
    return insert(model)


def expire_ended_days(now: datetime) -> int:
    """Give up on retries whose local day has ended (one statement)."""
    result = db.session.execute(
        update(ReminderLog)
        .where(ReminderLog.status.in_([ReminderStatus.retry.value, ReminderStatus.sending.value]),
               ReminderLog.expires_at <= now)
        .values(status=ReminderStatus.failed.value, lease_until=None, next_attempt_at=None,
                last_error=func.coalesce(ReminderLog.last_error, "interrupted") + " (gave up: the local day ended)")
        .execution_options(synchronize_session=False))
    return int(result.rowcount or 0)


def claim(due: Sequence[DueUser], now: datetime, transport_name: str = "") -> list[DueUser]:
    """Claim the reminders in ``due`` for this process; returns those it won, with their log ids
    and attempt numbers. A fixed number of statements; the caller commits."""
    fresh = [u for u in due if u.log_id is None]
    again = [u for u in due if u.log_id is not None and u.email_channel]
    won: list[DueUser] = []
    lease = now + timing.SEND_LEASE
    if fresh:
        rows = [{
            "user_id": u.user_id, "local_date": u.local_date, "channels": ",".join(u.channels),
            "status": (ReminderStatus.sending if u.email_channel else ReminderStatus.sent).value,
            "due_count": u.due_count, "attempts": 1 if u.email_channel else 0, "claimed_at": now,
            "lease_until": lease if u.email_channel else None, "next_attempt_at": None,
            "expires_at": u.day_end, "sent_at": None if u.email_channel else now, "last_error": None,
        } for u in fresh]
        # executemany: SQLAlchemy sends multi-row VALUES pages of one cached statement.
        stmt = (_insert(ReminderLog)
                .on_conflict_do_nothing(index_elements=["user_id", "local_date"])
                .returning(ReminderLog.id, ReminderLog.user_id))
        ids = {user_id: log_id for log_id, user_id in db.session.execute(stmt, rows)}
        won += [replace(u, log_id=ids[u.user_id], attempts=1 if u.email_channel else 0)
                for u in fresh if u.user_id in ids]
    if again:
        stmt = (update(ReminderLog)
                .where(ReminderLog.id.in_([u.log_id for u in again]),
                       or_(and_(ReminderLog.status == ReminderStatus.retry.value, ReminderLog.next_attempt_at <= now),
                           and_(ReminderLog.status == ReminderStatus.sending.value, ReminderLog.lease_until <= now)))
                .values(status=ReminderStatus.sending.value, attempts=ReminderLog.attempts + 1,
                        claimed_at=now, lease_until=lease, next_attempt_at=None)
                .returning(ReminderLog.id, ReminderLog.attempts)
                .execution_options(synchronize_session=False))
        attempts = dict(db.session.execute(stmt).all())
        if attempts:
            db.session.execute(
                update(ReminderAttempt)
                .where(ReminderAttempt.log_id.in_(list(attempts)), ReminderAttempt.outcome == "sending")
                .values(outcome="lost", finished_at=now, error="interrupted: the sending process stopped "
                                                             "before recording the result")
                .execution_options(synchronize_session=False))
        won += [replace(u, attempts=int(attempts[u.log_id])) for u in again if u.log_id in attempts]
    senders = [u for u in won if u.email_channel]
    if senders:
        db.session.execute(_insert(ReminderAttempt), [
            {"log_id": u.log_id, "number": u.attempts, "started_at": now, "outcome": "sending",
             "transport": transport_name, "finished_at": None, "error": None} for u in senders])
    in_app = [u for u in won if u.in_app_channel and u.log_status is None]
    if in_app:
        db.session.execute(
            _insert(Notification).on_conflict_do_nothing(index_elements=["user_id", "local_date", "kind"]), [
                {"user_id": u.user_id, "kind": "daily_review", "local_date": u.local_date,
                 "due_count": u.due_count, "message": notification_text(u.due_count), "created_at": now,
                 "dismissed_at": None} for u in in_app])
    return won


def notification_text(due_count: int) -> str:
    return f"You have {due_count} card{'' if due_count == 1 else 's'} to review today."


# --- message content (batched) ---------------------------------------------------------------

def top_questions(user_ids: Sequence[int], now: datetime, limit: int = TOP_QUESTIONS) -> dict[int, list[str]]:
    """The first few questions each user will see (one query for all users)."""
    if not user_ids:
        return {}
    active = and_(Card.suspended.is_(False), or_(Card.buried_until.is_(None), Card.buried_until <= now))
    rank = func.row_number().over(
        partition_by=Card.user_id,
        order_by=(case((Card.state == CardState.new, 1), else_=0), Card.due, Card.id)).label("rank")
    inner = (select(Card.user_id.label("user_id"), Question.text.label("text"), rank)
             .join(Question, Question.id == Card.question_id)
             .where(Card.user_id.in_(list(user_ids)), active,
                    or_(Card.state == CardState.new, Card.due <= now + timedelta(days=1)))
             .subquery())
    out: dict[int, list[str]] = defaultdict(list)
    for user_id, text, _rank in db.session.execute(
            select(inner.c.user_id, inner.c.text, inner.c.rank).where(inner.c.rank <= limit)
            .order_by(inner.c.user_id, inner.c.rank)):
        out[user_id].append(text)
    return out


def streaks(users: Sequence[DueUser], now: datetime) -> dict[int, int]:
    """Each user's current streak (one query for all users)."""
    if not users:
        return {}
    ids = [u.user_id for u in users]
    meta = {uid: (tz, int(h)) for uid, tz, h in db.session.execute(
        select(User.id, User.timezone, User.day_start_hour).where(User.id.in_(ids)))}
    days: dict[int, set[date]] = defaultdict(set)
    for user_id, reviewed_at in db.session.execute(
            select(ReviewLog.user_id, ReviewLog.reviewed_at)
            .where(ReviewLog.user_id.in_(ids), ReviewLog.reviewed_at >= now - STREAK_LOOKBACK)):
        tz, hour = meta[user_id]
        days[user_id].add((reviewed_at.astimezone(ZoneInfo(tz)) - timedelta(hours=hour)).date())
    return {uid: queue.streak(days[uid], queue.study_day(now, tz, hour).day) for uid, (tz, hour) in meta.items()}


def message_id(user: DueUser, domain: str) -> str:
    """Stable for one user and local day: every attempt carries the same Message-ID."""
    return f"<reminder-{user.user_id}-{user.local_date.isoformat()}@{domain}>"


# --- recording results -----------------------------------------------------------------------

def record_sent(users: Sequence[DueUser], now: datetime) -> None:
    """Mark these reminders sent (two statements for any number of them)."""
    if not users:
        return
    ids = [u.log_id for u in users]
    db.session.execute(update(ReminderLog).where(ReminderLog.id.in_(ids))
                       .values(status=ReminderStatus.sent.value, sent_at=now, lease_until=None)
                       .execution_options(synchronize_session=False))
    # The claim marked any older 'sending' attempt 'lost': the one left is this attempt.
    db.session.execute(update(ReminderAttempt)
                       .where(ReminderAttempt.log_id.in_(ids), ReminderAttempt.outcome == "sending")
                       .values(outcome="sent", finished_at=now)
                       .execution_options(synchronize_session=False))


def record_failure(user: DueUser, now: datetime, error: str) -> bool:
    """Schedule a retry, or mark the reminder failed; returns True when it will be retried."""
    retry_at = now + timing.backoff(user.attempts)
    will_retry = user.attempts < timing.MAX_ATTEMPTS and retry_at < user.day_end
    db.session.execute(update(ReminderLog).where(ReminderLog.id == user.log_id).values(
        status=(ReminderStatus.retry if will_retry else ReminderStatus.failed).value,
        next_attempt_at=retry_at if will_retry else None, lease_until=None, last_error=error)
        .execution_options(synchronize_session=False))
    db.session.execute(update(ReminderAttempt)
                       .where(ReminderAttempt.log_id == user.log_id, ReminderAttempt.number == user.attempts)
                       .values(outcome="error", finished_at=now, error=error)
                       .execution_options(synchronize_session=False))
    return will_retry


def _describe(err: BaseException) -> str:
    text = f"{type(err).__name__}: {err}"
    return text[:1000]


# --- the sweep -------------------------------------------------------------------------------

Composer = Callable[[ReminderEmail], EmailMessage]

#: Users skipped by sweeps in this process because of their own bad data (a metric for the
#: process; each sweep's report lists them, and ``prep remind`` and the scheduler's log print it).
SKIPPED_USERS = 0

# Sent emails are recorded (and committed) in groups: at most this many, or this many seconds
# apart. A process that dies between an accepted message and its record leaves the claim
# 'sending': it is retried after the lease with the same Message-ID (see the module docstring).
RECORD_EVERY = 100
RECORD_SECONDS = 1.0


def run_sweep(now: datetime, transport: Transport, compose: Composer, *, domain: str = "localhost",
              dry_run: bool = False, batch_size: int = BATCH_SIZE,
              clock: Callable[[], datetime] | None = None,
              keep_going: Callable[[], bool] | None = None) -> SweepReport:
    """One sweep at ``now`` over every due user, a page of ``batch_size`` at a time: find, claim
    (committed), then send each email and record the results.

    ``clock`` gives the time recorded for a finished send (default: ``now``, for a fake clock).
    ``keep_going`` is asked between pages (the scheduler renews its lease there); False stops
    the sweep, and the next one carries on where it left off.
    """
    report = SweepReport(now=now, dry_run=dry_run)
    finished = clock or (lambda: now)
    if dry_run:
        report.due = find_due(now, batch_size=batch_size)
        db.session.rollback()
        return report
    report.expired = expire_ended_days(now)
    zc = zone_clocks(now)
    after = 0
    while zc is not None:
        try:
            page = find_due_page(zc, after_id=after, batch_size=batch_size)
            won = claim(page.due, now, transport.name) if page.due else []
            db.session.commit()  # the claims are visible to every other process before anything is sent
        except Exception:  # noqa: BLE001 - a row broke the page's statements: user by user
            db.session.rollback()
            log.warning("reminder sweep: a page after user %s failed; reading it user by user", after, exc_info=True)
            page, won = _page_user_by_user(zc, after, batch_size, now, transport.name, report)
        if page.due:
            report.due += page.due
            report.claimed += won
            report.in_app_only += [u for u in won if not u.email_channel]
            _send(now, [u for u in won if u.email_channel], transport, compose, domain, finished, report)
        db.session.commit()
        if page.last_id is None or (keep_going is not None and not keep_going()):
            break
        after = page.last_id
    db.session.commit()
    return report


def _page_user_by_user(zc: ZoneClocks, after: int, batch_size: int, now: datetime, transport_name: str,
                       report: SweepReport) -> tuple[DuePage, list[DueUser]]:
    """The page after ``after`` when its one query or its claim failed: each of the next
    ``batch_size`` users found and claimed on their own (committed one by one), so only the
    users whose rows fail are left out (logged and counted)."""
    global SKIPPED_USERS
    ids = list(db.session.scalars(select(User.id).where(User.id > after).order_by(User.id).limit(batch_size)))
    db.session.rollback()
    due: list[DueUser] = []
    won: list[DueUser] = []
    for user_id in ids:
        try:
            mine = find_due_page(zc, after_id=user_id - 1, batch_size=1, user_id=user_id).due
            claimed = claim(mine, now, transport_name) if mine else []
            db.session.commit()
        except (OperationalError, InterfaceError):
            raise  # the database itself (gone, locked): not this user's rows; the sweep stops
        except Exception as err:  # noqa: BLE001 - this user's rows: leave them out, serve the rest
            db.session.rollback()
            SKIPPED_USERS += 1
            error = _describe(err)
            log.error("reminder sweep: skipped user %s: %s", user_id, error)
            report.unreadable.append((user_id, error))
            continue
        due += mine
        won += claimed
    return DuePage(due=due, last_id=ids[-1] if len(ids) >= batch_size else None), won


def _page_extras(senders: list[DueUser], now: datetime) -> tuple[dict, dict, dict[DueUser, str]]:
    """Top questions and streaks for a page, in two queries; when a row breaks them, the same
    per user, so only the users whose rows are bad are left out."""
    try:
        return top_questions([u.user_id for u in senders], now), streaks(senders, now), {}
    except Exception:  # noqa: BLE001 - narrowed below to the users it comes from
        db.session.rollback()
        log.warning("reminder sweep: a page's extras failed; retrying user by user", exc_info=True)
    questions: dict = {}
    streak_of: dict = {}
    broken: dict[DueUser, str] = {}
    for user in senders:
        try:
            questions.update(top_questions([user.user_id], now))
            streak_of.update(streaks([user], now))
        except Exception as err:  # noqa: BLE001
            db.session.rollback()
            broken[user] = _describe(err)
    return questions, streak_of, broken


def _skip(user: DueUser, now: datetime, finished: Callable[[], datetime], error: str, report: SweepReport) -> None:
    """Leave one user out of this sweep: logged, counted, their claim marked failed."""
    global SKIPPED_USERS
    SKIPPED_USERS += 1
    log.error("reminder sweep: skipped user %s: %s", user.user_id, error)
    report.skipped.append((user, error))
    try:
        db.session.execute(update(ReminderLog).where(ReminderLog.id == user.log_id).values(
            status=ReminderStatus.failed.value, next_attempt_at=None, lease_until=None,
            last_error=f"skipped: {error}"[:1000]).execution_options(synchronize_session=False))
        db.session.commit()
    except Exception:  # noqa: BLE001 - the claim's lease expires and it is looked at again
        db.session.rollback()
        log.warning("could not mark user %s's reminder failed", user.user_id, exc_info=True)


def _send(now: datetime, senders: list[DueUser], transport: Transport, compose: Composer, domain: str,
          finished: Callable[[], datetime], report: SweepReport) -> None:
    """Send one page's emails; record the sent ones in groups, each failure at once."""
    if not senders:
        return
    questions, streak_of, broken = _page_extras(senders, now)
    for user, error in broken.items():
        _skip(user, now, finished, error, report)
    senders = [u for u in senders if u not in broken]
    db.session.commit()
    pending: list[DueUser] = []
    last_record = time.monotonic()

    def record() -> None:
        nonlocal last_record
        if pending:
            record_sent(pending, finished())
            db.session.commit()
            report.sent.extend(pending)
            pending.clear()
        last_record = time.monotonic()

    try:
        for user in senders:
            mail = ReminderEmail(user=user, top_questions=tuple(questions.get(user.user_id, ())),
                                 streak=streak_of.get(user.user_id, 0), message_id=message_id(user, domain))
            try:
                message = compose(mail)
            except Exception as err:  # this user's data: skip them, remind the others
                record()
                _skip(user, now, finished, _describe(err), report)
                continue
            try:
                transport.send(message)
            except SEND_ERRORS as err:
                error = _describe(err)
                log.warning("reminder to user %s (attempt %s) failed: %s", user.user_id, user.attempts, error)
                record()
                retry = record_failure(user, finished(), error)
                db.session.commit()
                (report.retrying if retry else report.failed).append((user, error))
                continue
            pending.append(user)
            if len(pending) >= RECORD_EVERY or time.monotonic() - last_record >= RECORD_SECONDS:
                record()
    except BaseException:
        # Composing or sending raised something unexpected: record what went out, then re-raise.
        try:
            record()
        except Exception:  # the database is the trouble: the leases will bring these back
            db.session.rollback()
            log.warning("could not record %s sent reminder(s)", len(pending), exc_info=True)
        raise
    record()
