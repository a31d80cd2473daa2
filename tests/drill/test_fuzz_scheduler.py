"""Property tests of the FSRS adapter: any sequence of ratings and clock moves keeps the card
state valid, due after its last review, and undo (snapshot/restore) exact."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from prep.drill import scheduling
from prep.drill.models import CardState

START = datetime(2026, 1, 1, tzinfo=timezone.utc)


@dataclass
class Row:
    state: CardState = CardState.new
    step: int | None = 0
    stability: float | None = None
    difficulty: float | None = None
    due: datetime = START
    last_review: datetime | None = None
    reps: int = 0
    lapses: int = 0


steps = st.lists(st.tuples(st.integers(1, 4), st.integers(0, 60 * 24 * 400)), min_size=1, max_size=40)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(steps, st.floats(0.75, 0.97), st.booleans())
def test_any_history_keeps_a_valid_state(history, retention, fuzz):
    sched = scheduling.make_scheduler(scheduling.SchedulerSettings(desired_retention=retention,
                                                                   enable_fuzzing=fuzz))
    row = Row()
    now = START
    for rating, minutes in history:
        now = now + timedelta(minutes=minutes)
        before = scheduling.snapshot(row)
        outcome = scheduling.review(sched, row, rating, now)
        scheduling.apply(row, outcome)
        assert row.state in (CardState.learning, CardState.review, CardState.relearning)
        assert row.last_review == now
        assert row.due >= row.last_review
        assert row.stability is not None and row.stability > 0
        assert row.difficulty is not None and 1 <= row.difficulty <= 10
        assert row.due - now <= timedelta(days=36500 + 1)
        assert 0.0 <= scheduling.retrievability(sched, row, now) <= 1.0
        # Undo is exact.
        probe = Row()
        scheduling.restore(probe, before)
        assert scheduling.snapshot(probe) == before
    assert row.reps == len(history)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.integers(0, 10**7))
def test_interval_labels_never_fail(seconds):
    label = scheduling.format_interval(timedelta(seconds=seconds))
    assert label and label[-1] in "smhdoy"
