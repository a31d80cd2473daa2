"""Instructor forms: the explanation editor and link decisions."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, Length, Regexp


class EditorForm(FlaskForm):
    # Regexp matches at the start only; \Z (not $) also refuses a trailing newline.
    area = StringField(_l("Area (folder)"), validators=[
        DataRequired(), Regexp(r"[a-z0-9][a-z0-9-]{0,59}\Z", message=_l("Lower-case letters, digits and hyphens."))],
        description=_l("The folder under content/, e.g. collectives, networking, gpu."))
    text = TextAreaField(_l("Markdown file (front matter, then the explanation)"),
                         validators=[DataRequired(message=_l("The file is empty.")), Length(max=200_000)])
    preview = SubmitField(_l("Preview"))
    save = SubmitField(_l("Save"))


class LinkForm(FlaskForm):
    slug = StringField(_l("Explanation slug"), validators=[DataRequired(), Length(max=120)],
                       description=_l("e.g. ring-allreduce"))
    submit = SubmitField(_l("Link"))
