"""``/stats/optimize``: fit my FSRS parameters, see before/after on my later reviews, roll back."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import login_required

from .. import clock
from ..extensions import db
from ..web.access import signed_in_user
from ..web.forms import EmptyForm
from . import fit, service

bp = Blueprint("optimize", __name__, url_prefix="/stats/optimize")


def _page(status: int = 200, run=None):
    user = signed_in_user()
    return render_template("stats/optimize.html", count=service.review_count(user), minimum=fit.MIN_REVIEWS,
                           run=run, history=service.history(user), can_rollback=service.last_applied(user) is not None,
                           custom=user.fsrs_parameters is not None, form=EmptyForm()), status


@bp.route("", methods=["GET"])
@login_required
def index():
    return _page()


@bp.route("", methods=["POST"])
@login_required
def run():
    if not EmptyForm().validate():
        abort(400)
    user = signed_in_user()
    try:
        result = service.optimise(user, clock.now())
    except fit.OptimizeError as err:
        db.session.rollback()
        flash(_optimize_error(err), "error")
        return _page(400)
    db.session.commit()
    if result.applied:
        flash(_("Your new parameters predict your later reviews better, so they are now in use."), "success")
    else:
        flash(_("The fitted parameters did not predict your later reviews better; your schedule is unchanged."), "info")
    return _page(run=result)


@bp.route("/rollback", methods=["POST"])
@login_required
def rollback():
    if not EmptyForm().validate():
        abort(400)
    run = service.rollback(signed_in_user(), clock.now())
    db.session.commit()
    flash(_("Previous parameters restored.") if run else _("There is no optimisation to roll back."),
          "success" if run else "info")
    return redirect(url_for("optimize.index"))


def _optimize_error(err: fit.OptimizeError) -> str:
    """The optimiser's refusal in the UI language (by its class; the English text is the CLI's)."""
    if isinstance(err, fit.TooFewReviews):
        return _("Optimising needs at least %(need)s reviews; you have %(have)s.", need=err.need, have=err.have)
    if isinstance(err, fit.NoSplit):
        return _("Not enough reviews on separate days yet to train and to test on; keep studying.")
    return str(err)
