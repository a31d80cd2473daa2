"""Drill operations on the database: the next card, rating, undo, counts, study list (cramming
ahead of schedule is :mod:`prep.drill.cramming`). Views call these and commit; these never commit."""
from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Select, bindparam, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import lazyload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key

from ..accounts.models import User
from ..extensions import db
from ..questions.models import Question
from . import planned, queue, scheduling, tally, today
from .cards import memory_of
from .siblings import (BURIED_SIBLINGS, balanced_outcome, bury_cards, due_per_day,  # noqa: F401 (service.*)
                       due_siblings_column, sibling_ids, unbury_siblings)
from .streak import current_streak  # noqa: F401 (callers use service.current_streak)
from .models import Card, CardState, ReviewLog
from .review_log import insert_log
from .tally import QueueCounts

MAX_DURATION_MS = 10 * 60 * 1000  # longer than this on one card is time away from the screen


class CardNotFound(LookupError):
    """The card does not exist or belongs to someone else."""


def study_day(user: User, now: datetime) -> queue.StudyDay:
    return queue.study_day(now, user.timezone, user.day_start_hour)


def limits(user: User) -> queue.Limits:
    return queue.Limits(new_per_day=user.new_per_day, reviews_per_day=user.reviews_per_day)


def scheduler_settings(user: User) -> scheduling.SchedulerSettings:
    return scheduling.settings_for_user(user)


@functools.cache
def _done_today_statement() -> Select:
    """:func:`done_today`'s query, built once (bound per call: ``uid``, ``day_start``, ``day_end``)."""
    return select(*today.done_columns()).where(*today.todays_logs())


def done_today(user: User, day: queue.StudyDay) -> queue.DoneToday:
    """Today's new cards and reviews answered (ratings only), and every log of today (one query)."""
    return today.done_from(db.session.execute(_done_today_statement(),
                                              {"uid": user.id, "day_start": day.start, "day_end": day.end}).one())


def _learning_states():
    return Card.state.in_([CardState.learning, CardState.relearning])


def pick_where(pick: queue.Pick) -> tuple[list[Any], tuple[Any, ...]]:
    """The conditions and the order of one kind of card in the queue, with bound parameters
    (``uid``, ``now``, ``day_start``, ``day_end``, ``ahead``, ``study_date``): the one definition
    :func:`next_card` and the card batch (:mod:`.batch`) build their statements from."""
    active = [Card.user_id == bindparam("uid"), Card.suspended.is_(False),
              or_(Card.buried_until.is_(None), Card.buried_until <= bindparam("now"))]
    by_due = (Card.due, Card.id)
    if pick is queue.Pick.learning:
        return [*active, _learning_states(), Card.due <= bindparam("now")], by_due
    if pick is queue.Pick.review:
        return [*active, Card.state == CardState.review, Card.due < bindparam("day_end"),
                planned.not_held(bindparam("study_date"))], by_due
    if pick is queue.Pick.new:
        # A new card the plan introduces on a later day waits for it (not an ordinary new card).
        return [*active, Card.state == CardState.new, planned.not_held(bindparam("study_date"))], (Card.added_at, Card.id)
    if pick is queue.Pick.planned:
        day = queue.StudyDay(day=bindparam("study_date"), start=bindparam("day_start"), end=bindparam("day_end"))
        return [*active, planned.booked_today(bindparam("uid"), day)], by_due
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


@dataclass(frozen=True)
class Counts:
    """Today's figures: the queue counts every screen shares (:func:`.tally.queue_counts`),
    plus the reviews done today and the streak."""

    queue: QueueCounts
    reviewed_today: int
    streak: int | None  # None: not read (the drill page does not show it)

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


def tally_and_done(user: User, now: datetime) -> tuple[tally.Tally, queue.DoneToday]:
    """Today's :func:`today.tally` and :func:`done_today` in one query, for a request that needs
    both (pass them on to :func:`next_card`, :func:`counts` and :func:`queue_counts`)."""
    return today.tally_and_done(user.id, now, study_day(user, now))


