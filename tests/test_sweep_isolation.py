"""One user's data can never stop another's reminder (issue 16 item 5): rows written past every
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
from tests.test_reminders import SHANGHAI_9, learner, question, smtp, sweep  # noqa: F401  (fixtures)

POISON = {
    "far-future-due": "UPDATE cards SET due = :far WHERE user_id = :u",
    "zero-stability": "UPDATE cards SET stability = 0, difficulty = 0, state = 'review' WHERE user_id = :u",
    "negative-counters": "UPDATE cards SET reps = -5, lapses = 2000000000 WHERE user_id = :u",
    "ancient-review": "UPDATE cards SET last_review = :old, state = 'review', stability = 3 WHERE user_id = :u",
    "zone-not-a-place": "UPDATE users SET timezone = 'posixrules' WHERE id = :u",
}


@pytest.mark.parametrize("poison", sorted(POISON))
def test_a_poisoned_user_does_not_stop_the_others(app, smtp, learner, poison):  # noqa: F811
    bad = learner("Asia/Shanghai", state=CardState.review)
    good = learner("Asia/Shanghai")
    db.session.execute(text(POISON[poison]), {"u": bad.id, "far": datetime(9999, 12, 31, 23, 59),
                                              "old": datetime(1, 1, 1)})
    db.session.commit()
    report = sweep(SHANGHAI_9)
    assert good.email in smtp.recipients()
    served = {u.email for u in report.sent} | {u.email for u, _e in report.skipped}
    assert good.email in {u.email for u in report.sent}
    assert bad.email in served or bad.email not in {u.email for u in report.claimed}


def test_a_user_whose_email_cannot_be_composed_is_skipped_logged_and_counted(app, smtp, learner,  # noqa: F811
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
def test_the_stats_pages_of_a_poisoned_user_answer(app, client, learner, poison):  # noqa: F811
    from flask_login import FlaskLoginClient  # noqa: F401

    bad = learner("Asia/Shanghai", state=CardState.review)
    db.session.execute(text(POISON[poison]), {"u": bad.id, "far": datetime(9999, 12, 31, 23, 59),
                                              "old": datetime(1, 1, 1)})
    db.session.commit()
    with client.session_transaction() as s:
        s["_user_id"] = bad.get_id()
        s["_fresh"] = True
        import time
        s["login_at"] = s["seen_at"] = int(time.time())
    for page in ("/dashboard", "/stats", "/stats/questions", "/cards", "/drill", "/settings/reminders"):
        response = client.get(page)
        assert response.status_code < 500, (page, response.status_code)
