"""The statistics page (a candidate's own charts and leeches) and instructors' question difficulty."""
from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, render_template
from flask_babel import format_date
from flask_babel import gettext as _
from flask_login import login_required

from .. import clock
from ..drill import queue, queue_queries
from ..web.access import instructor_required, signed_in_user
from ..web.args import page_arg
from ..zones import user_zone
from . import compute, queries

bp = Blueprint("stats", __name__, url_prefix="/stats")


def _day_label(day) -> str:
    """A short axis label for a day in the user's language ("03 Dec", "12月3日")."""
    # TRANSLATORS: a CLDR date pattern for chart axis labels.
    return format_date(day, _("dd MMM"))


def _month_label(day) -> str:
    """A month's short name in the user's language ("Dec", "12月")."""
    # TRANSLATORS: a CLDR date pattern for the heatmap's month labels.
    return format_date(day, _("MMM"))


def _state_label(state: str) -> str:
    """A card state's name on the chart, in the user's language (as the state_label macro)."""
    return str({"new": _("New"), "learning": _("Learning"), "review": _("Review"), "relearning": _("Relearning"),
                "suspended": _("Suspended")}.get(state, state))


def _age_label(age: str) -> str:
    """A card age's name on the answer-buttons chart (as Anki's: learning, young, mature)."""
    return str({"learning": _("Learning"), "young": _("Young"), "mature": _("Mature")}.get(age, age))


def _answer_buttons(user, today: queue.StudyDay, tz) -> dict:
    first = queue.day_bounds(today.day - timedelta(days=compute.BUTTON_DAYS - 1), tz, user.day_start_hour)
    buttons = compute.answer_buttons(queries.answer_button_rows(user, first, today), today.day)
    return {"buttons": buttons, "age_chart": compute.buttons_by_age_chart(buttons, _age_label),
            "button_day_chart": compute.buttons_by_day_chart(buttons, _day_label)}


@bp.route("")
@login_required
def index():
    user = signed_in_user()
    now = clock.now()
    today = queue_queries.study_day(user, now)
    tz = user_zone(user.timezone)
    first = queue.day_bounds(today.day - timedelta(days=compute.HEATMAP_DAYS - 1), tz, user.day_start_hour)
    activity = queries.daily_activity(user, first, today)
    heat = compute.heatmap({d: a.reviews for d, a in activity.items()}, today.day, month_label=_month_label)
    minutes = compute.daily_series({d: a.duration_ms / 60000 for d, a in activity.items()}, today.day,
                                   compute.TIME_DAYS)
    time_chart = compute.bar_chart([_day_label(d) for d, _m in minutes], [round(m, 1) for _d, m in minutes])
    due = compute.forecast(queries.due_by_day(user, today), today.day)
    forecast_chart = compute.bar_chart([_day_label(d) for d, _n in due], [n for _d, n in due])
    weeks = compute.retention_weeks(queries.retention_rows(user, today), today.day)
    states = compute.state_counts(queries.state_rows(user))
    return render_template(
        "stats/index.html", heat=heat, minutes=minutes, time_chart=time_chart, due=due,
        forecast_chart=forecast_chart, weeks=weeks, retention_chart=compute.retention_chart(weeks, user.desired_retention,
                                                                          day_label=_day_label),
        desired=user.desired_retention, states=states, state_chart=compute.state_bar_chart(states, label=_state_label),
        leeches=queries.leeches(user), leech_lapses=compute.LEECH_LAPSES, q=queue_queries.queue_counts(user, now),
        age_label=_age_label, **_answer_buttons(user, today, tz),
    )


@bp.route("/questions")
@instructor_required
def questions():
    page = page_arg()
    per_page = 25
    rows, total = queries.question_difficulty(clock.now(), page, per_page)
    pages = max(1, -(-total // per_page))
    return render_template("stats/questions.html", rows=rows, total=total, page=page, pages=pages,
                           min_learners=queries.MIN_LEARNERS, leech_lapses=compute.LEECH_LAPSES)
