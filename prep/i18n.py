"""UI languages (English and Simplified Chinese) with Flask-Babel and gettext catalogs.

The language comes from the user's setting, else a choice made with the footer switcher
(kept in the session), else the browser's Accept-Language. Catalogs live in
``prep/translations/<lang>/LC_MESSAGES/messages.po`` and are compiled to ``.mo`` when missing
or older than the ``.po`` (at install and at start-up), so a checkout never serves stale text.
"""
from __future__ import annotations

import logging
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, request, session
from flask_babel import Babel, get_locale, get_translations
from flask_login import current_user
from jinja2 import pass_eval_context
from markupsafe import Markup

from .zones import is_user_zone

log = logging.getLogger(__name__)

LANGUAGES = {"en": "English", "zh": "中文"}
TRANSLATIONS = Path(__file__).with_name("translations")

babel = Babel()


def select_locale() -> str:
    user_lang = getattr(current_user, "language", None) if current_user else None
    if user_lang in LANGUAGES:
        return user_lang
    chosen = session.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default="en") or "en"


def select_timezone() -> str:
    zone = getattr(current_user, "timezone", None)
    return zone if is_user_zone(zone) else "UTC"


def compile_catalogs(root: Path = TRANSLATIONS) -> list[Path]:
    """Compile each ``.po`` whose ``.mo`` is missing or older; returns what was compiled."""
    done = []
    for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=po.parent.parent.name)
        try:
            with mo.open("wb") as out:
                write_mo(out, catalog)
            done.append(mo)
        except OSError as err:  # a read-only install: the packaged .mo is used as is
            log.warning("could not compile %s: %s", po, err)
    return done


def init_i18n(app: Flask) -> None:
    compile_catalogs()
    babel.init_app(app, default_locale="en", default_translation_directories=str(TRANSLATIONS),
                   locale_selector=select_locale, timezone_selector=select_timezone)

    @app.context_processor
    def _languages():
        return {"LANGUAGES": LANGUAGES, "current_language": str(get_locale() or "en"), **template_gettext()}


def template_gettext() -> dict:
    """``_``, ``gettext`` and ``ngettext`` for one render, bound to the translations of the
    current locale. They behave as the Jinja i18n extension's "newstyle" callables Flask-Babel
    installs (marked safe under autoescape, then ``%``-formatted with the keyword arguments,
    ``num`` for ngettext), but look the locale's catalog up once per render instead of once per
    string (a drill page has ~50 strings; each lookup went through Flask-Babel's context, domain
    and locale cache)."""
    translations = get_translations()
    ugettext, ungettext = translations.ugettext, translations.ungettext

    @pass_eval_context
    def gettext(eval_ctx, string: str, /, **variables):
        rv = ugettext(string)
        if eval_ctx.autoescape:
            rv = Markup(rv)
        return rv % variables if variables or "%" in rv else rv  # "%%" still becomes "%"

    @pass_eval_context
    def ngettext(eval_ctx, singular: str, plural: str, num: int, /, **variables):
        variables.setdefault("num", num)
        rv = ungettext(singular, plural, num)
        if eval_ctx.autoescape:
            rv = Markup(rv)
        return rv % variables

    return {"_": gettext, "gettext": gettext, "ngettext": ngettext}
