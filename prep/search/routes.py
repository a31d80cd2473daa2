"""``/search``: one box over the question bank a user can see and the explanations."""
from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_babel import get_locale
from flask_login import current_user, login_required

from .. import clock
from ..companies.queries import search_hits
from ..drill.queue_queries import study_day
from ..web.access import signed_in_user
from ..web.args import page_arg
from ..web.forms import EmptyForm
from . import matching, service

bp = Blueprint("search", __name__)


@bp.route("/search")
@login_required
def index():
    query = (request.args.get("q") or "").strip()[:matching.MAX_QUERY]
    page = page_arg()
    language = str(get_locale() or "en")
    results = service.search(current_user.id, query, language=language, page=page)
    today = study_day(signed_in_user(), clock.now()).day
    companies = search_hits(current_user.id, query, lang=language, today=today) if page == 1 else None
    return render_template("search/index.html", q=query, results=results, segments=matching.segments,
                           action_form=EmptyForm(), companies=companies)
