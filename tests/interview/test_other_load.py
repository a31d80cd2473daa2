"""Interview mode's plan counts the cards no interview asks as the drill will serve them (the
app path): their due reviews with the lapses the calibrated model expects (relearning steps, and
the card back sooner), and the learning steps of cards still learning. Pure: fixed clock, fuzz off."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import fsrs
import pytest

from prep.drill import scheduling
from prep.drill.memory import CardMemory, CardState
from prep.interview import recall
from prep.interview.planner import make_plan
from prep.interview.plans import Interview, PlanCard, PlanSettings

NOW = datetime(2026, 3, 2, 7, 0, tzinfo=timezone.utc)
TODAY = date(2026, 3, 2)
SCHEDULER = recall.scheduler_for(scheduling.SchedulerSettings())


def reviewed(stability: float, days_ago: int) -> CardMemory:
    last = NOW - timedelta(days=days_ago)
    return CardMemory(state=CardState.review, step=None, stability=stability, difficulty=5.0,
                      due=last + timedelta(days=round(stability)), last_review=last, reps=3)


def plan_with_others(others: list[CardMemory], scale: float, days: int = 10):
    cards = [PlanCard(1)] + [PlanCard(100 + i, m) for i, m in enumerate(others)]
    return make_plan(cards, [Interview(1, TODAY + timedelta(days=days), (1,))],
                     PlanSettings(stability_scale=scale), NOW)


def test_a_due_review_costs_its_expected_relearning_steps() -> None:
    plan = plan_with_others([reviewed(3.0, 3)], 1.0)
    card = recall.memory_card(reviewed(3.0, 3))
    p = recall.retrievability(SCHEDULER, card, NOW, 1.0)
    assert plan.days[0].other_reviews == 1
    assert plan.days[0].answers == pytest.approx(1 + (1 - p) * len(SCHEDULER.relearning_steps))


def test_a_learner_who_forgets_faster_than_the_model_gets_more_other_reviews() -> None:
    """With a stability scale below 1 the other cards lapse more often and come back sooner: the
    plan counts more of their reviews and answers over the days, and leaves less for the interview."""
    others = [reviewed(3.0, 3 - i % 3) for i in range(30)]
    modelled, forgetful = plan_with_others(others, 1.0), plan_with_others(others, 0.2)
    assert sum(d.other_reviews for d in forgetful.days) > sum(d.other_reviews for d in modelled.days)
    assert sum(d.answers for d in forgetful.days) > sum(d.answers for d in modelled.days) + 5


def test_expected_reviews_of_a_card_sum_to_its_due_reviews() -> None:
    """The branches of one review (recalled or lapsed) share its weight: a card due today counts
    one review today, and each later day at most one."""
    card = recall.memory_card(reviewed(2.0, 2))
    answers, reviews = [0.0] * 10, [0.0] * 10

    def index_of(when: datetime) -> int:
        return max(0, (when.date() - TODAY).days)

    recall.plain_reviews(SCHEDULER, card, NOW + timedelta(days=10), index_of,
                         lambda i: max(NOW, datetime.combine(TODAY + timedelta(days=i), datetime.min.time(),
                                                             tzinfo=timezone.utc).replace(hour=8)),
                         answers, reviews, 0.5)
    assert reviews[0] == pytest.approx(1.0)
    assert all(r <= 1.0 + 1e-9 for r in reviews)
    assert all(a >= r - 1e-9 for a, r in zip(answers, reviews))
    assert sum(reviews) > 1.0  # it comes back within the ten days


def test_a_card_in_relearning_counts_its_steps_today() -> None:
    lapsed = fsrs.Card(card_id=1, state=fsrs.State.Relearning, step=0, stability=1.0, difficulty=7.0,
                       due=NOW + timedelta(minutes=10), last_review=NOW - timedelta(minutes=1))
    memory = CardMemory(state=CardState.relearning, step=0, stability=1.0, difficulty=7.0,
                        due=lapsed.due, last_review=lapsed.last_review, reps=4)
    plan = plan_with_others([memory], 1.0)
    assert plan.days[0].answers >= len(SCHEDULER.relearning_steps)
    assert plan.days[0].other_reviews == 0  # steps, not a review of the day
