"""The stats feature's edge to the database: a simulated learner's cards and reviews
(:mod:`prep.stats.simulate`, plain values) written as card and review rows."""
from __future__ import annotations

from typing import Any

from ..drill.models import Card, ReviewLog
from .simulate import Simulation


def store(session: Any, user_id: int, question_ids: list[int], sim: Simulation) -> list[int]:
    """Write the simulated cards (``card.index`` picks from ``question_ids``) and their reviews
    for ``user_id``; flushes, does not commit. Returns the new card ids, in ``sim.cards`` order."""
    rows = []
    for c in sim.cards:
        row = Card(user_id=user_id, question_id=question_ids[c.index], state=c.state, step=c.step,
                   stability=c.stability, difficulty=c.difficulty, due=c.due, last_review=c.last_review,
                   reps=c.reps, lapses=c.lapses, version=c.version, added_at=c.added_at)
        session.add(row)
        rows.append(row)
    session.flush()
    ids = {c.index: row.id for c, row in zip(sim.cards, rows)}
    session.add_all(ReviewLog(card_id=ids[r.card_index], user_id=user_id, card_version=r.card_version,
                              rating=r.rating, reviewed_at=r.reviewed_at, duration_ms=r.duration_ms,
                              state_before=r.state_before, state_after=r.state_after, kind="review",
                              card_before=r.card_before) for r in sim.reviews)
    session.flush()
    return [row.id for row in rows]
