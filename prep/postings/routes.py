"""Postings pages: the candidate's list, import (paste or upload), a posting, study it, delete it."""
from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, abort, current_app, flash, redirect, render_template, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import RequestEntityTooLarge

from ..content.lookup import explanations_for
from ..drill import scheduling
from ..drill import service as drill_service
from ..drill.models import Card, CardState, ReviewLog
from ..extensions import db
from .. import clock
from ..questions.models import Question, Source
from ..web import instructor_required, page_arg
from .decode import MAX_POSTING_BYTES
from .errors import PostingInputError
from .extract import KINDS, UNCERTAIN_BELOW
from .forms import (BLANK_ROWS, ApprovePendingForm, ImportPostingForm, RoleForm, InterviewDateForm, PostingActionForm, ReviewPostingForm,
                    StudyPostingForm)
from .models import Posting
from .readiness import QuestionState, assess
from .service import (
    PostingLimitError,
    admit_to_bank,
    decide,
    import_role,
    pending_questions,
    role_choices,
    reject_from_bank,
    Review,
    ReviewedQuestion,
    preview_posting,
    companies_of,
    delete_posting,
    import_posting,
    posting_for,
    postings_asking,
    postings_for,
    sample_postings,
    likely_questions,
)

bp = Blueprint("postings", __name__)


def _user():
    return current_user._get_current_object()


def _posting_or_404(posting_id: int) -> Posting:
    posting = posting_for(_user(), posting_id)
    if posting is None:
        abort(404)
    return posting


def _own_posting_or_404(posting_id: int) -> Posting:
    posting = _posting_or_404(posting_id)
    if posting.user_id != current_user.id:
        abort(404)  # samples are shared and cannot be deleted
    return posting


@bp.app_template_global()
def postings_asking_question(question) -> list[Posting]:
    """For the question page: the postings the current user can read that ask this question."""
    if not getattr(current_user, "is_authenticated", False):
        return []
    return postings_asking([question.id], _user())[question.id]


@bp.app_template_global()
def posting_companies(postings) -> list[str]:
    return companies_of(postings)


@bp.route("/postings")
@login_required
def index():
    return render_template("postings/index.html", postings=postings_for(_user()), samples=sample_postings())


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
        outcome = import_role(_user(), role_form.role.data, clock.now())
        db.session.commit()
    except PostingLimitError as err:
        db.session.rollback()
        role_form.role.errors.append(_("You have reached the limit of %(limit)s postings; delete one you no longer "
                                       "need to import another.", limit=err.limit))
        return _render_new(ImportPostingForm(formdata=None), 400, role_form)
    flash(_("Here are the questions interviews for %(role)s usually ask, with their explanations.",
            role=outcome.posting.display_name), "success")
    return redirect(url_for("postings.show", posting_id=outcome.posting.id) + "#likely")


@bp.route("/postings/new", methods=["GET", "POST"])
@login_required
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
        preview = preview_posting(_user(), data)
    except PostingLimitError as err:
        field.errors.append(_("You have reached the limit of %(limit)s postings; delete one you no longer "
                              "need to import another.", limit=err.limit))
        return _render_new(form, 400)
    except PostingInputError as err:
        field.errors.append(_sentence(str(err)))
        return _render_new(form, 400)
    finally:
        db.session.rollback()  # only reads happened; end the transaction before rendering
    if preview.existing is not None:
        flash(_("%(posting)s was already imported; nothing new was added.",
                posting=preview.existing.display_name), "info")
        return redirect(url_for("postings.show", posting_id=preview.existing.id))
    result = preview.result
    assert result is not None
    rows = [{"keep": q.confidence >= UNCERTAIN_BELOW, "text": q.text, "kind": q.kind, "round": q.round or "",
             "section": q.section or ""} for q in result.questions]
    rows += [{"keep": True, "text": "", "kind": "concept", "round": "", "section": ""}] * BLANK_ROWS
    review = ReviewPostingForm(formdata=None, data={
        "source": preview.text, "company": result.company or "", "title": result.title or "",
        "doc_kind": result.doc_kind, "questions": rows})
    return _render_review(review, result=result)


def _render_review(form: ReviewPostingForm, *, result=None, status: int = 200):
    confidences = {q.text: q.confidence for q in result.questions} if result is not None else {}
    return render_template("postings/review.html", form=form, result=result, confidences=confidences,
                           uncertain_below=UNCERTAIN_BELOW, blank_rows=BLANK_ROWS), status


