"""Two weeks to an interview, a day at a time: each morning the day's plan is made (as the
scheduler's sweep makes it), the candidate drills until nothing is left (a lapse now and then),
and every page that shows a figure is read and compared with the others — the dashboard, the
stats page, the posting page (readiness, recall now, weakest, the verdict on the day), the plan,
the cram page, the calendar feed and the reminder. A figure each of them shows comes from one
definition, so they must agree every day."""
from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select

from prep.drill import queue_queries
from prep.drill.models import Card
from prep.extensions import db
from prep.interview import jobs, service
from prep.reminders import service as reminders
from prep.reminders.sweep_query import find_due
from tests.support.interview import make_posting
from tests.support.reminders import add_settings

DAYS = 14


def _stat(html: str, name: str) -> int:
    found = re.search(rf'data-stat="{name}">([\d,]+)<', html)
    assert found, (name, html[:3000])
    return int(found.group(1).replace(",", ""))


def _drill_the_day(client, user, now, step):
    """Answer every card the drill offers today, Good mostly and Again every fifth answer;
    returns (answers, distinct cards)."""
    answers, cards = 0, set()
    for _ in range(300):
        card = queue_queries.next_card(user, now())
        if card is None:
            break
        rating = 1 if (answers + step) % 5 == 0 else 3
        r = client.post("/drill/rate", data={"card_id": card.id, "version": card.version, "rating": rating})
        assert r.status_code == 302
        answers += 1
        cards.add(card.id)
        now(timedelta(minutes=2))  # learning steps come due as the session goes on
    else:
        raise AssertionError("the drill never ran out")
    return answers, cards


def _posting_figures(html: str) -> dict:
    ready = re.search(r"<strong>(\d+)%</strong> ready: (\d+) of (\d+) questions", html)
    recall = re.search(r'id="recall-now">Recall now: <strong>(\d+)%</strong>', html)
    weakest = [int(p) for p in re.findall(r"— (\d+)% recall", html)]
    verdict = ("✓" if "✓ target reached" in html else "✗") if 'id="on-the-day"' in html else None
    on_day = re.search(r'id="on-the-day".*?class="predicted-on-day" data-value="([\d.]+)"', html, re.S)
    return {"share": int(ready.group(1)), "ready": int(ready.group(2)), "total": int(ready.group(3)),
            "recall_now": int(recall.group(1)), "weakest": weakest, "verdict": verdict,
            "on_day": on_day and on_day.group(1), "pace_text": "On track: at your pace" in html or "Behind:" in html}


def test_two_weeks_of_figures_agree_on_every_page(app, clock, client, login, make_user, make_question):
    user = make_user("two-weeks@example.com", timezone="UTC")
    user.created_at = clock.now - timedelta(days=30)
    add_settings(user.id, {"in_app": True, "remind_minute": 6 * 60})
    db.session.commit()
    login(user)
    interview_day = (clock.now + timedelta(days=DAYS)).date()
    report = make_posting(user, [make_question(f"Report question {i}?") for i in range(4)], days_ahead=None,
                          now=clock.now, title="面经", company="Acme AI", kind="report")
    posting = make_posting(user, [make_question(f"Posting question {i}?") for i in range(8)], days_ahead=None,
                           now=clock.now, title="Engineer", company="Acme AI")
    assert client.post(f"/postings/{posting.id}/study").status_code == 302
    assert client.post(f"/postings/{posting.id}/interview",
                       data={"interview_date": interview_day.isoformat()}).status_code == 302
    moments = []

    def now(delta=None):
        if delta is not None:
            clock.shift(delta)
        return clock.now

    start = clock.now.replace(hour=8, minute=0)
    for day in range(DAYS):
        clock.move_to(start + timedelta(days=day))
        client = login(user, app.test_client())  # signed in again each day, as sessions time out
        jobs.sweep(app, clock.now)  # the day's plan, as the scheduler's sweep makes it
        db.session.expire_all()
        today = queue_queries.study_day(user, clock.now).day
        found = service.stored_plan(user, clock.now)
        plan_day = next(d for d in found.plan.days if d.day == today)

        dashboard = client.get("/dashboard").get_data(as_text=True)
        stats = client.get("/stats").get_data(as_text=True)
        counts = queue_queries.counts(user, clock.now)
        feed = reminders.feed_days(user, clock.now)
        due = next(d for d in find_due(clock.now) if d.user_id == user.id)
        # New allowed today: the dashboard, /stats, the plan, the calendar and the reminder.
        assert _stat(dashboard, "new") == _stat(stats, "new") == len(plan_day.new) == feed[0].new == due.new, day
        # What is left today: the dashboard's button, the calendar's event, the reminder's counts.
        assert feed[0].cards == counts.remaining_today + counts.queue.learning_later, day
        assert due.learning + due.reviews == counts.due_now and _stat(dashboard, "due-now") == counts.due_now, day
        # Later days: the calendar's new cards are the plan's.
        for k, feed_day in enumerate(feed[1:], start=1):
            booked = next((d for d in found.plan.days if d.day == today + timedelta(days=k)), None)
            if booked is not None:
                assert feed_day.new == len(booked.new), (day, k)

        answers, cards = _drill_the_day(client, user, now, day)
        dashboard = client.get("/dashboard").get_data(as_text=True)
        assert (_stat(dashboard, "reviewed"), _stat(dashboard, "cards-reviewed")) == (answers, len(cards)), day
        done = client.get("/drill").get_data(as_text=True)
        assert "answer" not in done or f"{answers} answer" in done, day

        jobs.sweep(app, clock.now)
        db.session.expire_all()
        page = client.get(f"/postings/{posting.id}").get_data(as_text=True)
        figures = _posting_figures(page)
        plan_page = client.get("/plan").get_data(as_text=True)
        # One set of questions: the posting's and the report's of the same company.
        assert figures["total"] == 12, day
        # Recall now is the mean over the same questions readiness counts: never below what the
        # ready ones alone give.
        assert figures["recall_now"] + 1 >= figures["ready"] * user.desired_retention * 100 / figures["total"], figures
        # Weakest questions are the ones recalled below the desired retention.
        assert all(p < user.desired_retention * 100 for p in figures["weakest"]), figures
        assert figures["verdict"] in ("✓", "✗"), day
        # One verdict: the posting page's and the plan page's agree, and no pace text beside it.
        row = re.search(rf'data-posting-id="{posting.id}">.*?data-value="([\d.]+)">(✓|✗)', plan_page, re.S)
        assert figures["verdict"] == row.group(2) and figures["on_day"] == row.group(1), (day, figures)
        assert ('id="on-track"' in plan_page) == (row.group(2) == "✓"), day
        assert not figures["pace_text"], day
        plan_now = re.search(rf'data-posting-id="{posting.id}">.*?recall now (\d+)\s*%', plan_page, re.S)
        assert abs(int(plan_now.group(1)) - figures["recall_now"]) <= 1, (day, plan_now.group(1), figures)
        # The cram page counts the same questions.
        cram = client.get(f"/drill/cram/{posting.id}").get_data(as_text=True)
        assert f"Of its {figures['total']} questions" in cram, day
        moments.append(figures)

    assert moments[-1]["ready"] > moments[0]["ready"]  # two weeks of study made questions ready
    assert any(m["weakest"] for m in moments)  # and some were weak on the way
    assert db.session.scalar(select(Card.id).where(Card.user_id == user.id, Card.question_id.in_(
        [pq.question_id for pq in report.questions]))) is not None  # the report's questions were planned
