"""Drill operations on the database: the next card, rating, undo, counts, study list
(cramming ahead of schedule is :mod:`prep.drill.cramming`).

Views call these and commit; these functions never commit themselves.
"""
from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import Select, and_, case, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import lazyload

from ..accounts.models import User
from ..extensions import db
from ..zones import user_zone
from ..questions.models import Question, QuestionExplanation
from . import planned, queue, scheduling, tally, today
from .cards import memory_of
from .models import Card, CardState, ReviewLog
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


def done_today(user: User, day: queue.StudyDay) -> queue.DoneToday:
    row = db.session.execute(
        select(
            func.coalesce(func.sum(case((ReviewLog.state_before == CardState.new.value, 1), else_=0)), 0),
            func.coalesce(func.sum(case((ReviewLog.state_before == CardState.review.value, 1), else_=0)), 0),
        ).where(ReviewLog.user_id == user.id, ReviewLog.reviewed_at >= day.start,
                ReviewLog.reviewed_at < day.end, ReviewLog.kind == "review")
    ).one()
    return queue.DoneToday(new=int(row[0]), reviews=int(row[1]))


def _active(user: User, now: datetime) -> Select[tuple[Card]]:
    return select(Card).where(
        Card.user_id == user.id,
        Card.suspended.is_(False),
        or_(Card.buried_until.is_(None), Card.buried_until <= now),
    )


def _learning_states():
    return Card.state.in_([CardState.learning, CardState.relearning])


def next_card(user: User, now: datetime, done: queue.DoneToday | None = None) -> Card | None:
    """The card to show now, following :func:`queue.pick_order` (``done``: today's
    :func:`done_today`, when the caller has it already)."""
    day = study_day(user, now)
    b = queue.budget(limits(user), done if done is not None else done_today(user, day))
    base = _active(user, now)
    for pick in queue.with_planned(queue.pick_order(b)):
        if pick is queue.Pick.learning:
            stmt = base.where(_learning_states(), Card.due <= now).order_by(Card.due, Card.id)
        elif pick is queue.Pick.review:
            stmt = base.where(Card.state == CardState.review, Card.due < day.end).order_by(Card.due, Card.id)
        elif pick is queue.Pick.new:
            stmt = base.where(Card.state == CardState.new).order_by(Card.added_at, Card.id)
        elif pick is queue.Pick.planned:
            stmt = base.where(planned.booked_today(user.id, day)).order_by(Card.due, Card.id)
        else:
            stmt = base.where(_learning_states(), Card.due <= now + queue.LEARN_AHEAD).order_by(Card.due, Card.id)
        card = db.session.scalar(stmt.limit(1))
        if card is not None:
            return card
    return None


@dataclass(frozen=True)
class Counts:
    """Today's figures: the queue counts every screen shares (:func:`.tally.queue_counts`),
    plus the reviews done today and the streak."""

    queue: QueueCounts
    reviewed_today: int
    streak: int

    @property
    def learning_now(self) -> int:
        return self.queue.learning_now

    @property
    def reviews_today(self) -> int:
        return self.queue.reviews_now

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


def queue_counts(user: User, now: datetime, done: queue.DoneToday | None = None) -> QueueCounts:
    """Due now / learning later today / new allowed today / buried: one query plus today's reviews."""
    day = study_day(user, now)
    return tally.queue_counts(today.tally(user.id, now, day), limits(user),
                              done if done is not None else done_today(user, day),
                              planned=_planned_beyond_due(user, now, day))


def _planned_beyond_due(user: User, now: datetime, day: queue.StudyDay) -> int:
    """Review cards interview mode booked for today that FSRS does not have due today."""
    active = and_(Card.suspended.is_(False), or_(Card.buried_until.is_(None), Card.buried_until <= now))
    return int(db.session.scalar(select(func.count(Card.id)).where(
        Card.user_id == user.id, active, planned.booked_today(user.id, day),
        Card.state == CardState.review, Card.due >= day.end)) or 0)


