"""How the statistics plug into the app: their pages."""
from __future__ import annotations

from flask import Flask

from .routes import bp


def init_app(app: Flask) -> None:
    """Register the feature's blueprint and commands with ``app``."""
    app.register_blueprint(bp)
