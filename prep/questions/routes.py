"""The question bank: browse, search, add your own, add to study (one or a whole tag)."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_login import current_user, login_required
from sqlalchemy import case, func, select

from .. import clock
from ..content.lookup import explanations_for
from ..drill.cards import add_to_study
from ..database import like_pattern
from ..drill.models import Card
from ..extensions import db
from ..web.access import instructor_required, signed_in_user
from ..web.forms import EmptyForm
from ..web.pagination import paginate
from ..web.redirects import safe_local_target
from . import translations
from .forms import QuestionForm, StudyTagForm, TranslationForm
from .models import Question, Source, Tag, question_tags
from .service import MAX_OWN_QUESTIONS, QuestionError, add_question

bp = Blueprint("questions", __name__)

PAGE_SIZE = 50


def _visible():
    return Question.visible_to(current_user.id)


def _question_or_404(question_id: int) -> Question:
    """A public question or the user's own; another user's is a 404."""
    return db.first_or_404(select(Question).where(Question.id == question_id, _visible()))


def _studied(user_id: int, question_ids: list[int]) -> set[int]:
    """The questions among ``question_ids`` the user studies: a card on any wording of them."""
    groups = translations.grouped_ids(question_ids)
    studied = set(db.session.scalars(select(Question.group_of()).join(Card, Card.question_id == Question.id).where(
        Card.user_id == user_id, Question.group_of().in_(set(groups.values())))))
    return {qid for qid, group in groups.items() if group in studied}


def _card_for(user_id: int, question: Question) -> Card | None:
    """The user's card on this question or on a translation of it."""
    return db.session.scalar(select(Card).join(Question, Question.id == Card.question_id).where(
        Card.user_id == user_id, Question.group_of() == question.group_id).limit(1))


def _visible_question(question_id: int | None) -> Question | None:
    if not question_id:
        return None
    return db.session.scalar(select(Question).where(Question.id == question_id, _visible()))


def _one_wording_each(stmt, lang: str):
    """``stmt``'s questions with one wording of each translation group: the one in ``lang`` when
    it is among them, else the group's first."""
    first_in_lang = case((Question.lang == lang, 0), else_=1)
    ranked = stmt.with_only_columns(Question.id, func.row_number().over(
        partition_by=Question.group_of(), order_by=(first_in_lang, Question.id)).label("rank")).subquery()
    return select(Question).join(ranked, ranked.c.id == Question.id).where(ranked.c.rank == 1)


def _render_index(form: QuestionForm, status: int = 200):
    user = signed_in_user()
    q = (request.args.get("q") or "").strip()[:200]
    tag = (request.args.get("tag") or "").strip()[:80]
    stmt = select(Question).where(_visible())
    if q:
        stmt = stmt.where(Question.text.ilike(like_pattern(q), escape="\\"))
    if tag:
        stmt = stmt.join(question_tags).join(Tag).where(Tag.name == tag)
    page = paginate(_one_wording_each(stmt, str(get_locale() or "en")).order_by(Question.id.desc()), PAGE_SIZE)
    questions = page.items
    in_study = _studied(user.id, [x.id for x in questions])
    tags = db.session.execute(
        select(Tag.name, func.count(question_tags.c.question_id))
        .join(question_tags).join(Question).where(_visible())
        .group_by(Tag.name).order_by(func.count(question_tags.c.question_id).desc(), Tag.name).limit(40)).all()
    return render_template("questions/index.html", questions=questions, in_study=in_study, form=form, q=q,
                           tag=tag, tags=tags, page=page.page, pages=page.pages or 1, total=page.total,
                           action_form=EmptyForm(), tag_form=StudyTagForm()), status


