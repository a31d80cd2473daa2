"""prep: an interview-prep study companion.

``create_app`` is the application factory; every feature is a sub-package that plugs itself in
through its ``wiring.py``. The factory imports the features when it runs, not at the top of this
module: importing one module of the package (``prep.drill.scheduling``, ``prep.clock``) must not
load the whole app.
"""
from __future__ import annotations

import logging
import os
from importlib import import_module
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.routing import IntegerConverter

from . import config as config_module
from .config import REPO_ROOT
from .ops import bp as ops_bp

log = logging.getLogger(__name__)


class IdConverter(IntegerConverter):
    """``<int:...>`` in every route: 0 to 2**31 - 1 (an ``Integer`` column), at most 10 digits."""

    regex = r"[0-9]{1,10}"  # ASCII digits (\d would take other scripts' digits too)

    def __init__(self, url_map: Any, fixed_digits: int = 0, min: int | None = 0,  # noqa: A002
                 max: int | None = 2**31 - 1, signed: bool = False) -> None:  # noqa: A002
        super().__init__(url_map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``PREP_*`` environment variables, then ``config``."""
    instance_path = os.environ.get("PREP_INSTANCE_DIR") or (config or {}).get("INSTANCE_PATH")
    app = Flask(
        __name__,
        instance_path=str(Path(instance_path).resolve()) if instance_path else str(REPO_ROOT / "instance"),
        template_folder=str(REPO_ROOT / "templates"),
        static_folder=str(REPO_ROOT / "static"),
    )
    # Ids in URLs are database integers: one past the column's range is a 404, not a 500
    # (PostgreSQL refuses to compare an integer column with 99999999999999999999).
    app.url_map.converters["int"] = IdConverter
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.update(config_module.defaults(Path(app.instance_path)))
    app.config.update(config_module.from_environ())
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = config_module.load_or_create_secret_key(Path(app.instance_path))
        app.config["SECRET_KEY_FROM_INSTANCE"] = True  # not shared with other hosts (prep.secret_keys)

    from .security import init_security

    init_security(app)
    _init_extensions(app)
    from .i18n import init_i18n

    init_i18n(app)
    _init_features(app)
    from .errors import register_error_handlers
    from .web.bodies import register_body_limits
    from .web.input_guard import register_input_guard
    from .web.json_body import register_json_body
    from .web.templating import register_template_helpers

    from .cli import register_cli

    register_cli(app)
    register_error_handlers(app)
    register_template_helpers(app)
    register_input_guard(app)
    register_json_body(app)
    register_body_limits(app)
    return app


def _init_extensions(app: Flask) -> None:
    from .database import configure_sqlite
    from .extensions import csrf, db, limiter, login_manager, migrate

    db.init_app(app)
    migrate.init_app(app, db, directory=str(Path(__file__).with_name("migrations")),
                     render_as_batch=True, compare_type=True)
    csrf.init_app(app)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL") or "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    # Flask-Limiter's default for RATELIMIT_ENABLED is whatever the last app it was given said: an
    # app made with limits off (a test) would turn them off for every app made after it.
    app.config.setdefault("RATELIMIT_ENABLED", True)
    limiter.init_app(app)
    login_manager.init_app(app)
    login_manager.login_view = "accounts.login"
    login_manager.login_message = "Please log in to continue."
    login_manager.login_message_category = "info"
    with app.app_context():
        configure_sqlite(db.engine, app.config["SQLITE_BUSY_TIMEOUT_MS"])
    from . import models  # noqa: F401  (register every model on the metadata)


# Each feature plugs itself in through ``prep/<feature>/wiring.py``: ``init_app(app)`` registers its
# blueprint, its commands, and what else it adds to the app (a scheduler, a periodic job, a template
# context). In this order: the interview's plan sweep is registered before the reminders' scheduler,
# which runs it.
FEATURES = ("accounts", "drill", "questions", "content", "stats", "optimize", "export", "postings", "companies", "search",
            "interview", "reminders", "sharing")


def _init_features(app: Flask) -> None:
    app.register_blueprint(ops_bp)
    for name in FEATURES:
        import_module(f"{__name__}.{name}.wiring").init_app(app)
