"""Error pages in the app's style; the session is rolled back before rendering."""
from __future__ import annotations

import logging

from flask import Flask, g, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException

from .extensions import db, login_manager

log = logging.getLogger(__name__)

_MESSAGES = {
    400: _l("The request could not be understood."),
    403: _l("You do not have access to this page."),
    404: _l("There is nothing here. The link may be old, or the page belongs to someone else."),
    405: _l("That action is not allowed here."),
    413: _l("What you sent is too large."),
    429: _l("Too many attempts. Wait a little and try again."),
    500: _l("Something went wrong on our side. Nothing you entered was half-saved; please try again."),
    503: _l("The service is busy. Please try again in a moment."),
}


def _render(code: int, message: str | None = None, title: str | None = None):
    db.session.rollback()
    wants_json = request.accept_mimetypes.best == "application/json"
    text = str(message or _MESSAGES.get(code) or _("Something went wrong."))
    if wants_json:
        return {"error": text}, code
    return render_template("error.html", code=code, message=text, title=title), code


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(err: CSRFError):
        return _render(400, _("Your form expired or was sent from elsewhere. Reload the page and try again."),
                       _("Form expired"))

    @app.errorhandler(OperationalError)
    def database_busy(err: OperationalError):
        log.warning("database error: %s", err)
        if "_login_user" not in g:
            # The user could not be loaded (that query failed): render the page without one
            # rather than touching the database again.
            g._login_user = login_manager.anonymous_user()
        return _render(503, _("The database is busy or unavailable. Nothing was saved; please try again."),
                       _("Try again"))

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        return _render(err.code or 500)

    @app.errorhandler(Exception)
    def unexpected(err: Exception):
        propagate = app.config.get("PROPAGATE_EXCEPTIONS")
        if propagate or (propagate is None and (app.testing or app.debug)):
            raise err
        log.exception("unhandled error")
        return _render(500)
