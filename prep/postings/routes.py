"""Postings pages: the candidate's list, import (paste or upload), a posting, study it, delete it."""
from __future__ import annotations


from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import RequestEntityTooLarge

from ..drill import queue_queries
from ..drill.cards import add_to_study
from ..extensions import db
from ..interview import service as interview_service
from .. import clock
from ..questions.models import Publication, Question
from ..sharing import service as sharing
from ..web.access import instructor_required, signed_in_user
from ..web.args import page_arg
from ..web.bodies import allow_body
from ..web.forms import EmptyForm
from .decode import LIMITS, MAX_FILE_BYTES, MAX_POSTING_CHARS, limit_params
from .errors import PostingInputError, ScannedDocumentError, as_sentence
from .extract import UNCERTAIN_BELOW
from .forms import (ApprovePendingForm, ImportPostingForm, InterviewDateForm, ReviewPostingForm, RoleForm,
                    interview_date_json_form,
                    StudyPostingForm, WithdrawForm)
from .models import Posting
from .canonical_company import canonical, company_key
from .service import (
    PostingLimitError,
    approve,
    awaiting_review,
    companies_of,
    delete_posting,
    history,
    import_posting,
    import_role,
    keep_out,
    likely_questions,
    matched_questions,
    pending_questions,
    postings_asking,
    postings_for,
    preview_posting,
    restore,
    review_summary,
    role_choices,
    sample_postings,
    withdraw,
    withdrawn_questions,
)
from .study import posting_page, study_question_ids

bp = Blueprint("postings", __name__)


# A posting's text travels in the body twice: pasted or uploaded (new), then back from the review
# checklist (save). Each is at most MAX_POSTING_CHARS characters, 4 bytes each at most in UTF-8
# (multipart bodies carry the text as it is); a file at most MAX_FILE_BYTES.
_FORM_SLACK = 256 * 1024  # the other fields, the multipart framing
DOCUMENT_BODY = allow_body(content_length=max(4 * MAX_POSTING_CHARS, MAX_FILE_BYTES) + _FORM_SLACK,
                           form_memory=4 * MAX_POSTING_CHARS + _FORM_SLACK)


def _posting_or_404(posting_id: int) -> Posting:
    """A posting whose page the user opens and studies (their own or a sample); another
    candidate's is a 404 (a report they shared is read anonymised, on its shared page)."""
    return db.first_or_404(select(Posting).where(Posting.id == posting_id, Posting.owned_or_sample(current_user.id)))


def _own_posting_or_404(posting_id: int) -> Posting:
    """The user's own posting (samples are shared and cannot be changed or deleted)."""
    return db.first_or_404(select(Posting).where(Posting.id == posting_id, Posting.user_id == current_user.id))


def _limit_message(err: PostingLimitError) -> str:
    return _("You have reached the limit of %(limit)s postings; delete one you no longer "
             "need to import another.", limit=err.limit)


@bp.app_template_global()
def postings_asking_question(question) -> list[Posting]:
    """For the question page: the postings the current user can read that ask this question."""
    if not getattr(current_user, "is_authenticated", False):
        return []
    return postings_asking([question.id], signed_in_user())[question.id]


@bp.app_template_global()
def posting_companies(postings) -> list[tuple[str, str | None]]:
    """``(name, company key)`` of each company of ``postings``, once per company (a known company
    under its name in the UI language: "字节" and "ByteDance" are one)."""
    lang = str(get_locale())
    out: dict[str, tuple[str, str | None]] = {}
    for name in companies_of(postings):
        key = company_key(name)
        known = canonical(name)
        out.setdefault(key or name, (known.name(lang) if known is not None else name, key))
    return list(out.values())


@bp.route("/postings")
@login_required
def index():
    return render_template("postings/index.html", postings=postings_for(signed_in_user()), samples=sample_postings())


def _role_form(*, submitted: bool = False) -> RoleForm:
    """The role picker; it reads the request's form only when it is the one submitted (an
    oversized body must not be read again by the page that reports it)."""
    form = RoleForm() if submitted else RoleForm(formdata=None)
    form.role.choices = role_choices()
    return form


