"""Reminder forms: the settings page (its buttons use :class:`prep.web.forms.EmptyForm`)."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, SubmitField, TimeField
from wtforms.validators import InputRequired


class ReminderSettingsForm(FlaskForm):
    enabled = BooleanField("Remind me once a day when I have cards to review")
    remind_at = TimeField("Reminder time (your local time)", format="%H:%M",
                          validators=[InputRequired(message="Give a time of day, e.g. 09:00.")],
                          description="On a day the clocks change, a time that is skipped fires when the clock passes it.")
    email = BooleanField("By email")
    in_app = BooleanField("In the app (a banner and your notifications)")
    submit = SubmitField("Save reminder settings")

    def validate(self, extra_validators=None) -> bool:  # type: ignore[override]
        ok = super().validate(extra_validators)
        if ok and self.enabled.data and not (self.email.data or self.in_app.data):
            self.email.errors = [*self.email.errors, "Choose email, in-app or both (or turn reminders off)."]
            return False
        return ok
