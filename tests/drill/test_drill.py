"""Drill: queue order and limits on the database, rating (idempotent), undo, bury/suspend,
authorization, and the drill page itself. Fixed clocks throughout."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select

from prep.drill import queue_queries, rating, streak
from prep.drill.cards import add_to_study, bury
from prep.drill.models import Card, CardState, ReviewLog
from prep.extensions import db
from tests.support.clock import FIXED_NOW

UTC = timezone.utc


@pytest.fixture
def user_with_cards(make_user, make_question):
    def build(n: int = 3, **settings):
        user = make_user(**settings)
        questions = [make_question() for _ in range(n)]
        add_to_study(user, [q.id for q in questions], FIXED_NOW)
        db.session.commit()
        cards = db.session.scalars(select(Card).where(Card.user_id == user.id).order_by(Card.added_at)).all()
        return user, cards
    return build


def _set(card: Card, **fields) -> None:
    for key, value in fields.items():
        setattr(card, key, value)
    db.session.commit()


def test_new_cards_in_added_order_and_limited(user_with_cards):
    user, cards = user_with_cards(5, new_per_day=2)
    seen = []
    now = FIXED_NOW
    for _ in range(2):
        card = queue_queries.next_card(user, now)
        assert card.state is CardState.new
        seen.append(card.id)
        rating.rate(user, rating.Answer(card.id, card.version, 4), now)  # Easy: straight to review, days away
        db.session.commit()
    assert seen == [cards[0].id, cards[1].id]
    assert queue_queries.next_card(user, now) is None  # new limit reached, nothing else due
    c = queue_queries.counts(user, now)
    assert (c.new_available, c.reviewed_today) == (0, 2)


def test_learning_due_now_comes_first(user_with_cards):
    user, (a, b, c) = user_with_cards(3)
    _set(b, state=CardState.review, due=FIXED_NOW - timedelta(days=1), stability=5.0, difficulty=5.0,
         last_review=FIXED_NOW - timedelta(days=6), step=None)
    _set(c, state=CardState.learning, due=FIXED_NOW - timedelta(minutes=1), stability=2.3, difficulty=5.0,
         last_review=FIXED_NOW - timedelta(minutes=11), step=1)
    order = []
    for _ in range(3):
        card = queue_queries.next_card(user, FIXED_NOW)
        order.append(card.id)
        bury(card, user, FIXED_NOW)
        db.session.commit()
    assert order == [c.id, b.id, a.id]  # learning, then review, then new


def test_review_limit(user_with_cards):
    user, cards = user_with_cards(4, reviews_per_day=2, new_per_day=0)
    for card in cards:
        _set(card, state=CardState.review, due=FIXED_NOW - timedelta(hours=1), stability=3.0, difficulty=5.0,
             last_review=FIXED_NOW - timedelta(days=3), step=None)
    assert queue_queries.counts(user, FIXED_NOW).reviews_today == 2
    for _ in range(2):
        card = queue_queries.next_card(user, FIXED_NOW)
        rating.rate(user, rating.Answer(card.id, card.version, 3), FIXED_NOW)
        db.session.commit()
    assert queue_queries.next_card(user, FIXED_NOW) is None
    assert queue_queries.counts(user, FIXED_NOW).reviews_today == 0


def test_due_today_uses_the_local_day(user_with_cards):
    # Shanghai, day starts 04:00 local. FIXED_NOW = 12:00 UTC = 20:00 local on 2026-03-10.
    user, (today, tomorrow) = user_with_cards(2, timezone="Asia/Shanghai", new_per_day=0)
    # 03:30 local on the 11th is still the 10th's study day; 04:30 local on the 11th is not.
    _set(today, state=CardState.review, due=datetime(2026, 3, 10, 19, 30, tzinfo=UTC), stability=3.0,
         difficulty=5.0, last_review=FIXED_NOW - timedelta(days=3), step=None)
    _set(tomorrow, state=CardState.review, due=datetime(2026, 3, 10, 20, 30, tzinfo=UTC), stability=3.0,
         difficulty=5.0, last_review=FIXED_NOW - timedelta(days=3), step=None)
    assert queue_queries.counts(user, FIXED_NOW).reviews_today == 1
    assert queue_queries.next_card(user, FIXED_NOW).id == today.id


def test_reviewed_today_counts_across_dst_change(user_with_cards):
    # New York springs forward on 2026-03-08 at 02:00. The study day of the 8th runs from
    # 04:00 EDT (08:00 UTC) on the 8th to 04:00 EDT (08:00 UTC) on the 9th.
    user, cards = user_with_cards(3, timezone="America/New_York")
    times = [datetime(2026, 3, 8, 7, 59, tzinfo=UTC),   # 03:59 EDT: the 7th's day
             datetime(2026, 3, 8, 8, 0, tzinfo=UTC),    # 04:00 EDT: the 8th
             datetime(2026, 3, 9, 7, 59, tzinfo=UTC)]   # 03:59 EDT on the 9th: still the 8th
    for card, t in zip(cards, times):
        rating.rate(user, rating.Answer(card.id, card.version, 3), t)
        db.session.commit()
    assert queue_queries.counts(user, datetime(2026, 3, 8, 20, 0, tzinfo=UTC)).reviewed_today == 2
    assert queue_queries.counts(user, datetime(2026, 3, 8, 20, 0, tzinfo=UTC)).streak == 2


def test_rating_same_shown_card_twice_records_once(client, login, user_with_cards, clock):
    user, cards = user_with_cards(1)
    login(user)
    form = {"card_id": cards[0].id, "version": cards[0].version, "rating": 3, "duration_ms": 4200}
    assert client.post("/drill/rate", data=form).status_code == 302
    assert client.post("/drill/rate", data=form).status_code == 302
    logs = db.session.scalars(select(ReviewLog)).all()
    assert len(logs) == 1
    assert logs[0].duration_ms == 4200 and logs[0].rating == 3
    assert logs[0].state_before == "new" and logs[0].state_after == "learning"
    card = db.session.get(Card, cards[0].id)
    assert card.version == 1 and card.reps == 1


def test_duration_from_shown_at_when_no_js(client, login, user_with_cards, clock):
    user, cards = user_with_cards(1)
    login(user)
    shown = FIXED_NOW - timedelta(seconds=12)
    client.post("/drill/rate", data={"card_id": cards[0].id, "version": 0, "rating": 3,
                                     "shown_at": shown.isoformat()})
    assert db.session.scalar(select(ReviewLog.duration_ms)) == 12000


def test_rate_is_idempotent_at_service_level(user_with_cards):
    user, (card,) = user_with_cards(1)
    first = rating.rate(user, rating.Answer(card.id, 0, 3), FIXED_NOW)
    db.session.commit()
    second = rating.rate(user, rating.Answer(card.id, 0, 1), FIXED_NOW + timedelta(seconds=1))
    db.session.commit()
    assert first.recorded and not second.recorded
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 1


def test_undo_restores_the_card_exactly(client, login, user_with_cards, clock):
    user, (card,) = user_with_cards(1)
    rating.rate(user, rating.Answer(card.id, 0, 3), FIXED_NOW)
    db.session.commit()
    card = db.session.get(Card, card.id)
    before = (card.state, card.step, card.stability, card.difficulty, card.due, card.last_review, card.reps)
    rating.rate(user, rating.Answer(card.id, card.version, 1), FIXED_NOW + timedelta(minutes=10))
    db.session.commit()
    login(user)
    r = client.post("/drill/undo")
    assert r.status_code == 302 and f"card={card.id}" in r.headers["Location"]
    card = db.session.get(Card, card.id)
    assert (card.state, card.step, card.stability, card.difficulty, card.due, card.last_review, card.reps) == before
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 1
    # A second undo takes back the first rating; a third has nothing left.
    client.post("/drill/undo")
    card = db.session.get(Card, card.id)
    assert card.state is CardState.new and card.reps == 0
    r = client.post("/drill/undo", follow_redirects=True)
    assert "no rating to undo" in r.get_data(as_text=True)


def test_bury_and_suspend_leave_the_queue(client, login, user_with_cards, clock):
    user, (a, b) = user_with_cards(2)
    login(user)
    assert client.post(f"/cards/{a.id}/bury").status_code == 302
    assert client.post(f"/cards/{b.id}/suspend").status_code == 302
    assert queue_queries.next_card(user, FIXED_NOW) is None
    # Buried until the next study day (04:00 UTC on the 11th).
    assert queue_queries.next_card(user, datetime(2026, 3, 11, 4, 0, tzinfo=UTC)).id == a.id
    client.post(f"/cards/{b.id}/unsuspend")
    assert not db.session.get(Card, b.id).suspended


def test_remove_asks_for_confirmation_first(client, login, user_with_cards):
    user, (card,) = user_with_cards(1)
    login(user)
    page = client.get(f"/cards/{card.id}/remove")
    assert page.status_code == 200 and "cannot be undone" in page.get_data(as_text=True)
    assert db.session.get(Card, card.id) is not None
    card_id = card.id
    assert client.post(f"/cards/{card_id}/remove").status_code == 302
    assert db.session.scalar(select(Card).where(Card.id == card_id)) is None


def test_another_users_card_is_404(client, login, user_with_cards, make_user):
    owner, (card,) = user_with_cards(1)
    login(make_user())
    for method, url, data in [
        ("get", f"/cards/{card.id}", None),
        ("get", f"/drill?card={card.id}", None),
        ("get", f"/cards/{card.id}/remove", None),
        ("post", "/drill/rate", {"card_id": card.id, "version": 0, "rating": 3}),
        ("post", f"/cards/{card.id}/note", {"note": "mine now"}),
        ("post", f"/cards/{card.id}/suspend", {}),
        ("post", f"/cards/{card.id}/remove", {}),
    ]:
        r = getattr(client, method)(url, data=data)
        assert r.status_code == 404, (method, url)
    card = db.session.get(Card, card.id)
    assert card.note == "" and not card.suspended and card.reps == 0


def test_drill_page_shows_question_intervals_and_answer(client, login, user_with_cards, clock):
    user, (card,) = user_with_cards(1)
    client_ = login(user)
    html = client_.get("/drill").get_data(as_text=True)
    assert card.question.text in html
    assert 'id="answer"' in html and "hidden" in html
    for label in ("Again", "Hard", "Good", "Easy"):
        assert label in html
    assert "1m" in html and "10m" in html  # Again → 1m, Good → 10m (default learning steps)
    revealed = client_.get(f"/drill?card={card.id}&show=1").get_data(as_text=True)
    assert "No explanation yet" in revealed


def test_note_is_shown_when_no_explanation(client, login, user_with_cards):
    user, (card,) = user_with_cards(1)
    login(user)
    client.post(f"/cards/{card.id}/note", data={"note": "<b>Ring</b>: reduce-scatter then all-gather"})
    html = client.get(f"/drill?card={card.id}&show=1").get_data(as_text=True)
    assert "&lt;b&gt;Ring&lt;/b&gt;: reduce-scatter" in html


def test_empty_states(client, login, make_user):
    login(make_user())
    assert "no questions in your study yet" in client.get("/dashboard").get_data(as_text=True)
    assert "Your study list is empty" in client.get("/drill").get_data(as_text=True)


def test_dashboard_counts(client, login, user_with_cards, clock):
    user, cards = user_with_cards(3)
    login(user)
    html = client.get("/dashboard").get_data(as_text=True)
    assert 'data-stat="new">3<' in html and 'data-stat="reviewed">0<' in html
    client.post("/drill/rate", data={"card_id": cards[0].id, "version": 0, "rating": 4})
    html = client.get("/dashboard").get_data(as_text=True)
    assert 'data-stat="new">2<' in html and 'data-stat="reviewed">1<' in html
    assert 'data-stat="streak">1 day<' in html


def test_bad_rating_changes_nothing(client, login, user_with_cards):
    user, (card,) = user_with_cards(1)
    login(user)
    r = client.post("/drill/rate", data={"card_id": card.id, "version": 0, "rating": 7}, follow_redirects=True)
    assert "could not be read" in r.get_data(as_text=True)
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 0


def test_long_streak_widens_its_window(user_with_cards):
    user, (card,) = user_with_cards(1)
    for days_ago in range(100):
        t = FIXED_NOW - timedelta(days=days_ago)
        db.session.add(ReviewLog(card_id=card.id, user_id=user.id, card_version=1000 + days_ago, rating=3,
                                 reviewed_at=t, duration_ms=1000, state_before="review", state_after="review",
                                 card_before={}))
    db.session.commit()
    assert streak.current_streak(user, FIXED_NOW) == 100
