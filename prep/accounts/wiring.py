"""How the accounts feature plugs into the app: its pages and ``prep users``."""
from __future__ import annotations

from flask import Flask

from .cli import users_group
from .routes import bp


def init_app(app: Flask) -> None:
    """Register the feature's blueprint and commands with ``app``."""
    app.register_blueprint(bp)
    app.cli.add_command(users_group)