@bp.route("/questions", methods=["GET", "POST"])
@login_required
def index():
    form = QuestionForm()
    if request.method == "POST":
        if not form.validate():
            return _render_index(form, 400)
        user = signed_in_user()
        own = db.session.scalar(select(func.count(Question.id)).where(Question.owner_id == user.id)) or 0
        if own >= MAX_OWN_QUESTIONS:
            form.text.errors.append(_("You have reached the limit of %(n)s own questions.", n=MAX_OWN_QUESTIONS))
            return _render_index(form, 400)
        try:
            question = add_question(form.text.data, source=Source.user, owner_id=user.id,
                                    lang=None if form.lang.data == "auto" else form.lang.data,
                                    tags=(form.tags.data or "").split(","))
        except QuestionError as err:
            db.session.rollback()
            form.text.errors.append(str(err.message))
            return _render_index(form, 400)
        add_to_study(user, [question.id], clock.now())
        db.session.commit()
        flash(_("Question added to your study."), "success")
        return redirect(url_for("questions.index"))
    return _render_index(form)


@bp.route("/questions/<int:question_id>")
@login_required
def show(question_id: int):
    question = _question_or_404(question_id)
    translations_form = TranslationForm() if current_user.is_instructor else None
    others = [q for q in question.group() if q is not question and q.is_visible_to(current_user.id)]
    return render_template("questions/show.html", question=question, card=_card_for(current_user.id, question),
                           action_form=EmptyForm(), translation_form=translations_form, others=others,
                           explanations=explanations_for(question, lang=str(get_locale())))


@bp.route("/questions/<int:question_id>/translation", methods=["POST"])
@instructor_required
def link_translation(question_id: int):
    """An instructor links this question and another as wordings of one question (one card)."""
    form = TranslationForm()
    question = _question_or_404(question_id)
    other = _visible_question(form.other.data) if form.validate() else None
    if other is None:
        flash(_("No question has that number."), "error")
        return redirect(url_for("questions.show", question_id=question.id))
    try:
        merged = translations.link(question, other)
    except translations.NotTranslatable as err:
        db.session.rollback()
        flash(str(err.message), "error")
        return redirect(url_for("questions.show", question_id=question.id))
    db.session.commit()
    flash(ngettext("Linked as translations; %(num)d duplicate card merged.",
                   "Linked as translations; %(num)d duplicate cards merged.", merged), "success")
    return redirect(url_for("questions.show", question_id=question.id))


@bp.route("/questions/<int:question_id>/translation/remove", methods=["POST"])
@instructor_required
def unlink_translation(question_id: int):
    if not EmptyForm().validate():
        abort(400)
    translations.unlink(_question_or_404(question_id))
    db.session.commit()
    flash(_("This wording is no longer linked to its translations."), "success")
    return redirect(url_for("questions.show", question_id=question_id))


@bp.route("/questions/<int:question_id>/study", methods=["POST"])
@login_required
def study(question_id: int):
    if not EmptyForm().validate():
        abort(400)
    question = _question_or_404(question_id)
    added = add_to_study(signed_in_user(), [question.id], clock.now())
    db.session.commit()
    flash(_("Added to your study.") if added else _("This question is already in your study."), "success")
    return redirect(safe_local_target(request.form.get("next"), url_for("questions.index")))


@bp.route("/questions/study-tag", methods=["POST"])
@login_required
def study_tag():
    form = StudyTagForm()
    if not form.validate():
        flash(_("Choose a tag to study."), "error")
        return redirect(url_for("questions.index"))
    ids = db.session.scalars(select(Question.id).join(question_tags).join(Tag)
                             .where(Tag.name == form.tag.data.strip(), _visible())).all()
    if not ids:
        flash(_("No questions have that tag."), "error")
        return redirect(url_for("questions.index"))
    added = add_to_study(signed_in_user(), ids, clock.now())
    db.session.commit()
    flash(ngettext("Added %(num)d question tagged %(tag)s to your study.",
                   "Added %(num)d questions tagged %(tag)s to your study.", added, tag=form.tag.data), "success")
    return redirect(url_for("questions.index", tag=form.tag.data))
