"""The daily reminder names the candidate's interviews ahead: days left, the date, and the recall
on the day their last stored interview plan predicted (``posting_forecasts``, written whenever
interview mode stores a plan). Through a real local SMTP server, on both databases."""
from __future__ import annotations

from datetime import date, timedelta

from flask import Flask
from sqlalchemy import select

from prep.drill.models import CardState
from prep.extensions import db
from prep.interview import service as interview
from prep.postings.models import Posting, PostingForecast, PostingQuestion
from prep.questions.models import Question, Source
from prep.reminders.sweep_query import interviews_ahead
from prep.reminders.sweep_rules import DueUser

from tests.support.reminders import SHANGHAI_9, Recorder, sweep

LOCAL_DAY = date(2026, 3, 10)  # SHANGHAI_9's local date


def _posting(user, *, days: int | None, company: str | None = "Acme", title: str | None = "GPU engineer",
             questions: int = 3) -> Posting:
    posting = Posting(user_id=user.id, company=company, title=title, raw_text="x",
                      content_hash=f"h-{user.id}-{company}-{title}-{days}",
                      interview_date=LOCAL_DAY + timedelta(days=days) if days is not None else None)
    db.session.add(posting)
    db.session.flush()
    for i in range(questions):
        q = Question(text=f"Interview question {i} of {posting.id}?", norm=f"iq{i}-{posting.id}", source=Source.content)
        db.session.add(q)
        db.session.flush()
        db.session.add(PostingQuestion(posting_id=posting.id, question_id=q.id, position=i, text=None))
    db.session.commit()
    return posting


def _forecasts(user) -> dict[int, PostingForecast]:
    return {f.posting_id: f for f in db.session.scalars(select(PostingForecast).where(PostingForecast.user_id == user.id))}


def test_a_stored_plan_keeps_each_interviews_forecast_and_mode_off_removes_them(app: Flask, learner) -> None:
    user = learner()
    near, far = _posting(user, days=5), _posting(user, days=12, company="Beta")
    _posting(user, days=None, company="No date")
    made = SHANGHAI_9 - timedelta(hours=2)
    interview.save_settings(user, enabled=True, target=0.9, budget_minutes=20, now=made)
    db.session.commit()
    found = interview.plan_for(user, made)
    stored = _forecasts(user)
    assert set(stored) == {near.id, far.id}
    for posting in (near, far):
        assert stored[posting.id].recall_on_day == found.forecast(posting.id).recall_on_day
        assert 0.0 <= stored[posting.id].recall_on_day <= 1.0
        assert stored[posting.id].target == 0.9 and stored[posting.id].met == found.forecast(posting.id).met
    # Made again (a session's end): replaced, not duplicated; a lower target changes the verdict row.
    interview.save_settings(user, enabled=True, target=0.5, budget_minutes=20, now=made + timedelta(minutes=5))
    interview.refresh_bookings(user, made + timedelta(minutes=6))
    db.session.commit()
    assert {f.target for f in _forecasts(user).values()} == {0.5} and len(_forecasts(user)) == 2
    interview.save_settings(user, enabled=False, target=0.9, budget_minutes=20, now=made + timedelta(minutes=7))
    db.session.commit()
    assert _forecasts(user) == {}


def test_deleting_a_posting_deletes_its_forecast(app: Flask, learner) -> None:
    user = learner()
    posting = _posting(user, days=5)
    interview.save_settings(user, enabled=True, target=0.9, budget_minutes=20, now=SHANGHAI_9)
    db.session.commit()
    assert set(_forecasts(user)) == {posting.id}
    db.session.delete(posting)
    db.session.commit()
    assert _forecasts(user) == {}


def test_the_reminder_names_each_users_own_interviews_ahead(app: Flask, smtp: Recorder, learner) -> None:
    ada, bob = learner(display_name="Ada"), learner(display_name="Bob")
    soon = _posting(ada, days=5, company="Acme <GPU> & Co")
    _posting(ada, days=0, company="Today Inc")       # the interview is today: not ahead
    _posting(ada, days=-3, company="Past Ltd")       # over
    _posting(bob, days=2, company="Bob's own", title=None)
    interview.save_settings(ada, enabled=True, target=0.9, budget_minutes=20, now=SHANGHAI_9 - timedelta(hours=1))
    db.session.commit()
    row = _forecasts(ada)[soon.id]
    verdict = "on track." if row.met else "below your 90% target."
    sweep(SHANGHAI_9)
    mails = {str(m["To"]): m for _, m in smtp.messages}
    ada_text = mails[ada.email].get_body(("plain",)).get_content()
    ada_html = mails[ada.email].get_body(("html",)).get_content()
    assert "Interviews ahead:" in ada_text
    assert (f"Acme <GPU> & Co — GPU engineer: in 5 days (2026-03-15). Predicted recall on the day: "
            f"{round(row.recall_on_day * 100)}%, {verdict}" in ada_text)
    assert "Acme &lt;GPU&gt; &amp; Co" in ada_html and "<GPU>" not in ada_html
    assert "http://127.0.0.1:5000/plan" in ada_text and 'href="http://127.0.0.1:5000/plan"' in ada_html
    for other in ("Today Inc", "Past Ltd", "Bob's own"):
        assert other not in ada_text
    bob_text = mails[bob.email].get_body(("plain",)).get_content()
    # Bob never planned: his interview is named with its date only.
    assert "Bob's own: in 2 days (2026-03-12)." in bob_text and "Acme" not in bob_text


def test_the_reminder_in_chinese(app: Flask, smtp: Recorder, learner) -> None:
    # A review due today (a new card waits: with an interview ahead the day's new cards are the plan's).
    user = learner(language="zh", state=CardState.review)
    posting = _posting(user, days=1, company="字节跳动", title="通信库研发")
    # 1 minute a day cannot bring three new questions to 99 % by tomorrow: the short sentence.
    interview.save_settings(user, enabled=True, target=0.99, budget_minutes=1, now=SHANGHAI_9 - timedelta(hours=1))
    db.session.commit()
    assert not _forecasts(user)[posting.id].met
    pct = round(_forecasts(user)[posting.id].recall_on_day * 100)
    sweep(SHANGHAI_9)
    [(_, message)] = smtp.messages
    text = message.get_body(("plain",)).get_content()
    assert "即将到来的面试" in text
    assert f"字节跳动 — 通信库研发：1 天后（2026-03-11）。面试当天预计记住 {pct}%，低于你的目标 99%。" in text
    assert "Interviews ahead" not in text


def test_at_most_three_interviews_nearest_first(app: Flask, learner) -> None:
    user = learner()
    for days in (9, 3, 7, 1, 5):
        _posting(user, days=days, company=f"Co{days}", questions=1)
    due = DueUser(user_id=user.id, email=user.email, display_name="", timezone="Asia/Shanghai", remind_minute=540,
                  local_date=LOCAL_DAY, day_end=SHANGHAI_9 + timedelta(hours=15), channel="email",
                  learning=0, reviews=1, new=0)
    lines = interviews_ahead([due], SHANGHAI_9)[user.id]
    assert [(line.name, line.days_left) for line in lines] == [
        ("Co1 — GPU engineer", 1), ("Co3 — GPU engineer", 3), ("Co5 — GPU engineer", 5)]
    assert all(line.recall is None and line.shape == "plain" for line in lines)
