"""Instructor forms: the explanation editor and link decisions."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField, SubmitField, TextAreaField
from wtforms.validators import DataRequired, Length, Regexp


class EditorForm(FlaskForm):
    area = StringField("Area (folder)", validators=[
        DataRequired(), Regexp(r"^[a-z0-9][a-z0-9-]{0,59}$", message="Lower-case letters, digits and hyphens.")],
        description="The folder under content/, e.g. collectives, networking, gpu.")
    text = TextAreaField("Markdown file (front matter, then the explanation)",
                         validators=[DataRequired(message="The file is empty."), Length(max=200_000)])
    preview = SubmitField("Preview")
    save = SubmitField("Save")


class LinkForm(FlaskForm):
    slug = StringField("Explanation slug", validators=[DataRequired(), Length(max=120)])
    submit = SubmitField("Link")
