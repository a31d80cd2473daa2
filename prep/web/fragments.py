"""Rendered template fragments kept per app and language (the card-batch JSON renders
the same answer and card-kind HTML for a card on every batch that lists it again).

:func:`render_cached` renders a template once per ``key``; the caller's key must name everything
the fragment shows (ids with a content hash or version, the user's note, ...): the UI language is
added here. Least recently used entries go first; templates that reload (debug) are not cached.
"""
from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from flask import current_app, render_template
from flask_babel import get_locale

from ..content.render_cache import Lru

MAX_ENTRIES = 2048


def render_cached(template: str, key: Hashable, **context: Any) -> str:
    """``render_template(template, **context)``, or the text it gave for the same ``key`` and UI language."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if app.jinja_env.auto_reload:
        return render_template(template, **context)
    cache = app.extensions.get("prep.fragments")
    if cache is None:
        cache = app.extensions.setdefault("prep.fragments", Lru(MAX_ENTRIES))
    full = (template, str(get_locale() or "en"), key)
    text = cache.get(full)
    if text is None:
        text = render_template(template, **context)
        cache.put(full, text)
    return text
