"""Explanation pages."""
from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_login import current_user, login_required
from sqlalchemy import select

from ..extensions import db
from .models import Explanation

bp = Blueprint("content", __name__)


@bp.route("/explanations/<slug>")
@login_required
def show(slug: str):
    rows = db.session.scalars(select(Explanation).where(Explanation.slug == slug)).all()
    if not rows:
        abort(404)
    want = getattr(current_user, "language", None) or "en"
    explanation = next((r for r in rows if r.lang == want), rows[0])
    return render_template("content/show.html", explanation=explanation,
                           translations=[r for r in rows if r is not explanation])
