"""The rating buttons' intervals kept per memory state (prep.drill.previews) are the
ones fsrs computes at that very time: random cards previewed at many times, early and late in
a day since their last review, again and again (hits), equal the uncached preview each time."""
from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from prep.drill import previews, scheduling
from prep.drill.memory import CardMemory, CardState

BASE = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)


def _card(rng: random.Random) -> CardMemory:
    state = rng.choice(list(CardState))
    last = None if state is CardState.new else BASE - timedelta(days=rng.randint(0, 40), minutes=rng.randint(0, 1439))
    due = (last or BASE) + timedelta(minutes=rng.choice([1, 10, 600]), days=rng.randint(0, 30))
    return CardMemory(state=state, step=rng.choice([0, 1]) if state is not CardState.review else None,
                      stability=None if state is CardState.new else rng.uniform(0.1, 60),
                      difficulty=None if state is CardState.new else rng.uniform(1, 10),
                      due=due, last_review=last, reps=rng.randint(0, 20), lapses=rng.randint(0, 3))


def test_kept_previews_equal_fsrs_at_every_time():
    rng = random.Random(20)
    settings = [scheduling.SchedulerSettings(), scheduling.SchedulerSettings(desired_retention=0.8,
                                                                             learning_steps="1m 1h 1d")]
    cards = [_card(rng) for _ in range(40)]
    hits = 0
    for _ in range(6):
        for card in cards:
            s = rng.choice(settings)
            now = BASE + timedelta(minutes=rng.randint(0, 3 * 1440))
            before = len(previews._kept)
            assert previews.preview_intervals(s, card, now) == scheduling.preview_intervals(s, card, now)
            hits += len(previews._kept) == before
    assert hits > 0  # some were answered from what was kept
