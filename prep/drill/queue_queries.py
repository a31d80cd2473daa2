"""Today's queue from the database: the user's study day and limits, the queries that pick the
card to show next, and the one query behind today's counts (:mod:`.queue` holds the rules these
apply).

:func:`tally_columns` is the counting query's definition: the drill, the dashboard, the stats page
and the reminder banner select it for one user (:func:`tally`); the reminder sweep selects the
same columns grouped by user, with each user's day end as a ``CASE``. The drill page's statements
are built once with bound parameters (building their expression trees cost as much as running
them). Nothing here commits.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, bindparam, case, func, or_, select
from sqlalchemy.types import Date

from ..accounts.models import User
from ..dbtypes import UTCDateTime
from ..extensions import db
from . import planned, queue
from .models import Card, CardState, PlannedReview, ReviewLog
from .queue import QueueCounts, Tally
from .streak import current_streak


def study_day(user: User, now: datetime) -> queue.StudyDay:
    """The user's study day containing ``now``."""
    return queue.study_day(now, user.timezone, user.day_start_hour)


def limits(user: User) -> queue.Limits:
    return queue.Limits(new_per_day=user.new_per_day, reviews_per_day=user.reviews_per_day)


# --- the counts -------------------------------------------------------------------------------

TALLY_FIELDS = ("learning_now", "learning_later", "next_learning", "reviews_due", "new", "buried", "total",
                "suspended", "planned")


def tally_columns(now: Any, day_end: Any, day_start: Any, study_date: Any, horizon: Any = None) -> list[Any]:
    """The labelled aggregate columns of :class:`.queue.Tally`, in :data:`TALLY_FIELDS` order.
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
        count(and_(active, Card.state == CardState.new, planned.new_offered(study_date)), "new"),
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

    return [ratings_from(CardState.new), ratings_from(CardState.review), func.count(ReviewLog.id),
            func.count(ReviewLog.card_id.distinct())]


def todays_logs() -> list[Any]:
    """The conditions of :func:`done_columns` (bound: ``uid``, ``day_start``, ``day_end``)."""
    return [ReviewLog.user_id == bindparam("uid"), ReviewLog.reviewed_at >= bindparam("day_start"),
            ReviewLog.reviewed_at < bindparam("day_end")]


def done_from(values: Any) -> queue.DoneToday:
    """The :class:`queue.DoneToday` of the four :func:`done_columns` values."""
    new, reviews, answered, cards = values
    return queue.DoneToday(new=int(new), reviews=int(reviews), answered=int(answered), cards=int(cards))


@functools.cache
def _tally_and_done_statement() -> Select:
    """:func:`tally_and_done`'s query: the tally with today's logs counted as scalar subqueries."""
    return _tally_statement().add_columns(*[select(c).where(*todays_logs()).scalar_subquery()
                                            for c in done_columns()])


def _params(user_id: int, now: datetime, day: queue.StudyDay) -> dict[str, Any]:
    return {"uid": user_id, "now": now, "horizon": now + queue.LEARN_AHEAD, "day_end": day.end,
            "day_start": day.start, "study_date": day.day}


def _read_tally(user_id: int, now: datetime, day: queue.StudyDay) -> Tally:
    """One user's :class:`Tally` for the study day ``day`` (one query)."""
    return tally_from_row(db.session.execute(_tally_statement(), _params(user_id, now, day)).one())


def _read_tally_and_done(user_id: int, now: datetime, day: queue.StudyDay) -> tuple[Tally, queue.DoneToday]:
    """:func:`tally` and today's :class:`queue.DoneToday` (as :func:`done_today` counts it) in one
    query (the drill page and the card batch need both)."""
    # On the session's connection: a Core result (no pending changes in the GET views that call this).
    row = db.session.connection().execute(_tally_and_done_statement(), _params(user_id, now, day)).one()
    return tally_from_row(row), done_from(row[len(TALLY_FIELDS):])


@functools.cache
def _done_today_statement() -> Select:
    """:func:`done_today`'s query, built once (bound per call: ``uid``, ``day_start``, ``day_end``)."""
    return select(*done_columns()).where(*todays_logs())


def done_today(user: User, day: queue.StudyDay) -> queue.DoneToday:
    """Today's new cards and reviews answered (ratings only), and every log of today (one query)."""
    return done_from(db.session.execute(_done_today_statement(),
                                        {"uid": user.id, "day_start": day.start, "day_end": day.end}).one())


@dataclass(frozen=True)
class Counts:
    """Today's figures: the queue counts every screen shares (:func:`.queue.queue_counts`),
    plus the reviews done today and the streak."""

    queue: QueueCounts
    reviewed_today: int   # answers today (every rating and cram answer), :attr:`queue.DoneToday.answered`
    streak: int | None  # None: not read (the drill page does not show it)

    cards_today: int = 0  # the cards those answers were to (a card answered three times counts once)

    @property
    def learning_now(self) -> int:
        return self.queue.learning_now

    @property
    def reviews_today(self) -> int:
        """Reviews due now, interview bookings included (as ``due_now`` counts them)."""
        return self.queue.reviews_now + self.queue.planned_now

    @property
    def new_available(self) -> int:
        return self.queue.new_today

    @property
    def planned_today(self) -> int:
        return self.queue.planned_now

    @property
    def due_now(self) -> int:
        return self.queue.due_now

    @property
    def remaining_today(self) -> int:
        """Cards the drill would show now (learning cards due later today are ``queue.learning_later``)."""
        return self.queue.remaining_now

    @property
    def total_cards(self) -> int:
        return self.queue.total_cards

    @property
    def suspended(self) -> int:
        return self.queue.suspended


