"""Account forms: registration, login, password change, study settings.

Labels, descriptions and messages are lazy gettext strings: they are translated when a form is
rendered, in the language of that request.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (BooleanField, DecimalField, EmailField, HiddenField, IntegerField, PasswordField,
                     SelectField, StringField, SubmitField)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (DataRequired, Email, EqualTo, Length, NumberRange, Optional, StopValidation,
                                ValidationError)

from ..drill.scheduling import MAX_STEPS, SchedulingError, StepTooLong, TooManySteps, parse_steps
from ..i18n import LANGUAGES
from ..zones import user_zones
from .errors import password_refusal
from .passwords import MAX_LENGTH

_ZONES = sorted(user_zones())


def timezone_choices() -> list[SelectChoice]:
    return [SelectChoice(z, z.replace("_", " ")) for z in _ZONES]


def language_choices() -> list[SelectChoice]:
    """"Follow the browser" (stored as no language), then each UI language in its own name."""
    return [SelectChoice("", _("Follow the browser")),
            *(SelectChoice(code, name, render_kw={"lang": "zh-CN" if code == "zh" else code})
              for code, name in LANGUAGES.items())]


def password_message(password: str) -> str | None:
    """The policy's reason for refusing ``password`` (prep.accounts.passwords), in the UI language."""
    refusal = password_refusal(password)
    return None if refusal is None else str(refusal)


def _check_password(form: FlaskForm, field: PasswordField) -> None:
    problem = password_message(field.data or "")
    if problem:
        raise ValidationError(problem)


def _strip(value: str | None) -> str | None:
    return value.strip() if isinstance(value, str) else value


class RegisterForm(FlaskForm):
    """Only the address: the password is chosen on the page the mailed link opens
    (:class:`ConfirmRegistrationForm`; why in prep.accounts.registration)."""

    email = EmailField(_l("Email"), validators=[DataRequired(), Email(message=_l("Enter a valid email address.")),
                                                Length(max=254)], filters=[_strip])
    submit = SubmitField(_l("Create account"))


class ConfirmRegistrationForm(FlaskForm):
    """The page the registration link opens: the new account's password, name and time zone."""

    display_name = StringField(_l("Name (optional)"), validators=[Optional(), Length(max=80)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), _check_password],
                             description=_l("At least 8 characters; a long passphrase is best."))
    confirm = PasswordField(_l("Repeat password"),
                            validators=[DataRequired(), EqualTo("password", message=_l("The passwords differ."))])
    timezone = HiddenField(default="UTC")
    submit = SubmitField(_l("Create my account"))


class LoginForm(FlaskForm):
    email = EmailField(_l("Email"), validators=[DataRequired(), Length(max=254)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=MAX_LENGTH)])
    remember = BooleanField(_l("Keep me logged in on this device"))
    submit = SubmitField(_l("Log in"))


class PasswordChangeForm(FlaskForm):
    current = PasswordField(_l("Current password"), validators=[DataRequired()])
    password = PasswordField(_l("New password"), validators=[DataRequired(), _check_password])
    confirm = PasswordField(_l("Repeat new password"),
                            validators=[DataRequired(), EqualTo("password", message=_l("The passwords differ."))])
    submit = SubmitField(_l("Change password"))


def _check_steps(form: FlaskForm, field: StringField) -> None:
    try:
        steps = parse_steps(field.data or "")
    except StepTooLong:
        raise ValidationError(_("A learning step may be at most a year (365d).")) from None
    except TooManySteps:
        raise ValidationError(_("At most %(num)s steps.", num=MAX_STEPS)) from None
    except SchedulingError:
        bad = next((part for part in (field.data or "").split() if not _is_step(part)), field.data or "")
        raise ValidationError(_("bad step %(step)s: use a number and a unit, like 1m, 10m, 1h or 1d",
                                step=repr(bad[:20]))) from None
    if field.name == "learning_steps" and not steps:
        raise ValidationError(_("Give at least one learning step, e.g. 1m 10m."))


def _is_step(part: str) -> bool:
    try:
        parse_steps(part)
        return True
    except SchedulingError:
        return False


def _finite(form: FlaskForm, field: DecimalField) -> None:
    """NaN, sNaN and infinities are not numbers a setting can take (and sNaN cannot be compared)."""
    # The data is a Decimal when the form sent the field, the stored float when it did not.
    if field.data is not None and not Decimal(str(field.data)).is_finite():
        raise StopValidation(_("Enter a number."))


class SettingsForm(FlaskForm):
    display_name = StringField(_l("Name"), validators=[Optional(), Length(max=80)])
    language = SelectField(_l("Language"), choices=language_choices, default="",
                           validate_choice=False,  # absent or unknown: follow the browser
                           description=_l("The language of the pages. Explanations are shown in it when they "
                                          "have been written in it."))
    timezone = SelectField(_l("Time zone"), choices=timezone_choices, validators=[DataRequired()])
    day_start_hour = IntegerField(_l("New day starts at (hour, 0–23)"), validators=[NumberRange(0, 23)])
    new_per_day = IntegerField(_l("New cards per day"), validators=[NumberRange(0, 9999)])
    reviews_per_day = IntegerField(_l("Maximum reviews per day"), validators=[NumberRange(0, 99999)])
    desired_retention = DecimalField(_l("Desired retention (0.70–0.99)"), places=2,
                                     validators=[_finite, NumberRange(0.70, 0.99)])
    learning_steps = StringField(_l("Learning steps"), validators=[Length(max=120), _check_steps],
                                 description=_l("Space-separated, e.g. 1m 10m"))
    relearning_steps = StringField(_l("Relearning steps"), validators=[Length(max=120), _check_steps],
                                   description=_l("e.g. 10m (empty: straight back to review)"))
    maximum_interval = IntegerField(_l("Maximum interval (days)"), validators=[NumberRange(1, 36500)])
    submit = SubmitField(_l("Save settings"))

    def show(self, user: Any) -> None:
        """Fill the fields a GET shows that ``obj=user`` cannot (rounded retention, "follow the browser")."""
        self.desired_retention.data = Decimal(str(round(user.desired_retention, 2)))
        self.language.data = user.language or ""

    def apply_to(self, user: Any) -> None:
        """Store the validated settings on ``user`` (an unknown language means "follow the browser")."""
        user.display_name = (self.display_name.data or "").strip()
        user.language = self.language.data if self.language.data in LANGUAGES else None
        user.timezone = self.timezone.data
        user.day_start_hour = self.day_start_hour.data
        user.new_per_day = self.new_per_day.data
        user.reviews_per_day = self.reviews_per_day.data
        user.desired_retention = float(self.desired_retention.data)
        user.learning_steps = " ".join(self.learning_steps.data.split())
        user.relearning_steps = " ".join(self.relearning_steps.data.split())
        user.maximum_interval = self.maximum_interval.data


class ForgotPasswordForm(FlaskForm):
    email = EmailField(_l("Email"), validators=[DataRequired(), Email(message=_l("Enter a valid email address.")),
                                                Length(max=254)], filters=[_strip])
    submit = SubmitField(_l("Send reset link"))


class ResetPasswordForm(FlaskForm):
    password = PasswordField(_l("New password"), validators=[DataRequired(), _check_password],
                             description=_l("At least 8 characters; a long passphrase is best."))
    confirm = PasswordField(_l("Repeat new password"),
                            validators=[DataRequired(), EqualTo("password", message=_l("The passwords differ."))])
    submit = SubmitField(_l("Set new password"))
