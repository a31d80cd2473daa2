"""Question bank operations: add, find by normalised text, tag."""
from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from ..extensions import db
from .errors import EmptyQuestion, QuestionError  # noqa: F401 (QuestionError: callers catch it here)
from .models import Question, Source, Tag
from .normalize import guess_lang, normalize_question

MAX_OWN_QUESTIONS = 2000


def get_or_create_tags(names: Iterable[str]) -> list[Tag]:
    wanted: list[str] = []
    seen: set[str] = set()
    for name in names:
        name = name.strip()[:80].strip()  # cut first: two long names may share their first 80 characters
        if name and name.casefold() not in seen:
            seen.add(name.casefold())
            wanted.append(name)
    if not wanted:
        return []
    existing = {t.name: t for t in db.session.scalars(select(Tag).where(Tag.name.in_(wanted)))}
    out = []
    for name in wanted:
        tag = existing.get(name)
        if tag is None:
            tag = Tag(name=name)
            db.session.add(tag)
        out.append(tag)
    return out


def find_public_question(text: str) -> Question | None:
    return db.session.scalar(select(Question).where(Question.norm == normalize_question(text),
                                                    Question.owner_id.is_(None)).limit(1))


def add_question(text: str, *, source: Source, owner_id: int | None = None, lang: str | None = None,
                 tags: Iterable[str] = ()) -> Question:
    """Add a question, or return the existing one with the same normalised text (merging tags)."""
    text = text.strip()
    norm = normalize_question(text)
    if not norm:
        raise EmptyQuestion()
    stmt = select(Question).where(Question.norm == norm)
    stmt = stmt.where(Question.owner_id == owner_id) if owner_id else stmt.where(Question.owner_id.is_(None))
    question = db.session.scalar(stmt.limit(1))
    if question is None:
        question = Question(text=text, norm=norm, lang=lang if lang in ("en", "zh") else guess_lang(text),
                            source=source, owner_id=owner_id)
        db.session.add(question)
    for tag in get_or_create_tags(tags):
        if tag not in question.tags:
            question.tags.append(tag)
    db.session.flush()
    return question
