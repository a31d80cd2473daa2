"""Cramming a posting's questions ahead of schedule: reviews logged as ``cram`` that leave each
card's FSRS state as it is. Views call these and commit; these functions never commit."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, case, exists, func, or_, select

from ..accounts.models import User
from ..extensions import db
from ..questions.models import Question
from . import queue, scheduling
from .cards import get_card
from .models import Card, CardState, ReviewLog
from .queue_queries import study_day
from .rating import CONFLICT, MAX_DURATION_MS, RECORDED, Answer, Rated, store_log


def _cram_candidates(user: User, question_ids: list[int], now: datetime) -> Select[tuple[Card]]:
    """The posting's studied cards: those not due today (the regular drill has the reviews due),
    and every learning or relearning card, the ones least settled, whenever its next step is due."""
    day = study_day(user, now)
    return select(Card).where(
        Card.user_id == user.id, Card.question_id.in_(Question.wordings_of(question_ids)),
        Card.suspended.is_(False),
        Card.state != CardState.new,
        or_(Card.due >= day.end, Card.state.in_([CardState.learning, CardState.relearning])))


def _crammed_today(day: queue.StudyDay, passed_only: bool):
    cond = [ReviewLog.card_id == Card.id, ReviewLog.kind == "cram", ReviewLog.reviewed_at >= day.start,
            ReviewLog.reviewed_at < day.end]
    if passed_only:
        cond.append(ReviewLog.rating > 1)
    return exists().where(*cond)


def next_cram_card(user: User, question_ids: list[int], now: datetime) -> Card | None:
    """The next card to cram among these questions' cards: not due yet, and not yet recalled in
    today's cram (a card rated Again comes back after the others), soonest due first."""
    if not question_ids:
        return None
    day = study_day(user, now)
    return db.session.scalar(_cram_candidates(user, question_ids, now)
                             .where(~_crammed_today(day, passed_only=True))
                             .order_by(_crammed_today(day, passed_only=False), Card.due, Card.id).limit(1))


@dataclass(frozen=True)
class CramCounts:
    left: int      # cards not yet recalled in today's cram
    done: int      # cards recalled in today's cram


def cram_counts(user: User, question_ids: list[int], now: datetime) -> CramCounts:
    if not question_ids:
        return CramCounts(0, 0)
    day = study_day(user, now)
    sub = _cram_candidates(user, question_ids, now).with_only_columns(
        case((_crammed_today(day, passed_only=True), 1), else_=0).label("done")).subquery()
    total, done = db.session.execute(select(func.count(), func.coalesce(func.sum(sub.c.done), 0))).one()
    return CramCounts(left=int(total) - int(done), done=int(done))


def cram(user: User, answer: Answer, now: datetime) -> Rated:
    """Record a review ahead of schedule (kind ``cram``) without touching the card's FSRS state:
    state, step, due, stability, difficulty, reps and lapses stay as they are, the optimiser and
    the daily limits ignore the log, and undo skips it. Only the card's version moves on, so a
    second submit of the same shown card records nothing."""
    if answer.rating not in scheduling.RATINGS:
        raise scheduling.SchedulingError("rating must be 1, 2, 3 or 4")
    card = get_card(user, answer.card_id, for_update=True)
    if card.version != answer.version:
        return Rated(CONFLICT, card)
    duration = max(0, min(int(answer.duration_ms or 0), MAX_DURATION_MS))
    log = ReviewLog(card_id=card.id, user_id=user.id, card_version=answer.version, rating=answer.rating,
                    reviewed_at=now, duration_ms=duration, state_before=card.state.value,
                    state_after=card.state.value, kind="cram", card_before=scheduling.snapshot(card),
                    key_points_ticked=answer.key_points)
    card.version += 1
    if not store_log(log):
        return Rated(CONFLICT)
    return Rated(RECORDED, card, log)
