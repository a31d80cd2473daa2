"""Reminder delivery through RQ on a real Redis (db 9, a throw-away queue, flushed) and a real
aiosmtpd server: the sweep claims and enqueues, ``prep worker`` processes send. Two workers
remind each user exactly once; a worker killed mid-batch (SIGKILL) loses nothing and nothing
goes twice: the next sweep re-claims its unsent claims after their lease, another worker sends."""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from flask import Flask

from prep.extensions import db
from prep.reminders import timing

from tests.support.reminders import REPO, Recorder, log_rows, serve, sweep

REDIS_URL = "redis://127.0.0.1:6379/9"  # only this test uses db 9 (login limits: 11, rate limits: 13)
NOW = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)  # past 09:00 in every zone used
ZONES = ["Asia/Shanghai", "UTC", "Asia/Kolkata", "Europe/Berlin"]


@pytest.fixture
def redis_queue(app: Flask) -> Iterator[str]:
    redis = pytest.importorskip("redis")
    connection = redis.Redis.from_url(REDIS_URL)
    try:
        connection.ping()
    except redis.exceptions.ConnectionError:
        pytest.skip("no Redis on 127.0.0.1:6379 (.ci/run starts one)")
    connection.flushdb()
    name = f"prep-test-{uuid.uuid4().hex[:8]}"
    app.config.update(REDIS_URL=REDIS_URL, REMINDER_QUEUE=name)
    yield name
    connection.flushdb()
    connection.close()


def _worker(app: Flask, tmp: Path, queue: str, *, burst: bool) -> subprocess.Popen:
    env = {**os.environ, "PREP_DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
           "PREP_SMTP_URL": app.config["SMTP_URL"], "PREP_SECRET_KEY": app.config["SECRET_KEY"],
           "PREP_INSTANCE_DIR": str(tmp), "PREP_SCHEDULER": "0", "PREP_CONTENT_DIR": str(tmp / "content"),
           "PREP_REDIS_URL": REDIS_URL, "PREP_REMINDER_QUEUE": queue, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "prep", "worker", *(["--burst"] if burst else [])], cwd=REPO,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def test_two_workers_remind_each_user_exactly_once(tmp_path: Path, app: Flask, smtp: Recorder, learner,
                                                   redis_queue: str) -> None:
    users = [learner(tz) for tz in ZONES * 6]
    report = sweep(NOW, batch_size=5)
    assert len(report.queued) == len(users) and smtp.messages == []  # claimed and enqueued, not sent
    workers = [_worker(app, tmp_path / f"w{i}", redis_queue, burst=True) for i in range(2)]
    errs = []
    for w in workers:
        _, err = w.communicate(timeout=180)
        errs.append(err)
        assert w.returncode == 0, err
    assert smtp.recipients() == sorted(u.email for u in users), errs  # each exactly once
    db.session.expire_all()
    assert {row.status for row in log_rows()} == {"sent"}
    assert sweep(NOW + timing.SEND_LEASE * 2).claimed == []


class Stalling(Recorder):
    """Accepts messages until the ``stall_at``-th, which it holds (never accepting it) until released."""

    def __init__(self, stall_at: int) -> None:
        super().__init__()
        self.stall_at = stall_at
        self.seen = 0
        self.stalled = threading.Event()
        self.release = threading.Event()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802
        self.seen += 1
        if self.seen == self.stall_at:
            self.stalled.set()
            while not self.release.is_set():
                await asyncio.sleep(0.05)
            return "451 4.3.0 try again later"
        return await super().handle_DATA(server, session, envelope)


def test_a_worker_killed_mid_batch_loses_nothing_and_sends_nothing_twice(
        tmp_path: Path, app: Flask, learner, redis_queue: str) -> None:
    for url, handler in serve(Stalling(stall_at=5)):
        app.config["SMTP_URL"] = url
        users = [learner(tz) for tz in ZONES * 3]
        assert len(sweep(NOW).queued) == len(users)  # one job of 12
        first = _worker(app, tmp_path / "w1", redis_queue, burst=False)
        stalled = handler.stalled.wait(240)
        os.killpg(first.pid, signal.SIGKILL)  # mid-batch, while the 5th message is in flight
        _, err = first.communicate(timeout=30)
        handler.release.set()
        assert stalled, f"the worker never sent: {err[-3000:]}"
        assert len(handler.messages) == 4
        db.session.expire_all()
        statuses = sorted(row.status for row in log_rows())
        assert statuses.count("sent") == 4 and statuses.count("sending") == 8
        assert sweep(NOW + timedelta(minutes=1)).claimed == []  # still leased to the dead worker
        again = sweep(NOW + timing.SEND_LEASE + timedelta(minutes=1))
        assert len(again.claimed) == len(again.queued) == 8
        second = _worker(app, tmp_path / "w2", redis_queue, burst=True)
        _, err = second.communicate(timeout=180)
        assert second.returncode == 0, err
        time.sleep(0.2)
        assert handler.recipients() == sorted(u.email for u in users)  # all, each once
        db.session.expire_all()
        assert {row.status for row in log_rows()} == {"sent"}


