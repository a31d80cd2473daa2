"""The rating: what rating a card does and records, recorded once, what reacts to it, and undo.

:func:`rate` is py-fsrs's loop at the database edge: load the card with a row lock, review it
with fsrs (the interval moved to the least loaded day of fsrs's fuzz range, as Anki's load
balancer does), bury the siblings due today (:mod:`.siblings`), write the review log, and call
the features that react to a rating (:func:`on_rated`). The caller commits once.

A rating names the card version it was shown (``Card.version``) and, optionally, its request
(``request_id``: the nonce of the no-JS form's signed token, :func:`make_token`, or the id the
prefetching page gives each rating). So a rating is recorded exactly once: :func:`rate` says
whether it was ``recorded``, a ``duplicate`` (this very request was recorded before: a retry, or
Back and resubmit) or a ``conflict`` (the card moved on: rated in another tab). Nothing here
commits.
"""
from __future__ import annotations

import functools
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import Select, and_, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import lazyload

from ..accounts.models import User
from ..extensions import db
from . import queue, scheduling
from .cards import CardNotFound, get_card
from .models import Card, CardState, ReviewLog
from .siblings import BURIED_SIBLINGS, buried_by, bury_cards, due_siblings_column, sibling_ids, unbury_siblings

MAX_DURATION_MS = 10 * 60 * 1000  # longer than this on one card is time away from the screen
TOKEN_SALT = "prep.drill.rate-once"

RECORDED, DUPLICATE, CONFLICT = "recorded", "duplicate", "conflict"


@dataclass(frozen=True)
class Answer:
    """A rating as the candidate gave it: the card, the version it was shown at, the rating
    (1 Again … 4 Easy) and, optionally, the time on the card, the key points ticked
    (:func:`.self_grading.ticks_record`) and the request's one-time id."""

    card_id: int
    version: int
    rating: int
    duration_ms: int | None = None
    key_points: dict | None = None
    request_id: str | None = None


@dataclass(frozen=True)
class Rated:
    """What became of a rating. ``reactions``: what each :func:`on_rated` hook returned, by name
    (a recorded rating only)."""

    status: str
    card: Card | None = None
    review: ReviewLog | None = None
    buried: list[int] = field(default_factory=list)
    reactions: dict[str, Any] = field(default_factory=dict)

    @property
    def recorded(self) -> bool:
        return self.status == RECORDED


# --- what reacts to a rating ------------------------------------------------------------------

#: ``hook(user, rated, now)``, called after a recorded rating.
OnRated = Callable[[User, Rated, datetime], Any]
_ON_RATED: dict[str, OnRated] = {}


def on_rated(name: str, hook: OnRated) -> None:
    """Call ``hook(user, rated, now)`` after every recorded rating, in the rating's transaction
    (before the caller commits); what it returns is in ``rated.reactions[name]``. A feature
    subscribes once when the app is set up; subscribing again under the same name replaces it."""
    _ON_RATED[name] = hook


# --- rating -----------------------------------------------------------------------------------

@functools.cache
def _locked_card_statement() -> Select:
    """The user's card (``cid``, ``uid``), locked and read afresh, without its question, with the
    siblings a rating of it buries (bound: ``now``, ``day_end``); built once: building it cost more
    than running it."""
    return (select(Card, due_siblings_column()).where(Card.id == bindparam("cid"), Card.user_id == bindparam("uid"))
            .options(lazyload(Card.question)).with_for_update(of=Card).execution_options(populate_existing=True))


def rate(user: User, answer: Answer, now: datetime) -> Rated:
    """Record a rating for the card as it was shown (``answer.version``); raises
    :class:`.cards.CardNotFound` for a card that is not the user's.

    Idempotent: a second submit of the same shown card finds a newer version (or, in a race on a
    database without row locks, hits the unique (card, version) key) and records nothing."""
    day = queue.study_day(now, user.timezone, user.day_start_hour)
    row = db.session.execute(_locked_card_statement(), {"cid": answer.card_id, "uid": user.id, "now": now,
                                                        "day_end": day.end}).one_or_none()
    if row is None:
        raise CardNotFound(answer.card_id)
    card, siblings = row[0], sibling_ids(row[1])
    if card.version != answer.version:
        return _not_recorded(user, answer)
    duration = max(0, min(int(answer.duration_ms or 0), MAX_DURATION_MS))
    before = scheduling.snapshot(card)
    settings = replace(scheduling.settings_for_user(user), enable_fuzzing=False)  # the balancer replaces fuzz
    outcome = scheduling.review(scheduling.make_scheduler(settings), card, answer.rating, now, duration)
    outcome = balanced_outcome(user, card, outcome, now)
    if siblings:
        before[BURIED_SIBLINGS] = siblings  # undo unburies them
    log = ReviewLog(card_id=card.id, user_id=user.id, card_version=answer.version, rating=answer.rating,
                    reviewed_at=now, duration_ms=duration, state_before=card.state.value,
                    state_after=outcome.state.value, card_before=before, key_points_ticked=answer.key_points,
                    kind="review", request_id=answer.request_id)
    if not _write(card, outcome, log):
        return _not_recorded(user, answer)
    if siblings:
        bury_cards(user, siblings, day.end)
    rated = Rated(RECORDED, card, log, siblings)
    for name, hook in _ON_RATED.items():
        rated.reactions[name] = hook(user, rated, now)
    return rated


