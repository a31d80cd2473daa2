"""A card's memory state (its FSRS scheduling fields) as plain values, with no ORM: what the
pure modules (:mod:`prep.drill.scheduling`, :mod:`prep.stats.simulate`, the interview planner)
take and return.

:class:`prep.drill.models.Card` stores these fields; :func:`memory_of` is the one adapter that
reads them off a row (or any object with the same attributes) at the edge.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import Any


class CardState(str, enum.Enum):
    new = "new"
    learning = "learning"
    review = "review"
    relearning = "relearning"


@dataclass(frozen=True)
class CardMemory:
    """The fields the scheduler reads from a card."""

    state: CardState
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None
    reps: int = 0
    lapses: int = 0


def memory_of(row: Any) -> CardMemory:
    """The scheduling fields of a card row, as plain values."""
    return CardMemory(state=row.state, step=row.step, stability=row.stability, difficulty=row.difficulty,
                      due=row.due, last_review=row.last_review, reps=getattr(row, "reps", 0),
                      lapses=getattr(row, "lapses", 0))
