"""Reminder tables: per-user settings and each channel's settings, the once-per-local-day
claim log (one row per user, day and channel) with its attempts, and in-app notifications.
Kept apart from ``users`` so the feature owns its schema."""
from __future__ import annotations

import enum
from datetime import date, datetime

from typing import Any

from sqlalchemy import JSON, Boolean, Date, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .. import clock
from ..dbtypes import UTCDateTime

DEFAULT_MINUTE = 9 * 60  # 09:00 local
DEFAULT_ENABLED = True


class ReminderStatus(str, enum.Enum):
    sending = "sending"    # claimed; a process is delivering it under a lease
    retry = "retry"        # the last attempt failed; another is due at next_attempt_at
    sent = "sent"          # delivered (the SMTP server, the outbox or the webhook took it), or stored in-app
    failed = "failed"      # gave up: too many attempts, or the local day ended


class ReminderSettings(db.Model):
    """A user's reminder choices (each channel's are :class:`ReminderChannel` rows); users
    without a row get the defaults above."""

    __tablename__ = "reminder_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    enabled: Mapped[bool] = mapped_column(Boolean, default=DEFAULT_ENABLED)
    # Local time of day as minutes after midnight, in the user's own time zone (users.timezone).
    remind_minute: Mapped[int] = mapped_column(Integer, default=DEFAULT_MINUTE)
    # Secret part of the private iCalendar feed URL; None until the user asks for one.
    calendar_token: Mapped[str | None] = mapped_column(String(64), unique=True, default=None)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now, onupdate=clock.now)


class ReminderChannel(db.Model):
    """One channel's settings for one user (``channel`` names a channel of
    :data:`prep.reminders.channels.CHANNELS`); without a row the channel's default holds."""

    __tablename__ = "reminder_channels"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    channel: Mapped[str] = mapped_column(String(16), primary_key=True)
    enabled: Mapped[bool] = mapped_column(Boolean, default=False)
    # Where the channel delivers when the user chose it (a webhook's URL); None for the others.
    destination: Mapped[str | None] = mapped_column(String(2048), default=None)
    # The channel's own choices (a webhook's payload format).
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now, onupdate=clock.now)


class ReminderLog(db.Model):
    """One row per user, local day and channel: the claim that makes each channel's reminder go
    out at most once a day, and what became of it."""

    __tablename__ = "reminder_log"
    __table_args__ = (
        UniqueConstraint("user_id", "local_date", "channel", name="uq_reminder_user_day_channel"),
        Index("ix_reminder_log_status", "status", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    local_date: Mapped[date] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(16))
    channel: Mapped[str] = mapped_column(String(16))
    due_count: Mapped[int] = mapped_column(Integer, default=0)
    attempts: Mapped[int] = mapped_column(Integer, default=0)  # delivery attempts started (0: stored in-app)
    claimed_at: Mapped[datetime] = mapped_column(UTCDateTime())
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())  # end of the local day: no retries after
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    last_error: Mapped[str | None] = mapped_column(Text, default=None)


class ReminderAttempt(db.Model):
    """Every delivery attempt of a reminder, with its outcome (the log shows them all)."""

    __tablename__ = "reminder_attempts"
    __table_args__ = (UniqueConstraint("log_id", "number", name="uq_reminder_attempt"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    log_id: Mapped[int] = mapped_column(ForeignKey("reminder_log.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime())
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    outcome: Mapped[str] = mapped_column(String(16))  # sending | sent | error | lost
    transport: Mapped[str] = mapped_column(String(16), default="")
    error: Mapped[str | None] = mapped_column(Text, default=None)


class Notification(db.Model):
    """An in-app reminder; dismissing it hides the banner and leaves the email alone."""

    __tablename__ = "notifications"
    __table_args__ = (
        UniqueConstraint("user_id", "local_date", "kind", name="uq_notification_user_day_kind"),
        Index("ix_notifications_user_open", "user_id", "dismissed_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32), default="daily_review")
    local_date: Mapped[date] = mapped_column(Date)
    due_count: Mapped[int] = mapped_column(Integer, default=0)
    message: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)
    dismissed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