def _render_new(form: ImportPostingForm, status: int = 200, role_form: RoleForm | None = None):
    return render_template("postings/new.html", form=form, role_form=role_form or _role_form()), status


@bp.route("/postings/from-role", methods=["POST"])
@login_required
def from_role():
    """Start from a target role: a posting whose page proposes the likely questions."""
    role_form = _role_form(submitted=True)
    if not role_form.validate():
        if getattr(role_form, "csrf_token", None) is not None and role_form.csrf_token.errors:
            abort(400)
        return _render_new(ImportPostingForm(formdata=None), 400, role_form)
    try:
        outcome = import_role(signed_in_user(), role_form.role.data, clock.now())
        db.session.commit()
    except PostingLimitError as err:
        db.session.rollback()
        role_form.role.errors.append(_limit_message(err))
        return _render_new(ImportPostingForm(formdata=None), 400, role_form)
    flash(_("Here are the questions interviews for %(role)s usually ask, with their explanations.",
            role=outcome.posting.display_name), "success")
    return redirect(url_for("postings.show", posting_id=outcome.posting.id) + "#likely")


@bp.route("/postings/new", methods=["GET", "POST"])
@login_required
@DOCUMENT_BODY
def new():
    """Step one: paste or upload; what was found is shown as a checklist, nothing is stored."""
    form = ImportPostingForm()
    if not form.validate_on_submit():
        return _render_new(form, 400 if form.is_submitted() else 200)
    upload = form.file.data
    field = form.file if upload is not None else form.text
    # The whole upload is at most MAX_CONTENT_LENGTH; the decoder enforces the posting limit.
    data: str | bytes = upload.read() if upload is not None else form.text.data
    try:
        preview = preview_posting(signed_in_user(), data)
    except PostingLimitError as err:
        field.errors.append(_limit_message(err))
        return _render_new(form, 400)
    except PostingInputError as err:
        field.errors.append(_input_message(err))
        return _render_new(form, 400)
    finally:
        db.session.rollback()  # only reads happened; end the transaction before rendering
    if preview.existing is not None:
        flash(_("%(posting)s was already imported; nothing new was added.",
                posting=preview.existing.display_name), "info")
        return redirect(url_for("postings.show", posting_id=preview.existing.id))
    today = queue_queries.study_day(signed_in_user(), clock.now()).day
    return _render_review(ReviewPostingForm.from_preview(preview, form.kind.data, today=today), result=preview.result)


def _input_message(err: PostingInputError) -> str:
    """A refused input's message for the form, in the UI language."""
    if isinstance(err, ScannedDocumentError):
        return _("This PDF has no text layer: it looks like a scanned page. "
                 "Copy its text and paste it into the box instead.")
    return as_sentence(_(err.template, **err.params))



def _render_review(form: ReviewPostingForm, *, result=None, status: int = 200):
    matches = matched_questions(signed_in_user(), [row.form.match_id() for row in form.questions])
    return render_template("postings/review.html", form=form, result=result,
                           uncertain_below=UNCERTAIN_BELOW, matches=matches), status


def _submitted_review(user, now) -> ReviewPostingForm:
    """The review checklist as posted, validated; a request without a valid CSRF token or with
    an unreadable row index is a 400."""
    try:
        form = ReviewPostingForm(today=queue_queries.study_day(user, now).day)  # the day import_posting checks
        form.validate()
    except ValueError:  # e.g. a row index with thousands of digits
        abort(400)
    csrf = getattr(form, "csrf_token", None)
    if csrf is not None and csrf.errors:
        abort(400)
    return form


@bp.route("/postings/review/add", methods=["POST"])
@login_required
@DOCUMENT_BODY
def add_question():
    """The review checklist again with the question of its "add" field in the list, ticked, and
    everything else as the candidate left it (nothing is stored)."""
    form = _submitted_review(signed_in_user(), clock.now())
    valid = not form.errors
    added = form.add_new_question()
    return _render_review(form, result=review_summary(form.source.data or ""), status=200 if added and valid else 400)