#: The card's fields a rating writes, and the review log's.
_RATED = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses", "version",
          "buried_until")
_LOGGED = ("card_id", "user_id", "card_version", "rating", "reviewed_at", "duration_ms", "state_before",
           "state_after", "kind", "card_before", "key_points_ticked", "request_id")


@functools.cache
def _write_statements() -> tuple[Any, Any]:
    """The UPDATE of a rated card (bound: ``cid`` and each of :data:`_RATED`) and the INSERT of
    its log, built once."""
    table = Card.__table__
    return (update(table).where(table.c.id == bindparam("cid"))
            .values({f: bindparam(f, type_=table.c[f].type) for f in _RATED}), insert(ReviewLog.__table__))


def _write(card: Card, outcome: scheduling.ReviewOutcome, log: ReviewLog) -> bool:
    """Write the rated card's new state and its review log (which gets its id; it stays out of
    the session): one UPDATE and one INSERT, as statements, then the card is expired, so reading
    it again loads the row as written. The ORM's unit of work for these two rows cost about a
    third of a millisecond more per rating, some 10 % of the request. False (the session rolled
    back) when the (card, version) was recorded already."""
    rated = SimpleNamespace(reps=card.reps, lapses=card.lapses, version=card.version + 1, buried_until=None)
    scheduling.apply(rated, outcome)
    values = {f: getattr(rated, f) for f in _RATED}
    update_card, insert_log = _write_statements()
    db.session.execute(update_card, {"cid": card.id, **values})
    try:
        log.id = db.session.execute(insert_log, {c: getattr(log, c) for c in _LOGGED}).inserted_primary_key[0]
    except IntegrityError:
        db.session.rollback()
        return False
    db.session.expire(card)
    return True


def store_log(log: ReviewLog) -> bool:
    """Add a review log and flush (with the session's pending changes: the card); False when the
    (card, version) was recorded already (the session is rolled back)."""
    db.session.add(log)
    try:
        db.session.flush()
    except IntegrityError:
        db.session.rollback()
        return False
    return True


def _not_recorded(user: User, answer: Answer) -> Rated:
    """A rating of a card that moved on: this very request recorded before, or another one."""
    log = db.session.scalar(select(ReviewLog).where(ReviewLog.card_id == answer.card_id, ReviewLog.user_id == user.id,
                                                    ReviewLog.card_version == answer.version))
    if log is not None and answer.request_id and log.request_id == answer.request_id:
        return Rated(DUPLICATE, review=log, buried=buried_by(log))
    return Rated(CONFLICT)


@functools.cache
def _due_per_day_statement(days: int) -> Select:
    """:func:`due_per_day`'s query for ``days`` study days, built once per number of days (bound
    per call: ``s0``/``e0``… the days, ``lo``/``hi``, ``uid``, ``cid``): building its expression
    tree cost more than running it."""
    columns = [func.count().filter(and_(Card.due >= bindparam(f"s{i}"), Card.due < bindparam(f"e{i}")))
               for i in range(days)]
    return select(*columns).where(
        Card.user_id == bindparam("uid"), Card.suspended.is_(False),
        Card.state.in_([CardState.learning, CardState.review, CardState.relearning]),
        Card.due >= bindparam("lo"), Card.due < bindparam("hi"), Card.id != bindparam("cid"))


def due_per_day(user: User, card_id: int, now: datetime, days: range) -> list[int]:
    """How many of the user's other scheduled (not new, not suspended) cards fall due on each
    study day ``now + d`` for ``d`` in ``days``: one aggregate query."""
    bounds = [queue.study_day(now + timedelta(days=d), user.timezone, user.day_start_hour) for d in days]
    params: dict[str, Any] = {"uid": user.id, "cid": card_id, "lo": bounds[0].start, "hi": bounds[-1].end}
    for i, b in enumerate(bounds):
        params[f"s{i}"], params[f"e{i}"] = b.start, b.end
    return [int(v) for v in db.session.execute(_due_per_day_statement(len(bounds)), params).one()]


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


# --- the no-JS form's one-time token ----------------------------------------------------------

def make_token(secret: str, user_id: int, card_id: int, version: int) -> str:
    """A signed one-time token for the no-JS rating form, bound to user, card and version."""
    nonce = secrets.token_urlsafe(12)
    return str(URLSafeSerializer(secret, salt=TOKEN_SALT).dumps([user_id, card_id, version, nonce]))


def read_token(secret: str, token: str, user_id: int, card_id: int, version: int) -> str | None:
    """The token's nonce when it is ours and bound to this user, card and version; else None."""
    try:
        data = URLSafeSerializer(secret, salt=TOKEN_SALT).loads(token)
    except BadSignature:
        return None
    if not (isinstance(data, list) and len(data) == 4 and data[:3] == [user_id, card_id, version]
            and isinstance(data[3], str) and 0 < len(data[3]) <= 64):
        return None
    return data[3]


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
