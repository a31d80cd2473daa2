"""Cards booked for a study day by a plan (interview mode): storing the bookings and the query
condition the drill's queue uses to offer them. The reviews themselves are ordinary ones.

Database edge; views commit.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from typing import Any

from sqlalchemy import and_, delete, exists, not_, or_, select
from sqlalchemy.sql.elements import ColumnElement

from ..extensions import db
from .models import Card, CardState, PlannedReview
from .queue import StudyDay


def replace_bookings(user_id: int, bookings: Iterable[tuple[int, date]], today: date,
                     holds: Iterable[tuple[int, date]] = ()) -> int:
    """Replace the user's bookings with these (card id, day) pairs from ``today`` on (earlier
    ones are dropped too: a past day's booking means nothing), and with ``holds``: (card id, day
    the plan's hold on it ends) pairs, stored as ``hold`` rows (a card holds nothing on a day it
    is booked). Returns how many bookings (not holds) are stored."""
    db.session.execute(delete(PlannedReview).where(PlannedReview.user_id == user_id))
    rows = sorted({(card_id, day) for card_id, day in bookings if day >= today})
    held = sorted({(card_id, day) for card_id, day in holds if day > today} - set(rows))
    db.session.add_all(PlannedReview(user_id=user_id, card_id=card_id, day=day) for card_id, day in rows)
    db.session.add_all(PlannedReview(user_id=user_id, card_id=card_id, day=day, hold=True) for card_id, day in held)
    db.session.flush()
    return len(rows)


def booked_today(user_id: int, day: StudyDay) -> ColumnElement[bool]:
    """Cards booked for this study day and not answered yet today (a learning card answered
    today comes back through the learning steps, not through the booking)."""
    ids = select(PlannedReview.card_id).where(PlannedReview.user_id == user_id, PlannedReview.day == day.day,
                                              PlannedReview.hold.is_(False))
    return and_(Card.id.in_(ids), Card.state.in_([CardState.new, CardState.review]),
                or_(Card.last_review.is_(None), Card.last_review < day.start))


def not_held(study_date: Any) -> ColumnElement[bool]:
    """False for a card the plan holds back on ``study_date``: it has bookings (or a hold row) on
    a later day (its interview is still ahead) and no booking on this day. Such a card is not
    offered as an ordinary due review even when FSRS makes it due: the plan decided when it is
    reviewed, its last review included. From the day its hold ends (its last interview) this is
    true again and plain FSRS takes over. ``study_date`` is a value, a bound parameter or a
    column (the reminder sweep's ``CASE``)."""
    def booked(cond: ColumnElement[bool]) -> ColumnElement[bool]:
        return exists().where(PlannedReview.card_id == Card.id, cond)
    return or_(not_(booked(PlannedReview.day > study_date)),
               booked(and_(PlannedReview.day == study_date, PlannedReview.hold.is_(False))))


def bookings(user_id: int, since: date) -> list[tuple[int, date]]:
    return [(r.card_id, r.day) for r in db.session.execute(
        select(PlannedReview.card_id, PlannedReview.day).where(
            PlannedReview.user_id == user_id, PlannedReview.day >= since, PlannedReview.hold.is_(False))
        .order_by(PlannedReview.day))]
