"""Predicted recall of a card on a given day, from its FSRS memory state and its planned reviews.

The forgetting curve is fsrs's own (:meth:`fsrs.Scheduler.get_card_retrievability`, FSRS-6 with
the decay ``w[20]``), and a planned review is an ordinary :meth:`fsrs.Scheduler.review_card`; no
constant is re-derived here. A planned review is assumed to be answered Good; the last review
before an interview is counted by its expectation (recalled with the predicted retrievability,
otherwise Again followed by the relearning steps), because a lapse there cannot be repaired.

Pure module: no Flask, no ORM. Times are UTC-aware datetimes.
"""
from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import fsrs

from ..drill import scheduling
from ..drill.memory import CardMemory, CardState

#: The recall on the interview day that interview mode aims at unless the candidate sets another.
DEFAULT_TARGET = 0.90


def scheduler_for(settings: scheduling.SchedulerSettings) -> fsrs.Scheduler:
    """The fuzz-free fsrs Scheduler for these settings (predictions must not be random)."""
    return scheduling.make_scheduler(scheduling.SchedulerSettings(
        **{**settings.__dict__, "enable_fuzzing": False}))


def memory_card(memory: CardMemory | None) -> fsrs.Card | None:
    """The fsrs Card of a memory state, or None for a card never reviewed."""
    if memory is None or memory.state is CardState.new or memory.last_review is None:
        return None
    return scheduling.to_fsrs(memory)


def retrievability(scheduler: fsrs.Scheduler, card: fsrs.Card | None, when: datetime,
                   stability_scale: float = 1.0) -> float:
    """fsrs's predicted probability of recall of ``card`` at ``when`` (0 for an unseen card).

    ``stability_scale`` multiplies the stability (1 = the model as it is); :func:`calibrate`
    estimates it from the candidate's own answers."""
    if card is None or card.last_review is None or card.stability is None:
        return 0.0
    if stability_scale != 1.0:
        card = copy.copy(card)
        card.stability = card.stability * stability_scale
    return float(scheduler.get_card_retrievability(card, when))


def review_good(scheduler: fsrs.Scheduler, card: fsrs.Card, when: datetime) -> fsrs.Card:
    """The card after a Good answer at ``when``, steps followed until it leaves (re)learning."""
    card, _ = scheduler.review_card(card, fsrs.Rating.Good, when)
    for _ in range(len(scheduler.learning_steps) + len(scheduler.relearning_steps) + 1):
        if card.state is fsrs.State.Review:
            break
        card, _ = scheduler.review_card(card, fsrs.Rating.Good, card.due)
    return card


def review_lapse(scheduler: fsrs.Scheduler, card: fsrs.Card, when: datetime) -> fsrs.Card:
    """The card after an Again at ``when`` followed by Good on each relearning step."""
    card, _ = scheduler.review_card(card, fsrs.Rating.Again, when)
    for _ in range(len(scheduler.relearning_steps) + 1):
        if card.state is fsrs.State.Review:
            break
        card, _ = scheduler.review_card(card, fsrs.Rating.Good, card.due)
    return card


def introduce(scheduler: fsrs.Scheduler, when: datetime, first: fsrs.Rating = fsrs.Rating.Good) -> fsrs.Card:
    """A new card first studied at ``when``, answered ``first`` and then Good through its learning steps."""
    if first is fsrs.Rating.Good:
        return review_good(scheduler, fsrs.Card(card_id=1), when)
    card, _ = scheduler.review_card(fsrs.Card(card_id=1), first, when)
    return card if card.state is fsrs.State.Review else review_good(scheduler, card, card.due)


def introduction_reviews(scheduler: fsrs.Scheduler) -> int:
    """Answers a new card takes on its first day: one per learning step, plus one for a slip
    (a conservative count; Easy takes one, Again more)."""
    return len(scheduler.learning_steps) + 1


def recall_on_day(scheduler: fsrs.Scheduler, memory: CardMemory | None, planned: Sequence[datetime],
                  day_time: datetime, *, stability_scale: float = 1.0) -> float:
    """Predicted retrievability at ``day_time`` of a card with this memory state (None: unseen)
    after its planned reviews (UTC instants; the first one introduces an unseen card). Only
    reviews before ``day_time`` count; the last one counts by its expectation."""
    planned = sorted(t for t in planned if t < day_time)
    card = memory_card(memory)
    if not planned:
        return retrievability(scheduler, card, day_time, stability_scale)
    for t in planned[:-1]:
        card = introduce(scheduler, t) if card is None else review_good(scheduler, card, t)
    return expected_after(scheduler, card, planned[-1], day_time, stability_scale)


