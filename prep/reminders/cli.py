"""``prep remind`` (one sweep by hand) and ``prep scheduler`` (the sweep every few minutes)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import click
from flask import current_app
from flask.cli import with_appcontext

from .. import clock
from ..secret_keys import require_for_command
from . import service
from .scheduler import SWEEP_MINUTES, run_blocking
from .worker import queue_problem, run_worker


#: The earliest time ``--now`` takes (prep is far younger: an earlier one is a typing slip).
EARLIEST_NOW = datetime(2000, 1, 1, tzinfo=timezone.utc)
#: How far past the real clock ``--now`` may go (a sweep "as if" a day or a month ahead).
LATEST_NOW_AHEAD = timedelta(days=366)


def parse_now(text: str | None) -> datetime:
    """An ISO 8601 time from 2000-01-01 to a year past the real clock; without a zone it is taken
    as UTC. None means the real current time."""
    now = clock.now()
    if not text:
        return now
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        value = value.astimezone(timezone.utc)
    except ValueError:
        raise click.BadParameter(f"not an ISO 8601 time: {text!r} (e.g. 2026-03-10T01:05:00Z)",
                                 param_hint="--now") from None
    except OverflowError:  # an offset pushing 9999-12-31 or 0001-01-01 past the calendar's ends
        value = None
    latest = now + LATEST_NOW_AHEAD
    if value is None or not EARLIEST_NOW <= value <= latest:
        raise click.BadParameter(f"{text!r} is outside {EARLIEST_NOW:%Y-%m-%d} to {latest:%Y-%m-%d} "
                                 "(a year past the current time)", param_hint="--now")
    return value


@click.command("remind")
@click.option("--dry-run", is_flag=True, help="Only show who would be reminded; send and record nothing.")
@click.option("--now", "now_text", metavar="ISO-TIME",
              help="Run as if it were this time (ISO 8601, e.g. 2026-03-10T01:05:00Z; no zone means UTC).")
@with_appcontext
def remind_command(dry_run: bool, now_text: str | None) -> None:
    """Run one reminder sweep now and print what it sends, queues (or would send)."""
    now = parse_now(now_text)
    if not dry_run:
        require_for_command(current_app._get_current_object(), clock.now())
    report = service.sweep(now, dry_run=dry_run)
    for line in report.lines():
        click.echo(line)
    problem = None if dry_run else queue_problem(current_app.config, clock.now())
    if problem:
        click.echo(f"warning: {problem}", err=True)


@click.command("scheduler")
@click.option("--every", "minutes", default=SWEEP_MINUTES, show_default=True, type=click.IntRange(1, 1440),
              help="Minutes between sweeps.")
@with_appcontext
def scheduler_command(minutes: int) -> None:
    """Run the reminder scheduler in the foreground (a sweep every few minutes)."""
    app = current_app._get_current_object()
    require_for_command(app, clock.now())
    run_blocking(app, minutes)


@click.command("worker")
@click.option("--burst", is_flag=True, help="Exit when the queue is empty instead of waiting for more jobs.")
@click.option("--name", default=None, help="Worker name shown in RQ (default: host and process id).")
@with_appcontext
def worker_command(burst: bool, name: str | None) -> None:
    """Deliver reminder emails from the Redis job queue (needs PREP_REDIS_URL).

    The reminder sweep claims due users and enqueues their emails in batches; run one
    `prep worker` per process you want sending, on any number of hosts sharing the database
    and Redis. Each claim is sent once; a worker that dies mid-batch leaves its unsent
    reminders to be claimed again after their lease and sent by another worker.
    """
    if not current_app.config.get("REDIS_URL"):
        raise click.UsageError("PREP_REDIS_URL is not set: without Redis the sweep sends in its own process.")
    require_for_command(current_app._get_current_object(), clock.now())
    run_worker(current_app.config, burst=burst, name=name)
