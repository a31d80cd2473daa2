"""Stored job postings and the bank questions each one asks.

A posting belongs to the candidate who imported it (``user_id``); a posting without an owner is
a shipped sample (``prep init`` loads them), which every candidate can read but nobody deletes.
``PostingQuestion`` rows are where "asked in N postings" comes from.
"""
from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (JSON, ColumnElement, Date, Float, ForeignKey, Integer, String, Text, UniqueConstraint, func,
                        or_, select)
from sqlalchemy.orm import Mapped, aliased, mapped_column, relationship, validates

from ..extensions import db
from .. import clock
from ..dbtypes import UTCDateTime
from ..questions.models import Question
from .canonical_company import company_key
from .role_family import role_family


def display_name(company: str | None, title: str | None, posting_id: int) -> str:
    """A posting's name from its columns: "Company — Title", or whichever of them is known, else
    its number (:attr:`Posting.display_name`; for queries that read the columns, not the row)."""
    return " — ".join(part for part in (company, title) if part) or f"Posting #{posting_id}"


class Posting(db.Model):
    __tablename__ = "postings"
    # Re-importing the same posting (same normalised text) is a no-op per owner.
    __table_args__ = (UniqueConstraint("user_id", "content_hash", name="uq_posting_owner_hash"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    company: Mapped[str | None] = mapped_column(String(200))
    title: Mapped[str | None] = mapped_column(String(300))
    #: The canonical company's slug (prep.postings.canonical_company), kept in step with ``company``.
    company_key: Mapped[str | None] = mapped_column(String(80), index=True, default=None)
    #: The role family the title names (prep.postings.role_family), kept in step with ``title``.
    role_key: Mapped[str | None] = mapped_column(String(40), default=None)
    location: Mapped[str | None] = mapped_column(String(200))
    raw_text: Mapped[str] = mapped_column(Text)
    content_hash: Mapped[str] = mapped_column(String(64), index=True)
    sections: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    skills: Mapped[list[str]] = mapped_column(JSON, default=list)
    recognised_sections: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)
    interview_date: Mapped[date | None] = mapped_column(Date, default=None)
    #: "posting" (a job posting) or "report" (an interview report, 面经).
    kind: Mapped[str] = mapped_column(String(20), default="posting", server_default="posting")
    #: The rounds an interview report names, in order (一面, Round 2, Onsite...).
    rounds: Mapped[list[str] | None] = mapped_column(JSON, default=list)
    #: Skill -> weight (required above nice-to-have, more mentions above fewer), for likely questions.
    skill_weights: Mapped[dict[str, float] | None] = mapped_column(JSON, default=dict)

    questions: Mapped[list[PostingQuestion]] = relationship(
        back_populates="posting", cascade="all, delete-orphan", order_by="PostingQuestion.position",
        lazy="selectin",
    )

    @validates("company")
    def _derive_company_key(self, _key: str, company: str | None) -> str | None:
        self.company_key = company_key(company)
        return company

    @validates("title")
    def _derive_role_key(self, _key: str, title: str | None) -> str | None:
        self.role_key = role_family(title)
        return title

    @property
    def is_report(self) -> bool:
        return self.kind == "report"

    @property
    def is_sample(self) -> bool:
        return self.user_id is None

    @property
    def display_name(self) -> str:
        """"Company — Title", or whichever of them is known."""
        return display_name(self.company, self.title, self.id)

    @staticmethod
    def readable_by(user_id: int) -> ColumnElement[bool]:
        """The postings a user may read, as a query condition: their own, the shipped samples and
        the interview reports others shared and an instructor approved (:meth:`SharedReport.counted_for`).
        Reading is not owning: changing, deleting or studying a posting is for its owner
        (:meth:`owned_or_sample`)."""
        return or_(Posting.user_id == user_id, Posting.user_id.is_(None), Posting.id.in_(SharedReport.counted_for(user_id)))

    @staticmethod
    def owned_or_sample(user_id: int) -> ColumnElement[bool]:
        """The postings whose own page a user opens, studies and crams: their own and the samples
        (another candidate's shared report is read on its shared page, anonymised)."""
        return or_(Posting.user_id == user_id, Posting.user_id.is_(None))


class ShareStatus:
    """Where a shared report stands. Only ``published`` reaches other accounts."""

    pending = "pending"      # sent by its author, waiting for an instructor
    published = "published"  # approved: every candidate can read it
    rejected = "rejected"    # returned to its author with a reason
    withdrawn = "withdrawn"  # taken back by its author (or its posting was deleted)


class SharedReport(db.Model):
    """An anonymised copy of a candidate's interview report, shared with everyone on the instance
    once an instructor approves it. One row per report: sharing again after a withdrawal or a
    rejection sends the same row back to review. ``content_hash`` is the report's own (the same
    report imported by two accounts has one), so the same report shared twice counts once."""

    __tablename__ = "shared_reports"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: None once the report was deleted (the row stays, withdrawn, for the history).
    posting_id: Mapped[int | None] = mapped_column(ForeignKey("postings.id", ondelete="SET NULL"), unique=True)
    author_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    content_hash: Mapped[str] = mapped_column(String(64), index=True)
    company: Mapped[str | None] = mapped_column(String(200))
    role: Mapped[str | None] = mapped_column(String(300))
    rounds: Mapped[list[str] | None] = mapped_column(JSON, default=list)
    interview_month: Mapped[str | None] = mapped_column(String(7))  # "2024-03": the day is not shared
    text: Mapped[str] = mapped_column(Text)  # what others read, as the author sent it
    status: Mapped[str] = mapped_column(String(20), index=True, default=ShareStatus.pending)
    reason: Mapped[str] = mapped_column(Text, default="")  # the instructor's, when rejected
    shared_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)
    published_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)

    posting: Mapped[Posting | None] = relationship()
    events: Mapped[list[ShareEvent]] = relationship(back_populates="share", cascade="all, delete-orphan",
                                                    order_by="ShareEvent.id")

    def move(self, status: str, actor_id: int | None, now: datetime, reason: str = "") -> None:
        """Change the status and log it (who, when, why)."""
        self.status = status
        if status == ShareStatus.published:
            self.published_at = now
        self.events.append(ShareEvent(action=status, actor_id=actor_id, at=now, reason=reason))

    @staticmethod
    def counted_for(user_id: int):
        """The ids of the postings others shared that ``user_id`` reads and counts, as a subquery:
        published, one per content hash (the first shared), and none whose report the user
        already has (their own copy, or a sample)."""
        first = (select(func.min(SharedReport.id)).where(SharedReport.status == ShareStatus.published)
                 .group_by(SharedReport.content_hash))
        own = aliased(Posting)
        held = select(own.content_hash).where(or_(own.user_id == user_id, own.user_id.is_(None)))
        return select(SharedReport.posting_id).where(SharedReport.id.in_(first), SharedReport.posting_id.is_not(None),
                                                     SharedReport.content_hash.not_in(held))