def counts(user: User, now: datetime, done: queue.DoneToday | None = None) -> Counts:
    """Dashboard and drill figures for the user's current study day."""
    day = study_day(user, now)
    reviewed_today = db.session.scalar(
        select(func.count(ReviewLog.id)).where(ReviewLog.user_id == user.id, ReviewLog.reviewed_at >= day.start,
                                               ReviewLog.reviewed_at < day.end)) or 0
    return Counts(queue=queue_counts(user, now, done), reviewed_today=int(reviewed_today),
                  streak=current_streak(user, now))


def current_streak(user: User, now: datetime, max_days: int = 3650) -> int:
    """Consecutive study days with reviews. Reads a short window first and widens it only when
    the streak reaches the window's edge, so long histories cost little."""
    day = study_day(user, now)
    tz = user_zone(user.timezone)  # a stored name that is not a place reads as UTC
    shift = timedelta(hours=user.day_start_hour)
    window = 64
    while True:
        since = day.start - timedelta(days=window)
        times = db.session.scalars(
            select(ReviewLog.reviewed_at).where(ReviewLog.user_id == user.id, ReviewLog.reviewed_at >= since)
        )
        days = {(t.astimezone(tz) - shift).date() for t in times}
        result = queue.streak(days, day.day)
        if result < window - 1 or window >= max_days:
            return result
        window = min(max_days, window * 4)


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
    card: Card
    review: ReviewLog | None = None


def rate(user: User, card_id: int, shown_version: int, rating: int, now: datetime,
         duration_ms: int | None = None, key_points: dict | None = None,
         request_id: str | None = None) -> RateResult:
    """Record a rating for the card as it was shown (``shown_version``).

    The new review interval is load-balanced within fsrs's fuzz range (:func:`balanced_outcome`),
    and the card's siblings due today are buried until tomorrow (:func:`bury_siblings`).
    Idempotent: a second submit of the same shown card finds a newer version (or hits the
    unique (card, version) constraint under a race) and records nothing. ``key_points``: the
    ticks kept with the log (:func:`prep.drill.self_grading.ticks_record`).
    """
    card = get_card(user, card_id, for_update=True)
    if card.version != shown_version:
        return RateResult(recorded=False, card=card)
    duration = max(0, min(int(duration_ms or 0), MAX_DURATION_MS))
    memory = memory_of(card)
    before = scheduling.snapshot(memory)
    state_before = card.state
    settings = replace(scheduler_settings(user), enable_fuzzing=False)  # the balancer replaces fuzz
    outcome = scheduling.review(scheduling.make_scheduler(settings), memory, rating, now, duration)
    outcome = balanced_outcome(user, card, outcome, now)
    siblings = sibling_ids_due_today(user, card, now)
    if siblings:
        before[BURIED_SIBLINGS] = siblings  # undo unburies them
    scheduling.apply(card, outcome)
    card.version += 1
    card.buried_until = None
    log = ReviewLog(card_id=card.id, user_id=user.id, card_version=shown_version, rating=rating,
                    reviewed_at=now, duration_ms=duration, state_before=state_before.value,
                    state_after=card.state.value, card_before=before, key_points_ticked=key_points,
                    request_id=request_id)
    if not store_log(log):
        return RateResult(recorded=False, card=get_card(user, card_id))
    if siblings:
        bury_cards(user, siblings, study_day(user, now).end)
    return RateResult(recorded=True, card=card, review=log)


# --- load balancing -------------------------------------------------------------------------

