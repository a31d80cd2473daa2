"""Explanation pages, the instructor editor, the unanswered-questions queue and link decisions."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required
from sqlalchemy import func, or_, select

from .. import clock
from ..accounts.models import User
from ..database import like_pattern
from ..extensions import db
from ..postings.models import PostingQuestion
from ..postings.coverage import unanswered_statement, uncovered_skills
from ..questions.models import LinkOrigin, Question, QuestionExplanation
from ..web.access import instructor_required
from ..web.args import int_arg
from ..web.forms import EmptyForm
from ..web.pagination import paginate
from . import drafts, editor, field, revisions
from .errors import TRANSLATED_PARAMS
from .forms import EditorForm, LinkForm
from .models import Explanation, live
from .neighbours import answered_questions, related_explanations
from .render import render_markdown
from .sync import ranked_links

#: Skills without an explanation shown above the unanswered questions (``prep content coverage`` lists all).
SKILL_GAPS_SHOWN = 20
#: Topics of interview questions no explanation answers, shown first (``prep content coverage`` lists all).
FIELD_TOPICS_SHOWN = 15

bp = Blueprint("content", __name__)

PAGE_SIZE = 50


def _slugs() -> set[str]:
    return set(db.session.scalars(select(Explanation.slug).where(live())))


INDEX_PAGE_SIZE = 50


@bp.route("/explanations")
@login_required
def index():
    q = (request.args.get("q") or "").strip()[:200]
    stmt = select(Explanation).where(live()).order_by(Explanation.area, Explanation.title)
    if q:
        like = like_pattern(q)
        stmt = stmt.where(or_(Explanation.title.ilike(like, escape="\\"),
                              Explanation.body_md.ilike(like, escape="\\")))
    page = paginate(stmt, INDEX_PAGE_SIZE, clamp=True)  # past the end: the last page
    removed = db.session.scalars(select(Explanation).where(Explanation.removed_at.is_not(None))
                                 .order_by(Explanation.path)).all() if current_user.is_instructor else []
    return render_template("content/index.html", explanations=page.items, q=q, page=page.page,
                           pages=page.pages or 1, removed=removed, action_form=EmptyForm())


@bp.route("/explanations/<slug>")
@login_required
def show(slug: str):
    rows = db.session.scalars(select(Explanation).where(Explanation.slug == slug, live())).all()
    if not rows:
        abort(404)
    # An explicit ?lang= (the "Also in" links) wins; else the UI locale (user setting, then the
    # footer switcher, then Accept-Language), falling back to the other language with a note.
    chosen = request.args.get("lang")
    want = chosen or str(get_locale() or "en")
    explanation = next((r for r in rows if r.lang == want), None)
    fallback = explanation is None and not chosen
    if explanation is None:
        explanation = next((r for r in rows if r.lang == "en"), rows[0])
    history = revisions.revisions_of(explanation) if current_user.is_instructor else []
    reader = str(get_locale() or "en")
    return render_template("content/show.html", explanation=explanation, fallback=fallback, history=history,
                           authors=_authors(history), translations=[r for r in rows if r is not explanation],
                           questions=answered_questions(slug, getattr(current_user, "id", None), reader),
                           related=related_explanations(explanation, reader))


def _authors(history) -> dict[int, str]:
    ids = {r.author_id for r in history if r.author_id}
    return dict(db.session.execute(select(User.id, User.email).where(User.id.in_(ids))).all()) if ids else {}


def _explanation(slug: str, *, removed: bool = False) -> Explanation:
    lang = request.args.get("lang", "en")
    gone = Explanation.removed_at.is_not(None) if removed else live()
    return db.first_or_404(select(Explanation).where(Explanation.slug == slug, Explanation.lang == lang, gone))


@bp.route("/explanations/<slug>/revisions/<int:number>")
@instructor_required
def revision(slug: str, number: int):
    """One revision: its text as a diff against the one before, and "Restore this revision"."""
    explanation = _explanation(slug)
    try:
        shown, lines = revisions.revision_diff(explanation, number)
    except LookupError:
        abort(404)
    return render_template("content/revision.html", explanation=explanation, revision=shown, lines=lines,
                           authors=_authors([shown]), form=EmptyForm())


@bp.route("/explanations/<slug>/revisions/<int:number>/restore", methods=["POST"])
@instructor_required
def restore_revision(slug: str, number: int):
    explanation = _explanation(slug)
    if not EmptyForm().validate():
        abort(400)
    try:
        revisions.restore_revision(explanation, number, author_id=current_user.id, now=clock.now())
    except LookupError:
        abort(404)
    except revisions.RevisionError as err:
        db.session.rollback()
        flash(_("This revision cannot be restored: %(reason)s", reason=str(err)), "error")
        return redirect(url_for("content.revision", slug=slug, number=number, lang=explanation.lang))
    db.session.commit()
    flash(_("Revision %(number)s restored as a new revision.", number=number), "success")
    return redirect(url_for("content.show", slug=slug, lang=explanation.lang))


@bp.route("/explanations/<slug>/restore", methods=["POST"])
@instructor_required
def restore_removed(slug: str):
    explanation = _explanation(slug, removed=True)
    if not EmptyForm().validate():
        abort(400)
    try:
        revisions.restore_removed(explanation, author_id=current_user.id, now=clock.now())
    except revisions.RevisionError as err:
        db.session.rollback()
        flash(_("This explanation cannot be restored: %(reason)s", reason=str(err)), "error")
        return redirect(url_for("content.index"))
    db.session.commit()
    flash(_("Explanation restored."), "success")
    return redirect(url_for("content.show", slug=slug, lang=explanation.lang))


def _render_editor(form: EditorForm, *, mode: str, explanation: Explanation | None = None,
                   preview: str | None = None, problems=(), warnings=(), status: int = 200):
    return render_template("content/editor.html", form=form, mode=mode, explanation=explanation, preview=preview,
                           problems=[_at_line(p) for p in problems], warnings=[_at_line(w) for w in warnings]), status


def _at_line(problem) -> str:
    """One finding as a sentence for the editor: "Line 12: …" (the finding in the UI language
    when the catalogs have it)."""
    return _("Line %(line)s: %(message)s", line=problem.line, message=_problem_text(problem))


def _problem_text(problem) -> str:
    """A checker finding in the UI language (its message id with its values, or the message)."""
    if not problem.msgid:
        return _(problem.message)
    params = {k: _(v) if k in TRANSLATED_PARAMS and isinstance(v, str) and v else v for k, v in problem.params}
    return _(problem.msgid, **params)


def _handle_editor(form: EditorForm, *, mode: str, explanation: Explanation | None):
    check = drafts.check(form.text.data, area=form.area.data, explanation=explanation)
    if form.preview.data or not form.save.data or not check.ok:
        rendered = render_markdown(check.doc.body if check.doc else _body_of(form.text.data),
                                   slug_exists=_slugs().__contains__)
        status = 200 if form.preview.data or not form.save.data else 400
        return _render_editor(form, mode=mode, explanation=explanation, preview=rendered.html,
                              problems=check.problems, warnings=check.warnings, status=status)
    saved = drafts.save(check, explanation, author_id=current_user.id, now=clock.now())
    db.session.commit()
    flash(_("Saved. The explanation is live for candidates.") if explanation is None
          else _("Saved. Candidates now see this version."), "success")
    for warning in check.warnings:  # saved, but not silently: the page says what to fix
        flash(_("Check line %(line)s: %(message)s", line=warning.line, message=_problem_text(warning)), "warning")
    return redirect(url_for("content.show", slug=saved.slug, lang=saved.lang))


def _body_of(text: str) -> str:
    """The Markdown after the front matter (for previewing a draft whose front matter is broken)."""
    if text.startswith("---"):
        parts = text.split("\n---", 2)
        if len(parts) >= 2:
            return parts[-1].split("\n", 1)[-1] if len(parts) == 2 else parts[2]
    return text


@bp.route("/explanations/new", methods=["GET", "POST"])
@instructor_required
def new():
    form = EditorForm()
    if request.method == "GET":
        question = None
        qid = int_arg("question")
        if qid:
            question = db.first_or_404(select(Question).where(Question.id == qid, Question.owner_id.is_(None)))
        form.area.data = request.args.get("area", "drafts")
        form.text.data = editor.new_draft(question.text if question else None,
                                          question.lang if question else "en", drafts.taken_slugs())
        return _render_editor(form, mode="new")
    if not form.validate():
        return _render_editor(form, mode="new", status=400)
    return _handle_editor(form, mode="new", explanation=None)


@bp.route("/explanations/<slug>/edit", methods=["GET", "POST"])
@instructor_required
def edit(slug: str):
    lang = request.args.get("lang", "en")
    explanation = db.first_or_404(select(Explanation).where(Explanation.slug == slug, Explanation.lang == lang,
                                                            live()))
    form = EditorForm()
    if request.method == "GET":
        form.text.data = explanation.source
        form.area.data = explanation.area or explanation.path.split("/", 1)[0]
        return _render_editor(form, mode="edit", explanation=explanation)
    form.area.data = explanation.area or explanation.path.split("/", 1)[0]
    if not form.validate():
        return _render_editor(form, mode="edit", explanation=explanation, status=400)
    return _handle_editor(form, mode="edit", explanation=explanation)


@bp.route("/explanations/preview", methods=["POST"])
@instructor_required
def preview():
    """Live preview for the editor's JavaScript: the rendered HTML and the problems, as JSON."""
    text = request.form.get("text", "")[:200_000]
    area = request.form.get("area", "drafts")
    existing = request.form.get("existing_slug") or None
    row = None
    if existing:
        row = db.session.scalar(select(Explanation).where(Explanation.slug == existing, live(),
                                                          Explanation.lang == request.form.get("lang", "en")))
    check = drafts.check(text, area=area, explanation=row)
    rendered = render_markdown(check.doc.body if check.doc else _body_of(text), slug_exists=_slugs().__contains__)
    return {"html": rendered.html, "problems": [_at_line(p) for p in check.problems],
            "warnings": [_at_line(w) for w in check.warnings]}


