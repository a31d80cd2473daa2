"""Studying ahead of the interview plan: the questions the plan introduces on later days wait
for their day (held like reviews, not offered as ordinary new cards), the drill's done screen
offers the next few now, and a day studied ahead has no budget stop."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from prep.drill import queue_queries, rating, session
from prep.drill.models import Card, CardState, PlannedReview
from prep.extensions import db
from prep.interview import ahead, service
from prep.interview.models import InterviewSettings
from tests.support.interview import candidate, make_posting  # noqa: F401 (a fixture)


@pytest.fixture
def planned(app, candidate, make_question, clock):
    """Forty asked questions, an interview in 10 days, a 5-minute budget, the default new-card
    limit (20): the plan introduces a few today and the rest on later days."""
    questions = [make_question() for _ in range(40)]
    make_posting(candidate, questions, days_ahead=10, now=clock.now)
    candidate.new_per_day = 20
    service.save_settings(candidate, enabled=True, target=0.9, budget_minutes=5, now=clock.now)
    db.session.commit()
    return candidate, questions


def _today_bookings(user, now) -> set[int]:
    today = queue_queries.study_day(user, now).day
    return set(db.session.scalars(select(PlannedReview.card_id).where(
        PlannedReview.user_id == user.id, PlannedReview.day == today, PlannedReview.hold.is_(False))))


def _drain(user, now, booked_only: bool = False) -> int:
    """Answer (Easy) every card the drill offers now (each rating reacts as in the app: the plan
    made again at the session's end may book more for today); returns how many. ``booked_only``:
    check that each card offered was booked for today when it was offered."""
    n = 0
    while (card := queue_queries.next_card(user, now)) is not None and n < 200:
        assert not booked_only or card.id in _today_bookings(user, now), card
        rating.rate(user, rating.Answer(card.id, card.version, 4, 20_000), now)
        db.session.commit()
        n += 1
    return n


def test_the_done_screen_offers_to_study_ahead(planned, client, clock):
    user, questions = planned
    booked = _today_bookings(user, clock.now)
    assert 0 < len(booked) < 40
    answered = _drain(user, clock.now, booked_only=True)  # only today's bookings come, not 20 ordinary new cards
    assert len(booked) <= answered < 20
    waiting = ahead.waiting(user, clock.now)
    assert waiting == 40 - answered
    page = client.get("/drill").get_data(as_text=True)
    assert 'id="study-ahead"' in page
    assert f"{waiting} questions of your interviews are not started yet" in page
    assert f"Study {ahead.STEP} questions ahead" in page


def test_studying_ahead_books_the_next_questions_for_today(planned, client, clock):
    user, questions = planned
    _drain(user, clock.now)
    assert service.after_rating(user, clock.now) == service.PLANNED  # the session's end, as the drill's view does
    db.session.commit()  # the plan job makes and stores the plan
    first = _today_bookings(user, clock.now)
    found = service.stored_plan(user, clock.now)
    by_first_day = sorted((min(days), q) for q, days in found.plan.planned.items() if days)
    response = client.post("/plan/ahead", follow_redirects=True)
    assert f"{ahead.STEP} questions added to today&#39;s study" in response.get_data(as_text=True)
    added = _today_bookings(user, clock.now) - first
    assert len(added) == ahead.STEP
    cards = {c.id: c for c in db.session.scalars(select(Card).where(Card.id.in_(added)))}
    assert all(c.state is CardState.new for c in cards.values())
    # the ones the plan would have introduced first (not those already booked for today)
    expected = [q for _, q in by_first_day if q not in {c.question_id for c in db.session.scalars(
        select(Card).where(Card.user_id == user.id, (Card.state != CardState.new) | Card.id.in_(first)))}][:ahead.STEP]
    assert {c.question_id for c in cards.values()} == set(expected)
    assert set(session.next_card_ids(user, clock.now, 50)) >= added
    assert db.session.get(InterviewSettings, user.id).ahead_on == queue_queries.study_day(user, clock.now).day
    # a day studied ahead has no budget stop: the candidate chose to go past the minutes
    assert not service._budget_just_used(user, clock.now)
    assert _drain(user, clock.now) >= ahead.STEP
    # the next day, the budget stop is back
    tomorrow = clock.now + timedelta(days=1)
    assert db.session.get(InterviewSettings, user.id).ahead_on < queue_queries.study_day(user, tomorrow).day


def test_nothing_to_study_ahead_without_an_interview_or_with_the_mode_off(app, candidate, make_question, client,
                                                                          clock):
    assert ahead.waiting(candidate, clock.now) == 0
    response = client.post("/plan/ahead", follow_redirects=True)
    assert "no question left to study ahead" in response.get_data(as_text=True)
    questions = [make_question() for _ in range(10)]
    make_posting(candidate, questions, days_ahead=5, now=clock.now)
    service.save_settings(candidate, enabled=False, target=0.9, budget_minutes=5, now=clock.now)
    db.session.commit()
    assert ahead.waiting(candidate, clock.now) == 0
    assert ahead.study_ahead(candidate, clock.now) == 0
    assert 'id="study-ahead"' not in client.get("/drill").get_data(as_text=True)


def test_study_ahead_needs_the_csrf_token(csrf_app, make_user):
    from tests.support.app import PASSWORD  # noqa: F401 (the login helper's password)

    client = csrf_app.test_client()
    assert client.post("/plan/ahead").status_code in (400, 302)  # no token: refused, or sign-in first
    assert db.session.scalar(select(PlannedReview.id)) is None


def test_the_plan_page_shows_todays_minutes_and_offers_to_study_ahead(planned, client, clock):
    user, questions = planned
    page = client.get("/plan").get_data(as_text=True)
    assert "0 of 5 minutes used today" in page and 'id="budget-used"' not in page
    assert "Study 5 questions ahead" in page
    card = queue_queries.next_card(user, clock.now)
    rating.rate(user, rating.Answer(card.id, card.version, 3, 6 * 60_000), clock.now)  # six minutes on one card
    db.session.commit()
    page = client.get("/plan").get_data(as_text=True)
    assert 'id="budget-used"' in page
    assert "Today's minutes are used" in page
    zh = client.get("/plan", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert "今天已用" in zh