def expected_after(scheduler: fsrs.Scheduler, card: fsrs.Card | None, review_at: datetime,
                   day_time: datetime, stability_scale: float = 1.0) -> float:
    """Expected retrievability at ``day_time`` after one more review at ``review_at``: Good with
    the predicted retrievability at ``review_at``, else a lapse (an unseen card is introduced)."""
    if card is None:
        return retrievability(scheduler, introduce(scheduler, review_at), day_time, stability_scale)
    p = retrievability(scheduler, card, review_at, stability_scale)
    good = retrievability(scheduler, review_good(scheduler, card, review_at), day_time, stability_scale)
    lapse = retrievability(scheduler, review_lapse(scheduler, card, review_at), day_time, stability_scale)
    return p * good + (1.0 - p) * lapse


#: The least likely outcome :func:`plain_reviews` follows as a branch of its own (a lapse less
#: likely than this follows the recalled path: a bound on the branches per card).
BRANCH_MIN = 0.05


def plain_reviews(scheduler: fsrs.Scheduler, card: fsrs.Card, end: datetime, index_of: Callable[[datetime], int],
                  session_at: Callable[[int], datetime], answers: list[float], reviews: list[float],
                  stability_scale: float = 1.0) -> None:
    """Add to ``answers`` and ``reviews`` (per day index) the expected answers and reviews of a
    card left to plain FSRS until ``end``: each due review is recalled with the predicted
    retrievability (Good, next due on its interval), else a lapse (the relearning steps, then back
    on the shorter interval); a learning or relearning card first finishes its steps.
    ``index_of`` maps an instant to a day index, ``session_at`` a day index to its session."""
    stack = [(card, 1.0)]
    while stack:
        card, weight = stack.pop()
        index = index_of(card.due)
        if card.due >= end or index >= len(answers):
            continue
        when = session_at(index)
        if card.state is not fsrs.State.Review:
            steps = scheduler.learning_steps if card.state is fsrs.State.Learning else scheduler.relearning_steps
            answers[index] += weight * max(1, len(steps) - (card.step or 0))
            stack.append((review_good(scheduler, card, max(when, card.due)), weight))
            continue
        p = retrievability(scheduler, card, when, stability_scale)
        answers[index] += weight * (1.0 + (1.0 - p) * len(scheduler.relearning_steps))
        reviews[index] += weight
        if weight * (1.0 - p) < BRANCH_MIN:
            stack.append((review_good(scheduler, card, when), weight))
            continue
        stack.append((review_good(scheduler, card, when), weight * p))
        stack.append((review_lapse(scheduler, card, when), weight * (1.0 - p)))


@dataclass(frozen=True)
class Answer:
    """One past answer to a reviewed card: the days since the review before it, that review's
    stability as the model had it, and whether it was recalled (rating Hard, Good or Easy)."""

    elapsed_days: int
    stability: float
    recalled: bool


_EPOCH = datetime(2000, 1, 1, tzinfo=timezone.utc)
#: How many answers count as much as the model's own prior when calibrating.
CALIBRATION_PRIOR_ANSWERS = 30
#: Calibration uses the answers to young cards (model stability under this many days) when there
#: are enough of them: the cards an interview plan schedules are mostly young, and a learner the
#: model does not fit is often off by a different factor on young and on mature cards.
YOUNG_STABILITY_DAYS = 10.0


def calibrate(scheduler: fsrs.Scheduler, answers: Iterable[Answer]) -> float:
    """The stability scale that makes the model's predicted recall match the candidate's answers
    (mean predicted = share recalled), shrunk towards 1 when there are few answers. A learner who
    forgets faster than the parameters say gets a scale below 1, so plans review sooner. Answers
    to young cards are used alone when there are at least :data:`CALIBRATION_PRIOR_ANSWERS`."""
    rows = [a for a in answers if a.stability > 0 and a.elapsed_days >= 1]
    young = [a for a in rows if a.stability < YOUNG_STABILITY_DAYS]
    if len(young) >= CALIBRATION_PRIOR_ANSWERS:
        rows = young
    if not rows:
        return 1.0
    observed = sum(a.recalled for a in rows) / len(rows)
    cards = [(fsrs.Card(card_id=1, state=fsrs.State.Review, stability=a.stability, difficulty=5.0,
                        due=_EPOCH, last_review=_EPOCH), _EPOCH + timedelta(days=a.elapsed_days)) for a in rows]

    def predicted(scale: float) -> float:
        return sum(retrievability(scheduler, card, when, scale) for card, when in cards) / len(cards)

    lo, hi = math.log(0.05), math.log(20.0)
    for _ in range(30):
        mid = (lo + hi) / 2
        if predicted(math.exp(mid)) < observed:
            lo = mid
        else:
            hi = mid
    weight = len(rows) / (len(rows) + CALIBRATION_PRIOR_ANSWERS)
    return math.exp(weight * (lo + hi) / 2)
