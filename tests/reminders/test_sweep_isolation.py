"""One user's data can never stop another's reminder: rows written past every
check (a due date of 9999-12-31, stability 0, a review in year 1, absurd counters, a zone that
is not a place) are either served or skip that user alone, with a logged error and a count; the
rest of the sweep sends; the stats pages of such a user answer 200. SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import text

from prep.drill.models import CardState
from prep.extensions import db
from prep.reminders import sweep as sweep_module
from prep.reminders.channels.email import EmailChannel
from tests.support.reminders import SHANGHAI_9, sweep

POISON = {
    "far-future-due": "UPDATE cards SET due = :far WHERE user_id = :u",
    "zero-stability": "UPDATE cards SET stability = 0, difficulty = 0, state = 'review' WHERE user_id = :u",
    "negative-counters": "UPDATE cards SET reps = -5, lapses = 2000000000 WHERE user_id = :u",
    "ancient-review": "UPDATE cards SET last_review = :old, state = 'review', stability = 3 WHERE user_id = :u",
    "zone-not-a-place": "UPDATE users SET timezone = 'posixrules' WHERE id = :u",
    "nan-memory": "UPDATE cards SET stability = :nan, difficulty = :nan, state = 'review' WHERE user_id = :u",
    "infinite-memory": "UPDATE cards SET stability = :inf, difficulty = :ninf, state = 'review' WHERE user_id = :u",
    "negative-stability": "UPDATE cards SET stability = -3, difficulty = 1e308, state = 'review' WHERE user_id = :u",
    "year-one-due": "UPDATE cards SET due = :old, last_review = :old, state = 'review', stability = 3 "
                    "WHERE user_id = :u",
    "future-last-review": "UPDATE cards SET last_review = :far, state = 'relearning', step = 2000000000, "
                          "stability = 3, difficulty = 5 WHERE user_id = :u",
    "absurd-settings": "UPDATE users SET day_start_hour = 99, maximum_interval = 2000000000, "
                       "desired_retention = 5, new_per_day = -1, reviews_per_day = 2000000000, "
                       "learning_steps = '0m', fsrs_parameters = '[1, 2' WHERE id = :u",
    "parameters-out-of-bounds": "UPDATE users SET fsrs_parameters = :params, desired_retention = 7, "
                                "relearning_steps = :steps WHERE id = :u",
}
VALUES = {"far": datetime(9999, 12, 31, 23, 59), "old": datetime(1, 1, 1), "nan": float("nan"),
          "inf": float("inf"), "ninf": float("-inf"), "params": "[" + ", ".join(["1e9"] * 21) + "]",
          "steps": "1m " * 40}


@pytest.mark.parametrize("poison", sorted(POISON))
def test_a_poisoned_user_does_not_stop_the_others(app, smtp, learner, poison):
    bad = learner("Asia/Shanghai", state=CardState.review)
    good = learner("Asia/Shanghai")
    db.session.execute(text(POISON[poison]), {"u": bad.id} | VALUES)
    db.session.commit()
    report = sweep(SHANGHAI_9)
    assert good.email in smtp.recipients()
    served = {u.email for u in report.sent} | {u.email for u, _e in report.skipped}
    assert good.email in {u.email for u in report.sent}
    assert bad.email in served or bad.email not in {u.email for u in report.claimed}


def test_a_user_whose_email_cannot_be_composed_is_skipped_logged_and_counted(app, smtp, learner,
                                                                            monkeypatch, caplog):
    bad = learner("Asia/Shanghai")
    good = learner("Asia/Shanghai")
    from prep.reminders import service

    real = service.compose

    def compose(mail):
        if mail.user.user_id == bad.id:
            raise OverflowError("date value out of range")
        return real(mail)

    monkeypatch.setattr(service, "compose", compose)
    before = sweep_module.SKIPPED_USERS
    report = sweep(SHANGHAI_9)
    assert smtp.recipients() == [good.email]
    assert [u.email for u, _e in report.skipped] == [bad.email]
    assert sweep_module.SKIPPED_USERS == before + 1
    assert f"skipped user {bad.id}" in caplog.text
    assert any("skipped" in line for line in report.lines())
    # Not retried in a loop: the claim is closed as failed.
    assert sweep(SHANGHAI_9 + timedelta(minutes=5)).claimed == []


@pytest.mark.parametrize("poison", sorted(POISON))
def test_the_stats_pages_of_a_poisoned_user_answer(app, client, learner, poison):
    from flask_login import FlaskLoginClient  # noqa: F401

    bad = learner("Asia/Shanghai", state=CardState.review)
    db.session.execute(text(POISON[poison]), {"u": bad.id} | VALUES)
    db.session.commit()
    with client.session_transaction() as s:
        s["_user_id"] = bad.get_id()
        s["_fresh"] = True
        import time
        s["login_at"] = s["seen_at"] = int(time.time())
    for page in ("/dashboard", "/stats", "/stats/questions", "/stats/optimize", "/cards", "/drill",
                 "/settings/reminders", "/export/prep-export.json"):
        response = client.get(page)
        assert response.status_code < 500, (page, response.status_code)


SNAPSHOTS = {
    "garbage-due": {"state": "review", "step": None, "stability": 3.0, "difficulty": 5.0,
                    "due": "not a time", "last_review": "2026-03-01T00:00:00+00:00"},
    "impossible-date": {"state": "review", "step": None, "stability": 3.0, "difficulty": 5.0,
                        "due": "2026-02-31T00:00:00+00:00", "last_review": "2026-02-20T00:00:00+00:00"},
    "far-future": {"state": "review", "step": None, "stability": 3.0, "difficulty": 5.0,
                   "due": "99999-01-01T00:00:00+00:00", "last_review": "2026-02-20T00:00:00+00:00"},
    "not-text": {"state": "review", "step": None, "stability": 3.0, "difficulty": 5.0,
                 "due": 12345, "last_review": ["x"]},
}


@pytest.mark.parametrize("snapshot", sorted(SNAPSHOTS))
def test_a_review_with_a_broken_snapshot_does_not_break_the_stats_page(app, client, learner, snapshot, clock):
    """The retention chart reads the interval from each review's snapshot (in SQL): a snapshot
    that is not a time (written past the import's checks) made PostgreSQL raise (a 500)."""
    from prep.drill.models import Card, ReviewLog
    from tests.support.clock import FIXED_NOW

    user = learner("UTC", state=CardState.review)
    card = db.session.scalar(db.select(Card).where(Card.user_id == user.id))
    for k, snap in enumerate((SNAPSHOTS[snapshot], SNAPSHOTS["garbage-due"] | {"due": "2026-03-30T00:00:00+00:00"})):
        db.session.add(ReviewLog(card_id=card.id, user_id=user.id, card_version=k, rating=3,
                                 reviewed_at=FIXED_NOW - timedelta(days=2 + k), duration_ms=1000,
                                 state_before="review", state_after="review", kind="review", card_before=snap))
    db.session.commit()
    with client.session_transaction() as s:
        s["_user_id"] = user.get_id()
        s["_fresh"] = True
        s["login_at"] = s["seen_at"] = int(clock.now.timestamp())
    response = client.get("/stats")
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    # Both reviews are counted, passed; the good snapshot's (30 days) as mature.
    from prep.drill import queue
    from prep.stats import queries

    rows = queries.retention_rows(user, queue.study_day(FIXED_NOW, "UTC", user.day_start_hour))
    assert sum(n for _a, _m, _p, n in rows) == 2 and sum(p for _a, _m, p, _n in rows) == 2
    assert sum(n for _a, mature, _p, n in rows if mature) >= 1
    # The answer buttons read the same snapshots: both reviews counted, Good, the 30-day one mature.
    today = queue.study_day(FIXED_NOW, "UTC", user.day_start_hour)
    buttons = queries.answer_button_rows(user, queue.study_day(FIXED_NOW - timedelta(days=29), "UTC", 4), today)
    assert sum(n for _d, _a, r, n in buttons if r == 3) == 2 and any(a == "mature" for _d, a, _r, _n in buttons)


@pytest.mark.parametrize("poison", sorted(POISON))
def test_one_learners_poisoned_row_does_not_break_the_instructors_page(app, client, learner, question,
                                                                       poison):
    """/stats/questions reads every learner's memory state and parameters: one learner's bad
    row must not turn it into a 500 for the instructor."""
    import time

    from prep.accounts.models import Role, User

    learners = [learner("Asia/Shanghai", state=CardState.review) for _ in range(3)]
    db.session.execute(text("UPDATE cards SET stability = 4, difficulty = 5, last_review = :t "
                            "WHERE user_id IN (:a, :b, :c)"),
                       {"t": datetime(2026, 3, 1), "a": learners[0].id, "b": learners[1].id, "c": learners[2].id})
    db.session.execute(text(POISON[poison]), {"u": learners[0].id} | VALUES)
    teacher = User(email="teacher@example.com", password_hash="x", role=Role.instructor)
    db.session.add(teacher)
    db.session.commit()
    with client.session_transaction() as s:
        s["_user_id"] = teacher.get_id()
        s["_fresh"] = True
        s["login_at"] = s["seen_at"] = int(time.time())
    response = client.get("/stats/questions")
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    assert question.text in response.get_data(as_text=True)



def _refuse_claims_of(user_id: int) -> tuple[list[str], list[str]]:
    """SQL making the database refuse any reminder claim row of ``user_id`` (a row the batched
    claim statement cannot write), and the SQL undoing it."""
    if db.engine.dialect.name == "postgresql":
        return ([f"CREATE FUNCTION poison_claim() RETURNS trigger AS $$ BEGIN IF NEW.user_id = {user_id} THEN "
                 "RAISE EXCEPTION 'poisoned row'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
                 "CREATE TRIGGER poison_claim BEFORE INSERT ON reminder_log FOR EACH ROW "
                 "EXECUTE FUNCTION poison_claim()"],
                ["DROP TRIGGER IF EXISTS poison_claim ON reminder_log", "DROP FUNCTION IF EXISTS poison_claim()"])
    return ([f"CREATE TRIGGER poison_claim BEFORE INSERT ON reminder_log WHEN NEW.user_id = {user_id} "
             "BEGIN SELECT RAISE(ABORT, 'poisoned row'); END"], ["DROP TRIGGER IF EXISTS poison_claim"])


def test_a_row_the_batched_claim_cannot_write_skips_only_its_user(app, smtp, learner, caplog):
    """A page of users is found in one query and claimed in one statement: a row that makes
    that statement fail used to stop the whole sweep. The page is then found and claimed user
    by user; the bad one is skipped (logged, counted, listed), the others get their mail."""
    first, bad, last = learner("Asia/Shanghai"), learner("Asia/Shanghai"), learner("Asia/Shanghai")
    poison, cure = _refuse_claims_of(bad.id)
    for statement in poison:
        db.session.execute(text(statement))
    db.session.commit()
    try:
        before = sweep_module.SKIPPED_USERS
        report = sweep(SHANGHAI_9)
        assert sorted(smtp.recipients()) == sorted([first.email, last.email])
        assert [user_id for user_id, _e in report.unreadable] == [bad.id]
        assert "poisoned row" in report.unreadable[0][1]
        assert sweep_module.SKIPPED_USERS == before + 1
        assert f"skipped user {bad.id}" in caplog.text
        assert any(f"skipped user {bad.id}" in line for line in report.lines())
        # The others' claims are kept: a second sweep sends nothing twice.
        assert sweep(SHANGHAI_9 + timedelta(minutes=5)).sent == []
    finally:
        db.session.rollback()
        for statement in cure:
            db.session.execute(text(statement))
        db.session.commit()


def test_a_page_whose_query_fails_is_read_user_by_user(app, smtp, learner, monkeypatch):
    """Finding a page is one query: when it fails for one user's rows, the page is read user by
    user, pagination goes on past it, and only that user is left out."""
    users = [learner("Asia/Shanghai") for _ in range(5)]
    bad = users[2]
    real = sweep_module.find_due_page

    def find(zc, *, after_id=0, batch_size=sweep_module.BATCH_SIZE, user_id=None):
        if user_id in (None, bad.id) and after_id < bad.id:
            page = real(zc, after_id=after_id, batch_size=batch_size, user_id=user_id)
            if any(u.user_id == bad.id for u in page.due):
                raise OverflowError("date value out of range")
            return page
        return real(zc, after_id=after_id, batch_size=batch_size, user_id=user_id)

    monkeypatch.setattr(sweep_module, "find_due_page", find)
    report = sweep_module.run_sweep(SHANGHAI_9, {"email": EmailChannel(_Outbox(), _message)}, batch_size=2)
    assert sorted(u.email for u in report.sent) == sorted(u.email for u in users if u is not bad)
    assert [user_id for user_id, _e in report.unreadable] == [bad.id]


class _Outbox:
    name = "test"

    def __init__(self) -> None:
        self.sent: list = []

    def send(self, message) -> None:
        self.sent.append(message)


def _message(mail):
    from email.message import EmailMessage

    message = EmailMessage()
    message["To"] = mail.user.email
    message.set_content("due")
    return message
