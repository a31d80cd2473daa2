"""Shared reports' forms: the author's text before sending, an instructor's reason for returning
one, the browse list's filters (all CSRF-protected but the filters, which are a GET)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Form, SelectField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, Length

from .service import MAX_REASON_CHARS, MAX_SHARE_CHARS


class ShareForm(FlaskForm):
    """The anonymised report, as the author edits it before sending it for review."""

    text = TextAreaField(_l("What others will read"), validators=[Length(max=MAX_SHARE_CHARS)],
                         description=_l("Names, e-mail addresses, phone numbers, WeChat and QQ ids and personal "
                                        "links were replaced and dates kept to the month. Read it through: "
                                        "remove anything else that says who you or your interviewers are."),
                         render_kw={"rows": 18, "maxlength": MAX_SHARE_CHARS})
    submit = SubmitField(_l("Send for review"))


class RejectForm(FlaskForm):
    """An instructor returns a shared report to its author, saying why."""

    reason = TextAreaField(_l("Why (the author reads it)"), validators=[DataRequired(), Length(max=MAX_REASON_CHARS)],
                           render_kw={"rows": 2, "maxlength": MAX_REASON_CHARS})
    submit = SubmitField(_l("Return to the author"))


class FilterForm(Form):
    """The browse list's filters, read from the query string."""

    company = SelectField(_l("Company"), choices=[], validate_choice=False)
    role = SelectField(_l("Role"), choices=[], validate_choice=False)
    round = SelectField(_l("Round"), choices=[], validate_choice=False)
    submit = SubmitField(_l("Filter"))

    def set_choices(self, choices: dict[str, list[tuple[str, str]]]) -> None:
        """(value, label) pairs per filter, after "Any"."""
        for name in ("company", "role", "round"):
            getattr(self, name).choices = [("", _l("Any")), *choices[name]]
