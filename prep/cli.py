"""The ``prep`` command line: a Flask CLI group (so ``prep run``, ``prep routes``, ``prep shell``
work too) with the project's own commands.

Each feature keeps its commands in its own ``cli.py`` and registers them from its ``wiring.py``
(``prep content``, ``prep link``, ``prep users``, ``prep postings``, ``prep extract``, ``prep
backup``, ``prep remind``, ``prep scheduler``, ``prep worker``); this module holds the group and
the two app-wide commands (``init`` and ``serve``)."""
from __future__ import annotations

import logging
import os
import sys

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, with_appcontext
import waitress
from sqlalchemy.exc import OperationalError, ProgrammingError

from . import clock, create_app
from .bootstrap import initialise
from .secret_keys import require_for_command


class _PrepGroup(FlaskGroup):
    """The group, with one clear line instead of a traceback when the database is not ready."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (OperationalError, ProgrammingError) as err:
            text = str(err.orig if getattr(err, "orig", None) is not None else err).lower()
            if "no such table" in text or "does not exist" in text or "undefined" in text:
                raise click.ClickException("the database has no tables yet (or is from an older version of prep): "
                                           "run `prep init` first.") from None
            if "unable to open" in text or "connection" in text or "could not connect" in text:
                raise click.ClickException("cannot open the database: check PREP_DATABASE_URL "
                                           "(and that the server is running).") from None
            raise


@click.group(cls=_PrepGroup, create_app=create_app, add_default_commands=True,
             help="prep: interview-prep study companion. Run `prep init` once, then `prep serve`.")
def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def register_cli(app: Flask) -> None:
    """Attach the app-wide commands to ``app.cli`` (which the ``prep`` group lists; the features
    attach theirs in their ``wiring.py``)."""
    app.cli.add_command(init_command)
    app.cli.add_command(serve_command)


@click.command("init")
@with_appcontext
def init_command() -> None:
    """Create the database tables and load the content and sample data (safe to run twice)."""
    for line in initialise(current_app):
        click.echo(line)


# Requests spend most of their time on the CPU (templates, SQLAlchemy), under one GIL per process:
# gunicorn workers give the parallelism (one per core), and two threads per worker cover the waits
# on the database. More threads only interleave requests in a worker (each takes longer), and more
# writers wait on SQLite's lock: with 8 threads per worker the drill page's p99 at half capacity
# was 1.5-2.5x that with 2 (bench/results/ANALYSIS.md, h20p). One waitress process keeps 8 threads.
WAITRESS_THREADS = 8
GUNICORN_THREADS = 2


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535), help="TCP port.")
@click.option("--threads", default=None, type=click.IntRange(1, 256),
              help=f"Threads per process [default: {WAITRESS_THREADS} with one process, "
                   f"{GUNICORN_THREADS} per gunicorn worker].")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes: 1 serves with waitress; more use gunicorn (Linux).")
@with_appcontext
def serve_command(host: str, port: int, threads: int | None, workers: int) -> None:
    """Serve the app with a production WSGI server (waitress, or gunicorn with --workers N)."""
    app = current_app._get_current_object()
    require_for_command(app, clock.now())
    click.echo(f"prep is serving on http://{host}:{port}/  ({workers} worker(s); Ctrl+C to stop)")
    sys.stdout.flush()
    if workers == 1:
        waitress.serve(app, host=host, port=port, threads=threads or WAITRESS_THREADS, ident="prep")
        return
    _serve_gunicorn(host, port, threads or GUNICORN_THREADS, workers)


def _serve_gunicorn(host: str, port: int, threads: int, workers: int) -> None:
    """Run gunicorn with our factory in each worker. The reminder scheduler (if enabled) runs
    in this master process only: workers are told not to start their own."""
    # Here, not at the top: gunicorn is not installed on Windows (pyproject.toml), where only
    # waitress serves.
    from gunicorn.app.base import BaseApplication

    os.environ["PREP_SCHEDULER"] = "0"  # read by the workers' create_app

    class PrepGunicorn(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{port}")
            self.cfg.set("workers", workers)
            self.cfg.set("threads", threads)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("proc_name", "prep")
            self.cfg.set("accesslog", None)
            self.cfg.set("graceful_timeout", 20)

        def load(self):
            return create_app()

    PrepGunicorn().run()

