"""Interview mode's stored rows: a candidate's settings (on/off, target recall on the day, daily
budget), the plan last made for them, and how an interview went (the questions that came up,
other questions, a rating)."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import JSON, Date, Float, ForeignKey, Integer, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .. import clock
from ..dbtypes import UTCDateTime
from ..extensions import db
from .plans import DEFAULT_BUDGET_MINUTES
from .recall import DEFAULT_TARGET


class InterviewSettings(db.Model):
    """One row per candidate who changed a setting (none: the defaults, mode on)."""

    __tablename__ = "interview_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    enabled: Mapped[bool] = mapped_column(default=True)
    target: Mapped[float] = mapped_column(Float, default=DEFAULT_TARGET)
    budget_minutes: Mapped[int] = mapped_column(Integer, default=int(DEFAULT_BUDGET_MINUTES))
    #: The study day the drill's bookings were last computed for (None: never).
    planned_on: Mapped[date | None] = mapped_column(Date, default=None)
    #: The study day the candidate chose to study ahead of the plan (the budget stop is off then).
    ahead_on: Mapped[date | None] = mapped_column(Date, default=None)


class StoredPlan(db.Model):
    """A candidate's interview plan as the background job last made it (pages read it, never
    make it). ``requested_at`` is set by the change that asks for a new plan (a rating, a date,
    the settings); ``made_for`` is the request the stored plan answered, so a plan is due while
    ``requested_at`` is after it, or when it was made on an earlier study day (``made_on``)."""

    __tablename__ = "interview_plans"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    requested_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None, index=True)
    #: A request asked for the drill's bookings to be made again (not only the forecasts).
    rebook: Mapped[bool] = mapped_column(default=False)
    #: The study day whose budget is used up: the plan made that day books nothing more on it.
    nothing_today_on: Mapped[date | None] = mapped_column(Date, default=None)
    made_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    made_for: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    made_on: Mapped[date | None] = mapped_column(Date, default=None)
    cpu_ms: Mapped[int | None] = mapped_column(Integer, default=None)
    plan: Mapped[dict | None] = mapped_column(JSON, default=None)


class InterviewOutcome(db.Model):
    """"How did it go?" for one posting's interview."""

    __tablename__ = "interview_outcomes"
    __table_args__ = (UniqueConstraint("posting_id", name="uq_interview_outcome_posting"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    posting_id: Mapped[int] = mapped_column(ForeignKey("postings.id", ondelete="CASCADE"))
    came_up: Mapped[list[int]] = mapped_column(JSON, default=list)   # the posting's question ids asked
    other_questions: Mapped[str] = mapped_column(Text, default="")
    rating: Mapped[int] = mapped_column(Integer)                      # 1 (bad) .. 5 (great)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)
