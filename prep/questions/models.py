"""The question bank: questions, their tags, and their links to explanations."""
from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any
from datetime import datetime

from sqlalchemy import (Column, ColumnElement, Enum, Float, ForeignKey, Select, String, Table, Text, UniqueConstraint,
                        and_, func, or_, select)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .. import clock
from ..dbtypes import UTCDateTime


class Source(str, enum.Enum):
    posting = "posting"
    content = "content"
    user = "user"


class Publication(str, enum.Enum):
    """Where a public question (``owner_id`` None) stands in the shared bank. A candidate's private
    question is its owner's whatever this says (it stays ``published``)."""

    published = "published"   # every account sees it
    pending = "pending"       # waits for an instructor's review; only instructors see it
    withdrawn = "withdrawn"   # an instructor took it out (restorable); only instructors see it


class LinkOrigin(str, enum.Enum):
    content = "content"   # the explanation lists this question in its front matter
    auto = "auto"         # the linker's lexical ranking
    manual = "manual"     # an instructor's decision (wins over the others, survives re-sync)


question_tags = Table(
    "question_tags",
    db.metadata,
    Column("question_id", ForeignKey("questions.id", ondelete="CASCADE"), primary_key=True),
    Column("tag_id", ForeignKey("tags.id", ondelete="CASCADE"), primary_key=True),
)


class Tag(db.Model):
    __tablename__ = "tags"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)


class Question(db.Model):
    __tablename__ = "questions"

    id: Mapped[int] = mapped_column(primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    # Normalised text (NFKC, casefold, no punctuation/space): the key for merging duplicates.
    norm: Mapped[str] = mapped_column(String(500), index=True)
    lang: Mapped[str] = mapped_column(String(8), default="en")
    source: Mapped[Source] = mapped_column(Enum(Source, native_enum=False, length=16))
    # Set for a candidate's own question: private to that user.
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)
    # Only a public question's matters: other accounts see it while it is published (see :meth:`shared`).
    publication: Mapped[Publication] = mapped_column(
        Enum(Publication, native_enum=False, length=16), default=Publication.published,
        server_default=Publication.published.value)
    # A translation group: the group's first question (its root) has None, every other wording
    # of the same question points to the root. A candidate has one card per group, shown in
    # their language (see :meth:`wording` and prep.questions.translations).
    # No ON DELETE: a group never spans owners and public questions are not deleted.
    translation_of: Mapped[int | None] = mapped_column(ForeignKey("questions.id"), index=True, default=None)

    tags: Mapped[list[Tag]] = relationship(secondary=question_tags, lazy="selectin", order_by=Tag.name)
    links: Mapped[list[QuestionExplanation]] = relationship(
        back_populates="question", cascade="all, delete-orphan", lazy="selectin",
        order_by="QuestionExplanation.score.desc()",
    )

    translation_root: Mapped[Question | None] = relationship(
        remote_side=[id], foreign_keys=[translation_of], back_populates="translated_as", lazy="select")
    translated_as: Mapped[list[Question]] = relationship(
        back_populates="translation_root", foreign_keys=[translation_of], lazy="select", order_by="Question.id")

    @property
    def group_id(self) -> int:
        """The translation group this question belongs to (its root's id)."""
        return self.translation_of or self.id

    def group(self) -> list[Question]:
        """Every wording of this question: the root first, then its translations."""
        root = self.translation_root or self
        return [root, *root.translated_as]

    def wording(self, lang: str | None) -> Question:
        """The wording to show someone reading ``lang``: this one when it is in that language,
        else a translation in it, else this one."""
        if not lang or self.lang == lang:
            return self
        return next((q for q in self.group() if q.lang == lang), self)

    @staticmethod
    def group_of() -> ColumnElement[int]:
        """:attr:`group_id` as a query expression."""
        return Question.group_of_column(Question)

    @staticmethod
    def group_of_column(entity: Any) -> ColumnElement[int]:
        """:attr:`group_id` of ``entity`` (this class or an alias of it) as a query expression."""
        return func.coalesce(entity.translation_of, entity.id)

    @staticmethod
    def wordings_of(question_ids: Iterable[int]) -> Select[tuple[int]]:
        """The ids of these questions and of every translation of them (a subquery; the members
        are found by the primary key and the translation_of index)."""
        roots = select(Question.group_of()).where(Question.id.in_(list(question_ids)))
        return select(Question.id).where(or_(Question.id.in_(roots), Question.translation_of.in_(roots)))

    @property
    def accepted_links(self) -> list[QuestionExplanation]:
        """Links shown to candidates: not rejected, best first."""
        return [link for link in self.links if not link.rejected]

    def confident_links(self, min_score: float) -> list[QuestionExplanation]:
        """Accepted links that answer the question (see :meth:`QuestionExplanation.is_confident`)."""
        return [link for link in self.accepted_links if link.is_confident(min_score)]

    @staticmethod
    def shared() -> ColumnElement[bool]:
        """The shared bank every account sees, as a query condition: public and published (not
        pending review, not withdrawn)."""
        return and_(Question.owner_id.is_(None), Question.publication == Publication.published)

    @staticmethod
    def visible_to(user_id: int) -> ColumnElement[bool]:
        """The bank a user can see, as a query condition: the shared bank and their own."""
        return or_(Question.shared(), Question.owner_id == user_id)

    def is_visible_to(self, user_id: int | None) -> bool:
        """:meth:`visible_to` for this row."""
        if self.owner_id is None:
            return self.publication is Publication.published
        return self.owner_id == user_id


class QuestionExplanation(db.Model):
    """A ranked link from a question to an explanation (by slug, so translations share it)."""

    __tablename__ = "question_explanations"
    __table_args__ = (UniqueConstraint("question_id", "slug", name="uq_question_explanation"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(ForeignKey("questions.id", ondelete="CASCADE"), index=True)
    slug: Mapped[str] = mapped_column(String(120), index=True)
    score: Mapped[float] = mapped_column(Float, default=0.0)
    origin: Mapped[LinkOrigin] = mapped_column(Enum(LinkOrigin, native_enum=False, length=16))
    rejected: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)

    question: Mapped[Question] = relationship(back_populates="links")

    def is_confident(self, min_score: float) -> bool:
        """An explanation's own list or an instructor's decision always is; an automatic link is
        when it scores at least ``min_score`` (config ``LINK_MIN_SCORE``), else it is only a
        suggestion."""
        return self.origin is not LinkOrigin.auto or self.score >= min_score

    @staticmethod
    def answers(min_score: float) -> ColumnElement[bool]:
        """:meth:`is_confident` and not rejected, as a query condition."""
        return and_(QuestionExplanation.rejected.is_(False),
                    or_(QuestionExplanation.origin != LinkOrigin.auto, QuestionExplanation.score >= min_score))
