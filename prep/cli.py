"""The ``prep`` command line: a Flask CLI group (so ``prep run``, ``prep routes``, ``prep shell``
work too) with the project's own commands."""
from __future__ import annotations

import logging
import sys

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, with_appcontext

from .accounts.models import Role


def _create_app():
    from . import create_app

    return create_app()


@click.group(cls=FlaskGroup, create_app=_create_app, add_default_commands=True,
             help="prep: interview-prep study companion. Run `prep init` once, then `prep serve`.")
def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def register_cli(app: Flask) -> None:
    """Attach the project's commands to ``app.cli`` (which the ``prep`` group lists)."""
    from .content.cli import content_group, link_command
    from .export.cli import backup_command
    from .postings.cli import extract_command, postings_group

    if "sync" not in content_group.commands:
        content_group.add_command(content_sync_command)
    for command in (init_command, serve_command, users_group, extract_command, content_group, link_command,
                    postings_group, backup_command):
        app.cli.add_command(command)


@click.command("init")
@with_appcontext
def init_command() -> None:
    """Create the database tables and load the content and sample data (safe to run twice)."""
    from .bootstrap import initialise

    for line in initialise(current_app):
        click.echo(line)


@click.command("sync")
@click.argument("directory", metavar="[DIR]", required=False,
                type=click.Path(exists=True, file_okay=False, path_type=str))
@click.option("--prune", is_flag=True,
              help="Also remove explanations whose files are gone when that is more than 10% of them "
                   "(without it, such a sync removes nothing and names them).")
@with_appcontext
def content_sync_command(directory: str | None, prune: bool) -> None:
    """Load new and changed explanation files into the database and remove deleted ones.

    A sync that would remove more than 10% of the explanations (at least 3), such as one run on
    an empty or wrong folder, removes nothing and exits with status 1 unless --prune is given."""
    from .content.sync import sync_tree
    from .extensions import db

    report = sync_tree(directory or current_app.config["CONTENT_DIR"], prune=prune)
    db.session.commit()
    for line in report.problems:
        click.echo(line, err=True)
    click.echo(report.summary())
    if report.refused:
        raise click.exceptions.Exit(1)


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535), help="TCP port.")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 256),
              help="Threads per worker process.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes: 1 serves with waitress; more use gunicorn (Linux).")
@with_appcontext
def serve_command(host: str, port: int, threads: int, workers: int) -> None:
    """Serve the app with a production WSGI server (waitress, or gunicorn with --workers N)."""
    app = current_app._get_current_object()
    click.echo(f"prep is serving on http://{host}:{port}/  ({workers} worker(s); Ctrl+C to stop)")
    sys.stdout.flush()
    if workers == 1:
        from waitress import serve

        serve(app, host=host, port=port, threads=threads, ident="prep")
        return
    _serve_gunicorn(host, port, threads, workers)


def _serve_gunicorn(host: str, port: int, threads: int, workers: int) -> None:
    """Run gunicorn with our factory in each worker. The reminder scheduler (if enabled) runs
    in this master process only: workers are told not to start their own."""
    import os

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
            from . import create_app

            return create_app()

    PrepGunicorn().run()


@click.group("users")
def users_group() -> None:
    """Manage user accounts."""


@users_group.command("create")
@click.argument("email")
@click.option("--role", type=click.Choice([r.value for r in Role]), default=Role.candidate.value,
              show_default=True, help="The account's role.")
@click.option("--password", prompt=True, hide_input=True, confirmation_prompt=True,
              help="The password (prompted for when not given).")
@with_appcontext
def users_create(email: str, role: str, password: str) -> None:
    """Create a user account with a role (candidate, instructor or admin)."""
    from .accounts.service import AccountError, create_user
    from .extensions import db

    try:
        user = create_user(email, password, role=Role(role))
    except AccountError as err:
        db.session.rollback()
        raise click.UsageError(str(err)) from None
    summary = f"created {user.email} ({user.role.value})"
    db.session.commit()
    click.echo(summary)
