"""``/companies``: the companies a candidate's readable postings and reports are about, and one
company's page (its roles, its questions by how often and how recently reports asked them)."""
from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import get_locale, gettext as _, ngettext
from flask_login import login_required

from .. import clock
from ..drill.cards import add_to_study
from ..drill.queue_queries import study_day
from ..extensions import db
from ..postings.canonical_company import canonical
from ..web.access import signed_in_user
from ..web.args import page_arg
from . import queries
from .filters import STUDY_DEFAULT, read_filters
from .forms import StudyTopForm

bp = Blueprint("companies", __name__)

#: A company key as stored (ASCII slug); anything else is a 404 before any query.
_KEY = re.compile(r"[a-z0-9][a-z0-9-]{0,79}")
#: Characters of the index's search box that are used.
MAX_QUERY = 100


def _today():
    return study_day(signed_in_user(), clock.now()).day


@bp.route("/companies")
@login_required
def index():
    query = (request.args.get("q") or "").strip()[:MAX_QUERY]
    role = read_filters(request.args).role
    rows = queries.company_index(signed_in_user().id, lang=str(get_locale()), today=_today(), query=query, role=role)
    per_page = queries.COMPANIES_PER_PAGE
    pages = max(1, -(-len(rows) // per_page))
    page = min(page_arg(), pages)
    return render_template("companies/index.html", rows=rows[(page - 1) * per_page: page * per_page],
                           total=len(rows), q=query, role=role, page=page, pages=pages,
                           named=canonical(query) if query else None)


def _render_company(key: str, form: StudyTopForm | None = None, status: int = 200):
    if not _KEY.fullmatch(key):
        abort(404)
    user, lang, today = signed_in_user(), str(get_locale()), _today()
    filters = form.filters() if form is not None else read_filters(request.args)
    summary = queries.company_summary(user.id, key, lang=lang, today=today)
    if summary is None:
        abort(404)
    page = queries.ranked_questions(user.id, key, filters, lang=lang, today=today, page=page_arg())
    return render_template("companies/show.html", company=summary, filters=filters, questions=page,
                           study_form=form or StudyTopForm.for_filters(filters), study_default=STUDY_DEFAULT), status


@bp.route("/companies/<key>")
@login_required
def show(key: str):
    return _render_company(key)


@bp.route("/companies/<key>/study", methods=["POST"])
@login_required
def study_top(key: str):
    form = StudyTopForm()
    if not form.validate():
        return _render_company(key, form, 400)
    if not _KEY.fullmatch(key):
        abort(404)
    user, filters = signed_in_user(), form.filters()
    ids = queries.top_question_ids(user.id, key, filters, form.n.data, today=_today())
    if not ids:
        flash(_("No questions match these filters yet."), "info")
        return redirect(url_for("companies.show", key=key, **filters.as_args()))
    added = add_to_study(user, ids, clock.now())
    db.session.commit()
    flash(ngettext("Added %(num)d of the top %(n)d questions to your study.",
                   "Added %(num)d of the top %(n)d questions to your study.", added, n=len(ids))
          + (" " + ngettext("%(num)d was already in it.", "%(num)d were already in it.", len(ids) - added)
             if added < len(ids) else ""), "success")
    return redirect(url_for("companies.show", key=key, **filters.as_args()))