@bp.route("/postings/save", methods=["POST"])
@login_required
@DOCUMENT_BODY
def save():
    """Step two: store what the candidate confirmed in the checklist (one transaction)."""
    user, now = signed_in_user(), clock.now()
    form = _submitted_review(user, now)
    if form.errors:
        return _render_review(form, status=400)
    review = form.review()
    for attempt in range(2):
        try:
            outcome = import_posting(user, form.source.data, now, review=review)
            db.session.commit()
            break
        except PostingLimitError as err:
            db.session.rollback()
            form.source.errors = [_limit_message(err)]
            return _render_review(form, status=400)
        except PostingInputError as err:
            db.session.rollback()
            form.source.errors = [_input_message(err)]
            return _render_review(form, status=400)
        except IntegrityError:  # the same posting saved at the same moment in another tab
            db.session.rollback()
            if attempt:
                raise
    flash(_import_summary(outcome), "success" if outcome.created else "info")
    return redirect(url_for("postings.show", posting_id=outcome.posting.id))


@bp.errorhandler(RequestEntityTooLarge)
def too_large(err: RequestEntityTooLarge):
    """A body over the view's limit (:data:`DOCUMENT_BODY`): more than the limits allow, whatever
    it holds. (The page checks both before sending, so the box keeps the text there.)"""
    db.session.rollback()
    if not current_user.is_authenticated:
        return render_template("error.html", code=413, message=_("What you sent is too large."), title=None), 413
    form = ImportPostingForm(formdata=None)
    form.text.errors = [_("What you sent is too large: %(limits)s.", limits=_(LIMITS, **limit_params()))]
    return _render_new(form, 413)


def _import_summary(outcome) -> str:
    """The flash after an import, in the UI language (``ImportResult.summary`` is the CLI's)."""
    posting = outcome.posting
    if not outcome.created:
        return _("%(posting)s was already imported; nothing new was added.", posting=posting.display_name)
    n, skills = len(posting.questions), len(posting.skills)
    line = ngettext("Imported %(posting)s: %(num)s question (%(new)s new, %(merged)s already in the bank), ",
                    "Imported %(posting)s: %(num)s questions (%(new)s new, %(merged)s already in the bank), ",
                    n, posting=posting.display_name, new=len(outcome.new_questions),
                    merged=len(outcome.merged_questions))
    line += ngettext("%(num)s skill.", "%(num)s skills.", skills)
    if not posting.recognised_sections:
        line += " " + _("No sections were recognised, so no questions were extracted.")
    return line


@bp.route("/postings/<int:posting_id>")
@login_required
def show(posting_id: int):
    posting = db.session.scalar(select(Posting).where(Posting.id == posting_id, Posting.owned_or_sample(current_user.id)))
    if posting is None:  # another candidate's report, shared and approved: its anonymised page
        return redirect(url_for("sharing.read", share_id=sharing.published_share_id_or_404(posting_id)))
    user, now = signed_in_user(), clock.now()
    page = posting_page(user, posting, lang=str(get_locale()), now=now)
    forecast, pending = interview_service.forecast_or_pending(user, posting, now)
    date_form = InterviewDateForm(interview_date=posting.interview_date, today=queue_queries.study_day(user, now).day)
    date_form.flag_stored_date()
    return _render_show(posting, page, forecast, date_form, forecast_pending=pending)


def _render_show(posting: Posting, page, forecast, date_form: InterviewDateForm, status: int = 200,
                 forecast_pending: bool = False):
    return render_template("postings/show.html", posting=posting, items=page.items, in_study=page.in_study,
                           forecast=forecast, forecast_pending=forecast_pending, card_forecasts={c.card_id: c for c in forecast.cards} if forecast else {},
                           likely=page.likely, likely_in_study=page.likely_in_study,
                           all_in_study=page.all_in_study, action_form=EmptyForm(),
                           study_form=StudyPostingForm(with_likely=True), readiness=page.readiness,
                           date_form=date_form), status


