"""Drill forms: rating and notes (CSRF-protected; the buttons use :class:`prep.web.forms.EmptyForm`)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectMultipleField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from .self_grading import MAX_POINTS


class RateForm(FlaskForm):
    card_id = IntegerField(validators=[InputRequired(), NumberRange(min=0, max=2**31 - 1)])
    version = IntegerField(validators=[InputRequired(), NumberRange(min=0, max=2**31 - 1)])
    rating = IntegerField(validators=[InputRequired(), AnyOf([1, 2, 3, 4], message=_l("Rating must be 1–4."))])
    duration_ms = IntegerField(validators=[Optional(), NumberRange(min=0)])  # clamped by the route
    shown_at = HiddenField()
    # The key-point checklist: the explanation whose points were shown, and the ticked indices.
    key_points_of = IntegerField(validators=[Optional(), NumberRange(min=1, max=2**31 - 1)])
    key_point = SelectMultipleField(coerce=int, choices=[SelectChoice(str(i)) for i in range(MAX_POINTS)],
                                    validate_choice=True)


class NoteForm(FlaskForm):
    note = TextAreaField(_l("Your note"), validators=[Length(max=20000)],
                         description=_l("Shown on the answer side, under the explanation if there is one."))
    submit = SubmitField(_l("Save note"))
