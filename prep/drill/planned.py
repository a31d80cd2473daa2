"""Cards booked for a study day by a plan (interview mode): storing the bookings and the query
condition the drill's queue uses to offer them. The reviews themselves are ordinary ones.

Database edge; views commit.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, case, delete, exists, not_, or_, select
from sqlalchemy.sql.elements import ColumnElement

from ..extensions import db
from .models import Card, CardState, PlannedReview
from .queue import StudyDay


#: The order in which a day's booked new cards are offered (:attr:`PlannedReview.priority`): the
#: questions asked in an interview report of the company, then those the posting lists, then the
#: likely questions the candidate chose, then any other card.
OWN_REPORT, OWN_POSTING, LIKELY, OTHER = 0, 1, 2, 3


def replace_bookings(user_id: int, bookings: Iterable[tuple[int, date]], today: date,
                     holds: Iterable[tuple[int, date]] = (), priorities: Mapping[int, int] | None = None) -> int:
    """Replace the user's bookings with these (card id, day) pairs from ``today`` on (earlier
    ones are dropped too: a past day's booking means nothing), and with ``holds``: (card id, day
    the plan's hold on it ends) pairs, stored as ``hold`` rows (a card holds nothing on a day it
    is booked). ``priorities``: card id -> the order its booking is offered in (default
    :data:`OTHER`). Returns how many bookings (not holds) are stored."""
    db.session.execute(delete(PlannedReview).where(PlannedReview.user_id == user_id))
    rows = sorted({(card_id, day) for card_id, day in bookings if day >= today})
    held = sorted({(card_id, day) for card_id, day in holds if day > today} - set(rows))
    priorities = priorities or {}
    db.session.add_all(PlannedReview(user_id=user_id, card_id=card_id, day=day,
                                     priority=priorities.get(card_id, OTHER)) for card_id, day in rows)
    db.session.add_all(PlannedReview(user_id=user_id, card_id=card_id, day=day, hold=True) for card_id, day in held)
    db.session.flush()
    return len(rows)


def drop_bookings_on(user_id: int, day: date) -> None:
    """Drop the user's bookings for ``day`` (the day's budget is used), keeping the holds."""
    db.session.execute(delete(PlannedReview).where(PlannedReview.user_id == user_id, PlannedReview.day == day,
                                                   PlannedReview.hold.is_(False)))


def add_bookings(user_id: int, bookings: Iterable[tuple[int, date]]) -> int:
    """Add these (card id, day) bookings to the user's (studying ahead of the plan), leaving the
    others as they are; a pair already booked is not added twice. Returns how many were added."""
    pairs = sorted(set(bookings))
    if not pairs:
        return 0
    have = {(row.card_id, row.day) for row in db.session.execute(select(PlannedReview.card_id, PlannedReview.day).where(
        PlannedReview.user_id == user_id, PlannedReview.card_id.in_([c for c, _ in pairs])))}
    added = [(c, d) for c, d in pairs if (c, d) not in have]
    db.session.add_all(PlannedReview(user_id=user_id, card_id=c, day=d) for c, d in added)
    db.session.flush()
    return len(added)


def booked_today(user_id: int, day: StudyDay) -> ColumnElement[bool]:
    """Cards booked for this study day and not answered yet today (a learning card answered
    today comes back through the learning steps, not through the booking)."""
    ids = select(PlannedReview.card_id).where(PlannedReview.user_id == user_id, PlannedReview.day == day.day,
                                              PlannedReview.hold.is_(False))
    return and_(Card.id.in_(ids), Card.state.in_([CardState.new, CardState.review]),
                or_(Card.last_review.is_(None), Card.last_review < day.start))


def new_offered(study_date: Any) -> ColumnElement[bool]:
    """True for a new card the drill offers on ``study_date`` (values, bound parameters or
    columns): one the plan books that day; otherwise, under the daily new-card limit, one the
    plan does not hold back, and only while the candidate has no plan ahead (no booking or hold
    after that day): with an interview ahead the day's new cards are the plan's."""
    def booked(*cond: ColumnElement[bool]) -> ColumnElement[bool]:
        return exists().where(PlannedReview.card_id == Card.id, *cond)
    plan_ahead = exists().where(PlannedReview.user_id == Card.user_id, PlannedReview.day > study_date)
    return or_(booked(PlannedReview.day == study_date, PlannedReview.hold.is_(False)),
               and_(not_held(study_date), not_(plan_ahead)))


def booked_order(study_date: Any) -> tuple[Any, ...]:
    """The order of the cards booked for ``study_date``: reviews first, then new cards by their
    booking's priority (the candidate's own questions first), then by due time."""
    priority = (select(PlannedReview.priority).where(PlannedReview.card_id == Card.id, PlannedReview.day == study_date,
                                                     PlannedReview.hold.is_(False)).limit(1).scalar_subquery())
    return case((Card.state == CardState.new, 1), else_=0), priority, Card.due, Card.id


def not_held(study_date: Any) -> ColumnElement[bool]:
    """False for a card the plan holds back on ``study_date``: it has bookings (or a hold row) on
    a later day (its interview is still ahead) and no booking on this day. Such a card is not
    offered as an ordinary due review even when FSRS makes it due, nor, while new, as an ordinary
    new card under the daily new-card limit: the plan decided when it is introduced and
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


def planned_from(since: date) -> ColumnElement[bool]:
    """True for a card with a booking or a hold on ``since`` or later: the cards a forecast of
    the days from ``since`` on reads through :func:`planned_cards`, and only those."""
    return exists().where(PlannedReview.card_id == Card.id, PlannedReview.day >= since)


@dataclass(frozen=True)
class PlannedCard:
    """A studied card the plan books (or holds) from some day on, as a forecast reads it."""

    card_id: int
    due: Any                     # what the caller selected for the due date (a time, a day number)
    state: CardState
    last_review: datetime | None
    booked: frozenset[date]
    holds: frozenset[date]


def planned_cards(user_id: int, since: date, due: Any = Card.due, *where: Any) -> list[PlannedCard]:
    """The user's unsuspended studied (not new) cards with bookings or a hold from ``since`` on,
    each with ``due`` (a column over ``Card.due``), its booked days and hold days from then on (one
    query; ``where``: more conditions on the card). New cards are left out: a forecast counts
    them from the pool of new cards, booked or not."""
    return fold_rows(db.session.execute(
        select(Card.id, due, Card.state, Card.last_review, PlannedReview.day, PlannedReview.hold)
        .join(PlannedReview, PlannedReview.card_id == Card.id)
        .where(Card.user_id == user_id, PlannedReview.day >= since, Card.suspended.is_(False),
               Card.state != CardState.new, *where)
        .order_by(Card.id)))


def fold_rows(rows: Iterable[Any]) -> list[PlannedCard]:
    """One :class:`PlannedCard` per card from rows of (card id, due, state, last review, day,
    hold), a row per booking or hold row of the card."""
    found: dict[int, tuple[Any, CardState, datetime | None, set[date], set[date]]] = {}
    for card_id, card_due, state, last_review, day, hold in rows:
        entry = found.setdefault(card_id, (card_due, state, last_review, set(), set()))
        entry[4 if hold else 3].add(day)
    return [PlannedCard(card_id, d, st, last, frozenset(booked), frozenset(holds))
            for card_id, (d, st, last, booked, holds) in found.items()]
