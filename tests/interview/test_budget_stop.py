"""Interview mode's daily budget holds in the drill: once today's study time, counting an answer
for each card still in its steps, reaches the budget, the plan is made again and books nothing
more today (the pure rule, the planner, the simulated learner, and the rating views)."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select

from prep.drill import queue_queries, rating
from prep.drill.models import Card, CardState, PlannedReview
from prep.extensions import db
from prep.interview import plans, service, simulate
from prep.interview.planner import make_plan
from prep.interview.plans import Interview, PlanCard, PlanSettings
from tests.support.interview import candidate, make_posting, review_card  # noqa: F401 (a fixture)

NOW = datetime(2026, 3, 2, 7, 0, tzinfo=timezone.utc)
TODAY = date(2026, 3, 2)


# --- the pure parts -----------------------------------------------------------------------------

def test_committed_time_counts_an_answer_for_each_card_in_its_steps() -> None:
    assert plans.committed_seconds(600, 20, 0) == 600
    assert plans.committed_seconds(600, 20, 4) == 600 + 4 * 30  # today's mean: 30 s an answer
    assert plans.committed_seconds(0, 0, 2) == 2 * plans.DEFAULT_SECONDS_PER_REVIEW  # no answer yet
    assert plans.committed_seconds(-5, 0, -1) == 0.0


def test_a_plan_made_when_the_budget_is_used_books_nothing_today() -> None:
    interview = Interview(1, TODAY + timedelta(days=5), tuple(range(1, 41)))
    settings = PlanSettings(seconds_per_review=30, budget_minutes=20)
    fresh = make_plan([PlanCard(i) for i in range(1, 41)], [interview], settings, NOW)
    assert fresh.days[0].new, "with the day's budget free, the plan introduces cards today"
    used = make_plan([PlanCard(i) for i in range(1, 41)], [interview], settings, NOW + timedelta(hours=1),
                     spent_today_seconds=20 * 60)
    assert used.days[0].day == TODAY
    assert not used.days[0].new and not used.days[0].reviews
    later = [d for d in used.days[1:] if d.new]
    assert later, "the cards move to the coming days"
    assert all(d.minutes <= settings.budget_minutes + 1e-9 for d in used.days[1:])


def _session(budget: float | None) -> tuple[float, int]:
    """One day's session of sixty new cards: (its minutes, the cards started)."""
    run = simulate.history("fast forgetter", seed=2)
    cards = [simulate._Card(i) for i in range(60)]
    start = datetime(2026, 3, 2, simulate.SESSION_HOUR, tzinfo=timezone.utc)
    run.session(cards, start, 0, budget_minutes=budget)
    return run.minutes_by_day[0], sum(1 for c in cards if c.truth is not None)


def test_the_simulated_session_stops_starting_cards_at_the_budget() -> None:
    free_minutes, free_started = _session(None)
    minutes, started = _session(10)
    assert free_started == 60 and free_minutes > 25, "sixty new cards take well over ten minutes"
    # no card started once the minutes and the steps under way reached 10: what follows is steps
    assert started < 30
    assert 7 < minutes < 13


# --- the rating views ---------------------------------------------------------------------------

@pytest.fixture
def booked(app, candidate, make_question, clock):
    """A candidate with an interview in 5 days, a 10-minute budget, and bookings today."""
    now = clock.now
    questions = [make_question() for _ in range(30)]
    for q in questions[:6]:
        review_card(candidate, q, now=now, days_ago=10, stability=12.0)
    make_posting(candidate, questions, days_ahead=5, now=now)
    service.save_settings(candidate, enabled=True, target=0.9, budget_minutes=10, now=now)
    db.session.commit()
    today = queue_queries.study_day(candidate, now).day
    ids = list(db.session.scalars(select(PlannedReview.card_id).where(PlannedReview.day == today,
                                                                       PlannedReview.hold.is_(False))))
    assert len(ids) >= 2, "ten minutes book several cards today"
    return candidate, today, ids


def _booked_today(today: date) -> set[int]:
    return set(db.session.scalars(select(PlannedReview.card_id).where(PlannedReview.day == today,
                                                                       PlannedReview.hold.is_(False))))


