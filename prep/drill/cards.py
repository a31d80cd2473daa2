"""The candidate's cards: adding questions to study, finding a card (by id, or by any wording of
its question), burying and suspending. A card's memory state as plain values is
:mod:`.memory`; rating one is :mod:`.rating`. Views call these and commit; these never commit."""
from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.orm import lazyload

from ..accounts.models import User
from ..extensions import db
from ..questions.models import Question
from . import queue
from .models import Card


class CardNotFound(LookupError):
    """The card does not exist or belongs to someone else."""


def get_card(user: User, card_id: int, *, for_update: bool = False) -> Card:
    """The user's card (``for_update``: locked and read afresh, even when the session holds it
    already, and without its question: writers rarely need it, and loading it costs a join plus
    two SELECTs for its tags and links). On SQLite a writing transaction holds the database's
    write lock from its BEGIN IMMEDIATE (:mod:`prep.database`), which serves as the row lock."""
    if for_update:
        card = db.session.get(Card, card_id, with_for_update=True, populate_existing=True,
                              options=[lazyload(Card.question)])
    else:
        card = db.session.scalar(select(Card).where(Card.id == card_id, Card.user_id == user.id))
    if card is None or card.user_id != user.id:
        raise CardNotFound(card_id)
    return card


def cards_for(user_id: int, question_ids: Iterable[int]) -> dict[int, Card]:
    """Each of ``question_ids`` the user studies, with the user's card on it or on a translation
    (a candidate's card for a question is the card on any wording of it: translation groups, see
    prep.questions.translations; the posting page, readiness and search share this lookup).
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


def add_to_study(user: User, question_ids: Iterable[int], now: datetime) -> int:
    """Make cards for the questions not yet in the user's study; returns how many were added.

    Only questions the user may see (public ones, or their own) are added, and one card per
    translation group (the card shows the wording in the user's language).
    """
    ids = sorted(set(question_ids))
    if not ids:
        return 0
    group_of = dict(db.session.execute(select(Question.id, Question.group_of()).where(
        Question.id.in_(ids), or_(Question.owner_id.is_(None), Question.owner_id == user.id))).all())
    # One card per translation group: a wording whose group the user studies already is skipped.
    studied = set(db.session.scalars(select(Question.group_of()).join(Card, Card.question_id == Question.id).where(
        Card.user_id == user.id, Question.group_of().in_(set(group_of.values())))))
    fresh = []
    for qid in ids:
        if qid in group_of and group_of[qid] not in studied:
            studied.add(group_of[qid])
            fresh.append(qid)
    for offset, qid in enumerate(fresh):
        # Stagger added_at so new cards keep the order they were added in.
        db.session.add(Card(user_id=user.id, question_id=qid, due=now,
                            added_at=now + timedelta(microseconds=offset)))
    db.session.flush()
    return len(fresh)


def bury(card: Card, user: User, now: datetime) -> None:
    """Hide the card until the next study day."""
    card.buried_until = queue.study_day(now, user.timezone, user.day_start_hour).end


def unbury_all(user: User, now: datetime) -> int:
    """Bring back today every card of the user's that is buried until later; how many."""
    result = db.session.execute(update(Card).where(Card.user_id == user.id, Card.buried_until > now)
                                .values(buried_until=None).execution_options(synchronize_session=False))
    return int(result.rowcount or 0)


def set_suspended(card: Card, suspended: bool) -> None:
    card.suspended = suspended
