"""A synthetic learner, reviewed through the real scheduler, for tests and demo data.

The app schedules with its usual settings (:mod:`prep.drill.scheduling`); the learner's memory is
a second FSRS model with *its own* parameters, so whether a card is recalled depends on how this
learner really forgets, not on what the app believes. Deterministic for a given ``seed``.

Pure module: no Flask, no ORM. :func:`prep.stats.rows.store` writes a result as card rows.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

import fsrs

from ..drill import queue, scheduling
from ..drill.memory import CardState

# Forgets much faster than the defaults expect: low initial stabilities, slow stability growth,
# no same-day boost, a flatter forgetting curve.
FAST_FORGETTER = (
    0.05, 0.15, 0.4, 1.5, 6.4133, 0.8334, 3.0194, 0.001, 0.8, 0.1666, 0.796, 1.4835, 0.0614, 0.2629,
    1.6483, 0.6014, 1.8729, 0.05, 0.05, 0.05, 0.3,
)


@dataclass(frozen=True)
class Learner:
    """How the simulated person remembers and answers."""

    true_parameters: tuple[float, ...] = FAST_FORGETTER
    first_rating_weights: tuple[float, float, float, float] = (0.25, 0.15, 0.5, 0.1)  # Again..Easy
    pass_rating_weights: tuple[float, float, float] = (0.15, 0.75, 0.10)              # Hard, Good, Easy
    skip_day_probability: float = 0.12


@dataclass
class SimCard:
    """A card row as the app would hold it (satisfies :class:`scheduling.CardRow`)."""

    index: int
    added_at: datetime
    state: CardState = CardState.new
    step: int | None = 0
    stability: float | None = None
    difficulty: float | None = None
    due: datetime = datetime(1970, 1, 1, tzinfo=timezone.utc)
    last_review: datetime | None = None
    reps: int = 0
    lapses: int = 0
    version: int = 0
    memory: fsrs.Card | None = None  # the learner's true memory of it


@dataclass(frozen=True)
class SimReview:
    card_index: int
    card_version: int
    rating: int
    reviewed_at: datetime
    duration_ms: int
    state_before: str
    state_after: str
    card_before: dict[str, Any]


@dataclass
class Simulation:
    cards: list[SimCard] = field(default_factory=list)
    reviews: list[SimReview] = field(default_factory=list)


def simulate(*, start: datetime, days: int, n_cards: int, new_per_day: int = 5, seed: int = 1,
             learner: Learner = Learner(), settings: scheduling.SchedulerSettings | None = None,
             tz_name: str = "UTC", day_start_hour: int = 4) -> Simulation:
    """Study ``n_cards`` new cards from ``start`` (UTC-aware) for ``days`` days: one session a day
    at about 09:00 local, learning steps followed within the session, due reviews all done."""
    rng = random.Random(seed)
    settings = settings or scheduling.SchedulerSettings(enable_fuzzing=False)
    app_scheduler = scheduling.make_scheduler(settings)
    truth = fsrs.Scheduler(parameters=learner.true_parameters, enable_fuzzing=False,
                           learning_steps=(), relearning_steps=())
    sim = Simulation()
    pending = list(range(n_cards))
    active: list[SimCard] = []
    for d in range(days):
        day = queue.study_day(start + timedelta(days=d), tz_name, day_start_hour)
        if rng.random() < learner.skip_day_probability:
            continue
        t = day.start + timedelta(hours=5, minutes=rng.randint(0, 180))
        session_end = t + timedelta(minutes=90)
        for _ in range(min(new_per_day, len(pending))):
            card = SimCard(index=pending.pop(0), added_at=t, due=t)
            sim.cards.append(card)
            active.append(card)
        while True:
            card = _next(active, t, day.end)
            if card is None:
                later = [c.due for c in active if c.state in (CardState.learning, CardState.relearning)
                         and t < c.due <= session_end]
                if not later:
                    break
                t = min(later)
                continue
            t += _review(card, t, rng, learner, app_scheduler, truth, sim)
    return sim


def _next(active: list[SimCard], now: datetime, day_end: datetime) -> SimCard | None:
    learning = [c for c in active if c.state in (CardState.learning, CardState.relearning)
                and c.due <= now + queue.LEARN_AHEAD]
    if learning:
        return min(learning, key=lambda c: (c.due, c.index))
    reviews = [c for c in active if c.state is CardState.review and c.due < day_end]
    if reviews:
        return min(reviews, key=lambda c: (c.due, c.index))
    new = [c for c in active if c.state is CardState.new]
    return min(new, key=lambda c: c.index) if new else None


def _review(card: SimCard, now: datetime, rng: random.Random, learner: Learner,
            app_scheduler: fsrs.Scheduler, truth: fsrs.Scheduler, sim: Simulation) -> timedelta:
    if card.memory is None:
        rating = rng.choices((1, 2, 3, 4), weights=learner.first_rating_weights)[0]
        card.memory = fsrs.Card(card_id=card.index + 1)
    else:
        recalled = rng.random() < truth.get_card_retrievability(card.memory, now)
        rating = rng.choices((2, 3, 4), weights=learner.pass_rating_weights)[0] if recalled else 1
    card.memory, _ = truth.review_card(card.memory, scheduling.RATINGS[rating], now)
    duration_ms = rng.randint(6000, 45000) + (15000 if rating == 1 else 0)
    before = scheduling.snapshot(card)
    state_before = card.state
    outcome = scheduling.review(app_scheduler, card, rating, now, duration_ms)
    scheduling.apply(card, outcome)
    sim.reviews.append(SimReview(card_index=card.index, card_version=card.version, rating=rating,
                                 reviewed_at=now, duration_ms=duration_ms, state_before=state_before.value,
                                 state_after=card.state.value, card_before=before))
    card.version += 1
    return timedelta(milliseconds=duration_ms)

