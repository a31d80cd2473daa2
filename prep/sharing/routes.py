"""Shared reports' pages: share a report (preview, edit, send), withdraw it, browse and read the
approved ones, and the instructors' approve / return buttons (the queue is on the review page)."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import login_required
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from .. import clock
from ..drill.cards import add_to_study
from ..extensions import db
from ..postings.models import Posting, SharedReport, ShareStatus
from ..web.access import instructor_required, signed_in_user
from ..web.forms import EmptyForm
from ..web.pagination import paginate
from . import service
from .errors import ShareError
from .forms import FilterForm, RejectForm, ShareForm

bp = Blueprint("sharing", __name__)

#: The longest filter value read from the query string.
MAX_FILTER_CHARS = 200


def _csrf_failed(form) -> bool:
    return getattr(form, "csrf_token", None) is not None and bool(form.csrf_token.errors)


def _own_report_or_404(posting_id: int) -> Posting:
    """The user's own interview report; anything else (another's, a sample, a job posting) is a 404."""
    return db.first_or_404(select(Posting).where(Posting.id == posting_id, Posting.user_id == signed_in_user().id,
                                                 Posting.kind == "report"))


@bp.app_template_global()
def report_share(posting: Posting) -> SharedReport | None:
    """For a report's page: its share row (any status), if it was ever shared."""
    return service.share_of(posting) if posting.is_report and posting.user_id is not None else None


@bp.route("/postings/<int:posting_id>/share", methods=["GET", "POST"])
@login_required
def share(posting_id: int):
    """The report anonymised, editable; sending it puts it in the instructors' queue."""
    posting = _own_report_or_404(posting_id)
    preview = service.preview(posting)
    form = ShareForm() if request.method == "POST" else ShareForm(data={"text": preview.text})
    if form.validate_on_submit():
        try:
            _send(posting, form.text.data)
        except ShareError as err:
            db.session.rollback()
            form.text.errors = [err.message]
        else:
            flash(_("Sent for review: an instructor reads it before anyone else can."), "success")
            return redirect(url_for("postings.show", posting_id=posting.id) + "#share")
    elif form.is_submitted() and _csrf_failed(form):
        abort(400)
    status = 400 if form.is_submitted() else 200
    return render_template("sharing/share.html", posting=posting, preview=preview, form=form,
                           share=service.share_of(posting),
                           questions=service.shared_questions(posting, str(get_locale()))), status


def _send(posting: Posting, text: str) -> None:
    """Share and commit; the same report sent at the same moment from another tab made the row
    first: this send then updates it."""
    for attempt in range(2):
        try:
            service.share(posting, text, clock.now())
            db.session.commit()
            return
        except IntegrityError:
            db.session.rollback()
            if attempt:
                raise


@bp.route("/postings/<int:posting_id>/share/withdraw", methods=["GET", "POST"])
@login_required
def withdraw(posting_id: int):
    """Confirm, then take a shared report back (the report itself stays)."""
    posting = _own_report_or_404(posting_id)
    row = db.first_or_404(select(SharedReport).where(
        SharedReport.posting_id == posting.id, SharedReport.status.in_([ShareStatus.pending, ShareStatus.published])))
    form = EmptyForm()
    if not form.is_submitted():
        return render_template("sharing/withdraw.html", posting=posting, share=row, form=form)
    if not form.validate():
        abort(400)
    service.withdraw(row, posting.user_id, clock.now())
    db.session.commit()
    flash(_("Withdrawn: others no longer see this report. Your own copy is unchanged."), "success")
    return redirect(url_for("postings.show", posting_id=posting.id) + "#share")


def _filter_arg(name: str) -> str:
    return " ".join((request.args.get(name) or "").split())[:MAX_FILTER_CHARS]


@bp.route("/shared")
@login_required
def index():
    """The approved shared reports, newest first, filtered by company, role and round."""
    filters = service.Filters(company=_filter_arg("company"), role=_filter_arg("role"), round=_filter_arg("round"))
    form = FilterForm(data=vars(filters))
    form.set_choices(service.choices(str(get_locale())))
    page = paginate(service.published(filters), service.PAGE_SIZE)
    return render_template("sharing/index.html", page=page, form=form, filters=filters)


@bp.route("/shared/<int:share_id>")
@login_required
def read(share_id: int):
    """A shared report: the anonymised text and its questions, each with its explanations."""
    user = signed_in_user()
    row = db.first_or_404(service.readable(share_id, user))
    questions = service.shared_questions(row.posting, str(get_locale()))
    return render_template("sharing/read.html", share=row, questions=questions, user=user,
                           history=service.history(row) if user.is_instructor else [],
                           form=EmptyForm(), reject_form=RejectForm())


@bp.route("/shared/<int:share_id>/study", methods=["POST"])
@login_required
def study(share_id: int):
    """Add the report's questions from the shared bank to the reader's study."""
    if not EmptyForm().validate():
        abort(400)
    user = signed_in_user()
    row = db.first_or_404(service.readable(share_id, user).where(SharedReport.status == ShareStatus.published))
    ids, total = service.studyable_ids(row.posting, user.id)
    added = add_to_study(user, ids, clock.now())
    db.session.commit()
    flash(ngettext("Added %(num)s question to your study.", "Added %(num)s questions to your study.", added)
          if added else _("These questions are already in your study."), "success" if added else "info")
    if len(ids) < total:
        flash(ngettext("%(num)s question is not in the shared bank yet, so it cannot be studied here.",
                       "%(num)s questions are not in the shared bank yet, so they cannot be studied here.",
                       total - len(ids)), "info")
    return redirect(url_for("sharing.read", share_id=row.id))


@bp.route("/instructor/shared/<int:share_id>/approve", methods=["POST"])
@instructor_required
def approve(share_id: int):
    if not EmptyForm().validate():
        abort(400)
    row = db.get_or_404(SharedReport, share_id)
    try:
        service.approve(row, signed_in_user().id, clock.now())
        db.session.commit()
        flash(_("Published: every candidate can read this report now."), "success")
    except ShareError as err:
        db.session.rollback()
        flash(str(err.message), "error")
    return redirect(url_for("postings.pending") + "#shared-reports")


@bp.route("/instructor/shared/<int:share_id>/reject", methods=["POST"])
@instructor_required
def reject(share_id: int):
    """Return a pending report to its author with a reason; a missing reason is said next to the field."""
    row = db.get_or_404(SharedReport, share_id)
    form = RejectForm()
    if form.validate():
        try:
            service.reject(row, signed_in_user().id, form.reason.data, clock.now())
            db.session.commit()
            flash(_("Returned to its author with your reason."), "info")
            return redirect(url_for("postings.pending") + "#shared-reports")
        except ShareError as err:
            db.session.rollback()
            form.reason.errors = [err.message]
    elif _csrf_failed(form):
        abort(400)
    questions = service.shared_questions(row.posting, str(get_locale()))
    return render_template("sharing/read.html", share=row, questions=questions, user=signed_in_user(),
                           history=service.history(row), form=EmptyForm(), reject_form=form), 400
