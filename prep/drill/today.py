"""The one query behind today's queue counts (:mod:`.tally` holds the rule that reads it).

:func:`tally_columns` is the query's definition: the drill, the dashboard, the stats page and the
reminder banner select it for one user (:func:`tally`); the reminder sweep selects the same
columns grouped by user, with each user's day end as a ``CASE``. Nothing here commits.
"""
from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, bindparam, case, func, or_, select
from sqlalchemy.types import Date

from ..dbtypes import UTCDateTime
from ..extensions import db
from . import planned, queue
from .models import Card, CardState, PlannedReview, ReviewLog
from .tally import Tally

TALLY_FIELDS = ("learning_now", "learning_later", "next_learning", "reviews_due", "new", "buried", "total",
                "suspended", "planned")


def tally_columns(now: Any, day_end: Any, day_start: Any, study_date: Any, horizon: Any = None) -> list[Any]:
    """The labelled aggregate columns of :class:`.tally.Tally`, in :data:`TALLY_FIELDS` order.
    ``day_end``, ``day_start`` and ``study_date`` (the study day's date, which interview-mode
    bookings name) are values or columns (the sweep's per-user ``CASE``); ``horizon`` (learning
    cards due by then count as due now) is ``now + queue.LEARN_AHEAD`` unless given."""
    active = and_(Card.suspended.is_(False), or_(Card.buried_until.is_(None), Card.buried_until <= now))
    learning = and_(active, Card.state.in_([CardState.learning, CardState.relearning]))
    horizon = now + queue.LEARN_AHEAD if horizon is None else horizon
    later = and_(learning, Card.due > horizon, Card.due < day_end)

    def count(cond: Any, name: str) -> Any:
        return func.coalesce(func.sum(case((cond, 1), else_=0)), 0).label(name)

    return [
        count(and_(learning, Card.due <= horizon), "learning_now"),
        count(later, "learning_later"),
        func.min(case((later, Card.due), else_=None), type_=UTCDateTime()).label("next_learning"),
        count(and_(active, Card.state == CardState.review, Card.due < day_end,
                   planned.not_held(study_date)), "reviews_due"),
        count(and_(active, Card.state == CardState.new, planned.not_held(study_date)), "new"),
        count(and_(Card.suspended.is_(False), Card.buried_until > now), "buried"),
        func.count(Card.id).label("total"),
        count(Card.suspended.is_(True), "suspended"),
        count(and_(active, Card.state == CardState.review, Card.due >= day_end,
                   or_(Card.last_review.is_(None), Card.last_review < day_start),
                   select(PlannedReview.id).where(PlannedReview.card_id == Card.id,
                                                  PlannedReview.day == study_date,
                                                  PlannedReview.hold.is_(False)).exists()), "planned"),
    ]


def tally_from_row(row: Any, offset: int = 0) -> Tally:
    """A :class:`Tally` from the :func:`tally_columns` values of a result row, from ``offset`` on."""
    values = dict(zip(TALLY_FIELDS, row[offset:offset + len(TALLY_FIELDS)]))
    return Tally(**{k: (v if k == "next_learning" else int(v or 0)) for k, v in values.items()})


@functools.cache
def _tally_statement() -> Select:
    """:func:`tally`'s query, built once (bound per call: ``uid``, ``now``, ``horizon``,
    ``day_end``, ``day_start``, ``study_date``): building its expression tree cost as much as
    running it."""
    def moment(name: str) -> Any:
        return bindparam(name, type_=UTCDateTime())
    return select(*tally_columns(moment("now"), moment("day_end"), moment("day_start"),
                                 bindparam("study_date", type_=Date()), horizon=moment("horizon"))
                  ).where(Card.user_id == bindparam("uid"))


def done_columns() -> list[Any]:
    """Today's new cards and reviews answered (ratings only) and every log of today, as the
    aggregates of :class:`queue.DoneToday` over the logs :func:`todays_logs` selects."""
    rating = ReviewLog.kind == "review"

    def ratings_from(state: CardState) -> Any:
        return func.coalesce(func.sum(case((and_(rating, ReviewLog.state_before == state.value), 1), else_=0)), 0)

    return [ratings_from(CardState.new), ratings_from(CardState.review), func.count(ReviewLog.id)]


def todays_logs() -> list[Any]:
    """The conditions of :func:`done_columns` (bound: ``uid``, ``day_start``, ``day_end``)."""
    return [ReviewLog.user_id == bindparam("uid"), ReviewLog.reviewed_at >= bindparam("day_start"),
            ReviewLog.reviewed_at < bindparam("day_end")]


def done_from(values: Any) -> queue.DoneToday:
    """The :class:`queue.DoneToday` of the three :func:`done_columns` values."""
    new, reviews, answered = values
    return queue.DoneToday(new=int(new), reviews=int(reviews), answered=int(answered))


@functools.cache
def _tally_and_done_statement() -> Select:
    """:func:`tally_and_done`'s query: the tally with today's logs counted as scalar subqueries."""
    return _tally_statement().add_columns(*[select(c).where(*todays_logs()).scalar_subquery()
                                            for c in done_columns()])


def _params(user_id: int, now: datetime, day: queue.StudyDay) -> dict[str, Any]:
    return {"uid": user_id, "now": now, "horizon": now + queue.LEARN_AHEAD, "day_end": day.end,
            "day_start": day.start, "study_date": day.day}


def tally(user_id: int, now: datetime, day: queue.StudyDay) -> Tally:
    """One user's :class:`Tally` for the study day ``day`` (one query)."""
    return tally_from_row(db.session.execute(_tally_statement(), _params(user_id, now, day)).one())


def tally_and_done(user_id: int, now: datetime, day: queue.StudyDay) -> tuple[Tally, queue.DoneToday]:
    """:func:`tally` and today's :class:`queue.DoneToday` (as ``service.done_today`` counts it)
    in one query (the drill page and the card batch need both)."""
    # On the session's connection: a Core result (no pending changes in the GET views that call this).
    row = db.session.connection().execute(_tally_and_done_statement(), _params(user_id, now, day)).one()
    return tally_from_row(row), done_from(row[len(TALLY_FIELDS):])
