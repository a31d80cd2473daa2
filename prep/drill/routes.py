"""Dashboard, drill loop and card actions."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from babel.dates import format_timedelta
from markupsafe import Markup
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import login_required
from sqlalchemy import select
from sqlalchemy.orm import joinedload

from .. import clock
from ..content.lookup import explanations_for, explanations_for_many
from ..content.models import Explanation
from ..extensions import db
from ..interview import ahead as interview_ahead
from ..interview import jobs as interview_jobs
from ..interview import outcomes
from ..interview import service as interview
from ..postings.models import Posting
from ..postings.study import question_set
from ..questions.models import Question
from ..stats.compute import is_leech
from ..web.access import signed_in_user
from ..web.args import int_arg
from ..web.forms import ButtonForm, EmptyForm
from ..web.fragments import render_cached
from ..web.pagination import paginate
from ..web.redirects import safe_local_target
from . import cramming, previews, queue, queue_queries, rating, scheduling, self_grading, session
from .cards import CardNotFound, bury, get_card, set_suspended, unbury_all
from .forms import MAX_ANSWER_MS, NoteForm, RateFormValues, read_rating_form, read_rating_json
from .models import Card, ReviewLog

bp = Blueprint("drill", __name__)
bp.add_app_template_test(is_leech, "leech")  # {% if card.lapses is leech %}: the stats page's threshold
# {{ key_point_suggestions(n) }}: the self-grading rule as a table for the drill's script.
bp.add_app_template_global(self_grading.suggestion_table, "key_point_suggestions")

PAGE_SIZE = 50

# The rating buttons in the UI language (Anki's Chinese names); CSS classes use scheduling.RATING_NAMES.
RATING_LABELS = {1: _l("Again"), 2: _l("Hard"), 3: _l("Good"), 4: _l("Easy")}


def interval_label(delta: timedelta, locale=None) -> str:
    """The interval shown on a rating button: Anki-style 10m/4d in English, 10分钟/4天 in Chinese
    (``locale``: the request's, when the caller has looked it up already)."""
    locale = locale or get_locale()
    if str(locale or "en").startswith("en"):
        return scheduling.format_interval(delta)
    return format_timedelta(delta, threshold=1, format="narrow", locale=locale)


def _now() -> datetime:
    return clock.now()


def _card_or_404(card_id: int, *, for_update: bool = False) -> Card:
    try:
        return get_card(signed_in_user(), card_id, for_update=for_update)
    except CardNotFound:
        abort(404)


@bp.route("/dashboard")
@login_required
def dashboard():
    user, now = signed_in_user(), _now()
    counts = queue_queries.counts(user, now)
    interview_jobs.ensure_fresh(user, now)  # the first page of a day: the day's plan, in the background
    return render_template("drill/dashboard.html", counts=counts, **_today_context(counts, now),
                           interviews=interview.upcoming(user, now),
                           ask_outcome=outcomes.to_ask(user, queue_queries.study_day(user, now).day))


def _today_context(counts: queue_queries.Counts, now: datetime) -> dict:
    """What templates/drill/_today.html needs: the queue counts, minutes to the next learning card
    and the form of the "show buried cards" button (``queue_today``: the same counts for the
    reminder banner)."""
    return {"q": counts.queue, "queue_today": counts.queue,
            "next_minutes": queue.minutes_until(counts.queue.next_learning, now), "unbury_form": ButtonForm()}


@bp.route("/drill")
@login_required
def drill():
    user, now = signed_in_user(), _now()
    shown = int_arg("card")
    revealed = request.args.get("show") == "1"
    counted, done = queue_queries.tally_and_done(user, now)  # shared by the calls below
    card = _own_card_or_404(shown) if shown else session.next_card(user, now, done)
    if shown and int_arg("v") not in (None, card.version):  # Back to an answer already rated: no second review
        flash(_once_message(rating.DUPLICATE), "info")
        return redirect(url_for("drill.drill"))
    counts = queue_queries.counts(user, now, done, counted, streak=False)  # the drill does not show the streak
    if card is None:
        return render_template("drill/done.html", counts=counts, undo_form=ButtonForm(), **_today_context(counts, now),
                               ahead_waiting=interview_ahead.waiting(user, now), ahead_step=interview_ahead.STEP)
    settings = scheduling.settings_for_user(user)
    locale = get_locale()
    lang = str(locale or "en")  # the templates' current_language
    intervals = {r: interval_label(d, locale) for r, d in previews.preview_intervals(settings, card, now).items()}
    form = RateFormValues(card_id=card.id, version=card.version, shown_at=now.isoformat(),
                          token=rating.make_token(current_app.secret_key, user.id, card.id, card.version))
    kind_html, answer_html = _fragments(card, explanations_for_many([card.question], lang=lang)[card.question.id])
    return render_template(
        "drill/drill.html", card=card, counts=counts, form=form, intervals=intervals,
        ratings=scheduling.RATING_NAMES, rating_labels=RATING_LABELS, revealed=revealed,
        kind_html=Markup(kind_html), answer_html=Markup(answer_html), shown_wording=session.wording_of(card.question, lang),
        ratings_html=Markup(render_cached("drill/_ratings.html", tuple(intervals.items()), intervals=intervals,
                                          ratings=scheduling.RATING_NAMES, rating_labels=RATING_LABELS)),
        shortcuts_html=Markup(render_cached("drill/_shortcuts.html", "shortcuts", rating_labels=RATING_LABELS)),
        undo_form=ButtonForm(), action_form=ButtonForm(), can_undo=_can_undo(user, done), **_today_context(counts, now),
    )


def _own_card_or_404(card_id: int) -> session.ShownCard:  # as plain values; another user's card is a 404
    try:
        return session.own_card(signed_in_user(), card_id)
    except CardNotFound:
        abort(404)


def _fragments(card: session.ShownCard, explanations: list) -> tuple[str, str]:
    """The card-kind and answer HTML of a card (templates/drill/_kind.html, _answer.html), rendered
    once per content: the cache key names all the fragment shows. The page and the batch share them."""
    answers = tuple((e.id, e.slug, e.lang, e.title, e.html, tuple(map(str, e.key_points or ())), e.suggested)
                    for e in explanations)  # all the fragment shows of them
    links_card = not card.note and all(e.suggested for e in explanations)  # no answer, no note: a link to write one
    return (render_cached("drill/_kind.html", (card.state, card.question.tags), card=card),
            render_cached("drill/_answer.html", (answers, card.note, card.id if links_card else None),
                          card=card, explanations=explanations))


def _can_undo(user, done) -> bool:
    """A rating to undo: one of today's ratings (counted already), else any earlier one (a query)."""
    return done.new + done.reviews > 0 or rating.has_review(user)


@bp.route("/drill/rate", methods=["POST"])
@login_required
def rate():
    form = read_rating_form(request.form)
    if form is None:
        flash(_("That rating could not be read; the card was not changed."), "error")
        return redirect(url_for("drill.drill"))
    now, user = _now(), signed_in_user()
    request_id = rating.read_token(current_app.secret_key, form.token, user.id, form.card_id,
                                   form.version) if form.token else None
    if form.token and request_id is None:  # tampered with, or another user's or card's token
        flash(_("That rating could not be read; the card was not changed."), "error")
        return redirect(url_for("drill.drill"))
    answer = rating.Answer(form.card_id, form.version, form.rating, form.duration(now),
                           _key_points(form.key_points_of, form.key_point), request_id)
    rated, _counts = _rate(user, answer, now)
    if not rated.recorded:
        flash(_once_message(rated.status), "info")
    elif _budget_used(rated):
        flash(_budget_message(), "info")
    return redirect(url_for("drill.drill"))


def _rate(user, answer: rating.Answer, now: datetime, counts: bool = False) -> tuple[rating.Rated, Any]:
    """Both rating views: rate once (another user's card is a 404; the features that react to a
    rating do so in the same transaction) and commit. ``counts``: the queue counts after it,
    before the commit."""
    try:
        rated = rating.rate(user, answer, now)
    except CardNotFound:
        abort(404)
    after = None
    if counts:
        counted, done = queue_queries.tally_and_done(user, now)
        after = queue_queries.queue_counts(user, now, done, counted)
    db.session.commit()
    return rated, after


def _budget_used(rated: rating.Rated) -> bool:
    """Whether this rating used up the day's interview budget (interview mode moved the rest)."""
    return rated.reactions.get(interview.RATING_HOOK) == interview.BUDGET_USED


def _budget_message() -> str:
    """What the rating that used up the day's interview budget says (the plan moved the rest)."""
    return _("That was today's study time for your interviews: the plan moved today's other interview "
             "reviews to the coming days. You can change the daily minutes on the plan page.")


def _once_message(status: str) -> str:
    """What a rating that was not recorded now says: Back then resubmit, or a stale tab."""
    return (_("This rating was already recorded.") if status == rating.DUPLICATE
            else _("This card was already rated in another tab."))


@bp.route("/drill/batch.json")
@login_required
def batch_json():
    """The next cards of today's queue for the prefetching drill (static/js/drill_prefetch.js)."""
    user, now, locale = signed_in_user(), _now(), get_locale()
    lang = str(locale)
    counted, done = queue_queries.tally_and_done(user, now)
    cards = session.next_cards(user, now, int_arg("n") or 5, done)
    questions = [c.question for c in cards]
    explanations, shown = explanations_for_many(questions, lang=lang), session.wordings(questions, lang)
    settings = scheduling.settings_for_user(user)
    return jsonify(cards=[_batch_entry(c, explanations[c.question_id], shown[c.question_id], settings, now, locale)
                          for c in cards],
                   counts=_counts_json(queue_queries.queue_counts(user, now, done, counted)),
                   labels={str(r): str(label) for r, label in RATING_LABELS.items()})


def _batch_entry(card: session.ShownCard, explanations: list, wording: tuple[str, str],
                 settings: scheduling.SchedulerSettings, now: datetime, locale: Any = None) -> dict:
    """One card of the batch; translations are one card, shown in the UI language (``wording``).
    The HTML is rendered once per content (the cache key names all the fragment shows)."""
    intervals = previews.preview_intervals(settings, card, now)
    kind_html, answer_html = _fragments(card, explanations)
    return {"id": card.id, "version": card.version, "state": card.state.value, "lang": wording[0],
            "question": wording[1], "kind_html": kind_html, "answer_html": answer_html,
            "intervals": {str(r): interval_label(d, locale) for r, d in intervals.items()}}


def _counts_json(q) -> dict:
    return {"learning": q.learning_now, "review": q.reviews_now, "new": q.new_today, "remaining": q.remaining_now}


@bp.route("/drill/rate.json", methods=["POST"])
@login_required
def rate_json():
    """A rating from the prefetching drill: recorded, a duplicate of one recorded, or a conflict."""
    data = read_rating_json(request.get_json(silent=True))
    if data is None:
        return jsonify(error=_("That rating could not be read; the card was not changed.")), 400
    user, now = signed_in_user(), _now()
    ticks = _key_points(data.key_points_of, data.key_point)
    duration = None if data.elapsed_ms is None else min(data.elapsed_ms, MAX_ANSWER_MS)
    rated, counts = _rate(user, rating.Answer(data.card_id, data.version, data.rating, duration, ticks, data.request_id),
                          now, counts=True)
    replanned = rated.recorded and _budget_used(rated)
    message = _once_message(rated.status) if not rated.recorded else _budget_message() if replanned else ""
    return jsonify(status=rated.status, buried=rated.buried, message=message, counts=_counts_json(counts),
                   replanned=replanned)


def _key_points(explanation_id: int | None, ticked: list[int]) -> dict | None:
    explanation = db.session.get(Explanation, explanation_id) if explanation_id else None
    if explanation is None:
        return None
    return self_grading.ticks_record(explanation.slug, explanation.lang, len(explanation.key_points or []), ticked)


def _posting_or_404(posting_id: int):
    """A posting the user crams (their own or a sample); another candidate's is a 404."""
    return db.first_or_404(select(Posting).where(Posting.id == posting_id, Posting.owned_or_sample(signed_in_user().id)))


@bp.route("/drill/cram/<int:posting_id>")
@login_required
def cram(posting_id: int):
    """Cram a posting before its interview: its studied cards that are not due yet, reviewed
    ahead of schedule without changing their schedule."""
    user, now = signed_in_user(), _now()
    posting = _posting_or_404(posting_id)
    question_ids = [q.question_id for q in question_set(user, posting)]  # the set readiness counts
    shown = int_arg("card")
    card = _card_or_404(shown) if shown else cramming.next_cram_card(user, question_ids, now)
    cram_counts = cramming.cram_counts(user, question_ids, now)
    if card is None:
        return render_template("drill/cram.html", posting=posting, card=None, cram_counts=cram_counts,
                               total=len(question_ids))
    form = RateFormValues(card_id=card.id, version=card.version, shown_at=now.isoformat())
    return render_template(
        "drill/cram.html", posting=posting, card=card, cram_counts=cram_counts, form=form, total=len(question_ids),
        ratings=scheduling.RATING_NAMES, rating_labels=RATING_LABELS, revealed=request.args.get("show") == "1",
        explanations=explanations_for(card.question, lang=str(get_locale())))


@bp.route("/drill/cram/<int:posting_id>/rate", methods=["POST"])
@login_required
def cram_rate(posting_id: int):
    posting = _posting_or_404(posting_id)
    form = read_rating_form(request.form)
    if form is None:
        flash(_("That rating could not be read; the card was not changed."), "error")
        return redirect(url_for("drill.cram", posting_id=posting.id))
    now = _now()
    try:
        cramming.cram(signed_in_user(), rating.Answer(form.card_id, form.version, form.rating, form.duration(now),
                                                      _key_points(form.key_points_of, form.key_point)), now)
    except CardNotFound:
        abort(404)
    db.session.commit()
    return redirect(url_for("drill.cram", posting_id=posting.id))


@bp.route("/drill/unbury", methods=["POST"])
@login_required
def unbury():
    """Show today the cards buried until tomorrow (sibling burying or Bury)."""
    if not EmptyForm().validate():
        abort(400)
    shown = unbury_all(signed_in_user(), _now())
    db.session.commit()
    flash(ngettext("%(num)s buried card is back in today's queue.", "%(num)s buried cards are back in today's queue.",
                   shown), "success")
    return redirect(_back(url_for("drill.drill")))


@bp.route("/drill/undo", methods=["POST"])
@login_required
def undo():
    if not EmptyForm().validate():
        abort(400)
    card = rating.undo_last(signed_in_user())
    db.session.commit()
    if card is None:
        flash(_("There is no rating to undo."), "info")
        return redirect(url_for("drill.drill"))
    flash(_("Last rating undone."), "success")
    return redirect(url_for("drill.drill", card=card.id))


#: Loads every wording of the listed cards' questions at once (the list shows each in the UI language).
WORDINGS = (joinedload(Card.question).selectinload(Question.translated_as),
            joinedload(Card.question).selectinload(Question.translation_root).selectinload(Question.translated_as))


@bp.route("/cards")
@login_required
def cards():
    page = paginate(select(Card).where(Card.user_id == signed_in_user().id).options(*WORDINGS)
                    .order_by(Card.added_at.desc(), Card.id.desc()), PAGE_SIZE)
    return render_template("drill/cards.html", cards=page.items, page=page.page, pages=page.pages or 1,
                           total=page.total, action_form=EmptyForm())


def _render_card(card: Card, note_form: NoteForm, status: int = 200):
    """The card page: its history (latest 100 reviews), note form, actions and explanations."""
    reviews = db.session.scalars(select(ReviewLog).where(ReviewLog.card_id == card.id)
                                 .order_by(ReviewLog.reviewed_at.desc()).limit(100)).all()
    return render_template("drill/card.html", card=card, reviews=reviews, note_form=note_form,
                           action_form=EmptyForm(), rating_labels=RATING_LABELS,
                           explanations=explanations_for(card.question, lang=str(get_locale()))), status


@bp.route("/cards/<int:card_id>")
@login_required
def card(card_id: int):
    card = _card_or_404(card_id)
    return _render_card(card, NoteForm(note=card.note))


@bp.route("/cards/<int:card_id>/note", methods=["POST"])
@login_required
def save_note(card_id: int):
    card = _card_or_404(card_id, for_update=True)
    form = NoteForm()
    if not form.validate():
        db.session.rollback()
        return _render_card(card, form, 400)
    card.note = form.note.data or ""
    db.session.commit()
    flash(_("Note saved."), "success")
    return redirect(_back(url_for("drill.card", card_id=card.id)))


def _back(default: str) -> str:
    return safe_local_target(request.form.get("next"), default)


@bp.route("/cards/<int:card_id>/<action>", methods=["GET", "POST"])
@login_required
def card_action(card_id: int, action: str):
    if action not in {"bury", "suspend", "unsuspend", "remove"}:
        abort(404)
    if request.method == "GET":
        if action != "remove":
            abort(405)
        # Removing deletes history: confirm first (GET never changes anything).
        return render_template("drill/remove.html", card=_card_or_404(card_id), action_form=EmptyForm())
    if not EmptyForm().validate():
        abort(400)
    card = _card_or_404(card_id, for_update=True)
    user = signed_in_user()
    if action == "bury":
        bury(card, user, _now())
        message = _("Card buried until tomorrow.")
    elif action == "suspend":
        set_suspended(card, True)
        message = _("Card suspended. Unsuspend it from your study list.")
    elif action == "unsuspend":
        set_suspended(card, False)
        message = _("Card unsuspended.")
    else:
        db.session.delete(card)
        message = _("Card removed from your study, with its review history.")
    db.session.commit()
    flash(message, "success")
    return redirect(_back(url_for("drill.drill")))
