"""Reminder pages: settings, notifications, the calendar feed and one-click unsubscribe."""
from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import login_required

from .. import clock
from ..extensions import csrf, db
from ..web.access import signed_in_user
from ..web.forms import EmptyForm
from . import service, timing
from .channels import CHANNELS
from .forms import ReminderSettingsForm

bp = Blueprint("reminders", __name__)


@bp.route("/settings/reminders", methods=["GET", "POST"])
@login_required
def settings():
    user = signed_in_user()
    row = service.settings_for(user)
    form = ReminderSettingsForm()
    if form.validate_on_submit():
        row = service.settings_for(user, create=True)
        form.apply_to(row, lambda name: service.channel_row(user, name))
        db.session.commit()
        flash(_("Reminder settings saved."), "success")
        return redirect(url_for("reminders.settings"))
    if not form.is_submitted():
        form.show(row, service.channel_settings(user))
    now = clock.now()
    # Under PREP_BASE_URL, as in the emails: never the Host header a request came with.
    calendar_url = (service.external_url("reminders.calendar_feed", token=row.calendar_token)
                    if row.calendar_token else None)
    return render_template(
        "reminders/settings.html", form=form, action_form=EmptyForm(), user=user, row=row,
        calendar_url=calendar_url, next_at=service.next_reminder_at(user, row, now),
        channels=[c for c in CHANNELS.values() if c.field_names], registry=CHANNELS, last=service.last_deliveries(user),
        log=service.recent_log(user), format_minute=timing.format_minute), (400 if form.errors else 200)


@bp.route("/settings/reminders/calendar", methods=["POST"])
@login_required
def reset_calendar():
    if not EmptyForm().validate():
        abort(400)
    had = service.settings_for(signed_in_user()).calendar_token is not None
    service.reset_calendar_token(signed_in_user())
    db.session.commit()
    flash(_("New calendar link made; the old one no longer works.") if had else _("Calendar link made."), "success")
    return redirect(url_for("reminders.settings") + "#calendar")


@bp.route("/calendar/<token>.ics")
def calendar_feed(token: str):
    row = service.settings_for_calendar_token(token)
    if row is None:
        abort(404)
    body = service.calendar_feed(row, clock.now())
    db.session.rollback()
    return Response(body, mimetype="text/calendar", headers={
        "Content-Disposition": 'inline; filename="prep-reviews.ics"',
        "Cache-Control": "private, max-age=300",
        "Referrer-Policy": "no-referrer",
    })


@bp.route("/notifications")
@login_required
def notifications():
    items = service.notifications(signed_in_user())
    return render_template("reminders/notifications.html", items=items, action_form=EmptyForm())


@bp.route("/notifications/<int:notification_id>/dismiss", methods=["POST"])
@bp.route("/notifications/dismiss", methods=["POST"], defaults={"notification_id": None})
@login_required
def dismiss(notification_id: int | None):
    if not EmptyForm().validate():
        abort(400)
    changed = service.dismiss(signed_in_user(), notification_id, clock.now())
    db.session.commit()
    if notification_id is not None and not changed:
        abort(404)
    return redirect(url_for("reminders.notifications"))


@bp.route("/unsubscribe/<token>", methods=["GET"])
def unsubscribe_confirm(token: str):
    """GET never changes anything (link scanners follow links): it shows a confirm button."""
    user = service.user_for_unsubscribe(token)
    if user is None:
        abort(404)
    return render_template("reminders/unsubscribe.html", token=token, email=user.email, done=False)


@bp.route("/unsubscribe/<token>", methods=["POST"])
@csrf.exempt  # RFC 8058: mail clients POST "List-Unsubscribe=One-Click" with no token; the signature is the proof
def unsubscribe(token: str):
    user = service.user_for_unsubscribe(token)
    if user is None:
        abort(404)
    service.unsubscribe(user)
    db.session.commit()
    return render_template("reminders/unsubscribe.html", token=token, email=user.email, done=True)
