"""Interview-mode bookings and holds beyond today's queue: the reminder email's questions, the
calendar feed's per-day counts and the stats page's forecast say what the drill will offer on
each day: a card booked for a day counts on it, a review card held back on a day does not.
Real rows on SQLite and PostgreSQL; fixed clocks."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from email.message import EmailMessage

import pytest
from sqlalchemy import event

from prep.drill import queue, queue_queries
from prep.drill.models import Card, CardState, PlannedReview
from prep.extensions import db
from prep.reminders import service as reminders
from prep.reminders.sweep_query import find_due, top_questions
from prep.stats import compute, queries
from tests.support.clock import FIXED_NOW
from tests.support.reminders import add_settings

UTC = timezone.utc
D1, D2, D3, D5, D6 = (date(2026, 3, 11), date(2026, 3, 12), date(2026, 3, 13), date(2026, 3, 15),
                      date(2026, 3, 16))


# --- the rule, pure --------------------------------------------------------------------------------

TODAY = date(2026, 3, 10)


@pytest.mark.parametrize(("due", "booked", "holds", "holdable", "expected"), [
    (TODAY, (), (), True, (TODAY, set())),                              # no plan: its due day
    (TODAY, (D2,), (), True, (None, {D2})),                            # held until its booking
    (TODAY, (TODAY, D2), (), True, (TODAY, {D2})),                     # booked on its due day: once
    (TODAY, (), (D2,), True, (None, set())),                           # held until the interview
    (D2, (), (D2,), True, (D2, set())),                                # the hold's own day: FSRS decides
    (TODAY, (D2,), (), False, (TODAY, {D2})),                          # learning steps are never held
])
def test_forecast_days(due, booked, holds, holdable, expected):
    if holdable:
        assert queue.held_by_plan(set(booked), due, holds) == (expected[0] is None)
    found = queue.forecast_days(due, booked, holds, holdable=holdable)
    assert (found[0], set(found[1])) == expected


# --- the reminder email's questions ---------------------------------------------------------------

REMIND_AT = datetime(2026, 3, 10, 1, 30, tzinfo=UTC)  # 09:30 on 3/10 in Shanghai, 18:30 on 3/9 in LA


def _card(user, question, *, state: CardState = CardState.review, due: datetime,
          last_review: datetime | None = None) -> Card:
    card = Card(user_id=user.id, question_id=question.id, state=state, due=due,
                step=None if state is CardState.review else 0, stability=5.0, difficulty=5.0,
                reps=0 if state is CardState.new else 3, added_at=due - timedelta(days=30),
                last_review=last_review if last_review is not None or state is CardState.new
                else FIXED_NOW - timedelta(days=20))
    db.session.add(card)
    db.session.flush()
    return card


def _book(card: Card, day: date, *, hold: bool = False) -> None:
    db.session.add(PlannedReview(user_id=card.user_id, card_id=card.id, day=day, hold=hold))


def _reminded(make_user, make_question, tz: str, name: str) -> None:
    """A user whose study day at REMIND_AT is ``study``: a review due (named first), one FSRS makes
    due but the plan holds for a later booking, one booked today that FSRS has due in ten days,
    one booked tomorrow, and a new card."""
    user = make_user(timezone=tz, day_start_hour=4, created_at=FIXED_NOW - timedelta(days=60))
    add_settings(user.id, {"enabled": True, "email": True, "in_app": False, "remind_minute": 9 * 60})
    study = queue.study_day(REMIND_AT, tz, 4).day
    q = {k: make_question(f"{name}: what does the {k} card ask?") for k in ("due", "held", "booked", "later", "new")}
    _card(user, q["due"], due=REMIND_AT - timedelta(hours=3))
    # due within 24 hours but after the study day ends (04:00 local): tomorrow's, not named
    _card(user, make_question(f"{name}: what does the tomorrow card ask?"), due=REMIND_AT + timedelta(hours=20))
    _book(_card(user, q["held"], due=REMIND_AT - timedelta(hours=2)), study + timedelta(days=2))
    _book(_card(user, q["booked"], due=REMIND_AT + timedelta(days=10)), study)
    _book(_card(user, q["later"], due=REMIND_AT + timedelta(days=10)), study + timedelta(days=1))
    _card(user, q["new"], state=CardState.new, due=REMIND_AT - timedelta(days=1))
    db.session.commit()


def test_the_reminder_names_what_the_drill_offers_on_each_users_study_day(app, make_user, make_question):
    """Two users whose study days differ (Shanghai is on 3/10, Los Angeles still on 3/9): each
    one's questions are the due review, then the card booked for *their* day, then the new card;
    never the held card, nor the one booked for their tomorrow, nor one due after their day ends
    (within 24 hours). One query for both."""
    _reminded(make_user, make_question, "Asia/Shanghai", "Shanghai")
    _reminded(make_user, make_question, "America/Los_Angeles", "LA")
    due = sorted(find_due(REMIND_AT), key=lambda u: u.timezone)
    db.session.rollback()

    class Outbox:
        name = "test"

        def __init__(self) -> None:
            self.messages: list[EmailMessage] = []

        def send(self, message: EmailMessage) -> None:
            self.messages.append(message)

    outbox = Outbox()
    report = reminders.sweep(REMIND_AT, mail_transport=outbox)
    assert len(report.sent) == 2
    for message in outbox.messages:
        text = message.get_body(("plain",)).get_content()
        assert "what does the booked card ask?" in text and "held card" not in text and "later card" not in text

    assert [(u.timezone, u.study_day.day) for u in due] == [("America/Los_Angeles", date(2026, 3, 9)),
                                                             ("Asia/Shanghai", date(2026, 3, 10))]
    statements: list[str] = []

    def count(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        named = top_questions(due, REMIND_AT)
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    assert len([s for s in statements if not s.startswith("BEGIN")]) == 1
    for user, name in zip(due, ("LA", "Shanghai")):
        assert named[user.user_id] == [f"{name}: what does the {k} card ask?" for k in ("due", "booked", "new")]


# --- the calendar feed and the stats forecast ---------------------------------------------------

@pytest.fixture
def planned_user(make_user, make_question, clock):
    """At FIXED_NOW (20:00 in Shanghai, study day 3/10, nothing new): cards FSRS has due on some
    day, each with the plan's rows, named by the days the drill will offer them."""
    user = make_user(timezone="Asia/Shanghai", day_start_hour=4, created_at=FIXED_NOW - timedelta(days=60))
    today = queue_queries.study_day(user, FIXED_NOW)
    assert today.day == TODAY

    def on(k: int) -> datetime:  # noon, local, of the study day k days on
        return today.start + timedelta(days=k, hours=8)

    def card(due: datetime, **kw) -> Card:
        return _card(user, make_question(), due=due, **kw)

    _book(card(on(1)), D3)                      # due tomorrow, held until its booking on +3
    _book(card(on(60)), D2)                     # booked on +2 whatever FSRS says
    card(on(4))                                 # no plan: on its due day, +4
    _book(card(on(5)), D5, hold=True)           # due on its interview day: FSRS decides, +5
    _book(card(on(5)), D6, hold=True)           # due before its interview: held, nowhere
    _book(card(FIXED_NOW - timedelta(days=1)), D2)  # overdue but held today: on its booking, +2
    _book(card(on(60)), TODAY)                  # booked today: today
    _book(card(on(60), last_review=FIXED_NOW - timedelta(hours=1)), TODAY)  # booked today, answered
    db.session.commit()
    return user


def test_the_calendar_feed_counts_bookings_and_leaves_out_held_reviews(planned_user, clock):
    days = reminders.feed_days(planned_user, clock.now)
    assert [(d.day, d.cards) for d in days] == [
        (TODAY, 1), (D1, 0), (D2, 2), (D3, 1), (date(2026, 3, 14), 1), (D5, 1), (D6, 0)]


def test_the_stats_forecast_counts_bookings_and_leaves_out_held_reviews(planned_user, clock):
    today = queue_queries.study_day(planned_user, clock.now)
    forecast = dict(compute.forecast(queries.due_by_day(planned_user, today), today.day))
    assert {d: n for d, n in forecast.items() if n} == {TODAY: 1, D2: 2, D3: 1, date(2026, 3, 14): 1, D5: 1}
    assert queue_queries.queue_counts(planned_user, clock.now).due_now == forecast[TODAY]  # the drill agrees