def queue_counts(user: User, now: datetime, done: queue.DoneToday | None = None,
                 counted: tally.Tally | None = None) -> QueueCounts:
    """Due now / learning later today / new allowed today / buried: one query plus today's reviews
    (``counted``: the tally, when the caller has it from :func:`tally_and_done`)."""
    day = study_day(user, now)
    return tally.queue_counts(counted if counted is not None else today.tally(user.id, now, day), limits(user),
                              done if done is not None else done_today(user, day))


def counts(user: User, now: datetime, done: queue.DoneToday | None = None,
           counted: tally.Tally | None = None, streak: bool = True) -> Counts:
    """Dashboard and drill figures for the user's current study day (``streak=False``: without
    the streak, a query the drill page, which does not show it, leaves out)."""
    day = study_day(user, now)
    if done is None or done.answered is None:
        done = done_today(user, day)
    return Counts(queue=queue_counts(user, now, done, counted), reviewed_today=int(done.answered or 0),
                  streak=current_streak(user, now) if streak else None)


def get_card(user: User, card_id: int, *, for_update: bool = False) -> Card:
    """The user's card (``for_update``: locked, and without its question: writers rarely need it,
    and loading it costs a join plus two SELECTs for its tags and links)."""
    stmt = select(Card).where(Card.id == card_id, Card.user_id == user.id)
    if for_update:
        stmt = stmt.options(lazyload(Card.question)).with_for_update(of=Card)
    card = db.session.scalar(stmt)
    if card is None:
        raise CardNotFound(card_id)
    return card


@dataclass(frozen=True)
class RateResult:
    recorded: bool
    card: Any  # the Card (a RatedCard when the session did not hold it)
    review: ReviewLog | None = None
    also: Any = None  # the value of the caller's ``also`` column, read with the card


@dataclass
class RatedCard:
    """The fields a rating reads and writes, read as a row (issue 20: no ORM load or flush of the card)."""

    id: int
    question_id: int
    version: int
    state: CardState
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None
    reps: int
    lapses: int
    buried_until: datetime | None = None


_RATED = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses", "version", "buried_until")
_READ = [f for f in RatedCard.__dataclass_fields__ if f != "buried_until"]  # the locked read's card columns


@functools.cache
def _locked_card_statement(also: Any = None) -> Select:
    """The rated card, locked, its siblings due today and the caller's ``also`` column, if any."""
    columns = [getattr(Card, f) for f in _READ]
    extra = [due_siblings_column()] + ([also] if also is not None else [])
    return select(*columns, *extra).where(
        Card.id == bindparam("cid"), Card.user_id == bindparam("uid")).with_for_update(of=Card)


@functools.cache
def _update_card_statement() -> Any:
    """The rated card's new state, only if it is still at the version shown (``shown``)."""
    table = Card.__table__
    return update(table).where(table.c.id == bindparam("cid"), table.c.version == bindparam("shown")).values(
        {f: bindparam(f"new_{f}", type_=table.c[f].type) for f in _RATED})


def _write_card(card: RatedCard, shown_version: int) -> bool:
    """UPDATE the card (False when it moved on meanwhile); a Card the session holds gets the new values."""
    params = {"cid": card.id, "shown": shown_version, **{f"new_{f}": getattr(card, f) for f in _RATED}}
    if db.session.connection().execute(_update_card_statement(), params).rowcount != 1:
        return False
    held = db.session.identity_map.get(identity_key(Card, card.id))
    if held is not None:
        for f in _RATED:
            set_committed_value(held, f, getattr(card, f))
    return True