def test_a_rating_under_the_budget_keeps_todays_bookings(booked, client, clock):
    user, today, ids = booked
    card = db.session.get(Card, ids[0])
    response = client.post("/drill/rate", data={"card_id": card.id, "version": card.version, "rating": 3,
                                                "duration_ms": 20_000}, follow_redirects=True)
    assert response.status_code == 200
    assert "study time for your interviews" not in response.get_data(as_text=True)
    assert _booked_today(today) == set(ids)


def test_the_rating_that_uses_the_budget_moves_todays_other_bookings(booked, client, clock):
    user, today, ids = booked
    card = db.session.get(Card, ids[0])
    response = client.post("/drill/rate", data={"card_id": card.id, "version": card.version, "rating": 3,
                                                "duration_ms": 10 * 60_000}, follow_redirects=True)
    assert "That was today&#39;s study time for your interviews" in response.get_data(as_text=True)
    left = _booked_today(today) - {card.id}
    assert not left, f"nothing more booked today, got {left}"
    later = set(db.session.scalars(select(PlannedReview.card_id).where(PlannedReview.day > today,
                                                                       PlannedReview.hold.is_(False))))
    moved = (set(ids) - {card.id}) & later
    assert len(moved) >= (len(ids) - 1) // 2, "today's other cards are booked on later days (some may be dropped)"
    # the next ratings (learning steps, other reviews) do not plan again: nothing booked today is left
    assert not service._budget_just_used(user, clock.now)


def test_the_json_rating_says_the_plan_moved_the_rest(booked, client, clock):
    user, today, ids = booked
    card = db.session.get(Card, ids[0])
    first = client.post("/drill/rate.json", json={"card_id": card.id, "version": card.version, "rating": 3,
                                                  "elapsed_ms": 10_000, "request_id": "r-1"})
    assert first.get_json()["replanned"] is False and first.get_json()["message"] == ""
    other = db.session.get(Card, ids[1])
    second = client.post("/drill/rate.json", json={"card_id": other.id, "version": other.version, "rating": 1,
                                                   "elapsed_ms": 10 * 60_000, "request_id": "r-2"})
    body = second.get_json()
    assert body["status"] == "recorded" and body["replanned"] is True
    assert "study time for your interviews" in body["message"]
    assert not _booked_today(today) - {card.id, other.id}


def test_steps_under_way_count_against_the_budget(booked, clock):
    """A card answered Again moments ago comes back through its (re)learning step today: that
    answer counts as committed, so the budget is reached a step earlier."""
    user, today, ids = booked
    card = db.session.get(Card, ids[0])
    rated = rating.rate(user, rating.Answer(card.id, card.version, 1, 5 * 60_000), clock.now)  # five minutes, forgotten
    db.session.commit()
    assert db.session.get(Card, card.id).state in (CardState.learning, CardState.relearning)
    figures = service.today_of(user, clock.now)
    assert figures.committed_seconds == pytest.approx(300 + 300)  # the step at today's mean answer time
    assert rated.reactions[service.RATING_HOOK] == service.BUDGET_USED  # the rating's own reaction stopped today
    assert not figures.booked_left and not _booked_today(today)
    assert db.session.scalar(select(func.count(PlannedReview.id))) > 0


@pytest.mark.parametrize("budget", [1, 3, 7, 12, 20, 45])
def test_the_minutes_needed_search_ends_for_any_budget(budget: int) -> None:
    """The shortfall's "minutes a day needed" search steps in fives from the budget; with a budget
    that is not a multiple of five it once looped for ever (budget 3: low 3, high 10, midpoint 10),
    freezing the worker that made the plan."""
    for need in range(budget + 1, 300, 7):
        for peak in (0.0, need - 3.0, float(need), need + 17.0):
            calls: list[float] = []

            def meets(minutes: float) -> bool:
                calls.append(minutes)
                assert len(calls) < 100, f"the search does not end: {calls[-6:]}"
                return minutes >= need
            found = plans.minutes_to_reach(meets, budget, peak)
            assert found >= need and len(calls) < 30
            assert found < need + 5 or calls.count(found) == 1  # a multiple of five, or a doubling step
