"""A candidate's card for a question is the card on any wording of it (translation groups, see
prep.questions.translations): the lookup the posting page, readiness and search share."""
from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import or_, select

from ..extensions import db
from ..questions.models import Question
from .models import Card


def cards_for(user_id: int, question_ids: Iterable[int]) -> dict[int, Card]:
    """Each of ``question_ids`` the user studies, with the user's card on it or on a translation.
    Two statements, each led by an index and linear in the ids: the asked questions' group roots
    (primary key), then the user's cards on those groups' wordings (primary key or the
    translation_of index, then the cards' (user, question) key). One statement joining all three
    let SQLite scan every card of the user for each asked id."""
    ids = list(dict.fromkeys(question_ids))
    if not ids:
        return {}
    roots = dict(db.session.execute(select(Question.id, Question.group_of()).where(Question.id.in_(ids))).all())
    groups = list(set(roots.values()))
    if not groups:
        return {}
    rows = db.session.execute(
        select(Question.group_of(), Card)
        .join(Card, (Card.question_id == Question.id) & (Card.user_id == user_id))
        .where(or_(Question.id.in_(groups), Question.translation_of.in_(groups)))).all()
    by_group = {group: card for group, card in rows}
    return {qid: by_group[group] for qid, group in roots.items() if group in by_group}
