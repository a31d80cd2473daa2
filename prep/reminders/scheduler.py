"""APScheduler wiring: the sweep every few minutes, in the background of ``prep serve`` or in
the foreground as ``prep scheduler``.

Several processes may run it at once: claims in the database keep every reminder to one send.
"""
from __future__ import annotations

import atexit
import logging
from collections.abc import Callable
from datetime import timedelta, timezone

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.interval import IntervalTrigger
from flask import Flask

from .. import clock, leases, secret_keys
from ..extensions import db
from . import service
from .worker import queue_problem

log = logging.getLogger(__name__)

SWEEP_MINUTES = 5
JOB_ID = "reminder-sweep"
LEASE_NAME = "reminder-sweep"


def sweep_job(app: Flask, minutes: int = SWEEP_MINUTES) -> Callable[[], None]:
    """A job that runs one sweep at the current time in its own app context, logging the result."""

    def job() -> None:
        with app.app_context():
            now = clock.now()
            try:
                # Unsubscribe links signed with a key the other hosts do not share would fail there.
                secret_keys.check_app(app, now)
                # One process at a time across workers and hosts; the claims keep each email
                # to one send even if two ever overlapped.
                if not leases.acquire(LEASE_NAME, now, timedelta(minutes=2 * minutes)):
                    log.debug("reminder sweep skipped: another process holds the lease")
                    return
                report = service.sweep(now)
            except secret_keys.SecretKeyMismatch as err:
                db.session.rollback()
                log.error("reminder sweep skipped: %s", err)
                return
            except Exception:
                db.session.rollback()
                log.exception("reminder sweep failed")
                return
            if (report.claimed or report.retrying or report.failed or report.expired or report.unreadable
                    or report.skipped):
                for line in report.lines():
                    log.info("%s", line)
            queue_problem(app.config, now)  # logged

    return job


def configure(scheduler: BaseScheduler, app: Flask, minutes: int = SWEEP_MINUTES) -> BaseScheduler:
    scheduler.add_job(sweep_job(app, minutes), IntervalTrigger(minutes=minutes, timezone=timezone.utc), id=JOB_ID,
                      next_run_time=clock.now(), coalesce=True, max_instances=1,
                      misfire_grace_time=minutes * 60, replace_existing=True)
    # Other features' periodic work (the interview plans of a new day): name -> job factory.
    for job_id, make_job in app.extensions.get("prep.periodic_jobs", {}).items():
        scheduler.add_job(make_job(app), IntervalTrigger(minutes=minutes, timezone=timezone.utc), id=job_id,
                          next_run_time=clock.now(), coalesce=True, max_instances=1,
                          misfire_grace_time=minutes * 60, replace_existing=True)
    return scheduler


_background: dict[int, BackgroundScheduler] = {}


def start_background(app: Flask, minutes: int = SWEEP_MINUTES) -> BackgroundScheduler:
    """Start (once per app) a daemon-thread scheduler; it stops when the process exits."""
    existing = _background.get(id(app))
    if existing is not None:
        return existing
    scheduler = BackgroundScheduler(timezone=timezone.utc, daemon=True)
    configure(scheduler, app, minutes)
    scheduler.start()
    _background[id(app)] = scheduler
    atexit.register(lambda: scheduler.shutdown(wait=False) if scheduler.running else None)
    log.info("reminder scheduler started in the background: a sweep every %s minutes", minutes)
    return scheduler


def run_blocking(app: Flask, minutes: int = SWEEP_MINUTES) -> None:
    """Run the scheduler in the foreground until interrupted."""
    scheduler = BlockingScheduler(timezone=timezone.utc)
    configure(scheduler, app, minutes)
    log.info("reminder scheduler running: a sweep every %s minutes (Ctrl+C to stop)", minutes)
    try:
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        pass
