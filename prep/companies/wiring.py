"""How the company pages plug into the app: their blueprint."""
from __future__ import annotations

from flask import Flask

from .routes import bp


def init_app(app: Flask) -> None:
    """Register the feature's blueprint with ``app``."""
    app.register_blueprint(bp)
