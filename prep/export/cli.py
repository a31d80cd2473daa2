"""The ``prep backup`` command."""
from __future__ import annotations

import sys
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from .backup import BackupError, backup_sqlite, pg_dump_hint, sqlite_path


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, path_type=str))
@with_appcontext
def backup_command(path: str) -> None:
    """Copy the database to PATH consistently while the app runs (SQLite; pg_dump hint for PostgreSQL)."""
    url = current_app.config["SQLALCHEMY_DATABASE_URI"]
    source = sqlite_path(url)
    if source is None:
        click.echo(pg_dump_hint(url, path), err=True)
        sys.exit(2)
    try:
        size = backup_sqlite(source, Path(path))
    except (BackupError, OSError) as err:
        raise click.ClickException(str(err)) from None
    click.echo(f"backed up {source} to {Path(path).resolve()} ({size:,} bytes)")
