"""Reminder operations for the views, the CLI and the scheduler: settings, the sweep with the
app's transport and templates, the banner, the calendar feed, unsubscribe.

Views call these and commit (the sweep commits itself: its claims must be visible before it sends).
"""
from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from datetime import date, datetime, timedelta
from email.message import EmailMessage
from urllib.parse import urlsplit

from flask import current_app
from werkzeug.routing import MapAdapter
from sqlalchemy import Select, and_, bindparam, func, not_, or_, select, update
from sqlalchemy.orm import aliased

from ..accounts.models import User
from ..drill import planned, queue
from ..drill import queue_queries
from ..drill.models import Card, CardState, PlannedReview
from ..extensions import db
from ..zones import user_zone
from . import calendar, timing, tokens
from .channels import CHANNELS, Channel, DeliveryContext, bound, swept
from .models import (DEFAULT_ENABLED, DEFAULT_MINUTE, Notification, ReminderAttempt, ReminderChannel, ReminderLog,
                     ReminderSettings)
from ..mail import Transport, app_transport
from .compose import compose, compose_reference  # noqa: F401 - re-exported
from .sweep import Senders, run_sweep
from .sweep_query import BATCH_SIZE
from .sweep_rules import SweepReport


def settings_for(user: User, *, create: bool = False) -> ReminderSettings:
    """The user's reminder settings (defaults when they have none; ``create`` adds the row)."""
    row = db.session.get(ReminderSettings, user.id)
    if row is None:
        row = ReminderSettings(user_id=user.id, enabled=DEFAULT_ENABLED, remind_minute=DEFAULT_MINUTE)
        if create:
            db.session.add(row)
    return row


def channel_settings(user: User) -> dict[str, ReminderChannel]:
    """The user's stored settings of each channel, by name (a channel without a row is absent:
    its default holds)."""
    return {row.channel: row for row in db.session.scalars(
        select(ReminderChannel).where(ReminderChannel.user_id == user.id))}


def channel_row(user: User, name: str) -> ReminderChannel:
    """The user's settings row of channel ``name``, added (with the channel's default) if missing."""
    row = db.session.get(ReminderChannel, (user.id, name))
    if row is None:
        row = ReminderChannel(user_id=user.id, channel=name, enabled=CHANNELS[name].default_on, options={})
        db.session.add(row)
    return row


def channels_on(user: User, rows: dict[str, ReminderChannel] | None = None) -> list[Channel]:
    """The channels the sweep would remind ``user`` on (whether reminders are on or not)."""
    rows = channel_settings(user) if rows is None else rows
    return [c for c in swept() if c.is_enabled(rows.get(c.name))]


def last_deliveries(user: User) -> dict[str, ReminderLog]:
    """Each channel's latest claim for ``user`` (what the settings page says of it), by name."""
    latest: dict[str, ReminderLog] = {}
    for entry in db.session.scalars(select(ReminderLog).where(ReminderLog.user_id == user.id)
                                    .order_by(ReminderLog.local_date.desc(), ReminderLog.id.desc()).limit(20)):
        latest.setdefault(entry.channel, entry)
    return latest


def reset_calendar_token(user: User) -> str:
    row = settings_for(user, create=True)
    row.calendar_token = tokens.new_calendar_token()
    return row.calendar_token


def recent_log(user: User, limit: int = 10) -> list[tuple[ReminderLog, list[ReminderAttempt]]]:
    logs = db.session.scalars(select(ReminderLog).where(ReminderLog.user_id == user.id)
                              .order_by(ReminderLog.local_date.desc(), ReminderLog.channel).limit(limit)).all()
    attempts: dict[int, list[ReminderAttempt]] = {entry.id: [] for entry in logs}
    if logs:
        for attempt in db.session.scalars(select(ReminderAttempt).where(ReminderAttempt.log_id.in_(list(attempts)))
                                          .order_by(ReminderAttempt.number)):
            attempts[attempt.log_id].append(attempt)
    return [(entry, attempts[entry.id]) for entry in logs]


# --- URLs, tokens, mail ----------------------------------------------------------------------

def external_url(endpoint: str, **values: object) -> str:
    """An absolute URL under BASE_URL (works outside a request: in the CLI and the scheduler)."""
    return _url_adapter(current_app.config["BASE_URL"]).build(endpoint, values, force_external=True)


