"""Today's queue counts: the one rule behind every number a screen shows about today's study
(the drill header and its "all done" page, the dashboard, the reminders and the stats page).

:func:`queue_counts` turns what one query counted (:class:`Tally`, read by
:func:`prep.drill.service.tally`, or per user by the reminder sweep with the same columns from
:func:`prep.drill.service.tally_columns`) into "due now / learning later today / new allowed
today / buried until tomorrow". Pure module: no Flask, no database; ``now`` is UTC-aware.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from .queue import Budget, DoneToday, Limits, budget


@dataclass(frozen=True)
class Tally:
    """One user's cards as counted by the one query (unsuspended cards only, except the total and
    ``suspended``). A learning card "due now" is due within :data:`queue.LEARN_AHEAD`: the drill
    shows it when nothing else is left, so it is never counted as later."""

    learning_now: int = 0        # learning/relearning, not buried, due by now + LEARN_AHEAD
    learning_later: int = 0      # learning/relearning, not buried, due later in the study day
    next_learning: datetime | None = None  # the earliest of ``learning_later``
    reviews_due: int = 0         # review state, not buried, due before the study day ends
    new: int = 0                 # new, not buried
    buried: int = 0              # buried until later (a sibling's rating or Bury)
    total: int = 0
    suspended: int = 0
    planned: int = 0             # review state, not buried, booked for today by interview mode, due
                                 # after the study day ends and not answered today (beyond ``reviews_due``)


@dataclass(frozen=True)
class QueueCounts:
    """What every screen says about today. ``reviews_now`` and ``new_today`` are within the
    daily limits; ``new_today`` is 0 once the new-card limit is reached."""

    learning_now: int
    reviews_now: int
    new_today: int
    learning_later: int
    next_learning: datetime | None
    buried: int
    total_cards: int
    suspended: int
    new_limit_reached: bool
    planned_now: int = 0  # review cards interview mode booked for today that FSRS has not made due

    @property
    def due_now(self) -> int:
        """Cards due now, interview bookings included (they come past the daily review limit)."""
        return self.learning_now + self.reviews_now + self.planned_now

    @property
    def remaining_now(self) -> int:
        """Cards the drill would show now, one after another (interview bookings included)."""
        return self.due_now + self.new_today

    @property
    def remaining_today(self) -> int:
        """Everything left today, including learning cards that come back later."""
        return self.remaining_now + self.learning_later


def queue_counts(tally: Tally, limits: Limits, done: DoneToday) -> QueueCounts:
    """The counts from the one query's :class:`Tally`, within the daily limits (the review cards
    interview mode booked for today beyond the due ones, ``tally.planned``, come past them)."""
    b: Budget = budget(limits, done)
    return QueueCounts(
        learning_now=tally.learning_now, reviews_now=min(tally.reviews_due, b.reviews_left),
        new_today=min(tally.new, b.new_left), learning_later=tally.learning_later,
        next_learning=tally.next_learning if tally.learning_later else None, buried=tally.buried,
        total_cards=tally.total, suspended=tally.suspended, new_limit_reached=b.new_left == 0 and tally.new > 0,
        planned_now=tally.planned)


def minutes_until(when: datetime | None, now: datetime) -> int | None:
    """Whole minutes (rounded up, at least 1) from ``now`` until ``when``; None without a time."""
    if when is None:
        return None
    return max(1, math.ceil((when - now).total_seconds() / 60))