# --- operators are told about the queue --------------------------------------------------------

def _live_worker(app: Flask, queue_name: str):  # noqa: ANN202 - rq.SimpleWorker
    """A worker entry in RQ's registry, as a running `prep worker` keeps one (not working jobs)."""
    from rq import SimpleWorker

    from prep.reminders.worker import queue_for, redis_connection

    connection = redis_connection(REDIS_URL)
    worker = SimpleWorker([queue_for(app.config, connection)], connection=connection)
    worker.register_birth()
    return worker


def test_remind_says_it_queued_and_warns_when_no_worker_runs(app: Flask, runner, smtp: Recorder, learner,
                                                             redis_queue: str, caplog) -> None:
    user = learner()
    result = runner.invoke(args=["remind", "--now", NOW.isoformat()])
    assert result.exit_code == 0, result.output
    assert f"queued a reminder for {user.email}" in result.output
    assert "queued 1 message(s) for `prep worker` to send (email 1)" in result.output
    assert "message(s) sent" not in result.output and smtp.messages == []
    assert "warning: 1 reminder job(s) wait in the queue and no `prep worker` is running" in result.output
    assert any("no `prep worker` is running" in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)


def test_no_warning_while_a_worker_is_registered(app: Flask, runner, smtp: Recorder, learner,
                                                 redis_queue: str) -> None:
    learner()
    worker = _live_worker(app, redis_queue)
    result = runner.invoke(args=["remind", "--now", NOW.isoformat()])
    assert result.exit_code == 0 and "queued 1 message(s)" in result.output
    assert "warning" not in result.output
    worker.register_death()  # it stopped: the job still waits, and nobody takes it
    result = runner.invoke(args=["remind", "--now", NOW.isoformat()])
    assert "queued 0 message(s)" in result.output and "no `prep worker` is running" in result.output


def test_a_job_nobody_takes_for_long_is_reported_even_with_a_worker_registered(
        app: Flask, smtp: Recorder, learner, redis_queue: str, clock) -> None:
    from prep.reminders.worker import queue_problem

    learner()
    _live_worker(app, redis_queue)
    assert len(sweep(clock.now).queued) == 1
    assert queue_problem(app.config, clock.now) is None
    clock.shift(timedelta(minutes=16))
    problem = queue_problem(app.config, clock.now)
    assert problem and "has waited 16 minutes although 1 worker(s) are registered" in problem


def test_the_scheduler_logs_the_warning(app: Flask, smtp: Recorder, learner, redis_queue: str, clock,
                                        caplog) -> None:
    from prep.reminders import scheduler

    learner()
    scheduler.sweep_job(app)()
    assert smtp.messages == []
    assert any("no `prep worker` is running" in r.getMessage() for r in caplog.records if r.levelname == "WARNING")


def test_a_running_prep_worker_is_seen_in_rqs_registry(tmp_path: Path, app: Flask, smtp: Recorder,
                                                       redis_queue: str) -> None:
    """`prep worker` heartbeats into RQ's worker registry while it waits for jobs."""
    from prep.reminders.worker import queue_health, queue_warning

    process = _worker(app, tmp_path / "w", redis_queue, burst=False)
    try:
        deadline = time.monotonic() + 120
        while queue_health(app.config).workers == 0:
            if process.poll() is not None or time.monotonic() >= deadline:
                os.killpg(process.pid, signal.SIGTERM)  # its output ends only when it does
                pytest.fail("the worker never registered:\n" + process.communicate(timeout=60)[1][-3000:])
            time.sleep(0.05)  # the process starts on its own time
        health = queue_health(app.config)
        assert health.workers == 1 and queue_warning(health, NOW) is None
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.communicate(timeout=60)


@pytest.mark.parametrize(("waiting", "workers", "waited", "says"), [
    (0, 0, None, None),
    (0, 2, None, None),
    (3, 0, 0, "3 reminder job(s) wait in the queue and no `prep worker` is running"),
    (1, 1, 5, None),
    (2, 1, 15, None),
    (2, 1, 40, "the oldest of 2 reminder job(s) has waited 40 minutes although 1 worker(s) are registered"),
])
def test_queue_warning(waiting: int, workers: int, waited: int | None, says: str | None) -> None:
    from prep.reminders.worker import QueueHealth, queue_warning

    oldest = NOW - timedelta(minutes=waited) if waited is not None else None
    warning = queue_warning(QueueHealth(waiting=waiting, workers=workers, oldest_enqueued_at=oldest), NOW)
    assert (warning is None) if says is None else (says in warning)
