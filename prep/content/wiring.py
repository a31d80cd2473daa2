"""How the explanations plug into the app: their pages, ``prep content`` and ``prep link``."""
from __future__ import annotations

from flask import Flask

from .cli import content_group, link_command
from .routes import bp


def init_app(app: Flask) -> None:
    """Register the feature's blueprint and commands with ``app``."""
    app.register_blueprint(bp)
    app.cli.add_command(content_group)
    app.cli.add_command(link_command)
