"""JSON request bodies: malformed JSON, at any depth, is a 400 with a JSON error, never a 500.

``request.get_json()`` parses with the app's JSON provider. Python's parser raises
``RecursionError`` (not the ``ValueError`` Werkzeug catches) on a body nesting deeper than the
interpreter's recursion limit, such as 100,000 ``[``; and a body it does parse may still nest
deeper than any view expects. The provider here turns both into the ``ValueError`` of a
malformed body, so that ``get_json(silent=True)`` returns None and ``get_json()`` raises
:class:`MalformedJson`, answered with ``{"error": ...}`` and status 400 whatever the view is.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, Request, jsonify
from flask.json.provider import DefaultJSONProvider
from flask_babel import gettext as _
from werkzeug.exceptions import BadRequest

from ..extensions import db

#: The deepest nesting of arrays and objects a request body may have (a rating has 2).
MAX_JSON_DEPTH = 32


class MalformedJson(BadRequest):
    """A request body that is not JSON, or nests deeper than :data:`MAX_JSON_DEPTH`."""


def nesting_within(data: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when no array or object in ``data`` sits more than ``limit`` levels deep (iterative:
    any depth the parser returned is walked in linear time)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if not isinstance(value, (list, dict)):
            continue
        if depth > limit:
            return False
        stack.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value)
                     if isinstance(item, (list, dict)))
    return True


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider, with a nesting bound on what it parses."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            data = super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply to parse") from None
        if not nesting_within(data):
            raise ValueError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
        return data


class JsonBodyRequest(Request):
    """The app's request: a body ``get_json()`` cannot read raises :class:`MalformedJson`."""

    def on_json_loading_failed(self, e: ValueError | None) -> Any:
        if e is None:  # not sent as application/json: Werkzeug's 415
            return super().on_json_loading_failed(e)
        raise MalformedJson()


def register_json_body(app: Flask) -> None:
    """Bound the JSON the app parses and answer a malformed body with a JSON 400."""
    app.json = BoundedJSONProvider(app)
    app.request_class = JsonBodyRequest

    @app.errorhandler(MalformedJson)
    def malformed_json(err: MalformedJson):
        db.session.rollback()
        return jsonify(error=_("The request body is not valid JSON, or it nests deeper than %(depth)s levels. "
                               "Nothing was changed.", depth=MAX_JSON_DEPTH)), 400
