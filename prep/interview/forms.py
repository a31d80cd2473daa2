"""Interview-mode forms (CSRF-protected): the plan's settings and "how did it go?"."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, RadioField, SelectMultipleField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, NumberRange
from wtforms.widgets import CheckboxInput, ListWidget

from .outcomes import MAX_OTHER_QUESTIONS_CHARS


class PlanSettingsForm(FlaskForm):
    enabled = BooleanField(_l("Interview mode: plan my reviews for the interview day"))
    target = IntegerField(_l("Target recall on the day (%)"), validators=[
        InputRequired(_l("Enter a whole number of percent.")),
        NumberRange(50, 99, _l("Enter a percentage between 50 and 99."))],
        description=_l("The share of the questions you want to recall on the interview day."))
    budget = IntegerField(_l("Daily budget (minutes)"), validators=[
        InputRequired(_l("Enter a whole number of minutes.")),
        NumberRange(1, 600, _l("Enter between 1 and 600 minutes."))],
        description=_l("The most minutes a day the plan may use, reviews of your other cards included."))
    submit = SubmitField(_l("Save and plan again"))


class OutcomeForm(FlaskForm):
    came_up = SelectMultipleField(_l("Which of the posting's questions came up?"), coerce=int, choices=[],
                                  widget=ListWidget(prefix_label=False), option_widget=CheckboxInput(),
                                  validate_choice=True)
    other_questions = TextAreaField(_l("Other questions you were asked (one a line)"), validators=[
        Length(max=MAX_OTHER_QUESTIONS_CHARS, message=_l("At most %(max)d characters."))])
    rating = RadioField(_l("How did the day go?"), coerce=int, validators=[
        InputRequired(_l("Choose a rating from 1 to 5."))],
        choices=[SelectChoice(1, _l("1 — badly")), SelectChoice(2, "2"), SelectChoice(3, _l("3 — so-so")),
                 SelectChoice(4, "4"), SelectChoice(5, _l("5 — very well"))])
    submit = SubmitField(_l("Save"))
