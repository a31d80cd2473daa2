"""Interview plans are made off the request path: a change asks for one, a runner makes it after
the commit, pages read the stored plan and never plan; the plan's size is bounded whatever the
candidate's postings."""
from __future__ import annotations

import uuid
from datetime import timedelta, timezone

import pytest
from sqlalchemy import func, select

from prep.drill import queue_queries
from prep.drill.cards import add_to_study
from prep.drill.models import PlannedReview
from prep.extensions import db
from prep.interview import jobs, planner, service
from prep.interview.models import StoredPlan
from tests.support.interview import candidate, make_posting  # noqa: F401 (a fixture)



@pytest.fixture
def deferred(app):
    """Plans asked for are kept until the test makes them (:func:`jobs.run_deferred`)."""
    app.config["PLAN_RUNNER"] = "deferred"
    return app


@pytest.fixture
def no_planning_in_requests(monkeypatch):
    """Planning raises: a request that plans would answer 500."""
    def refuse(*args, **kwargs):
        raise AssertionError("a request made a plan")
    monkeypatch.setattr(service, "make_plan", refuse)
    monkeypatch.setattr(service, "plan_for", refuse)


def test_setting_a_date_asks_for_a_plan_and_the_pages_never_make_it(deferred, candidate, make_question, client,
                                                                     clock, monkeypatch):
    questions = [make_question() for _ in range(6)]
    posting = make_posting(candidate, questions, days_ahead=None, now=clock.now)
    with monkeypatch.context() as m:
        m.setattr(service, "plan_for", lambda *a, **k: pytest.fail("a request made a plan"))
        day = (clock.now.date() + timedelta(days=12)).isoformat()
        response = client.post(f"/postings/{posting.id}/interview", data={"interview_date": day})
        assert response.status_code == 302
        html = client.get("/plan").get_data(as_text=True)
        assert 'id="plan-pending"' in html and 'http-equiv="refresh"' in html
        assert "being worked out" in client.get("/dashboard").get_data(as_text=True)
        assert client.get(f"/postings/{posting.id}").status_code == 200
    assert db.session.scalar(select(func.count(PlannedReview.id))) == 0  # nothing planned yet
    row = db.session.get(StoredPlan, candidate.id)
    assert row.requested_at is not None and row.plan is None
    db.session.commit()  # the test's own read ends, as a job runs beside no open transaction
    assert jobs.run_deferred(deferred) == 1
    db.session.expire_all()
    row = db.session.get(StoredPlan, candidate.id)
    assert row.plan is not None and row.made_for == row.requested_at and row.cpu_ms is not None
    assert db.session.scalar(select(func.count(PlannedReview.id))) > 0
    html = client.get("/plan").get_data(as_text=True)
    assert 'id="plan-calendar"' in html and 'id="plan-pending"' not in html and 'id="plan-age"' in html


def test_a_plan_already_made_for_the_request_is_not_made_twice(app, candidate, make_question, clock):
    make_posting(candidate, [make_question() for _ in range(3)], days_ahead=5, now=clock.now)
    service.request_plan(candidate.id, clock.now)
    db.session.commit()  # the inline runner makes it
    made_at = db.session.get(StoredPlan, candidate.id).made_at
    assert made_at is not None
    assert not jobs.make_and_store(candidate.id, clock.now)  # not due any more
    assert jobs.sweep(app, clock.now) == 0
    service.request_plan(candidate.id, clock.now)  # asked again (a rating): due again
    asked = db.session.get(StoredPlan, candidate.id).requested_at
    assert asked > made_at
    db.session.commit()
    assert db.session.get(StoredPlan, candidate.id).made_for == asked


def test_a_rolled_back_change_dispatches_nothing(deferred, candidate, make_question, clock):
    make_posting(candidate, [make_question()], days_ahead=5, now=clock.now)
    service.request_plan(candidate.id, clock.now)
    db.session.rollback()
    db.session.commit()
    assert deferred.extensions.get("prep.plans_deferred", []) == []


def test_ratings_and_settings_never_plan_in_the_request(deferred, candidate, make_question, client, clock,
                                                        no_planning_in_requests):
    questions = [make_question() for _ in range(4)]
    make_posting(candidate, questions, days_ahead=3, now=clock.now)
    add_to_study(candidate, [q.id for q in questions], clock.now)
    db.session.commit()
    assert client.post("/plan", data={"enabled": "y", "target": "90", "budget": "10"}).status_code == 302
    rated = 0
    while (card := queue_queries.next_card(candidate, clock.now)) is not None and rated < 30:
        response = client.post("/drill/rate", data={"card_id": card.id, "rating": "3", "version": card.version,
                                                    "duration_ms": "5000"})
        assert response.status_code == 302
        rated += 1
    assert rated > 0
    for url in ("/plan", "/dashboard", "/drill"):
        assert client.get(url).status_code == 200
    assert db.session.get(StoredPlan, candidate.id).requested_at is not None


