"""``prep remind`` (one sweep by hand) and ``prep scheduler`` (the sweep every few minutes)."""
from __future__ import annotations

from datetime import datetime, timezone

import click
from flask import current_app
from flask.cli import with_appcontext

from .. import clock
from . import service
from .scheduler import SWEEP_MINUTES, run_blocking
from .worker import run_worker


def parse_now(text: str | None) -> datetime:
    """An ISO 8601 time; without a zone it is taken as UTC. None means the real current time."""
    if not text:
        return clock.now()
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise click.BadParameter(f"not an ISO 8601 time: {text!r} (e.g. 2026-03-10T01:05:00Z)",
                                 param_hint="--now") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


@click.command("remind")
@click.option("--dry-run", is_flag=True, help="Only show who would be reminded; send and record nothing.")
@click.option("--now", "now_text", metavar="ISO-TIME",
              help="Run as if it were this time (ISO 8601, e.g. 2026-03-10T01:05:00Z; no zone means UTC).")
@with_appcontext
def remind_command(dry_run: bool, now_text: str | None) -> None:
    """Run one reminder sweep now and print what it sends (or would send)."""
    report = service.sweep(parse_now(now_text), dry_run=dry_run)
    for line in report.lines():
        click.echo(line)


@click.command("scheduler")
@click.option("--every", "minutes", default=SWEEP_MINUTES, show_default=True, type=click.IntRange(1, 1440),
              help="Minutes between sweeps.")
@with_appcontext
def scheduler_command(minutes: int) -> None:
    """Run the reminder scheduler in the foreground (a sweep every few minutes)."""
    run_blocking(current_app._get_current_object(), minutes)


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
    run_worker(current_app.config, burst=burst, name=name)
