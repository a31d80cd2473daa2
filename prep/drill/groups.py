"""A candidate's card for a question is the card on any wording of it (translation groups, see
prep.questions.translations): the lookup the posting page, readiness and search share."""
from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import or_, select
from sqlalchemy.orm import aliased

from ..extensions import db
from ..questions.models import Question
from .models import Card


def cards_for(user_id: int, question_ids: Iterable[int]) -> dict[int, Card]:
    """Each of ``question_ids`` the user studies, with the user's card on it or on a translation
    (one statement; every join by an index: the asked ids, their group's root and its members)."""
    ids = list(dict.fromkeys(question_ids))
    if not ids:
        return {}
    asked, wording = aliased(Question), aliased(Question)
    root = Question.group_of_column(asked)
    rows = db.session.execute(
        select(asked.id, Card)
        .join(wording, or_(wording.id == root, wording.translation_of == root))
        .join(Card, (Card.question_id == wording.id) & (Card.user_id == user_id))
        .where(asked.id.in_(ids))).all()
    return {qid: card for qid, card in rows}
