"""Interview mode's stored rows: a candidate's settings (on/off, target recall on the day, daily
budget) and how an interview went (the questions that came up, other questions, a rating)."""
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