def test_the_scheduler_sweep_makes_the_new_days_plans(app, candidate, make_question, clock):
    make_posting(candidate, [make_question() for _ in range(3)], days_ahead=8, now=clock.now)
    service.refresh_bookings(candidate, clock.now)
    db.session.commit()
    app.config["PLAN_RUNNER"] = "deferred"
    clock.shift(timedelta(days=1))
    job = app.extensions["prep.periodic_jobs"][jobs.SWEEP_JOB](app)
    job()
    db.session.expire_all()
    assert db.session.get(StoredPlan, candidate.id).made_on == queue_queries.study_day(candidate, clock.now).day


def test_eight_interviews_of_200_questions_plan_the_nearest_three(app, candidate, make_question, clock):
    """Hostile sizes: eight postings of 200 questions (dates up to a year out): the plan covers the
    three nearest; the pages still forecast the others (plain FSRS), and a date beyond the
    horizon stored before dates were checked is left out."""
    for k in range(8):
        questions = [make_question(f"Question {k}-{i} {uuid.uuid4().hex[:6]}?") for i in range(200)]
        make_posting(candidate, questions, days_ahead=365 - 40 * k, now=clock.now, title=f"role {k}")
    far = make_posting(candidate, [make_question()], days_ahead=None, now=clock.now, title="far")
    far.interview_date = clock.now.date() + timedelta(days=4000)
    db.session.commit()
    found = service.plan_for(candidate, clock.now)
    assert len(found.plan.interviews) == service.MAX_PLANNED_INTERVIEWS
    nearest = sorted(p.interview_date for p in found.postings.values())
    assert max(nearest) == clock.now.date() + timedelta(days=365 - 40 * 5)
    service.store_plan(candidate, clock.now, found)
    db.session.commit()
    upcoming = service.upcoming(candidate, clock.now)
    assert len(upcoming) == 8 and all(f is not None for _, f in upcoming)  # the far one is not listed
    assert far.id not in {p.id for p, _ in upcoming}


def test_the_planner_tries_a_bounded_number_of_introduction_days():
    loads = [float(i % 7) for i in range(365)]
    days = planner._intro_days(364, loads)
    assert len(days) <= planner.INTRO_CHOICES and 0 in days and 363 in days
    assert planner._intro_days(10, loads) == list(range(10))


def test_with_redis_a_plan_is_an_rq_job_that_prep_worker_makes(app, candidate, make_question, clock, tmp_path):
    """PREP_REDIS_URL: the change enqueues a job on the plans queue (nothing planned in the
    process that committed); a real `prep worker --burst` takes it and stores the plan."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    redis = pytest.importorskip("redis")
    url = "redis://127.0.0.1:6379/8"  # only this test uses db 8
    connection = redis.Redis.from_url(url)
    try:
        connection.ping()
    except redis.exceptions.ConnectionError:
        pytest.skip("no Redis on 127.0.0.1:6379 (.ci/run starts one)")
    connection.flushdb()
    queue = f"prep-plans-test-{uuid.uuid4().hex[:8]}"
    app.config.update(REDIS_URL=url, PLAN_RUNNER="rq", PLAN_QUEUE=queue)
    import time_machine
    real_now = time_machine.escape_hatch.datetime.datetime.now(timezone.utc)  # the worker's clock is not frozen
    make_posting(candidate, [make_question() for _ in range(3)], days_ahead=6, now=real_now)
    service.request_plan(candidate.id, clock.now)
    db.session.commit()
    from rq import Queue
    assert Queue(queue, connection=connection).count == 1
    assert db.session.get(StoredPlan, candidate.id).plan is None
    db.session.commit()  # the test's read ends: the worker writes
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PREP_DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
           "PREP_SECRET_KEY": app.config["SECRET_KEY"], "PREP_INSTANCE_DIR": str(tmp_path / "w"),
           "PREP_SCHEDULER": "0", "PREP_CONTENT_DIR": str(tmp_path / "content"), "PREP_REDIS_URL": url,
           "PREP_PLAN_QUEUE": queue, "PREP_REMINDER_QUEUE": f"{queue}-reminders", "PYTHONPATH": str(repo)}
    done = subprocess.run([sys.executable, "-m", "prep", "worker", "--burst"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    db.session.expire_all()
    row = db.session.get(StoredPlan, candidate.id)
    assert row.plan is not None and row.made_for == row.requested_at
    connection.flushdb()
    connection.close()


@pytest.mark.parametrize("budget", ["0", "10000", "-5", "1e9"])
def test_a_budget_out_of_range_is_refused_and_asks_for_no_plan(deferred, candidate, make_question, client, clock,
                                                               budget):
    make_posting(candidate, [make_question()], days_ahead=5, now=clock.now)
    response = client.post("/plan", data={"enabled": "y", "target": "90", "budget": budget})
    assert response.status_code == 400 and 'id="budget-error"' in response.get_data(as_text=True)
    assert db.session.get(StoredPlan, candidate.id) is None
    assert deferred.extensions.get("prep.plans_deferred", []) == []
