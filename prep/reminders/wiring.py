"""How the reminders feature plugs into the app: its blueprint, CLI commands, the banner in
every page's template context, and the background scheduler under ``prep serve``."""
from __future__ import annotations

import logging
import sys
from typing import Any

import click
from flask import Flask
from flask_login import current_user
from sqlalchemy.exc import SQLAlchemyError

from .. import clock
from ..drill import queue_queries
from ..drill.queue import QueueCounts
from ..extensions import db
from . import service
from .cli import remind_command, scheduler_command, worker_command
from .routes import bp
from . import scheduler
from .worker import enqueuer

log = logging.getLogger(__name__)


def init_app(app: Flask) -> None:
    """Register the reminders blueprint, CLI commands, template context and scheduler."""
    app.register_blueprint(bp)
    app.cli.add_command(remind_command)
    app.cli.add_command(scheduler_command)
    app.cli.add_command(worker_command)
    app.extensions["prep.reminder_enqueuer"] = enqueuer  # the sweep enqueues through it (None without Redis)
    app.context_processor(_banner_context)
    if app.config.get("SCHEDULER_ENABLED") and _is_serve_process():
        scheduler.start_background(app)


# FlaskGroup's own options that take a value (so the value is not taken for the command name).
_GROUP_OPTIONS_WITH_VALUE = frozenset({"-e", "--env-file", "-A", "--app"})


def cli_command(argv: list[str]) -> tuple[str | None, list[str]]:
    """The ``prep`` sub-command named in ``argv`` (without the program name) and its arguments."""
    args = list(argv)
    while args:
        token = args.pop(0)
        if token in _GROUP_OPTIONS_WITH_VALUE:
            del args[:1]
        elif not token.startswith("-"):
            return token, args
    return None, []


def _is_serve_process() -> bool:
    """True when this process is ``prep serve`` (not ``--help``): the app is being made by the
    CLI and the command line names ``serve``. Tests, WSGI workers and other commands: False."""
    if click.get_current_context(silent=True) is None:
        return False
    name, rest = cli_command(sys.argv[1:])
    return name == "serve" and not {"--help", "-h"} & set(rest)


def _banner_context() -> dict[str, Any]:
    return {"reminder_banner": _banner}


def _banner(queue: QueueCounts | None = None) -> dict[str, Any] | None:
    """Today's reminder banner for the logged-in user, or None (also when the database fails,
    so error pages still render). ``queue``: the page's own queue counts when it has them (the
    drill and the dashboard), so that the banner does not count the queue a second time."""
    if not getattr(current_user, "is_authenticated", False):
        return None
    user = current_user._get_current_object()
    now = clock.now()
    try:
        note = service.banner_note(user, now)
        if note is None:
            return None
        due = (queue if queue is not None else queue_queries.queue_counts(user, now)).remaining_now
        if due <= 0:
            return None
        return {"notification_id": note[0], "due": due, "open": note[1]}
    except SQLAlchemyError:
        db.session.rollback()
        log.warning("reminder banner skipped: database error", exc_info=True)
        return None
