"""Studying ahead of the plan (interview mode): the plan introduces each asked question on a day
of its choosing, and until then the drill holds it back (it is not an ordinary new card under
the daily limit), so the daily budget holds. A candidate who has more time asks for the next few
questions now: they are booked for today, in the order the plan would introduce them, and that
day the budget stop leaves the bookings alone (the candidate chose to go past it).

Database edge; ``now`` is passed in; views commit.
"""
from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import select

from ..drill import planned as bookings, queue_queries
from ..drill.cards import add_to_study, cards_for
from ..drill.memory import CardState
from ..drill.models import Card, PlannedReview
from ..extensions import db
from ..postings.models import Posting, PostingQuestion
from . import service

#: Questions one "study ahead" adds to today.
STEP = 5


def waiting(user: Any, now: datetime) -> int:
    """How many asked questions (of postings with an interview ahead) are not introduced yet and
    not booked for today: what studying ahead can bring. Three statements; 0 with interview mode
    off."""
    if not service.settings_of(user).enabled:
        return 0
    today = queue_queries.study_day(user, now).day
    asked = _asked(user.id, today)
    if not asked:
        return 0
    cards = cards_for(user.id, asked)
    booked = _booked_on(user.id, today)
    count, counted = 0, set()
    for question_id in asked:
        card = cards.get(question_id)
        if card is None:
            count += 1
        elif card.id not in counted and _unintroduced(card, booked):
            counted.add(card.id)  # two asked wordings of one question are one card
            count += 1
    return count


def _asked(user_id: int, today: date) -> list[int]:
    """The questions the candidate's postings with an interview ahead ask, in posting order."""
    return list(dict.fromkeys(db.session.scalars(
        select(PostingQuestion.question_id).join(Posting, Posting.id == PostingQuestion.posting_id)
        .where(*service.interview_ahead_conditions(user_id, today))
        .order_by(Posting.interview_date, Posting.id, PostingQuestion.position))))


def _booked_on(user_id: int, day: date) -> set[int]:
    """The user's cards booked (not merely held) for ``day``."""
    return set(db.session.scalars(select(PlannedReview.card_id).where(
        PlannedReview.user_id == user_id, PlannedReview.day == day, PlannedReview.hold.is_(False))))


def _unintroduced(card: Card, booked: set[int]) -> bool:
    """A card studying ahead can bring today: new, not suspended, not already booked today."""
    return card.state is CardState.new and not card.suspended and card.id not in booked


def study_ahead(user: Any, now: datetime, count: int = STEP) -> int:
    """Book for today the next ``count`` asked questions the plan has not introduced, in the order
    it would (its first planned day, then the questions it drops, in value order), adding their
    cards to the candidate's study; mark today as studied ahead so the budget stop leaves them.
    Returns how many were booked."""
    settings = service.settings_of(user)
    found = service.stored_plan(user, now) if settings.enabled else None
    if found is None or found.plan is None:
        return 0
    today = found.today
    asked = _asked(user.id, today)
    cards = cards_for(user.id, asked)
    booked = _booked_on(user.id, today)

    def unintroduced(q: int) -> bool:
        return q not in cards or _unintroduced(cards[q], booked)

    planned_first = {q: min(days) for q, days in found.plan.planned.items() if days}
    dropped = list(found.plan.shortfall.drop_first) if found.plan.shortfall else []
    order = sorted((q for q in planned_first if q in asked), key=lambda q: (planned_first[q], q))
    order += [q for q in reversed(dropped) if q not in planned_first]  # dropped: the most value first
    order += [q for q in asked if q not in planned_first and q not in dropped]
    chosen = [q for q in dict.fromkeys(order) if unintroduced(q)][:max(0, count)]
    if not chosen:
        return 0
    add_to_study(user, [q for q in chosen if q not in cards], now)
    cards.update(cards_for(user.id, [q for q in chosen if q not in cards]))
    new_ids = list(dict.fromkeys(cards[q].id for q in chosen if q in cards))
    bookings.add_bookings(user.id, [(card_id, today) for card_id in new_ids])
    settings.ahead_on = today
    db.session.add(settings)  # the defaults become a stored row
    db.session.flush()
    return len(new_ids)
