"""Reminder forms: the settings page (its buttons use :class:`prep.web.forms.EmptyForm`). Each
channel of :data:`prep.reminders.channels.CHANNELS` adds its own fields and checks them."""
from __future__ import annotations

from datetime import time
from typing import Any

from flask import current_app
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, SubmitField, TimeField
from wtforms.validators import InputRequired

from .channels import CHANNELS, swept


class ReminderSettingsForm(FlaskForm):
    enabled = BooleanField(_l("Remind me once a day when I have cards to review"))
    remind_at = TimeField(_l("Reminder time (your local time)"), format="%H:%M",
                          validators=[InputRequired(message=_l("Give a time of day, e.g. 09:00."))],
                          description=_l("On a day the clocks change, a time that is skipped fires when the clock passes it."))
    submit = SubmitField(_l("Save reminder settings"))

    def validate(self, extra_validators=None) -> bool:  # type: ignore[override]
        ok = super().validate(extra_validators)
        for channel in CHANNELS.values():
            ok = channel.validate(self, current_app.config) and ok
        first = swept()[0].name
        if ok and self.enabled.data and not any(self[c.name].data for c in swept()):
            self[first].errors = [*self[first].errors,
                                  _l("Choose at least one way to be reminded (or turn reminders off).")]
            return False
        return ok

    def show(self, row: Any, channels: dict[str, Any]) -> None:
        """Fill the fields from the stored settings (a ``ReminderSettings`` row and the user's
        ``ReminderChannel`` rows by channel name)."""
        self.enabled.data = row.enabled
        self.remind_at.data = time(row.remind_minute // 60, row.remind_minute % 60)
        for channel in CHANNELS.values():
            channel.show(self, channels.get(channel.name))

    def apply_to(self, row: Any, channel_row: Any) -> None:
        """Store the validated settings on ``row`` (the time as minutes after local midnight) and
        each channel's on the row ``channel_row(name)`` gives."""
        row.enabled = bool(self.enabled.data)
        row.remind_minute = self.remind_at.data.hour * 60 + self.remind_at.data.minute
        for channel in CHANNELS.values():
            if channel.field_names:
                channel.apply(self, channel_row(channel.name))


for _channel in CHANNELS.values():  # each channel's fields, in the registry's order
    for _name, _field in _channel.fields().items():
        setattr(ReminderSettingsForm, _name, _field)