def _url_adapter(base_url: str) -> MapAdapter:
    """The app's URL map bound to ``base_url``, bound once per app and base (a sweep builds
    three URLs per email)."""
    adapters: dict[str, MapAdapter] = current_app.extensions.setdefault("prep_reminder_url_adapters", {})
    adapter = adapters.get(base_url)
    if adapter is None:
        base = urlsplit(base_url)
        adapter = current_app.url_map.bind(base.netloc, script_name=base.path or "/",
                                           url_scheme=base.scheme or "http")
        adapters[base_url] = adapter
    return adapter


def mail_domain() -> str:
    return urlsplit(current_app.config["BASE_URL"]).hostname or "localhost"


def unsubscribe_url(user_id: int) -> str:
    token = tokens.unsubscribe_token(current_app.config["SECRET_KEY"], user_id)
    return external_url("reminders.unsubscribe", token=token)


def user_for_unsubscribe(token: str) -> User | None:
    user_id = tokens.read_unsubscribe_token(current_app.config["SECRET_KEY"], token)
    return db.session.get(User, user_id) if user_id is not None else None


def unsubscribe(user: User) -> None:
    """Stop reminder emails (the other channels stay as they were)."""
    channel_row(user, "email").enabled = False


def transport() -> Transport:
    return app_transport()


def senders(mail_transport: Transport | None = None) -> Senders:
    """Every push channel set up for a sweep in this app: its configuration, the mail transport
    (the app's unless given) and composer, the drill's link."""
    return bound(DeliveryContext(config=current_app.config, mail_transport=mail_transport or transport(),
                                 compose=compose, drill_url=external_url("drill.drill")))


def sweep(now: datetime, *, dry_run: bool = False, mail_transport: Transport | None = None,
          keep_going: Callable[[], bool] | None = None, batch_size: int = BATCH_SIZE) -> SweepReport:
    """Run one reminder sweep (every due user, a page at a time) with the app's channels and
    templates; ``keep_going`` is asked between pages (see :func:`.sweep.run_sweep`)."""
    explicit = mail_transport
    if mail_transport is None:
        mail_transport = _DryRun() if dry_run else transport()
    enqueuer = current_app.extensions.get("prep.reminder_enqueuer")  # set by wiring: the RQ hand-off
    queued = enqueuer() if enqueuer is not None and not dry_run and explicit is None else None
    return run_sweep(now, senders(mail_transport), domain=mail_domain(), dry_run=dry_run, keep_going=keep_going,
                     batch_size=batch_size, enqueue=queued)


class _DryRun:
    """A dry run sends nothing (and must not say where mail would go)."""

    name = "dry-run"

    def send(self, message: EmailMessage) -> None:  # pragma: no cover - run_sweep never sends on a dry run
        raise RuntimeError("a dry run does not send")


# --- in-app ----------------------------------------------------------------------------------

@functools.cache
def _banner_statement() -> Select:
    """:func:`banner_note`'s query, built once (bound per call: ``uid``, ``day``)."""
    others = aliased(Notification)
    still_open = select(func.count(others.id)).where(others.user_id == bindparam("uid"),
                                                     others.dismissed_at.is_(None)).scalar_subquery()
    return select(Notification.id, still_open).where(
        Notification.user_id == bindparam("uid"), Notification.local_date == bindparam("day"),
        Notification.dismissed_at.is_(None)).order_by(Notification.id.desc()).limit(1)


def banner_note(user: User, now: datetime) -> tuple[int, int] | None:
    """For the banner: the id of today's undismissed reminder (local calendar day) and how many
    notifications are still open, in one statement; None without such a reminder."""
    row = db.session.execute(_banner_statement(), {
        "uid": user.id, "day": timing.zone_clock(now, user.timezone).local_date}).first()
    return None if row is None else (int(row[0]), int(row[1]))


def notifications(user: User, limit: int = 30) -> list[Notification]:
    return list(db.session.scalars(select(Notification).where(Notification.user_id == user.id)
                                   .order_by(Notification.created_at.desc(), Notification.id.desc()).limit(limit)))


def dismiss(user: User, notification_id: int | None, now: datetime) -> int:
    """Dismiss one notification (or all, with None); returns how many changed."""
    stmt = update(Notification).where(Notification.user_id == user.id, Notification.dismissed_at.is_(None))
    if notification_id is not None:
        stmt = stmt.where(Notification.id == notification_id)
    result = db.session.execute(stmt.values(dismissed_at=now).execution_options(synchronize_session=False))
    return int(result.rowcount or 0)


