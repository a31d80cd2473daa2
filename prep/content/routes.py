"""Explanation pages, the instructor editor, the unanswered-questions queue and link decisions."""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_login import current_user, login_required
from sqlalchemy import func, or_, select

from ..database import like_pattern
from ..extensions import db
from ..postings.models import PostingQuestion
from ..postings.coverage import unanswered_statement, uncovered_skills
from ..questions.models import LinkOrigin, Question, QuestionExplanation
from ..web.access import instructor_required
from ..web.args import int_arg
from ..web.forms import EmptyForm
from ..web.pagination import paginate
from . import editor
from .forms import EditorForm, LinkForm
from .models import Explanation
from .neighbours import answered_questions, related_explanations
from .render import render_markdown
from .sync import sync_tree

#: Skills without an explanation shown above the unanswered questions (``prep content coverage`` lists all).
SKILL_GAPS_SHOWN = 20

bp = Blueprint("content", __name__)

PAGE_SIZE = 50


def _content_dir() -> Path:
    return Path(current_app.config["CONTENT_DIR"])


def _slugs() -> set[str]:
    return set(db.session.scalars(select(Explanation.slug)))


INDEX_PAGE_SIZE = 50


@bp.route("/explanations")
@login_required
def index():
    q = (request.args.get("q") or "").strip()[:200]
    stmt = select(Explanation).order_by(Explanation.area, Explanation.title)
    if q:
        like = like_pattern(q)
        stmt = stmt.where(or_(Explanation.title.ilike(like, escape="\\"),
                              Explanation.body_md.ilike(like, escape="\\")))
    page = paginate(stmt, INDEX_PAGE_SIZE, clamp=True)  # past the end: the last page
    return render_template("content/index.html", explanations=page.items, q=q, page=page.page,
                           pages=page.pages or 1)


@bp.route("/explanations/<slug>")
@login_required
def show(slug: str):
    rows = db.session.scalars(select(Explanation).where(Explanation.slug == slug)).all()
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
    reader = str(get_locale() or "en")
    return render_template("content/show.html", explanation=explanation, fallback=fallback,
                           translations=[r for r in rows if r is not explanation],
                           questions=answered_questions(slug, getattr(current_user, "id", None), reader),
                           related=related_explanations(explanation, reader))


def _render_editor(form: EditorForm, *, mode: str, explanation: Explanation | None = None,
                   preview: str | None = None, problems=(), status: int = 200):
    return render_template("content/editor.html", form=form, mode=mode, explanation=explanation,
                           preview=preview, problems=list(problems)), status


def _handle_editor(form: EditorForm, *, mode: str, explanation: Explanation | None):
    check = editor.check_draft(form.text.data, _content_dir(), area=form.area.data,
                               existing_path=explanation.path if explanation else None,
                               existing_slug=explanation.slug if explanation else None)
    if form.preview.data or not form.save.data:
        rendered = render_markdown(check.doc.body if check.doc else _body_of(form.text.data),
                                   slug_exists=_slugs().__contains__)
        return _render_editor(form, mode=mode, explanation=explanation, preview=rendered.html,
                              problems=check.problems)
    if not check.ok:
        rendered = render_markdown(_body_of(form.text.data), slug_exists=_slugs().__contains__)
        return _render_editor(form, mode=mode, explanation=explanation, preview=rendered.html,
                              problems=check.problems, status=400)
    try:
        editor.safe_target(_content_dir(), check.rel_path)
        editor.write_inside(_content_dir(), check.rel_path, form.text.data.replace("\r\n", "\n"))
    except editor.UnsafePathError as err:
        current_app.logger.error("refused to write: %s", err)
        form.text.errors.append(_("The file cannot be written there (a symbolic link or a path outside the "
                                  "content folder). Nothing was changed."))
        return _render_editor(form, mode=mode, explanation=explanation, status=400)
    except OSError as err:
        current_app.logger.error("could not write %s: %s", check.rel_path, err)
        form.text.errors.append(_("The file could not be written (is the disk full or read-only?). "
                                  "Nothing was changed."))
        return _render_editor(form, mode=mode, explanation=explanation, status=500)
    report = sync_tree(_content_dir())
    db.session.commit()
    flash(_("Saved %(path)s.", path=check.rel_path) + " " + report.summary(), "success")
    assert check.doc is not None
    return redirect(url_for("content.show", slug=check.doc.slug, lang=check.doc.lang))


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
                                          question.lang if question else "en")
        return _render_editor(form, mode="new")
    if not form.validate():
        return _render_editor(form, mode="new", status=400)
    return _handle_editor(form, mode="new", explanation=None)


@bp.route("/explanations/<slug>/edit", methods=["GET", "POST"])
@instructor_required
def edit(slug: str):
    lang = request.args.get("lang", "en")
    explanation = db.first_or_404(select(Explanation).where(Explanation.slug == slug, Explanation.lang == lang))
    form = EditorForm()
    if request.method == "GET":
        path = _content_dir() / explanation.path
        try:
            form.text.data = path.read_text(encoding="utf-8")
        except OSError:
            abort(404)
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
        row = db.session.scalar(select(Explanation).where(Explanation.slug == existing,
                                                          Explanation.lang == request.form.get("lang", "en")))
    check = editor.check_draft(text, _content_dir(), area=area, existing_path=row.path if row else None,
                               existing_slug=row.slug if row else None)
    rendered = render_markdown(check.doc.body if check.doc else _body_of(text), slug_exists=_slugs().__contains__)
    return {"html": rendered.html,
            "problems": [_("line %(line)s: %(message)s", line=p.line, message=p.message) for p in check.problems]}


@bp.route("/instructor/unanswered")
@instructor_required
def unanswered():
    """Bank questions with no accepted explanation, most-asked (by postings) first."""
    postings = func.count(func.distinct(PostingQuestion.posting_id))
    page = paginate(unanswered_statement().with_only_columns(Question), PAGE_SIZE)
    ids = [question.id for question in page.items]
    counts = dict(db.session.execute(select(PostingQuestion.question_id, postings).where(
        PostingQuestion.question_id.in_(ids)).group_by(PostingQuestion.question_id)).all()) if ids else {}
    return render_template("content/unanswered.html", rows=[(q, counts.get(q.id, 0)) for q in page.items],
                           page=page.page, total=page.total, pages=page.pages or 1,
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
    titles = dict(db.session.execute(select(Explanation.slug, Explanation.title)).all())
    return render_template("content/links.html", question=question, form=form, titles=titles,
                           action_form=EmptyForm()), (400 if form.errors else 200)


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
