"""Explanations: the answer side of cards. The database holds every explanation and its
revisions (from file syncs, the browser editor, restores); files are one way in and out."""
from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import (JSON, Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint)
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .. import clock
from ..dbtypes import UTCDateTime


class Origin(str, enum.Enum):
    """Where a revision's text came from."""
    file = "file"
    browser = "browser"
    restore = "restore"
    migration = "migration"


#: Origins whose text a file sync owns: such an explanation goes (softly) when its file goes.
FILE_ORIGINS = (Origin.file.value, Origin.migration.value)


class Explanation(db.Model):
    __tablename__ = "explanations"
    __table_args__ = (UniqueConstraint("slug", "lang", name="uq_explanation_slug_lang"),
                      # The linker's and the merge candidates' cache checks (count, newest update,
                      # highest id) read these instead of every row's text (8 ms -> 0.6 ms).
                      Index("ix_explanations_live_updated", "removed_at", "updated_at", "id"),
                      Index("ix_explanations_updated_at", "updated_at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(120), index=True)
    lang: Mapped[str] = mapped_column(String(8), default="en")
    title: Mapped[str] = mapped_column(String(300))
    path: Mapped[str] = mapped_column(String(500), default="")  # relative to the content dir
    area: Mapped[str] = mapped_column(String(80), default="")
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)
    skills: Mapped[list[str]] = mapped_column(JSON, default=list)
    related: Mapped[list[str]] = mapped_column(JSON, default=list)
    # The phrasings from front matter, in file order (each is also a bank Question).
    questions: Mapped[list[str]] = mapped_column(JSON, default=list)
    # The 3–6 points a full answer covers, in the page's language (the drill's checklist).
    key_points: Mapped[list[str]] = mapped_column(JSON, default=list)
    difficulty: Mapped[int | None] = mapped_column(Integer, default=None)
    body_md: Mapped[str] = mapped_column(Text, default="")
    html: Mapped[str] = mapped_column(Text, default="")
    toc: Mapped[list[dict]] = mapped_column(JSON, default=list)
    #: sha256 of the current source text.
    content_hash: Mapped[str] = mapped_column(String(64), default="")
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now, onupdate=clock.now)
    #: The current text exactly as a file would hold it (front matter + Markdown).
    source: Mapped[str] = mapped_column(Text, default="")
    #: Where the current text came from (an :class:`Origin` value).
    origin: Mapped[str] = mapped_column(String(16), default=Origin.file.value)
    #: The number of the current revision (not always the newest: see ``conflict``).
    revision: Mapped[int] = mapped_column(Integer, default=0)
    #: sha256 of the file as the last sync read it ("" if never synced from a file).
    file_hash: Mapped[str] = mapped_column(String(64), default="")
    #: The file and the browser both changed it since the last sync: an instructor should look.
    conflict: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Set when a sync removed it (its file was deleted); restorable, hidden from everyone else.
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None, index=True)

    @property
    def body(self) -> str:
        """The Markdown body (the linker reads documents through this name)."""
        return self.body_md


class ExplanationRevision(db.Model):
    """One saved text of an explanation, never changed afterwards."""
    __tablename__ = "explanation_revisions"
    __table_args__ = (UniqueConstraint("explanation_id", "number", name="uq_explanation_revision_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    explanation_id: Mapped[int] = mapped_column(ForeignKey("explanations.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    source: Mapped[str] = mapped_column(Text)
    html: Mapped[str] = mapped_column(Text, default="")
    content_hash: Mapped[str] = mapped_column(String(64))
    origin: Mapped[str] = mapped_column(String(16))
    author_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)


def live():
    """The condition for explanations not removed (everyone but the restore list uses it)."""
    return Explanation.removed_at.is_(None)
