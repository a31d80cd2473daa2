"""How interview mode plugs into the app: its pages and the plan job (a runner per process, the
plans' periodic sweep)."""
from __future__ import annotations

from flask import Flask

from . import jobs
from .cli import interview_group
from .routes import bp


def init_app(app: Flask) -> None:
    """Register the feature's blueprint and commands with ``app``."""
    app.register_blueprint(bp)
    jobs.init_app(app)
    app.cli.add_command(interview_group)