@bp.route("/postings/<int:posting_id>/interview", methods=["POST"])
@login_required
def interview_date(posting_id: int):
    """Set the interview date (today to a year ahead); a refused one is said next to the field."""
    posting = _own_posting_or_404(posting_id)
    user, now = signed_in_user(), clock.now()
    form = InterviewDateForm(today=queue_queries.study_day(user, now).day)
    if not form.validate():
        page = posting_page(user, posting, lang=str(get_locale()), now=now)
        return _render_show(posting, page, None, form, 400)  # nothing changed, so nothing to plan
    interview_service.set_interview_date(user, posting, form.interview_date.data, now)
    db.session.commit()
    flash(_("Interview date saved.") if posting.interview_date else _("Interview date cleared."), "success")
    return redirect(url_for("postings.show", posting_id=posting.id) + "#readiness")


@bp.route("/postings/<int:posting_id>/interview.json", methods=["POST"])
@login_required
def interview_date_json(posting_id: int):
    """The interview date from a JSON body ``{"interview_date": "YYYY-MM-DD" or null}``, checked
    as the form checks it: 200 with the stored date, or 400 with the field's messages and nothing changed."""
    posting = _own_posting_or_404(posting_id)
    user, now = signed_in_user(), clock.now()
    form = interview_date_json_form(request.get_json(silent=True), queue_queries.study_day(user, now).day)
    if not form.validate():
        return jsonify(errors={name: [str(e) for e in errors] for name, errors in form.errors.items()}), 400
    interview_service.set_interview_date(user, posting, form.interview_date.data, now)
    db.session.commit()
    day = posting.interview_date
    return jsonify(interview_date=day.isoformat() if day else None)


@bp.route("/postings/<int:posting_id>/study-likely", methods=["POST"])
@login_required
def study_likely(posting_id: int):
    if not EmptyForm().validate():
        abort(400)
    posting = _posting_or_404(posting_id)
    ids = [q.id for q in likely_questions(posting)]
    if not ids:
        flash(_("There are no likely questions for this posting yet."), "info")
        return redirect(url_for("postings.show", posting_id=posting.id))
    added = add_to_study(signed_in_user(), ids, clock.now())
    db.session.commit()
    flash(ngettext("Added %(num)s likely question to your study.",
                   "Added %(num)s likely questions to your study.", added), "success" if added else "info")
    return redirect(url_for("postings.show", posting_id=posting.id) + "#likely")


@bp.route("/postings/<int:posting_id>/study", methods=["POST"])
@login_required
def study(posting_id: int):
    """Study this posting: its questions, and (ticked by default) its likely questions."""
    form = StudyPostingForm()
    if not form.validate():
        abort(400)
    posting = _posting_or_404(posting_id)
    ids = study_question_ids(posting, with_likely=bool(form.with_likely.data))
    total = len(ids)
    if not total:
        flash(_("This posting has no questions to study."), "info")
        return redirect(url_for("postings.show", posting_id=posting.id))
    added = add_to_study(signed_in_user(), ids, clock.now())
    db.session.commit()
    if added:
        if added < total:
            flash(ngettext("Added %(num)s question from this posting to your study (%(already)s already there).",
                           "Added %(num)s questions from this posting to your study (%(already)s already there).",
                           added, already=total - added), "success")
        else:
            flash(ngettext("Added %(num)s question from this posting to your study.",
                           "Added %(num)s questions from this posting to your study.", added), "success")
    else:
        flash(_("All %(num)s questions of this posting are already in your study.", num=total), "info")
    return redirect(url_for("postings.show", posting_id=posting.id))


@bp.route("/postings/<int:posting_id>/delete", methods=["GET", "POST"])
@login_required
def delete(posting_id: int):
    posting = _own_posting_or_404(posting_id)
    form = EmptyForm()
    if form.is_submitted():
        if not form.validate():
            abort(400)
        name = posting.display_name
        delete_posting(posting, clock.now())  # a shared report is withdrawn with it
        interview_service.request_plan(signed_in_user().id, clock.now())  # its interview plans nothing now
        db.session.commit()
        flash(_("Deleted the posting %(name)s. Its questions stay in the bank and in your study.", name=name), "success")
        return redirect(url_for("postings.index"))
    return render_template("postings/delete.html", posting=posting, form=form)


