"""No request value may hold a NUL character (checked before any view runs)."""
from __future__ import annotations

from flask import Flask, abort, request
from flask_babel import gettext as _

from ..errors import _render


def register_input_guard(app: Flask) -> None:
    """No request value may hold a NUL character: PostgreSQL refuses one in any text (a 500 from
    every search box and form), and no field of the app means one. A NUL in the path is a 404;
    in a query argument or a form field it is a 400 naming the field, before any view runs."""

    @app.before_request
    def refuse_nul():
        if "\x00" in request.path:
            abort(404)
        for source in (request.args, request.form if request.method in ("POST", "PUT", "PATCH") else None):
            if not source:
                continue
            for key, values in source.lists():
                if "\x00" in key or any("\x00" in v for v in values):
                    return _render(400, _("The field “%(field)s” holds a NUL character (\\0), which no field "
                                          "accepts. Remove it and send again; nothing was changed.",
                                          field=key.replace("\x00", "")[:40]), _("Bad input"))
        return None
