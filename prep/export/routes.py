"""``/export``: download my data (JSON, CSV, Anki) and import a JSON export. Always the current user's."""
from __future__ import annotations

from datetime import datetime

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import login_required

from .. import clock
from ..accounts.models import User
from ..extensions import db
from ..web.access import signed_in_user
from ..zones import user_zone
from . import anki, dump, restore
from .forms import ImportForm

bp = Blueprint("export", __name__, url_prefix="/export")


def _download(body: bytes, mimetype: str, name: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def file_name(stem: str, extension: str, user: User, now: datetime) -> str:
    """``stem-YYYYMMDD.extension``, dated by the user's calendar (their time zone), not UTC's."""
    return f"{stem}-{now.astimezone(user_zone(user.timezone)):%Y%m%d}.{extension}"


@bp.route("")
@login_required
def index():
    return render_template("export/index.html", form=ImportForm())


@bp.route("/prep-export.json")
@login_required
def json_download():
    user, now = signed_in_user(), clock.now()
    return _download(dump.export_json(user, now), "application/json", file_name("prep-export", "json", user, now))


@bp.route("/prep-export.zip")
@login_required
def csv_download():
    user, now = signed_in_user(), clock.now()
    return _download(dump.export_csv_zip(user, now), "application/zip", file_name("prep-export", "zip", user, now))


@bp.route("/prep.apkg")
@login_required
def apkg_download():
    user, now = signed_in_user(), clock.now()
    lang = request.args.get("lang") if request.args.get("lang") in ("en", "zh") else str(get_locale() or "en")
    base_url = current_app.config.get("BASE_URL") or request.url_root
    body = anki.build_apkg(user, now, lang=lang, base_url=base_url)
    return _download(body, "application/octet-stream", file_name("prep", "apkg", user, now))


@bp.route("/import", methods=["POST"])
@login_required
def import_upload():
    form = ImportForm()
    if not form.validate():
        return render_template("export/index.html", form=form), 400
    try:
        data = restore.parse(form.file.data.read(ImportForm.MAX_BYTES + 1), clock.now())
        report = restore.import_export(signed_in_user(), data, restore_settings=form.restore_settings.data)
    except restore.ImportProblem as err:
        db.session.rollback()
        return render_template("export/index.html", form=form, problems=err.problems), 400
    db.session.commit()
    message = _("Imported %(cards)s with %(reviews)s.",
                cards=ngettext("%(num)s card", "%(num)s cards", report.cards_added),
                reviews=ngettext("%(num)s review", "%(num)s reviews", report.reviews_added))
    if report.questions_created:
        message += " " + ngettext("%(num)s question was added as your own.",
                                  "%(num)s questions were added as your own.", report.questions_created)
    if report.skipped:
        message += " " + _("%(num)s already in your study, left unchanged.", num=len(report.skipped))
    flash(message, "success")
    return redirect(url_for("export.index"))
