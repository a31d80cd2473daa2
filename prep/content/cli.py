"""The content commands: check a content tree, try the linker on questions, sync a tree into
the database, export the database's explanations as a tree.

``prep content check|highlight-css`` and ``prep link`` need no app and no database; ``prep content
sync`` runs in the app context. The ``prep`` group (:mod:`prep.cli`) registers ``content_group``
and ``link_command``.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from ..extensions import db
from ..skills import load_taxonomy
from .check import check_tree
from .linker import Linker
from .highlight import highlight_css
from .export import ExportRefused, export_tree
from .sync import sync_tree


def default_content_dir() -> str:
    """``$PREP_CONTENT_DIR`` if set, else ``content``."""
    return os.environ.get("PREP_CONTENT_DIR") or "content"


_DIR = click.Path(exists=True, file_okay=False, dir_okay=True, path_type=Path)


@click.group("content")
def content_group() -> None:
    """Check and build the Markdown explanations."""


@content_group.command("check")
@click.argument("directory", metavar="[DIR]", required=False, type=_DIR)
@click.option("--require-key-points/--no-require-key-points", default=True, show_default=True,
              help="Report a file without key_points (the drill's self-grading checklist).")
def check_command(directory: Path | None, require_key_points: bool) -> None:
    """Validate every explanation file; print one 'path:line: message' per problem (and
    'path:line: warning: message' per warning: these do not fail the check)."""
    if directory is None:
        directory = Path(default_content_dir())
        if not directory.is_dir():
            raise click.BadParameter(f"directory '{directory}' does not exist", param_hint="DIR")
    report = check_tree(directory, require_key_points=require_key_points)
    for line in report.lines():
        click.echo(line)
    noun = "file" if report.files == 1 else "files"
    if report.problems:
        raise click.exceptions.Exit(1)
    warned = len(report.warnings)
    click.echo(f"{report.files} {noun}, 0 problems" + (f", {warned} warning{'' if warned == 1 else 's'}"
                                                        if warned else ""))


@content_group.command("highlight-css")
def highlight_css_command() -> None:
    """Print the Pygments stylesheet (light and dark) for static/css/pygments.css."""
    click.echo(highlight_css(), nl=False)


@content_group.command("sync")
@click.argument("directory", metavar="[DIR]", required=False,
                type=click.Path(exists=True, file_okay=False, path_type=str))
@click.option("--prune", is_flag=True,
              help="Also remove explanations whose files are gone when that is more than 10% of them "
                   "(without it, such a sync removes nothing and names them).")
@with_appcontext
def sync_command(directory: str | None, prune: bool) -> None:
    """Load new and changed explanation files into the database and remove deleted ones.

    A sync that would remove more than 10% of the explanations (at least 3), such as one run on
    an empty or wrong folder, removes nothing and exits with status 1 unless --prune is given."""
    report = sync_tree(directory or current_app.config["CONTENT_DIR"], prune=prune)
    db.session.commit()
    for line in report.problems:
        click.echo(line, err=True)
    click.echo(report.summary())
    if report.refused:
        raise click.exceptions.Exit(1)


@content_group.command("export")
@click.argument("directory", metavar="DIR", type=click.Path(file_okay=False, path_type=Path))
@click.option("--force", is_flag=True,
              help="Write into a folder that holds other files too (they are never deleted).")
@with_appcontext
def export_command(directory: Path, force: bool) -> None:
    """Write every current explanation as Markdown with front matter under DIR, at its path.

    Unchanged explanations come out byte-identical to the files they were synced from, so the
    export of browser work can be committed to git. DIR must be empty, missing or a content
    folder (only .md files outside hidden folders) unless --force. Each file is written
    atomically; nothing is deleted."""
    try:
        report = export_tree(directory, force=force)
    except ExportRefused as err:
        raise click.ClickException(str(err)) from None
    for line in report.problems:
        click.echo(line, err=True)
    click.echo(report.summary())
    if report.problems:
        raise click.exceptions.Exit(1)


@click.command("link")
@click.option("--content", "content_dir", type=_DIR, default=None,
              help="Content directory (default: $PREP_CONTENT_DIR or content/).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--limit", default=5, show_default=True, type=click.IntRange(1, 100),
              help="At most this many links per question.")
@click.argument("questions", metavar="QUESTION...", nargs=-1, required=True)
def link_command(content_dir: Path | None, as_json: bool, limit: int, questions: tuple[str, ...]) -> None:
    """Rank explanations in a content directory (no database) for each QUESTION."""
    if content_dir is None:
        content_dir = Path(default_content_dir())
        if not content_dir.is_dir():
            raise click.BadParameter(f"directory '{content_dir}' does not exist", param_hint="--content")
    taxonomy = load_taxonomy()
    report = check_tree(content_dir, taxonomy)
    if report.problems:
        click.echo(f"warning: {len(report.problems)} content problem(s); run 'prep content check'",
                   err=True)
    linker = Linker(report.all_docs, taxonomy)
    results = [
        {"question": q, "links": [{"slug": l.slug, "score": l.score} for l in linker.rank(q, limit)]}
        for q in questions
    ]
    if as_json:
        click.echo(json.dumps(results, ensure_ascii=False, indent=2))
        return
    for result in results:
        click.echo(result["question"])
        if not result["links"]:
            click.echo("  (no link)")
        for link in result["links"]:
            click.echo(f"  {link['score']:.3f}  {link['slug']}")
