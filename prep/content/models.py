"""Explanations: the answer side of cards, loaded from Markdown files in the content directory."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .. import clock
from ..dbtypes import UTCDateTime


class Explanation(db.Model):
    __tablename__ = "explanations"
    __table_args__ = (UniqueConstraint("slug", "lang", name="uq_explanation_slug_lang"),)

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
    content_hash: Mapped[str] = mapped_column(String(64), default="")
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now, onupdate=clock.now)

    @property
    def body(self) -> str:
        """The Markdown body (the linker reads documents through this name)."""
        return self.body_md