@bp.route("/postings/save", methods=["POST"])
@login_required
def save():
    """Step two: store what the candidate confirmed in the checklist (one transaction)."""
    try:
        form = ReviewPostingForm()
        valid = form.validate()
    except ValueError:  # e.g. a row index with thousands of digits
        abort(400)
    if not valid:
        csrf = getattr(form, "csrf_token", None)
        if csrf is not None and csrf.errors:
            abort(400)
        return _render_review(form, status=400)
    review = Review(company=(form.company.data or "").strip() or None, title=(form.title.data or "").strip() or None,
                    kind=form.doc_kind.data,
                    questions=[ReviewedQuestion(q["text"], q["kind"] if q["kind"] in KINDS else "concept",
                                                q["round"], q["section"]) for q in form.kept_questions()])
    for attempt in range(2):
        try:
            outcome = import_posting(_user(), form.source.data, clock.now(), review=review)
            db.session.commit()
            break
        except PostingLimitError as err:
            db.session.rollback()
            form.source.errors = [_("You have reached the limit of %(limit)s postings; delete one you no longer "
                                    "need to import another.", limit=err.limit)]
            return _render_review(form, status=400)
        except PostingInputError as err:
            db.session.rollback()
            form.source.errors = [_sentence(str(err))]
            return _render_review(form, status=400)
        except IntegrityError:  # the same posting saved at the same moment in another tab
            db.session.rollback()
            if attempt:
                raise
    flash(_import_summary(outcome), "success" if outcome.created else "info")
    return redirect(url_for("postings.show", posting_id=outcome.posting.id))


@bp.errorhandler(RequestEntityTooLarge)
def too_large(err: RequestEntityTooLarge):
    """An upload over MAX_CONTENT_LENGTH (or pasted text over the form memory limit)."""
    db.session.rollback()
    if not current_user.is_authenticated:
        return render_template("error.html", code=413, message=_("What you sent is too large."), title=None), 413
    form = ImportPostingForm(formdata=None)
    limit = current_app.config.get("MAX_FORM_MEMORY_SIZE") or MAX_POSTING_BYTES
    form.file.errors = [_("What you sent is too large: a posting may be at most %(max)s bytes "
                          "(pasted text at most %(pasted)s; upload longer ones as a file).",
                          max="{:,}".format(MAX_POSTING_BYTES), pasted="{:,}".format(min(limit, MAX_POSTING_BYTES)))]
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


def _sentence(message: str) -> str:
    message = message.strip()
    return (message[:1].upper() + message[1:]).rstrip(".") + "."


@bp.route("/postings/<int:posting_id>")
@login_required
def show(posting_id: int):
    posting = _posting_or_404(posting_id)
    user = _user()
    question_ids = [pq.question_id for pq in posting.questions]
    likely = likely_questions(posting)
    likely_ids = [q.id for q in likely]
    every = question_ids + likely_ids
    studied = set(db.session.scalars(db.select(Card.question_id).where(
        Card.user_id == user.id, Card.question_id.in_(every)))) if every else set()
    in_study = studied & set(question_ids)
    likely_in_study = studied & set(likely_ids)
    asked_in = postings_asking(question_ids, user)
    items = [{"pq": pq, "explanations": explanations_for(pq.question, lang=str(get_locale())), "asked_in": asked_in[pq.question_id]}
             for pq in posting.questions]
    chosen = [q for q in likely if q.id in likely_in_study]
    return render_template("postings/show.html", posting=posting, items=items, in_study=in_study,
                           likely=likely, likely_in_study=likely_in_study,
                           all_in_study=set(every) <= studied, action_form=PostingActionForm(),
                           study_form=StudyPostingForm(with_likely=True),
                           readiness=readiness_for(user, posting, chosen) if studied else None,
                           date_form=InterviewDateForm(interview_date=posting.interview_date))


def readiness_for(user, posting: Posting, chosen_likely=()):
    """The candidate's readiness for this posting (retrievability now, pace over 14 days): its
    questions, and the likely questions the candidate chose to study (``chosen_likely``)."""
    now = clock.now()
    asked = [(pq.question_id, pq.question.text) for pq in posting.questions]
    asked_ids = {qid for qid, _text in asked}
    wanted = asked + [(q.id, q.text) for q in chosen_likely if q.id not in asked_ids]
    ids = [qid for qid, _text in wanted]
    cards = {c.question_id: c for c in db.session.scalars(
        select(Card).where(Card.user_id == user.id, Card.question_id.in_(ids)))}
    sched = scheduling.make_scheduler(drill_service.scheduler_settings(user))
    states = []
    for question_id, text in wanted:
        card = cards.get(question_id)
        reviewed = card is not None and card.state is not CardState.new
        states.append(QuestionState(
            question_id=question_id, text=text, studied=card is not None, reviewed=reviewed,
            retrievability=scheduling.retrievability(sched, card, now) if reviewed else 0.0,
            lapses=card.lapses if card else 0))
    since = now - timedelta(days=14)
    introduced = db.session.scalar(select(func.count(ReviewLog.id)).where(
        ReviewLog.user_id == user.id, ReviewLog.state_before == CardState.new.value,
        ReviewLog.reviewed_at >= since)) or 0
    today = drill_service.study_day(user, now).day
    return assess(states, user.desired_retention, today=today,
                  interview_date=posting.interview_date if posting.user_id == user.id else None,
                  pace_per_day=introduced / 14)