def rate(user: User, card_id: int, shown_version: int, rating: int, now: datetime,
         duration_ms: int | None = None, key_points: dict | None = None,
         request_id: str | None = None, also: Any = None) -> RateResult:
    """Record a rating for the card as it was shown (``shown_version``).

    The new review interval is load-balanced within fsrs's fuzz range (:func:`balanced_outcome`),
    and the card's siblings due today are buried until tomorrow (:func:`due_siblings_column`,
    read with the card). Idempotent: a second submit of the same shown card finds a newer version
    (or hits the unique (card, version) constraint under a race) and records nothing.
    ``key_points``: the log's ticks (:func:`.self_grading.ticks_record`). ``also``: a column read
    with the card (bound: ``uid``, ``now``, ``day_end``, ``today``), in ``RateResult.also``."""
    if db.session.new or db.session.dirty or db.session.deleted:
        db.session.flush()  # as session.execute would: the rating's statements run on its connection (Core)
    day = study_day(user, now)
    row = db.session.connection().execute(_locked_card_statement(also), {
        "cid": card_id, "uid": user.id, "now": now, "day_end": day.end, "today": day.day}).one_or_none()
    if row is None:
        raise CardNotFound(card_id)
    if row.version != shown_version:
        return RateResult(recorded=False, card=get_card(user, card_id))
    fields = len(_READ)
    card = RatedCard(*row[:fields])
    duration = max(0, min(int(duration_ms or 0), MAX_DURATION_MS))
    memory = memory_of(card)
    before = scheduling.snapshot(memory)
    state_before = card.state
    settings = replace(scheduler_settings(user), enable_fuzzing=False)  # the balancer replaces fuzz
    outcome = scheduling.review(scheduling.make_scheduler(settings), memory, rating, now, duration)
    outcome = balanced_outcome(user, card, outcome, now)
    siblings = sibling_ids(row[fields])
    if siblings:
        before[BURIED_SIBLINGS] = siblings  # undo unburies them
    scheduling.apply(card, outcome)
    card.version += 1
    card.buried_until = None
    log = ReviewLog(card_id=card.id, user_id=user.id, card_version=shown_version, rating=rating,
                    reviewed_at=now, duration_ms=duration, state_before=state_before.value,
                    state_after=card.state.value, card_before=before, key_points_ticked=key_points,
                    kind="review", request_id=request_id)
    if not _write_card(card, shown_version) or not insert_log(log):
        return RateResult(recorded=False, card=get_card(user, card_id))
    if siblings:
        bury_cards(user, siblings, day.end)
    return RateResult(recorded=True, card=db.session.identity_map.get(identity_key(Card, card.id)) or card,
                      review=log, also=row[fields + 1] if also is not None else None)


# --- undo -------------------------------------------------------------------------------------

def last_review(user: User) -> ReviewLog | None:
    return db.session.scalar(
        select(ReviewLog).where(ReviewLog.user_id == user.id, ReviewLog.kind == "review")
        .order_by(ReviewLog.reviewed_at.desc(), ReviewLog.id.desc()).limit(1))


def has_review(user: User) -> bool:
    """Whether there is a rating to undo (one indexed lookup of an id, not a whole log row)."""
    return db.session.scalar(select(ReviewLog.id).where(ReviewLog.user_id == user.id, ReviewLog.kind == "review")
                             .limit(1)) is not None


def undo_last(user: User) -> Card | None:
    """Undo the user's most recent rating: the card gets its earlier state back, the siblings
    it buried come back, and the review is removed. Returns the card, or None when there is
    nothing to undo."""
    log = last_review(user)
    if log is None:
        return None
    # The user's latest review is also its card's latest, so its snapshot is the state to restore.
    card = get_card(user, log.card_id, for_update=True)
    scheduling.restore(card, log.card_before)
    card.version += 1
    unbury_siblings(user, log)
    db.session.delete(log)
    db.session.flush()
    return card


def store_log(log: ReviewLog) -> bool:
    """Add a review log and flush (with the session's pending changes); False when the (card,
    version) was recorded already (see :func:`.review_log.insert_log`)."""
    db.session.add(log)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        return False
    return True


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
    added = 0
    for offset, qid in enumerate(fresh):
        # Stagger added_at so new cards keep the order they were added in.
        db.session.add(Card(user_id=user.id, question_id=qid, due=now,
                            added_at=now + timedelta(microseconds=offset)))
        added += 1
    db.session.flush()
    return added


def bury(card: Card, user: User, now: datetime) -> None:
    """Hide the card until the next study day."""
    card.buried_until = study_day(user, now).end


def unbury_all(user: User, now: datetime) -> int:
    """Bring back today every card of the user's that is buried until later; how many."""
    result = db.session.execute(update(Card).where(Card.user_id == user.id, Card.buried_until > now)
                                .values(buried_until=None).execution_options(synchronize_session=False))
    return int(result.rowcount or 0)


def set_suspended(card: Card, suspended: bool) -> None:
    card.suspended = suspended
