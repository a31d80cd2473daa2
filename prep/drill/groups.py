"""A candidate's card for a question is the card on any wording of it (translation groups, see
prep.questions.translations): the lookups the posting page, readiness, cram and search share."""
from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from ..extensions import db
from ..questions.models import Question
from .models import Card


def cards_for(user_id: int, question_ids: Iterable[int]) -> dict[int, Card]:
    """Each of ``question_ids`` the user studies, with the user's card on it or on a translation."""
    ids = list(dict.fromkeys(question_ids))
    if not ids:
        return {}
    groups = dict(db.session.execute(select(Question.id, Question.group_of()).where(Question.id.in_(ids))).all())
    rows = db.session.execute(select(Card, Question.group_of()).join(Question, Question.id == Card.question_id)
                              .where(Card.user_id == user_id, Question.group_of().in_(set(groups.values())))).all()
    by_group = {group: card for card, group in rows}
    return {qid: by_group[group] for qid, group in groups.items() if group in by_group}