@bp.route("/postings/<int:posting_id>/interview", methods=["POST"])
@login_required
def interview_date(posting_id: int):
    posting = _own_posting_or_404(posting_id)
    form = InterviewDateForm()
    if not form.validate():
        flash(_("Enter the date as YYYY-MM-DD."), "error")
        return redirect(url_for("postings.show", posting_id=posting.id))
    posting.interview_date = form.interview_date.data
    db.session.commit()
    flash(_("Interview date saved.") if posting.interview_date else _("Interview date cleared."), "success")
    return redirect(url_for("postings.show", posting_id=posting.id) + "#readiness")


@bp.route("/postings/<int:posting_id>/study-likely", methods=["POST"])
@login_required
def study_likely(posting_id: int):
    if not PostingActionForm().validate():
        abort(400)
    posting = _posting_or_404(posting_id)
    ids = [q.id for q in likely_questions(posting)]
    if not ids:
        flash(_("There are no likely questions for this posting yet."), "info")
        return redirect(url_for("postings.show", posting_id=posting.id))

    added = drill_service.add_to_study(_user(), ids, clock.now())
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
    ids = [pq.question_id for pq in posting.questions]
    if form.with_likely.data:
        ids += [q.id for q in likely_questions(posting) if q.id not in ids]
    total = len(ids)
    if not total:
        flash(_("This posting has no questions to study."), "info")
        return redirect(url_for("postings.show", posting_id=posting.id))

    added = drill_service.add_to_study(_user(), ids, clock.now())
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
    form = PostingActionForm()
    if form.is_submitted():
        if not form.validate():
            abort(400)
        name = posting.display_name
        delete_posting(posting)
        db.session.commit()
        flash(_("Deleted the posting %(name)s. Its questions stay in the bank and in your study.", name=name), "success")
        return redirect(url_for("postings.index"))
    return render_template("postings/delete.html", posting=posting, form=form)


# --- the shared bank's review queue (instructors) -----------------------------------------------

PENDING_PAGE_SIZE = 50


@bp.route("/instructor/pending")
@instructor_required
def pending():
    """Questions candidates imported privately, waiting for the shared bank, most accounts first."""
    page = page_arg()
    rows, total = pending_questions(limit=PENDING_PAGE_SIZE, offset=(page - 1) * PENDING_PAGE_SIZE)
    return render_template("postings/pending.html", rows=rows, total=total, page=page, form=PostingActionForm(),
                           pages=max(1, -(-total // PENDING_PAGE_SIZE)))


def _pending_or_404(question_id: int) -> Question:
    question = db.session.get(Question, question_id)
    if question is None or question.owner_id is None or question.source is not Source.posting:
        abort(404)
    return question


@bp.route("/instructor/pending/<int:question_id>/approve", methods=["POST"])
@instructor_required
def approve_pending(question_id: int):
    form = ApprovePendingForm()
    if not form.validate():
        abort(400)
    question = _pending_or_404(question_id)
    text = " ".join((form.text.data or question.text).split()) or question.text
    public = admit_to_bank(text, [t.name for t in question.tags])
    decide(question.norm, "approved", current_user.id, clock.now())  # the wording may have changed
    db.session.commit()
    flash(_("Added to the shared bank: %(text)s", text=public.text), "success")
    return redirect(url_for("postings.pending"))


@bp.route("/instructor/pending/<int:question_id>/reject", methods=["POST"])
@instructor_required
def reject_pending(question_id: int):
    if not PostingActionForm().validate():
        abort(400)
    question = _pending_or_404(question_id)
    reject_from_bank(question.norm, current_user.id, clock.now())
    db.session.commit()
    flash(_("Kept out of the shared bank: %(text)s", text=question.text), "info")
    return redirect(url_for("postings.pending"))
