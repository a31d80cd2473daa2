"""The plan job: interview plans are made off the request path and stored.

A change a plan depends on (a rating that ends a session or uses the day's budget, an interview
date, the settings) asks for a plan in its own transaction (:func:`service.request_plan`); once
that transaction commits, the candidates it asked for are handed to a runner:

* ``thread`` (the embedded default): one background thread per process makes them in turn;
* ``rq`` (with ``PREP_REDIS_URL``): a job on the plans queue that ``prep worker`` processes run;
* ``inline``: at once, in a fresh app context after the commit (tests and the CLI);
* ``deferred``: kept in a list until :func:`run_deferred` (tests that prove a page does not wait).

The scheduler's sweep (:func:`sweep`) also asks for the plans of candidates whose plan is from an
earlier study day and makes those still due, so a plan asked for before a restart is not lost.

A job makes the plan in a read-only transaction (no write lock held while planning) and stores
it in a short writing one. A job for a plan made since it was asked does nothing, so repeated
requests coalesce. Pages read the stored plan (:func:`service.stored_plan`) and say its age.
"""
from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

from flask import Flask, current_app, has_app_context
from redis import Redis
from rq import Queue
from sqlalchemy import event, or_, select
from sqlalchemy.orm import Session

from .. import clock, leases
from ..accounts.models import User
from ..database import reading_only
from ..drill import queue_queries, rating
from ..extensions import db
from . import service
from .models import InterviewSettings, StoredPlan

log = logging.getLogger(__name__)

RUNNERS = ("thread", "rq", "inline", "deferred")
DEFAULT_QUEUE = "prep-plans"
#: The most plans one sweep makes (the rest wait for the next sweep).
SWEEP_LIMIT = 200
SWEEP_JOB = "interview-plans"


def sweep_job(app: Flask, minutes: int = 5) -> Callable[[], None]:
    """The scheduler's periodic job: :func:`sweep` at the current time, one process at a time."""

    def job() -> None:
        now = clock.now()
        with app.app_context():
            try:
                if not leases.acquire(SWEEP_JOB, now, timedelta(minutes=2 * minutes)):
                    return
            except Exception:  # noqa: BLE001 - a background job logs and goes on
                db.session.rollback()
                log.exception("interview plan sweep failed")
                return
            finally:
                db.session.remove()
        made = sweep(app, now)
        if made:
            log.info("interview plans made: %s", made)

    return job


def init_app(app: Flask) -> None:
    """Wire interview mode into the app: react to each rating (:func:`service.after_rating`, which
    may ask for a plan) and dispatch the plans a transaction asked for once it commits (the
    listeners once per process)."""
    rating.on_rated(service.RATING_HOOK, service.react_to_rating)
    runner = app.config.get("PLAN_RUNNER") or ("rq" if app.config.get("REDIS_URL") else "thread")
    if runner not in RUNNERS:
        raise ValueError(f"PREP_PLAN_RUNNER must be one of {', '.join(RUNNERS)}")
    app.config["PLAN_RUNNER"] = runner
    app.extensions.setdefault("prep.periodic_jobs", {})[SWEEP_JOB] = sweep_job
    if not event.contains(Session, "after_commit", _after_commit):
        event.listen(Session, "after_commit", _after_commit)
        event.listen(Session, "after_rollback", _after_rollback)


def _after_commit(session: Session) -> None:
    asked = session.info.pop(service.PLANS_REQUESTED, None)
    if asked and has_app_context():
        dispatch(current_app._get_current_object(), sorted(asked), asked)


def _after_rollback(session: Session) -> None:
    session.info.pop(service.PLANS_REQUESTED, None)


def dispatch(app: Flask, user_ids: Iterable[int], asked_at: dict[int, datetime] | None = None) -> None:
    """Hand these candidates' plans to the app's runner (never makes one in the caller's
    transaction; ``inline`` makes them in an app context of their own, from the time each was
    asked at; the others from the time the job runs)."""
    runner = app.config.get("PLAN_RUNNER", "thread")
    for user_id in user_ids:
        if runner == "inline":
            run(app, user_id, (asked_at or {}).get(user_id))
        elif runner == "deferred":
            app.extensions.setdefault("prep.plans_deferred", []).append((user_id, (asked_at or {}).get(user_id)))
        elif runner == "rq":
            _enqueue(app, user_id)
        else:
            _Background.of(app).submit(user_id)


def run_deferred(app: Flask) -> int:
    """Make the plans the ``deferred`` runner kept (tests); returns how many were made."""
    waiting = dict(app.extensions.pop("prep.plans_deferred", []))
    return sum(run(app, user_id, now) for user_id, now in waiting.items())


