"""Reminder delivery through a job queue on Redis (RQ), when ``PREP_REDIS_URL`` is set.

The sweep (the scheduler, or ``prep remind``) finds and claims due users as always (the
(user, local day) claim row is the guard) and enqueues each page's email senders as one job;
``prep worker`` processes on any number of hosts take the jobs and send. A job sends only the
claims that are still 'sending' with the attempt number it was given, and records each send
at once, so a job run twice (RQ re-queues, a retry) sends nothing twice. A worker killed
mid-batch leaves its unsent claims 'sending': after their lease (:data:`.timing.SEND_LEASE`)
the next sweep claims them again (same Message-ID) and enqueues them for another worker.

Without ``PREP_REDIS_URL`` the sweep sends in its own process, as before.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from flask import current_app
from redis import Redis
from rq import Queue, Retry, SimpleWorker
from sqlalchemy import select

from .. import clock
from ..extensions import db
from . import service
from . import sweep as sweep_module
from .models import ReminderLog, ReminderStatus
from .sweep_rules import DueUser, SweepReport

log = logging.getLogger(__name__)

DEFAULT_QUEUE = "prep-reminders"


def redis_connection(url: str):  # noqa: ANN201 - redis.Redis
    return Redis.from_url(url)


def queue_for(app_config: dict, connection=None):  # noqa: ANN001, ANN201 - rq.Queue
    url = app_config.get("REDIS_URL")
    return Queue(app_config.get("REMINDER_QUEUE") or DEFAULT_QUEUE,
                 connection=connection or redis_connection(url), default_timeout=600)


def enqueuer():  # noqa: ANN201
    """The sweep's hand-off to the queue when ``REDIS_URL`` is configured, else None."""
    if not current_app.config.get("REDIS_URL"):
        return None
    queue = queue_for(current_app.config)

    def enqueue(now: datetime, users: Sequence[DueUser]) -> None:
        queue.enqueue(deliver, now, list(users), retry=Retry(max=3),
                      result_ttl=3600, failure_ttl=86400)

    return enqueue


def deliver(now: datetime, users: list[DueUser]) -> int:
    """The job: send the reminders still claimed 'sending' at the attempt they were claimed for;
    returns how many were sent. Runs in the worker's app context (``prep worker``)."""
    current = {log_id: attempts for log_id, attempts in db.session.execute(
        select(ReminderLog.id, ReminderLog.attempts).where(
            ReminderLog.id.in_([u.log_id for u in users]), ReminderLog.status == ReminderStatus.sending.value))}
    db.session.commit()
    mine = [u for u in users if current.get(u.log_id) == u.attempts]
    report = SweepReport(now=now)
    try:
        sweep_module.send_page(now, mine, service.transport(), service.compose, service.mail_domain(), clock.now, report, record_every=1)
    finally:
        db.session.remove()
    log.info("reminder job: %s sent, %s retrying, %s failed, %s already done",
             len(report.sent), len(report.retrying), len(report.failed), len(users) - len(mine))
    return len(report.sent)


def run_worker(app_config: dict, *, burst: bool = False, name: str | None = None) -> None:
    """One delivery worker in this process (jobs run in the caller's app context, no fork)."""
    connection = redis_connection(app_config["REDIS_URL"])
    queue = queue_for(app_config, connection)
    worker = SimpleWorker([queue], connection=connection, name=name)
    worker.work(burst=burst, with_scheduler=False, logging_level="WARNING")
