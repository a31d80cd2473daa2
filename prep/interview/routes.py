"""Interview mode's pages: the plan (``/plan``, with its settings) and "how did it go?"."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import format_timedelta, ngettext
from flask_login import login_required
from sqlalchemy import select
from wtforms.fields.choices import SelectChoice

from .. import clock
from ..extensions import db
from ..postings.forms import ImportPostingForm
from ..postings.models import Posting
from ..web.access import signed_in_user
from ..web.forms import EmptyForm
from . import ahead, jobs, outcomes, service
from .forms import OutcomeForm, PlanSettingsForm

bp = Blueprint("interview", __name__)

@bp.route("/plan", methods=["GET", "POST"])
@login_required
def plan():
    user, now = signed_in_user(), clock.now()
    settings = service.settings_of(user)
    form = PlanSettingsForm()
    if form.validate_on_submit():
        service.save_settings(user, enabled=form.enabled.data, target=form.target.data / 100,
                              budget_minutes=form.budget.data, now=now)
        db.session.commit()
        flash(_("Settings saved; the plan is being made again."), "success")
        return redirect(url_for("interview.plan"))
    if not form.is_submitted():
        form.process(data={"enabled": settings.enabled, "target": round(settings.target * 100),
                           "budget": settings.budget_minutes})
    found = service.stored_plan(user, now)
    jobs.ensure_fresh(user, now)
    age = format_timedelta(found.made_at - now, add_direction=True) if found and found.made_at else None
    return render_template("interview/plan.html", form=form, found=found, settings=settings, plan_age=age,
                           ahead_waiting=ahead.waiting(user, now) if found and found.plan else 0, ahead_step=ahead.STEP,
                           ahead_form=EmptyForm()), 400 if form.is_submitted() else 200


@bp.route("/plan/ahead", methods=["POST"])
@login_required
def study_ahead():
    """Study the next few questions the plan introduces on later days, today."""
    if not EmptyForm().validate():
        abort(400)
    booked = ahead.study_ahead(signed_in_user(), clock.now())
    db.session.commit()
    if booked:
        flash(ngettext("%(num)s question added to today's study, ahead of the plan.",
                       "%(num)s questions added to today's study, ahead of the plan.", booked), "success")
    else:
        flash(_("Your plan has no question left to study ahead."), "info")
    return redirect(url_for("drill.drill"))


@bp.route("/postings/<int:posting_id>/outcome", methods=["GET", "POST"])
@login_required
def outcome(posting_id: int):
    user = signed_in_user()
    posting = db.first_or_404(select(Posting).where(Posting.id == posting_id, Posting.user_id == user.id))
    saved = outcomes.outcome_for(posting)
    form = OutcomeForm(obj=saved)
    form.came_up.choices = [SelectChoice(pq.question_id, pq.text or pq.question.text) for pq in posting.questions]
    if form.validate_on_submit():
        outcomes.save_outcome(user, posting, came_up=form.came_up.data or [],
                              other_questions=form.other_questions.data or "", rating=form.rating.data)
        db.session.commit()
        flash(_("Thank you: how the interview went is saved."), "success")
        return redirect(url_for("interview.outcome", posting_id=posting.id))
    report = ImportPostingForm(text=outcomes.report_text(posting, saved), formdata=None) if saved else None
    return render_template("interview/outcome.html", posting=posting, form=form, saved=saved,
                           report_form=report), 400 if form.is_submitted() else 200