def due_per_day(user: User, card_id: int, now: datetime, days: range) -> list[int]:
    """How many of the user's other scheduled (not new, not suspended) cards fall due on each
    study day ``now + d`` for ``d`` in ``days``: one aggregate query."""
    bounds = [queue.study_day(now + timedelta(days=d), user.timezone, user.day_start_hour) for d in days]
    columns = [func.coalesce(func.sum(case((and_(Card.due >= b.start, Card.due < b.end), 1), else_=0)), 0)
               for b in bounds]
    row = db.session.execute(select(*columns).where(
        Card.user_id == user.id, Card.suspended.is_(False),
        Card.state.in_([CardState.learning, CardState.review, CardState.relearning]),
        Card.due >= min(b.start for b in bounds), Card.due < max(b.end for b in bounds),
        Card.id != card_id)).one()
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

BURIED_SIBLINGS = "buried_siblings"  # key in ReviewLog.card_before: the sibling cards a rating buried


def sibling_question_ids(question_id: int):
    """The questions sharing an accepted explanation link (same slug) with this one, in its
    language (a subquery): a wording in the other language is a translation, not a sibling, and
    does not bury it."""
    slugs = select(QuestionExplanation.slug).where(QuestionExplanation.question_id == question_id,
                                                   QuestionExplanation.rejected.is_(False))
    lang = select(Question.lang).where(Question.id == question_id).scalar_subquery()
    return select(QuestionExplanation.question_id).join(Question, Question.id == QuestionExplanation.question_id).where(
        QuestionExplanation.slug.in_(slugs), QuestionExplanation.rejected.is_(False),
        QuestionExplanation.question_id != question_id, Question.lang == lang)


def sibling_ids_due_today(user: User, card: Card, now: datetime) -> list[int]:
    """The user's other cards linked to the same explanation that today's queue would show:
    new ones, and reviews due before the study day ends (not suspended, not already buried)."""
    day = study_day(user, now)
    return list(db.session.scalars(select(Card.id).where(
        Card.user_id == user.id, Card.id != card.id, Card.question_id.in_(sibling_question_ids(card.question_id)),
        Card.suspended.is_(False), or_(Card.buried_until.is_(None), Card.buried_until <= now),
        or_(Card.state == CardState.new, and_(Card.state == CardState.review, Card.due < day.end)),
    ).order_by(Card.id)))


def bury_cards(user: User, card_ids: list[int], until: datetime) -> None:
    db.session.execute(update(Card).where(Card.user_id == user.id, Card.id.in_(card_ids))
                       .values(buried_until=until).execution_options(synchronize_session=False))


def _unbury_siblings(user: User, log: ReviewLog) -> None:
    """Undo of a rating: unbury the siblings it buried (those still buried until that day's end)."""
    ids = [i for i in (log.card_before or {}).get(BURIED_SIBLINGS, []) if isinstance(i, int)]
    if not ids:
        return
    until = study_day(user, log.reviewed_at).end
    db.session.execute(update(Card).where(Card.user_id == user.id, Card.id.in_(ids), Card.buried_until == until)
                       .values(buried_until=None).execution_options(synchronize_session=False))


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
    _unbury_siblings(user, log)
    db.session.delete(log)
    db.session.flush()
    return card


def store_log(log: ReviewLog) -> bool:
    """Add a review log and flush; False when the (card, version) was recorded already.

    The version check ran under the row lock; the constraint only catches a race on a card
    without one. A failed flush rolls the whole session back, so no savepoint is needed."""
    db.session.add(log)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        return False
    return True


def add_to_study(user: User, question_ids: Iterable[int], now: datetime) -> int:
    """Make cards for the questions not yet in the user's study; returns how many were added.

    Only questions the user may see (public ones, or their own) are added.
    """
    ids = sorted(set(question_ids))
    if not ids:
        return 0
    visible = set(db.session.scalars(select(Question.id).where(
        Question.id.in_(ids), or_(Question.owner_id.is_(None), Question.owner_id == user.id))))
    existing = set(db.session.scalars(select(Card.question_id).where(Card.user_id == user.id,
                                                                      Card.question_id.in_(ids))))
    added = 0
    for offset, qid in enumerate(q for q in ids if q in visible and q not in existing):
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
