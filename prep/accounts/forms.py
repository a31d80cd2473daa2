"""Account forms: registration, login, password change, study settings."""
from __future__ import annotations

from zoneinfo import available_timezones

from flask_wtf import FlaskForm
from wtforms import (BooleanField, DecimalField, EmailField, HiddenField, IntegerField, PasswordField,
                     SelectField, StringField, SubmitField)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Email, EqualTo, Length, NumberRange, Optional, ValidationError

from ..drill.scheduling import SchedulingError, parse_steps
from .passwords import MAX_LENGTH, password_problem

_ZONES = sorted(available_timezones() - {"localtime", "Factory"})


def timezone_choices() -> list[SelectChoice]:
    return [SelectChoice(z, z.replace("_", " ")) for z in _ZONES]


def _check_password(form: FlaskForm, field: PasswordField) -> None:
    problem = password_problem(field.data or "")
    if problem:
        raise ValidationError(problem)


class RegisterForm(FlaskForm):
    email = EmailField("Email", validators=[DataRequired(), Email(message="Enter a valid email address."),
                                            Length(max=254)])
    display_name = StringField("Name (optional)", validators=[Optional(), Length(max=80)])
    password = PasswordField("Password", validators=[DataRequired(), _check_password],
                             description="At least 8 characters; a long passphrase is best.")
    confirm = PasswordField("Repeat password",
                            validators=[DataRequired(), EqualTo("password", message="The passwords differ.")])
    timezone = HiddenField(default="UTC")
    submit = SubmitField("Create account")


class LoginForm(FlaskForm):
    email = EmailField("Email", validators=[DataRequired(), Length(max=254)])
    password = PasswordField("Password", validators=[DataRequired(), Length(max=MAX_LENGTH)])
    remember = BooleanField("Keep me logged in on this device")
    submit = SubmitField("Log in")


class PasswordChangeForm(FlaskForm):
    current = PasswordField("Current password", validators=[DataRequired()])
    password = PasswordField("New password", validators=[DataRequired(), _check_password])
    confirm = PasswordField("Repeat new password",
                            validators=[DataRequired(), EqualTo("password", message="The passwords differ.")])
    submit = SubmitField("Change password")


def _check_steps(form: FlaskForm, field: StringField) -> None:
    try:
        steps = parse_steps(field.data or "")
    except SchedulingError as err:
        raise ValidationError(str(err)) from None
    if field.name == "learning_steps" and not steps:
        raise ValidationError("Give at least one learning step, e.g. 1m 10m.")


class SettingsForm(FlaskForm):
    display_name = StringField("Name", validators=[Optional(), Length(max=80)])
    timezone = SelectField("Time zone", choices=timezone_choices, validators=[DataRequired()])
    day_start_hour = IntegerField("New day starts at (hour, 0–23)", validators=[NumberRange(0, 23)])
    new_per_day = IntegerField("New cards per day", validators=[NumberRange(0, 9999)])
    reviews_per_day = IntegerField("Maximum reviews per day", validators=[NumberRange(0, 99999)])
    desired_retention = DecimalField("Desired retention (0.70–0.99)", places=2,
                                     validators=[NumberRange(0.70, 0.99)])
    learning_steps = StringField("Learning steps", validators=[Length(max=120), _check_steps],
                                 description="Space-separated, e.g. 1m 10m")
    relearning_steps = StringField("Relearning steps", validators=[Length(max=120), _check_steps],
                                   description="e.g. 10m (empty: straight back to review)")
    maximum_interval = IntegerField("Maximum interval (days)", validators=[NumberRange(1, 36500)])
    submit = SubmitField("Save settings")
