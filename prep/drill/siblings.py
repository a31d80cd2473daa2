"""What a rating reads besides its card: the load balancer's due counts per day and the siblings
it buries (and undo unburies). :mod:`.service` re-exports these.

The statements are built once with bound parameters (a rating is the hottest write path;
building the SQL expression trees cost more CPU than running them). Views never call these.
"""
from __future__ import annotations

import functools
import random
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, String, and_, bindparam, case, cast, func, or_, select, update
from sqlalchemy.orm import aliased

from ..accounts.models import User
from ..extensions import db
from ..questions.models import Question, QuestionExplanation
from . import queue, scheduling
from .models import Card, CardState, ReviewLog

BURIED_SIBLINGS = "buried_siblings"  # key in ReviewLog.card_before: the sibling cards a rating buried


def _study_day(user: User, now: datetime) -> queue.StudyDay:
    return queue.study_day(now, user.timezone, user.day_start_hour)


# --- load balancing -------------------------------------------------------------------------

@functools.cache
def _due_per_day_statement(days: int) -> Select:
    """Due counts for ``days`` study days (bound: ``s0``/``e0``… the days, ``lo``/``hi``, ``uid``, ``cid``)."""
    columns = [func.coalesce(func.sum(case((and_(Card.due >= bindparam(f"s{i}"), Card.due < bindparam(f"e{i}")),
                                           1), else_=0)), 0) for i in range(days)]
    return select(*columns).where(
        Card.user_id == bindparam("uid"), Card.suspended.is_(False),
        Card.state.in_([CardState.learning, CardState.review, CardState.relearning]),
        Card.due >= bindparam("lo"), Card.due < bindparam("hi"), Card.id != bindparam("cid"))


def due_per_day(user: User, card_id: int, now: datetime, days: range) -> list[int]:
    """How many of the user's other scheduled (not new, not suspended) cards fall due on each
    study day ``now + d`` for ``d`` in ``days``: one aggregate query."""
    bounds = [queue.study_day(now + timedelta(days=d), user.timezone, user.day_start_hour) for d in days]
    params: dict[str, Any] = {"uid": user.id, "cid": card_id, "lo": min(b.start for b in bounds),
                              "hi": max(b.end for b in bounds)}
    for i, b in enumerate(bounds):
        params[f"s{i}"], params[f"e{i}"] = b.start, b.end
    row = db.session.connection().execute(_due_per_day_statement(len(bounds)), params).one()  # nothing pending
    return [int(v) for v in row]


def balanced_outcome(user: User, card: Card, outcome: scheduling.ReviewOutcome,
                     now: datetime) -> scheduling.ReviewOutcome:
    """Move a fuzz-free review outcome to the least loaded day of fsrs's fuzz range (as Anki
    24.11's load balancer); intervals over 90 days get plain fuzz from a seeded RNG."""
    window = scheduling.balance_window(outcome, now, user.maximum_interval)
    if window is None:
        return outcome
    counts = due_per_day(user, card.id, now, window.days) if window.balanced else []
    rng = random.Random(f"{card.id}:{card.version}")
    return scheduling.with_interval(outcome, now, scheduling.choose_interval(window, counts, rng))


# --- siblings ---------------------------------------------------------------------------------

@functools.cache
def due_siblings_column() -> Any:
    """The ids of the card's siblings that today's queue would show, as text ``"id,id,…"`` (NULL
    when none; read it with :func:`sibling_ids`): a column of the rating's locked card read, so
    no statement of its own (issue 20). A sibling is a question sharing an accepted explanation
    link (same slug) with the card's, in its language (a wording in the other language is a
    translation, not a sibling); of those, the user's cards that today's queue would show: new
    ones, and reviews due before the study day ends (not suspended, not already buried). Driven
    from the card's own links (an IN over a correlated subquery would run again for each of the
    user's cards). Correlated with the read's ``cards`` row; bound: ``now``, ``day_end``. A card
    sharing two slugs comes twice (:func:`sibling_ids` reads each once)."""
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


@functools.cache
def _bury_statement() -> Any:
    table = Card.__table__
    return update(table).where(table.c.user_id == bindparam("uid"), table.c.id.in_(bindparam("ids", expanding=True))) \
        .values(buried_until=bindparam("until", type_=table.c.buried_until.type))


def bury_cards(user: User, card_ids: list[int], until: datetime) -> None:
    """Bury these cards of the user's until ``until`` (a Core UPDATE: Card objects in the session are not changed)."""
    db.session.connection().execute(_bury_statement(), {"uid": user.id, "ids": list(card_ids), "until": until})


def unbury_siblings(user: User, log: ReviewLog) -> None:
    """Undo of a rating: unbury the siblings it buried (those still buried until that day's end)."""
    ids = [i for i in (log.card_before or {}).get(BURIED_SIBLINGS, []) if isinstance(i, int)]
    if not ids:
        return
    until = _study_day(user, log.reviewed_at).end
    db.session.execute(update(Card).where(Card.user_id == user.id, Card.id.in_(ids), Card.buried_until == until)
                       .values(buried_until=None).execution_options(synchronize_session=False))
