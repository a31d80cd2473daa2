"""How postings plug into the app: their pages, ``prep postings``, ``prep extract`` and ``prep
content coverage`` (which reads postings, a layer above content, so postings adds it to that group)."""
from __future__ import annotations

from flask import Flask

from ..content.cli import content_group
from .cli import extract_command, postings_group
from .coverage import coverage_command
from .routes import bp


def init_app(app: Flask) -> None:
    """Register the feature's blueprint and commands with ``app``."""
    app.register_blueprint(bp)
    app.cli.add_command(postings_group)
    app.cli.add_command(extract_command)
    if "coverage" not in content_group.commands:
        content_group.add_command(coverage_command)