@bp.route("/instructor/unanswered")
@instructor_required
def unanswered():
    """Interview questions no explanation answers (by topic), then bank questions with no accepted
    explanation, most-asked (by postings) first."""
    postings = func.count(func.distinct(PostingQuestion.posting_id))
    page = paginate(unanswered_statement().with_only_columns(Question), PAGE_SIZE)
    ids = [question.id for question in page.items]
    counts = dict(db.session.execute(select(PostingQuestion.question_id, postings).where(
        PostingQuestion.question_id.in_(ids)).group_by(PostingQuestion.question_id)).all()) if ids else {}
    return render_template("content/unanswered.html", rows=[(q, counts.get(q.id, 0)) for q in page.items],
                           page=page.page, total=page.total, pages=page.pages or 1,
                           field_misses=field.misses_now()[:FIELD_TOPICS_SHOWN] if page.page == 1 else [],
                           skill_gaps=uncovered_skills()[:SKILL_GAPS_SHOWN] if page.page == 1 else [])


@bp.route("/instructor/questions/<int:question_id>/links", methods=["GET", "POST"])
@instructor_required
def question_links(question_id: int):
    question = db.first_or_404(select(Question).where(Question.id == question_id, Question.owner_id.is_(None)))
    form = LinkForm()
    if request.method == "POST":
        if form.validate():
            slug = form.slug.data.strip()
            if slug not in _slugs():
                form.slug.errors.append(_("No explanation has the slug '%(slug)s'.", slug=slug))
            else:
                link = next((lk for lk in question.links if lk.slug == slug), None)
                if link is None:
                    question.links.append(QuestionExplanation(slug=slug, score=1.0, origin=LinkOrigin.manual))
                else:
                    link.origin, link.rejected, link.score = LinkOrigin.manual, False, 1.0
                db.session.commit()
                flash(_("Linked to %(slug)s.", slug=slug), "success")
                return redirect(url_for("content.question_links", question_id=question.id))
        db.session.rollback()
    titles = dict(db.session.execute(select(Explanation.slug, Explanation.title).where(live())).all())
    return render_template("content/links.html", question=question, links=ranked_links(question), form=form,
                           titles=titles, action_form=EmptyForm()), (400 if form.errors else 200)


@bp.route("/instructor/links/<int:link_id>/<decision>", methods=["POST"])
@instructor_required
def decide_link(link_id: int, decision: str):
    if decision not in {"confirm", "reject"} or not EmptyForm().validate():
        abort(404 if decision not in {"confirm", "reject"} else 400)
    link = db.get_or_404(QuestionExplanation, link_id)
    # A hand decision: it wins over automatic linking and survives re-sync.
    link.origin = LinkOrigin.manual
    link.rejected = decision == "reject"
    db.session.commit()
    flash(_("Link rejected: it will not come back on re-sync.") if link.rejected else _("Link confirmed."), "success")
    return redirect(url_for("content.question_links", question_id=link.question_id))
