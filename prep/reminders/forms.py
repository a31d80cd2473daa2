"""Reminder forms: the settings page (its buttons use :class:`prep.web.forms.EmptyForm`)."""
from __future__ import annotations

from datetime import time
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, SubmitField, TimeField
from wtforms.validators import InputRequired


class ReminderSettingsForm(FlaskForm):
    enabled = BooleanField(_l("Remind me once a day when I have cards to review"))
    remind_at = TimeField(_l("Reminder time (your local time)"), format="%H:%M",
                          validators=[InputRequired(message=_l("Give a time of day, e.g. 09:00."))],
                          description=_l("On a day the clocks change, a time that is skipped fires when the clock passes it."))
    email = BooleanField(_l("By email"))
    in_app = BooleanField(_l("In the app (a banner and your notifications)"))
    submit = SubmitField(_l("Save reminder settings"))

    def validate(self, extra_validators=None) -> bool:  # type: ignore[override]
        ok = super().validate(extra_validators)
        if ok and self.enabled.data and not (self.email.data or self.in_app.data):
            self.email.errors = [*self.email.errors, _l("Choose email, in-app or both (or turn reminders off).")]
            return False
        return ok

    def show(self, row: Any) -> None:
        """Fill the fields from the stored settings (a ``ReminderSettings`` row)."""
        self.enabled.data, self.email.data, self.in_app.data = row.enabled, row.email, row.in_app
        self.remind_at.data = time(row.remind_minute // 60, row.remind_minute % 60)

    def apply_to(self, row: Any) -> None:
        """Store the validated settings on ``row`` (the time as minutes after local midnight)."""
        row.enabled = bool(self.enabled.data)
        row.remind_minute = self.remind_at.data.hour * 60 + self.remind_at.data.minute
        row.email = bool(self.email.data)
        row.in_app = bool(self.in_app.data)