def tally_and_done(user: User, now: datetime) -> tuple[Tally, queue.DoneToday]:
    """Today's :class:`Tally` and :func:`done_today` in one query, for a request that needs both
    (pass them on to :func:`next_card`, :func:`counts` and :func:`queue_counts`)."""
    return _read_tally_and_done(user.id, now, study_day(user, now))


def queue_counts(user: User, now: datetime, done: queue.DoneToday | None = None,
                 counted: Tally | None = None) -> QueueCounts:
    """Due now / learning later today / new allowed today / buried: one query plus today's reviews
    (``counted``: the tally, when the caller has it from :func:`tally_and_done`)."""
    day = study_day(user, now)
    return queue.queue_counts(counted if counted is not None else _read_tally(user.id, now, day), limits(user),
                              done if done is not None else done_today(user, day))


def counts(user: User, now: datetime, done: queue.DoneToday | None = None,
           counted: Tally | None = None, streak: bool = True) -> Counts:
    """Dashboard and drill figures for the user's current study day (``streak=False``: without
    the streak, a query the drill page, which does not show it, leaves out)."""
    day = study_day(user, now)
    if done is None or done.answered is None:
        done = done_today(user, day)
    return Counts(queue=queue_counts(user, now, done, counted), reviewed_today=int(done.answered or 0),
                  cards_today=int(done.cards or 0),
                  streak=current_streak(user, now) if streak else None)


# --- the next card ----------------------------------------------------------------------------

def _learning_states():
    return Card.state.in_([CardState.learning, CardState.relearning])


def pick_where(pick: queue.Pick) -> tuple[list[Any], tuple[Any, ...]]:
    """The conditions and the order of one kind of card in the queue, with bound parameters
    (``uid``, ``now``, ``day_start``, ``day_end``, ``ahead``, ``study_date``): the one definition
    :func:`next_card` and the drill session's batch (:mod:`.session`) build their statements from."""
    active = [Card.user_id == bindparam("uid"), Card.suspended.is_(False),
              or_(Card.buried_until.is_(None), Card.buried_until <= bindparam("now"))]
    by_due = (Card.due, Card.id)
    if pick is queue.Pick.learning:
        return [*active, _learning_states(), Card.due <= bindparam("now")], by_due
    if pick is queue.Pick.review:
        return [*active, Card.state == CardState.review, Card.due < bindparam("day_end"),
                planned.not_held(bindparam("study_date"))], by_due
    if pick is queue.Pick.new:
        # A new card the plan introduces on a later day waits for it, and with an interview
        # ahead the day's new cards are the plan's (offered as planned ones).
        return [*active, Card.state == CardState.new, planned.new_offered(bindparam("study_date"))], (Card.added_at, Card.id)
    if pick is queue.Pick.planned:
        day = queue.StudyDay(day=bindparam("study_date"), start=bindparam("day_start"), end=bindparam("day_end"))
        return [*active, planned.booked_today(bindparam("uid"), day)], planned.booked_order(bindparam("study_date"))
    return [*active, _learning_states(), Card.due <= bindparam("ahead")], by_due


@functools.cache
def _pick_statement(pick: queue.Pick) -> Select[tuple[Card]]:
    """The first card of one kind, built once (bound per call: ``uid``, ``now``, ``day_start``,
    ``day_end``, ``ahead``, ``study_date``)."""
    where, order = pick_where(pick)
    return select(Card).where(*where).order_by(*order).limit(1)


@functools.cache
def _exists_statement(picks: tuple[queue.Pick, ...]) -> Select:
    """:func:`has_card_now`'s one statement for this pick order, built once."""
    return select(or_(*[_pick_statement(p).with_only_columns(Card.id).exists() for p in picks]))


def pick_queries(user: User, now: datetime, done: queue.DoneToday | None) -> tuple[dict, list[queue.Pick]]:
    """The kinds :func:`next_card` looks at in :func:`queue.pick_order` (the first row found
    wins), and the values their queries are bound to."""
    day = study_day(user, now)
    b = queue.budget(limits(user), done if done is not None else done_today(user, day))
    params = {"uid": user.id, "now": now, "day_start": day.start, "day_end": day.end,
              "ahead": now + queue.LEARN_AHEAD, "study_date": day.day}
    return params, queue.with_planned(queue.pick_order(b))


def next_card(user: User, now: datetime, done: queue.DoneToday | None = None) -> Card | None:
    """The card to show now, following :func:`queue.pick_order` (``done``: today's
    :func:`done_today`, when the caller has it already)."""
    params, picks = pick_queries(user, now, done)
    for pick in picks:
        card = db.session.scalar(_pick_statement(pick), params)
        if card is not None:
            return card
    return None


def has_card_now(user: User, now: datetime) -> bool:
    """Whether :func:`next_card` would find a card: its queries as EXISTS, in one statement (no
    question, tags or links loaded)."""
    params, picks = pick_queries(user, now, None)
    return bool(picks) and bool(db.session.scalar(_exists_statement(tuple(picks)), params))
