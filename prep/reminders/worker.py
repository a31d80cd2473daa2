"""Reminder delivery through a job queue on Redis (RQ), when ``PREP_REDIS_URL`` is set.

The sweep (the scheduler, or ``prep remind``) finds and claims due users as always (the
(user, local day, channel) claim row is the guard) and enqueues each page's push deliveries
(email, webhook) as one job;
``prep worker`` processes on any number of hosts take the jobs and send. A job sends only the
claims that are still 'sending' with the attempt number it was given, and records each send
at once, so a job run twice (RQ re-queues, a retry) sends nothing twice. A worker killed
mid-batch leaves its unsent claims 'sending': after their lease (:data:`.timing.SEND_LEASE`)
the next sweep claims them again (same Message-ID) and enqueues them for another worker.

Without ``PREP_REDIS_URL`` the sweep sends in its own process, as before.

Operators are told when nothing takes the jobs: a ``prep worker`` registers in RQ's worker
registry and renews its entry while it runs (RQ's heartbeat; the entry expires
:data:`WORKER_TTL` seconds after the last one), and ``prep remind``, ``prep scheduler`` and the
scheduler under ``prep serve`` warn (:func:`queue_warning`) when jobs wait and no live worker
listens to the queue, or when the oldest has waited longer than :data:`STALE_JOB`.
"""
from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from redis import Redis
from redis.exceptions import RedisError
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
#: A worker's entry in RQ's registry lives this many seconds after its last heartbeat (RQ's default).
WORKER_TTL = 420
#: A job waiting longer than this means no worker is taking jobs (a sweep runs every 5 minutes).
STALE_JOB = timedelta(minutes=15)


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
        sweep_module.send_page(now, mine, service.senders(), service.mail_domain(), clock.now, report, record_every=1)
    finally:
        db.session.remove()
    log.info("reminder job: %s sent, %s retrying, %s failed, %s already done",
             len(report.sent), len(report.retrying), len(report.failed), len(users) - len(mine))
    return len(report.sent)


def run_worker(app_config: dict, *, burst: bool = False, name: str | None = None) -> None:
    """One worker in this process for the reminder queue and the interview plans' queue (jobs
    run in the caller's app context, no fork)."""
    connection = redis_connection(app_config["REDIS_URL"])
    queue = queue_for(app_config, connection)
    plans = [Queue(app_config["PLAN_QUEUE"], connection=connection)] if app_config.get("PLAN_QUEUE") else []
    worker = SimpleWorker([queue, *plans], connection=connection, name=name, worker_ttl=WORKER_TTL)
    worker.work(burst=burst, with_scheduler=False, logging_level="WARNING")


@dataclass(frozen=True)
class QueueHealth:
    """What the queue holds and who serves it, read from Redis."""

    waiting: int  #: jobs not taken by a worker yet
    workers: int  #: live workers (a heartbeat within WORKER_TTL) listening to the queue
    oldest_enqueued_at: datetime | None  #: when the oldest waiting job was queued


def queue_health(app_config: dict, connection=None) -> QueueHealth:  # noqa: ANN001 - redis.Redis
    """The reminder queue's waiting jobs and live workers (RQ's worker registry)."""
    queue = queue_for(app_config, connection)
    workers = len(SimpleWorker.all(queue=queue))
    oldest = None
    for job_id in queue.get_job_ids(0, 1):  # the queue is FIFO: its head waited longest
        job = queue.fetch_job(job_id)
        oldest = job.enqueued_at if job is not None else None
    return QueueHealth(waiting=queue.count, workers=workers, oldest_enqueued_at=oldest)


def queue_warning(health: QueueHealth, now: datetime) -> str | None:
    """The warning an operator needs about ``health`` at ``now``, or None when all is well."""
    if not health.waiting:
        return None
    if not health.workers:
        return (f"{health.waiting} reminder job(s) wait in the queue and no `prep worker` is running (none has "
                f"reported in the last {WORKER_TTL // 60} minutes): start `prep worker` with the same PREP_REDIS_URL. "
                "A reminder not sent by the end of its user's day is dropped.")
    waited = now - health.oldest_enqueued_at if health.oldest_enqueued_at is not None else timedelta(0)
    if waited > STALE_JOB:
        return (f"the oldest of {health.waiting} reminder job(s) has waited {int(waited.total_seconds() // 60)} "
                f"minutes although {health.workers} worker(s) are registered: check the `prep worker` processes "
                "and their log. A reminder not sent by the end of its user's day is dropped.")
    return None


def queue_problem(app_config: dict, now: datetime) -> str | None:
    """:func:`queue_warning` for the app's queue, or None without ``PREP_REDIS_URL``; also
    logged. A Redis that cannot be read is a warning too."""
    if not app_config.get("REDIS_URL"):
        return None
    connection = redis_connection(app_config["REDIS_URL"])
    try:
        warning = queue_warning(queue_health(app_config, connection), now)
    except RedisError as err:
        warning = f"the reminder queue could not be read ({err}): check PREP_REDIS_URL and that Redis is running."
    finally:
        connection.close()
    if warning:
        log.warning("%s", warning)
    return warning