class ShareEvent(db.Model):
    """One change of a shared report's status: ``action`` is the :class:`ShareStatus` it moved to,
    ``actor_id`` who moved it (the author, an instructor; None: a deleted account), ``reason`` what
    an instructor wrote."""

    __tablename__ = "share_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    share_id: Mapped[int] = mapped_column(ForeignKey("shared_reports.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(20))
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)
    reason: Mapped[str] = mapped_column(Text, default="")

    share: Mapped[SharedReport] = relationship(back_populates="events")


class PostingQuestion(db.Model):
    """One interview question of a posting, as written there, and the bank question it is."""

    __tablename__ = "posting_questions"
    __table_args__ = (UniqueConstraint("posting_id", "question_id", name="uq_posting_question"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    posting_id: Mapped[int] = mapped_column(ForeignKey("postings.id", ondelete="CASCADE"), index=True)
    question_id: Mapped[int] = mapped_column(ForeignKey("questions.id", ondelete="CASCADE"), index=True)
    section: Mapped[str] = mapped_column(String(120), default="")
    position: Mapped[int] = mapped_column(Integer, default=0)
    text: Mapped[str] = mapped_column(Text, default="")  # the wording in this posting
    #: concept | coding | design | behavioural (see prep.postings.extract.KINDS)
    kind: Mapped[str] = mapped_column(String(20), default="concept", server_default="concept")
    round: Mapped[str | None] = mapped_column(String(60), default=None)  # the round it was asked in

    posting: Mapped[Posting] = relationship(back_populates="questions")
    question: Mapped[Question] = relationship(lazy="joined")


class BankDecision(db.Model):
    """An instructor's decision about a question candidates imported privately ("approved" or
    "rejected"): either takes its wording out of the review queue."""

    __tablename__ = "bank_decisions"

    norm: Mapped[str] = mapped_column(String(500), primary_key=True)
    decision: Mapped[str] = mapped_column(String(20))  # "rejected"
    decided_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    decided_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)


class BankEvent(db.Model):
    """One change of a public question's place in the shared bank (its history): ``action`` is the
    :class:`~prep.questions.models.Publication` it moved to, ``actor_id`` the instructor (None: a
    migration, or a deleted account), ``reason`` what they wrote."""

    __tablename__ = "bank_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(ForeignKey("questions.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(20))  # published | pending | withdrawn
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)
    reason: Mapped[str] = mapped_column(Text, default="")


class PostingForecast(db.Model):
    """The recall on the interview day that the candidate's last stored interview plan predicted
    for this posting's questions. Interview mode writes it whenever it stores a plan (after a
    session, on a new day, when a date, target or budget changes); the daily reminder reads it,
    so the email can say how the interview stands without making a plan per user. No row: no plan
    counts this posting (interview mode off, or no interview ahead)."""

    __tablename__ = "posting_forecasts"

    posting_id: Mapped[int] = mapped_column(ForeignKey("postings.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    recall_on_day: Mapped[float] = mapped_column(Float)
    target: Mapped[float] = mapped_column(Float)
    met: Mapped[bool] = mapped_column()
    made_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)
