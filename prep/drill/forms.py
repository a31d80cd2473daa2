"""Drill forms: rating and notes (CSRF-protected; the buttons use :class:`prep.web.forms.EmptyForm`)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SubmitField, TextAreaField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional


class RateForm(FlaskForm):
    card_id = IntegerField(validators=[InputRequired(), NumberRange(min=0, max=2**31 - 1)])
    version = IntegerField(validators=[InputRequired(), NumberRange(min=0, max=2**31 - 1)])
    rating = IntegerField(validators=[InputRequired(), AnyOf([1, 2, 3, 4], message=_l("Rating must be 1–4."))])
    duration_ms = IntegerField(validators=[Optional(), NumberRange(min=0)])  # clamped by the route
    shown_at = HiddenField()


class NoteForm(FlaskForm):
    note = TextAreaField(_l("Your note"), validators=[Length(max=20000)],
                         description=_l("Shown on the answer side, under the explanation if there is one."))
    submit = SubmitField(_l("Save note"))