# --- the shared bank's review queue and withdrawals (instructors) --------------------------------

PENDING_PAGE_SIZE = 50


def _pages(total: int) -> int:
    return max(1, -(-total // PENDING_PAGE_SIZE))


@bp.route("/instructor/pending")
@instructor_required
def pending():
    """Questions candidates imported, waiting for an instructor's review, most accounts first."""
    page = page_arg()  # the queue is grouped by wording: pending_questions pages it itself
    rows, total = pending_questions(limit=PENDING_PAGE_SIZE, offset=(page - 1) * PENDING_PAGE_SIZE)
    shares, shares_total = sharing.pending(limit=PENDING_PAGE_SIZE)
    return render_template("postings/pending.html", rows=rows, total=total, page=page, form=EmptyForm(),
                           pages=_pages(total), shares=shares, shares_total=shares_total)


def _pending_or_404(question_id: int) -> Question:
    """A question in the review queue (a candidate's copy from a posting, or a public question
    waiting for review); anything else is a 404."""
    return db.first_or_404(select(Question).where(Question.id == question_id, awaiting_review()))


def _public_or_404(question_id: int, publication: Publication) -> Question:
    return db.first_or_404(select(Question).where(Question.id == question_id, Question.owner_id.is_(None),
                                                  Question.publication == publication))


@bp.route("/instructor/pending/<int:question_id>/approve", methods=["POST"])
@instructor_required
def approve_pending(question_id: int):
    form = ApprovePendingForm()
    if not form.validate():
        abort(400)
    question = _pending_or_404(question_id)
    public = approve(question, form.text.data or question.text, current_user.id, clock.now())
    db.session.commit()
    flash(_("Added to the shared bank: %(text)s", text=public.text), "success")
    return redirect(url_for("postings.pending"))


@bp.route("/instructor/pending/<int:question_id>/reject", methods=["POST"])
@instructor_required
def reject_pending(question_id: int):
    if not EmptyForm().validate():
        abort(400)
    question = _pending_or_404(question_id)
    keep_out(question, current_user.id, clock.now())
    db.session.commit()
    flash(_("Kept out of the shared bank: %(text)s", text=question.text), "info")
    return redirect(url_for("postings.pending"))


@bp.route("/instructor/questions/<int:question_id>/withdraw", methods=["GET", "POST"])
@instructor_required
def withdraw_question(question_id: int):
    """Confirm, then withdraw a published question from the shared bank (restorable)."""
    question = _public_or_404(question_id, Publication.published)
    form = WithdrawForm()
    if not form.is_submitted():
        return render_template("postings/withdraw.html", question=question, form=form, history=history(question.id))
    if not form.validate():
        return render_template("postings/withdraw.html", question=question, form=form,
                               history=history(question.id)), 400
    withdraw(question, current_user.id, form.reason.data or "", clock.now())
    db.session.commit()
    flash(_("Withdrawn from the shared bank: %(text)s", text=question.text), "success")
    return redirect(url_for("postings.withdrawn"))


@bp.route("/instructor/withdrawn")
@instructor_required
def withdrawn():
    """The withdrawn questions: who withdrew each, when and why, and a restore button."""
    page = page_arg()
    rows, total = withdrawn_questions(limit=PENDING_PAGE_SIZE, offset=(page - 1) * PENDING_PAGE_SIZE)
    return render_template("postings/withdrawn.html", rows=rows, total=total, page=page, form=EmptyForm(),
                           pages=_pages(total))


@bp.route("/instructor/questions/<int:question_id>/restore", methods=["POST"])
@instructor_required
def restore_question(question_id: int):
    if not EmptyForm().validate():
        abort(400)
    question = _public_or_404(question_id, Publication.withdrawn)
    restore(question, current_user.id, clock.now())
    db.session.commit()
    flash(_("Back in the shared bank: %(text)s", text=question.text), "success")
    return redirect(url_for("postings.withdrawn"))
