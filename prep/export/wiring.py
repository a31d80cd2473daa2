"""How export and import plug into the app: their pages and ``prep backup``."""
from __future__ import annotations

from flask import Flask

from .cli import backup_command
from .routes import bp


def init_app(app: Flask) -> None:
    """Register the feature's blueprint and commands with ``app``."""
    app.register_blueprint(bp)
    app.cli.add_command(backup_command)