def run(app: Flask, user_id: int, now: datetime | None = None) -> bool:
    """Make and store one candidate's plan from ``now`` (default: the clock's) if it is still
    due, in an app context of its own. True when it stored one. Never raises (a failure is
    logged; the next sweep tries again)."""
    with app.app_context():
        try:
            return make_and_store(user_id, now or clock.now())
        except Exception:  # noqa: BLE001 - a background job logs and goes on
            db.session.rollback()
            log.exception("interview plan for user %s failed", user_id)
            return False
        finally:
            db.session.remove()


def make_and_store(user_id: int, now: datetime) -> bool:
    """The job's body: make the plan while only reading, then store it in a short writing
    transaction, unless a newer plan was stored meanwhile. True when it stored one."""
    started = time.process_time()
    with reading_only():
        user = db.session.get(User, user_id)
        row = db.session.get(StoredPlan, user_id)
        if user is None or not service.plan_due(row, db.session.get(InterviewSettings, user_id),
                                                queue_queries.study_day(user, now).day):
            db.session.rollback()
            return False
        requested = row.requested_at if row is not None else None
        found = service.make_plan_for(user, now)
        cpu_ms = int((time.process_time() - started) * 1000)
        db.session.commit()  # ends the read; the rows found holds are read again as needed
    row = db.session.get(StoredPlan, user_id)
    if row is not None and row.made_for is not None and requested is not None and row.made_for >= requested:
        db.session.rollback()  # another job stored a plan for this request or a later one
        return False
    service.store_plan(user, now, found, requested=requested)
    stored = db.session.get(StoredPlan, user_id)
    stored.cpu_ms = cpu_ms
    db.session.commit()
    return True


def sweep(app: Flask, now: datetime, limit: int = SWEEP_LIMIT) -> int:
    """Make the plans that are due: asked for and not made (a restart lost the runner's list),
    or made on an earlier study day (the first plan of a new day). Returns how many were made."""
    with app.app_context():
        with reading_only():
            tomorrow_utc = now.date() + timedelta(days=1)  # no zone's study day is later
            rows = db.session.execute(
                select(User, StoredPlan, InterviewSettings).join(StoredPlan, StoredPlan.user_id == User.id, isouter=True)
                .join(InterviewSettings, InterviewSettings.user_id == User.id, isouter=True)
                .where(or_(StoredPlan.requested_at > StoredPlan.made_for,
                           StoredPlan.made_for.is_(None) & StoredPlan.requested_at.is_not(None),
                           StoredPlan.made_on < tomorrow_utc,
                           StoredPlan.user_id.is_(None) & (InterviewSettings.planned_on < tomorrow_utc)))
                .order_by(StoredPlan.made_on, User.id).limit(limit * 10)).all()
            due = [user.id for user, row, settings in rows
                   if service.plan_due(row, settings, queue_queries.study_day(user, now).day)][:limit]
            db.session.rollback()
        db.session.remove()
    return sum(run(app, user_id, now) for user_id in due)


def ensure_fresh(user: Any, now: datetime) -> None:
    """A page of a candidate whose plan is due (an earlier day's, or a newer one asked for): hand
    it to this process's plan thread without writing anything (two primary-key reads; the job
    checks again). With a queue the scheduler's sweep does it."""
    app = current_app._get_current_object()
    if app.config.get("PLAN_RUNNER") != "thread":
        return
    row = db.session.get(StoredPlan, user.id)
    settings = db.session.get(InterviewSettings, user.id)
    if (row is not None or settings is not None) and service.plan_due(row, settings, queue_queries.study_day(user, now).day):
        dispatch(app, [user.id])


class _Background:
    """One worker thread per app and process making plans in turn; a candidate already waiting
    is not queued twice."""

    _lock = threading.Lock()

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prep-plan")
        self.waiting: set[int] = set()

    @classmethod
    def of(cls, app: Flask) -> _Background:
        with cls._lock:
            existing = app.extensions.get("prep.plan_thread")
            if existing is None:
                existing = app.extensions["prep.plan_thread"] = cls(app)
            return existing

    def submit(self, user_id: int) -> None:
        with self._lock:
            if user_id in self.waiting:
                return
            self.waiting.add(user_id)
        self.executor.submit(self._run, user_id)

    def _run(self, user_id: int) -> None:
        with self._lock:
            self.waiting.discard(user_id)
        run(self.app, user_id)


def _enqueue(app: Flask, user_id: int) -> None:
    queue = Queue(app.config.get("PLAN_QUEUE") or DEFAULT_QUEUE,
                  connection=Redis.from_url(app.config["REDIS_URL"]), default_timeout=300)
    queue.enqueue(plan_job, user_id, job_id=f"prep-plan-{user_id}-{uuid.uuid4().hex[:12]}",
                  result_ttl=600, failure_ttl=86400)


def plan_job(user_id: int) -> bool:
    """The RQ job: runs in ``prep worker``'s app context."""
    return run(current_app._get_current_object(), user_id)
