"""Cards (FSRS state per user and question) and the review log."""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (JSON, Boolean, Date, Enum, Float, ForeignKey, Index, Integer, SmallInteger, String, Text,
                        UniqueConstraint)
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .. import clock
from ..dbtypes import UTCDateTime
from ..questions.models import Question
from .memory import CardState


class Card(db.Model):
    __tablename__ = "cards"
    __table_args__ = (
        UniqueConstraint("user_id", "question_id", name="uq_card_user_question"),
        Index("ix_cards_user_due", "user_id", "suspended", "state", "due"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    question_id: Mapped[int] = mapped_column(ForeignKey("questions.id", ondelete="CASCADE"), index=True)
    state: Mapped[CardState] = mapped_column(Enum(CardState, native_enum=False, length=16), default=CardState.new)
    step: Mapped[int | None] = mapped_column(Integer, default=0)
    stability: Mapped[float | None] = mapped_column(Float, default=None)
    difficulty: Mapped[float | None] = mapped_column(Float, default=None)
    due: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)
    last_review: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    reps: Mapped[int] = mapped_column(Integer, default=0)
    lapses: Mapped[int] = mapped_column(Integer, default=0)
    # Incremented on every change a review makes: a rating names the version it was shown,
    # so a second submit of the same shown card finds a newer version and records nothing.
    version: Mapped[int] = mapped_column(Integer, default=0)
    suspended: Mapped[bool] = mapped_column(default=False)
    buried_until: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
    note: Mapped[str] = mapped_column(Text, default="")
    added_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)

    question: Mapped[Question] = relationship(lazy="joined")


class ReviewLog(db.Model):
    __tablename__ = "review_logs"
    __table_args__ = (
        UniqueConstraint("card_id", "card_version", name="uq_review_card_version"),
        Index("ix_review_logs_user_time", "user_id", "reviewed_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    # The card version the rating was given for (see Card.version).
    card_version: Mapped[int] = mapped_column(Integer)
    rating: Mapped[int] = mapped_column(Integer)  # 1 Again, 2 Hard, 3 Good, 4 Easy
    reviewed_at: Mapped[datetime] = mapped_column(UTCDateTime())
    duration_ms: Mapped[int] = mapped_column(Integer, default=0)
    state_before: Mapped[str] = mapped_column(String(16))
    state_after: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(16), default="review")  # review | cram
    # The card's whole scheduling state before this review (JSON), so undo restores it exactly.
    card_before: Mapped[dict] = mapped_column(JSON)
    # The key points ticked on the answer side (see prep.drill.self_grading.ticks_record):
    # {"slug", "lang", "total", "ticked": [indices]}; None when the explanation had none.
    key_points_ticked: Mapped[dict | None] = mapped_column(JSON, default=None)
    # The one-time id of the rating request (the no-JS form's token nonce, or the id the prefetching
    # page gives each rating): a resent rating finds its own id here, another tab's rating does not.
    request_id: Mapped[str | None] = mapped_column(String(64), default=None)


class PlannedReview(db.Model):
    """A card another feature (interview mode) books for a study day: the drill offers it that
    day even when FSRS would schedule it later. The review itself is an ordinary one. A ``hold``
    row offers nothing: it marks the day the plan's hold on the card ends (its last interview),
    so the card is not offered as an ordinary due review before then (:func:`.planned.not_held`)."""

    __tablename__ = "planned_reviews"
    __table_args__ = (UniqueConstraint("user_id", "card_id", "day", name="uq_planned_review"),
                      Index("ix_planned_reviews_user_day", "user_id", "day"))

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id", ondelete="CASCADE"), index=True)
    day: Mapped[date] = mapped_column(Date)
    hold: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    #: The order among the day's booked new cards, lowest first (:data:`prep.drill.planned.OWN_REPORT` ...).
    priority: Mapped[int] = mapped_column(SmallInteger, default=0, server_default="0")
