"""One source of truth for today's queue: the drill header, its "all done" page, the
dashboard, the reminder sweep and banner, and the stats page say the same "due now / learning
later today / new allowed today / buried until tomorrow" across a simulated day. Fixed clocks."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import delete, select

from prep.drill import queue, queue_queries, rating, session
from prep.drill.cards import add_to_study
from prep.drill.models import Card, CardState, PlannedReview
from prep.drill.queue import DoneToday, Limits
from prep.extensions import db
from prep.questions.models import LinkOrigin, QuestionExplanation
from prep.reminders import sweep_query
from tests.support.clock import FIXED_NOW

UTC = timezone.utc


# --- the rule, pure --------------------------------------------------------------------------------

@pytest.mark.parametrize(("t", "limits", "done", "expected"), [
    (queue.Tally(learning_now=1, reviews_due=5, new=30), Limits(20, 200), DoneToday(20, 0), (1, 5, 0, True)),
    (queue.Tally(reviews_due=5, new=30), Limits(20, 3), DoneToday(5, 1), (0, 2, 15, False)),
    (queue.Tally(new=0), Limits(20, 200), DoneToday(20, 0), (0, 0, 0, False)),  # nothing new: no limit to reach
])
def test_queue_counts_apply_the_daily_limits(t, limits, done, expected):
    c = queue.queue_counts(t, limits, done)
    assert (c.learning_now, c.reviews_now, c.new_today, c.new_limit_reached) == expected


def test_minutes_until_rounds_up():
    assert queue.minutes_until(FIXED_NOW + timedelta(minutes=7, seconds=1), FIXED_NOW) == 8
    assert queue.minutes_until(FIXED_NOW, FIXED_NOW) == 1
    assert queue.minutes_until(None, FIXED_NOW) is None


# --- a simulated day -----------------------------------------------------------------------------

def _link(question, slug: str) -> None:
    db.session.add(QuestionExplanation(question_id=question.id, slug=slug, origin=LinkOrigin.manual,
                                       created_at=FIXED_NOW))


def _card(user, question) -> Card:
    return db.session.scalar(select(Card).where(Card.user_id == user.id, Card.question_id == question.id))


def _set(card: Card, **fields) -> None:
    for key, value in fields.items():
        setattr(card, key, value)


@pytest.fixture
def day(make_user, make_question):
    """At FIXED_NOW (12:00 UTC, day from 04:00): the new-card limit (2) reached, a learning card
    due in 8 minutes, another in 45, a review due, and three siblings of a rated card buried."""
    user = make_user(new_per_day=2, created_at=FIXED_NOW - timedelta(days=30))
    q = {n: make_question(f"What does the {n} part of consensus do?") for n in
         ("first", "second", "sib1", "sib2", "sib3", "review", "unseen")}
    for n in ("first", "sib1", "sib2", "sib3"):
        _link(q[n], "raft")
    db.session.commit()
    add_to_study(user, [x.id for x in q.values()], FIXED_NOW - timedelta(hours=3))
    cards = {n: _card(user, x) for n, x in q.items()}
    _set(cards["sib3"], state=CardState.review, step=None, stability=5.0, difficulty=5.0, reps=2,
         due=FIXED_NOW - timedelta(hours=1), last_review=FIXED_NOW - timedelta(days=5))
    _set(cards["review"], state=CardState.review, step=None, stability=5.0, difficulty=5.0, reps=2,
         due=FIXED_NOW - timedelta(hours=2), last_review=FIXED_NOW - timedelta(days=5))
    db.session.commit()
    earlier = FIXED_NOW - timedelta(hours=1)
    for n in ("first", "second"):  # two new cards introduced: the limit of 2 is reached
        assert rating.rate(user, rating.Answer(cards[n].id, cards[n].version, 3), earlier).recorded
    db.session.commit()
    for c in cards.values():
        db.session.refresh(c)
    assert {cards[n].buried_until is not None for n in ("sib1", "sib2", "sib3")} == {True}
    _set(cards["first"], due=FIXED_NOW + timedelta(minutes=8))
    _set(cards["second"], due=FIXED_NOW + timedelta(minutes=45))
    db.session.commit()
    return user, cards


def _number(html: str, pattern: str) -> int:
    m = re.search(pattern, html, re.S)
    assert m, pattern
    return int(m.group(1))


def _surfaces(client, user, now: datetime) -> dict[str, tuple[int, int, int, int]]:
    """(due now, learning later today, new allowed today, buried) as each surface says it."""
    out = {}
    drill = client.get("/drill").get_data(as_text=True)
    if 'class="drill-counts"' in drill:
        due = sum(_number(drill, rf'class="count {k}"[^>]*>(\d+)<') for k in ("learning", "review"))
        new = _number(drill, r'class="count new"[^>]*>(\d+)<')
    else:
        due, new = 0, 0
    later = _number(drill, r'data-queue-later="(\d+)"') if "data-queue-later" in drill else 0
    buried = _number(drill, r'data-queue-buried="(\d+)"') if "data-queue-buried" in drill else 0
    out["drill"] = (due, later, new, buried)
    dash = client.get("/dashboard").get_data(as_text=True)
    out["dashboard"] = tuple(_number(dash, rf'data-stat="{k}">(\d+)<') for k in ("due-now", "later", "new", "buried"))
    stats = client.get("/stats").get_data(as_text=True)
    stats = stats[stats.index('id="today-section"'):]
    out["stats"] = tuple(_number(stats, rf'data-stat="{k}">(\d+)<') for k in ("due-now", "later", "new", "buried"))
    due_users = [u for u in sweep_query.find_due(now) if u.user_id == user.id]
    reminded = due_users[0] if due_users else None
    c = queue_queries.queue_counts(user, now)
    # The reminder says what is due now; it has no "later" or "buried" line of its own.
    out["reminder"] = ((reminded.learning + reminded.reviews) if reminded else 0, c.learning_later,
                       reminded.new if reminded else 0, c.buried)
    out["service"] = (c.due_now, c.learning_later, c.new_today, c.buried)
    return out


def test_every_surface_agrees_across_the_day(client, login, day, clock):
    user, cards = day
    login(user)
    # 12:00: the learning card due in 8 minutes (within the learn-ahead window) and the review are
    # due now; the one due in 45 minutes comes later; no new card (limit reached); 3 buried.
    surfaces = _surfaces(client, user, clock.now)
    assert set(surfaces.values()) == {(2, 1, 0, 3)}, surfaces
    dash = client.get("/dashboard").get_data(as_text=True)
    assert "3 cards buried until tomorrow" in dash and "Daily limit of new cards reached." in dash

    # Rate the two cards due now; the learning card graduates or steps on past the window.
    shown = []
    for _ in range(2):
        card = queue_queries.next_card(user, clock.now)
        shown.append(card.id)
        assert rating.rate(user, rating.Answer(card.id, card.version, 4), clock.now).recorded
        db.session.commit()
    assert sorted(shown) == sorted([cards["first"].id, cards["review"].id])
    surfaces = _surfaces(client, user, clock.now)
    assert set(surfaces.values()) == {(0, 1, 0, 3)}, surfaces
    done = client.get("/drill").get_data(as_text=True)
    assert "Next card in 45 min: come back then." in done and "Come back tomorrow" not in done
    assert "Next card in 45 min" in client.get("/dashboard").get_data(as_text=True)

    # 37 minutes later the second learning card is inside the window: due now again.
    clock.shift(timedelta(minutes=37))
    surfaces = _surfaces(client, user, clock.now)
    assert set(surfaces.values()) == {(1, 0, 0, 3)}, surfaces

    # "show" brings the buried siblings back for today: the buried review is due now.
    page = client.post("/drill/unbury", follow_redirects=True).get_data(as_text=True)
    assert "3 buried cards are back in today&#39;s queue." in page
    surfaces = _surfaces(client, user, clock.now)
    assert set(surfaces.values()) == {(2, 0, 0, 0)}, surfaces


def test_every_surface_counts_interview_bookings(client, login, day, clock):
    """A review card interview mode booked for today (FSRS has it due next week) is due now on
    every surface, reminder included; once answered, it is no longer counted."""
    user, cards = day
    login(user)
    booked = cards["review"]
    _set(booked, due=FIXED_NOW + timedelta(days=7))
    db.session.add(PlannedReview(user_id=user.id, card_id=booked.id, day=queue_queries.study_day(user, clock.now).day))
    db.session.commit()
    surfaces = _surfaces(client, user, clock.now)
    assert set(surfaces.values()) == {(2, 1, 0, 3)}, surfaces  # the booking stands in for the due review
    assert queue_queries.queue_counts(user, clock.now).planned_now == 1
    assert rating.rate(user, rating.Answer(booked.id, booked.version, 3), clock.now).recorded
    db.session.commit()
    assert queue_queries.queue_counts(user, clock.now).planned_now == 0


def test_a_card_booked_later_is_not_due_before_its_booking(client, login, day, clock):
    """Interview mode: a review FSRS makes due today is held back when the plan booked
    the card for a later day and not today; every surface, the drill's next card and its batch
    agree. With a booking today it is offered; once its bookings are over FSRS decides again."""
    user, cards = day
    login(user)
    held = cards["review"]
    today = queue_queries.study_day(user, clock.now).day
    db.session.add(PlannedReview(user_id=user.id, card_id=held.id, day=today + timedelta(days=2)))
    db.session.commit()
    assert queue.held_by_plan({today + timedelta(days=2)}, today)
    surfaces = _surfaces(client, user, clock.now)
    assert set(surfaces.values()) == {(1, 1, 0, 3)}, surfaces  # only the learning card is due now
    assert held.id not in session.next_card_ids(user, clock.now, 10)
    shown = queue_queries.next_card(user, clock.now)
    assert shown is not None and shown.id == cards["first"].id
    assert rating.rate(user, rating.Answer(shown.id, shown.version, 4), clock.now).recorded
    db.session.commit()
    assert queue_queries.next_card(user, clock.now) is None and not queue_queries.has_card_now(user, clock.now)

    db.session.add(PlannedReview(user_id=user.id, card_id=held.id, day=today))  # booked today too
    db.session.commit()
    assert set(_surfaces(client, user, clock.now).values()) == {(1, 1, 0, 3)}
    assert queue_queries.next_card(user, clock.now).id == held.id

    db.session.execute(delete(PlannedReview).where(PlannedReview.card_id == held.id))
    db.session.add(PlannedReview(user_id=user.id, card_id=held.id, day=today - timedelta(days=1)))
    db.session.commit()  # the interview is over: only a past booking is left, FSRS decides
    assert set(_surfaces(client, user, clock.now).values()) == {(1, 1, 0, 3)}
    assert queue_queries.has_card_now(user, clock.now) and queue_queries.next_card(user, clock.now).id == held.id


def test_a_hold_keeps_a_card_back_until_its_interview_and_is_never_offered_itself(client, login, day, clock):
    """A card past its last planned review, its interview still ahead, is held by a ``hold`` row on
    the interview day: not offered when FSRS makes it due. On that day the hold books nothing (the
    card is not offered unless FSRS has it due) and plain FSRS decides again."""
    user, cards = day
    login(user)
    held = cards["review"]
    today = queue_queries.study_day(user, clock.now).day
    db.session.add(PlannedReview(user_id=user.id, card_id=held.id, day=today + timedelta(days=3), hold=True))
    db.session.commit()
    assert set(_surfaces(client, user, clock.now).values()) == {(1, 1, 0, 3)}
    assert held.id not in session.next_card_ids(user, clock.now, 10)

    db.session.execute(delete(PlannedReview).where(PlannedReview.card_id == held.id))
    db.session.add(PlannedReview(user_id=user.id, card_id=held.id, day=today, hold=True))
    _set(held, due=FIXED_NOW + timedelta(days=7))  # the interview day: FSRS does not have it due
    db.session.commit()
    assert queue_queries.queue_counts(user, clock.now).planned_now == 0
    assert held.id not in session.next_card_ids(user, clock.now, 10)
    _set(held, due=FIXED_NOW - timedelta(hours=1))  # FSRS has it due: offered as an ordinary review
    db.session.commit()
    assert held.id in session.next_card_ids(user, clock.now, 10)


def test_a_reminder_comes_for_bookings_alone(make_user, make_question, clock):
    user = make_user(created_at=FIXED_NOW - timedelta(days=30))
    question = make_question()
    add_to_study(user, [question.id], FIXED_NOW - timedelta(days=20))
    card = _card(user, question)
    _set(card, state=CardState.review, step=None, stability=30.0, difficulty=5.0, reps=3,
         due=FIXED_NOW + timedelta(days=20), last_review=FIXED_NOW - timedelta(days=3))
    db.session.commit()
    assert not [u for u in sweep_query.find_due(clock.now) if u.user_id == user.id]
    db.session.add(PlannedReview(user_id=user.id, card_id=card.id, day=queue_queries.study_day(user, clock.now).day))
    db.session.commit()
    reminded = [u for u in sweep_query.find_due(clock.now) if u.user_id == user.id]
    assert reminded and (reminded[0].learning, reminded[0].reviews, reminded[0].new) == (0, 1, 0)


def test_a_session_shows_a_card_twice_only_as_a_learning_step(client, login, day, clock):
    user, cards = day
    login(user)
    client.post("/drill/unbury")
    seen: dict[int, int] = {}
    for _ in range(40):
        card = queue_queries.next_card(user, clock.now)
        if card is None:
            break
        if card.id in seen:
            assert card.state in (CardState.learning, CardState.relearning), card.id
        seen[card.id] = seen.get(card.id, 0) + 1
        rating.rate(user, rating.Answer(card.id, card.version, 3), clock.now)
        db.session.commit()
        clock.shift(timedelta(seconds=20))
    assert len(seen) >= 3


def test_a_translation_is_not_a_sibling(make_user, make_question):
    """Rating a question buries its same-language siblings, not its wording in the other language."""
    user = make_user()
    en = make_question("How does ring AllReduce work, step by step?")
    zh = make_question("环形AllReduce分为哪两个阶段？")
    sibling = make_question("Why is ring AllReduce bandwidth-optimal?")
    for question in (en, zh, sibling):
        _link(question, "ring-allreduce")
    db.session.commit()
    add_to_study(user, [en.id, zh.id, sibling.id], FIXED_NOW)
    db.session.commit()
    card = _card(user, en)
    assert rating.rate(user, rating.Answer(card.id, card.version, 3), FIXED_NOW).recorded
    db.session.commit()
    assert _card(user, sibling).buried_until is not None
    assert _card(user, zh).buried_until is None
    assert queue_queries.queue_counts(user, FIXED_NOW).buried == 1