# --- calendar --------------------------------------------------------------------------------

def settings_for_calendar_token(token: str) -> ReminderSettings | None:
    if not token:
        return None
    return db.session.scalar(select(ReminderSettings).where(ReminderSettings.calendar_token == token))


def feed_days(user: User, now: datetime, days: int = calendar.FEED_DAYS) -> list[calendar.FeedDay]:
    """Today's exact count, then a forecast: reviews falling due each later day (within the
    daily limit) plus new cards while the pool lasts. Under an interview plan a card counts on
    the days it is booked (not limited, as in the drill) and on its due day only when the plan
    does not hold it back then (:func:`queue.forecast_days`)."""
    counts = queue_queries.counts(user, now)
    today = queue_queries.study_day(user, now)
    tz = user_zone(user.timezone)
    bounds = [queue.day_bounds(today.day + timedelta(days=k), tz, user.day_start_hour) for k in range(days)]
    later = today.day + timedelta(days=1)
    active = and_(Card.suspended.is_(False), or_(Card.buried_until.is_(None), Card.buried_until <= bounds[-1].end))
    dues = db.session.scalars(select(Card.due).where(
        Card.user_id == user.id, active, Card.state != CardState.new,
        Card.due >= today.end, Card.due < bounds[-1].end, not_(planned.planned_from(later)))).all()
    due_days = [next((b.day for b in bounds if b.start <= d < b.end), None) for d in dues]
    booked_days: list[date] = []
    for card in planned.planned_cards(user.id, later, Card.due, active):
        due_day = next((b.day for b in bounds[1:] if b.start <= card.due < b.end), None)
        due, booked = (queue.forecast_days(due_day, card.booked, card.holds, holdable=card.state == CardState.review)
                       if due_day is not None else (None, card.booked))
        due_days.append(due)
        booked_days += booked
    pool = db.session.scalar(select(func.count(Card.id)).where(
        Card.user_id == user.id, Card.suspended.is_(False), Card.state == CardState.new)) or 0
    pool -= counts.new_available
    # With an interview ahead the day's new cards are the plan's (prep.drill.planned.new_offered).
    # A new card's first booking introduces it; its later ones are reviews.
    first_booking: dict[int, date] = {}
    later_bookings: list[date] = []
    for card_id, day in db.session.execute(
            select(PlannedReview.card_id, PlannedReview.day).join(Card, Card.id == PlannedReview.card_id)
            .where(PlannedReview.user_id == user.id, PlannedReview.hold.is_(False), PlannedReview.day >= today.day,
                   Card.state == CardState.new, Card.suspended.is_(False))
            .order_by(PlannedReview.card_id, PlannedReview.day)):
        if card_id in first_booking:
            later_bookings.append(day)
        else:
            first_booking[card_id] = day
    booked_new = Counter(first_booking.values())
    last_planned = db.session.scalar(select(func.max(PlannedReview.day)).where(PlannedReview.user_id == user.id))
    local_today = timing.zone_clock(now, user.timezone).local_date
    out = [calendar.FeedDay(day=local_today, cards=counts.remaining_today, new=counts.new_available)]
    for k, b in enumerate(bounds[1:], start=1):
        reviews = (min(due_days.count(b.day), user.reviews_per_day) + booked_days.count(b.day)
                   + later_bookings.count(b.day))
        if last_planned is not None and last_planned > b.day:
            new = booked_new.get(b.day, 0)
        else:
            new = max(0, min(user.new_per_day, pool))
            pool -= new
        out.append(calendar.FeedDay(day=local_today + timedelta(days=k), cards=reviews + new, new=new))
    return out


def calendar_feed(row: ReminderSettings, now: datetime) -> bytes:
    user = db.session.get(User, row.user_id)
    days = feed_days(user, now) if row.enabled else []
    return calendar.build_feed(user_id=user.id, tz_name=user.timezone, remind_minute=row.remind_minute,
                               days=days, now=now, drill_url=external_url("drill.drill"), domain=mail_domain())


def next_reminder_at(user: User, row: ReminderSettings, now: datetime) -> datetime | None:
    if not row.enabled or not channels_on(user):
        return None
    local_date: date = timing.zone_clock(now, user.timezone).local_date
    reminded = db.session.scalar(select(func.count(ReminderLog.id)).where(
        ReminderLog.user_id == user.id, ReminderLog.local_date == local_date)) or 0
    return timing.next_reminder(now, user.timezone, row.remind_minute, bool(reminded))
