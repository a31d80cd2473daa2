"""Siblings: the cards a rating buries until tomorrow, and undo brings back.

A sibling of a card is a question sharing an accepted explanation link (same slug) with the
card's, in its language (a wording in the other language is a translation, not a sibling). A
rating buries the user's sibling cards that today's queue would show (new ones, and reviews due
before the study day ends), so the same explanation is not asked twice in a day; the ids go into
the review log's snapshot (:data:`BURIED_SIBLINGS`), so undo unburies them. Nothing here commits.
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import String, and_, bindparam, cast, func, or_, select, update
from sqlalchemy.orm import aliased

from ..accounts.models import User
from ..extensions import db
from ..questions.models import Question, QuestionExplanation
from . import queue
from .models import Card, CardState, ReviewLog

BURIED_SIBLINGS = "buried_siblings"  # key in ReviewLog.card_before: the sibling cards a rating buried


def due_siblings_column() -> Any:
    """The ids of the card's siblings that today's queue would show (not suspended, not already
    buried; new, or a review due before the study day ends), as text ``"id,id,…"`` (NULL when
    none; read it with :func:`sibling_ids`): a column of the rating's read of its card
    (correlated with it; bound: ``now``, ``day_end``). Driven from the card's own links."""
    mine, other = aliased(QuestionExplanation, name="mine"), aliased(QuestionExplanation, name="other")
    question, sibling = aliased(Question, name="other_question"), aliased(Card, name="sibling")
    lang = select(Question.lang).where(Question.id == Card.question_id).correlate(Card).scalar_subquery()
    return select(func.aggregate_strings(cast(sibling.id, String), ",")).select_from(mine).join(
        other, and_(other.slug == mine.slug, other.rejected.is_(False), other.question_id != mine.question_id)).join(
        question, question.id == other.question_id).join(
        sibling, and_(sibling.user_id == Card.user_id, sibling.question_id == other.question_id)).where(
        mine.question_id == Card.question_id, mine.rejected.is_(False), question.lang == lang,
        sibling.id != Card.id, sibling.suspended.is_(False),
        or_(sibling.buried_until.is_(None), sibling.buried_until <= bindparam("now")),
        or_(sibling.state == CardState.new, and_(sibling.state == CardState.review,
                                                 sibling.due < bindparam("day_end"))),
    ).correlate(Card).scalar_subquery()


def sibling_ids(text: str | None) -> list[int]:
    """:func:`due_siblings_column`'s value as card ids, each once, in id order."""
    return sorted({int(i) for i in text.split(",")}) if text else []


def bury_cards(user: User, card_ids: list[int], until: datetime) -> None:
    """Bury these cards of the user's until ``until``."""
    db.session.execute(update(Card).where(Card.user_id == user.id, Card.id.in_(card_ids)).values(buried_until=until))


def unbury_siblings(user: User, log: ReviewLog) -> None:
    """Undo of a rating: unbury the siblings it buried (those still buried until that day's end)."""
    ids = buried_by(log)
    if not ids:
        return
    until = queue.study_day(log.reviewed_at, user.timezone, user.day_start_hour).end
    db.session.execute(update(Card).where(Card.user_id == user.id, Card.id.in_(ids), Card.buried_until == until)
                       .values(buried_until=None).execution_options(synchronize_session=False))


def buried_by(log: ReviewLog | None) -> list[int]:
    """The sibling cards this rating buried (from its log's snapshot)."""
    ids = (log.card_before or {}).get(BURIED_SIBLINGS, []) if log is not None else []
    return [i for i in ids if isinstance(i, int)]
