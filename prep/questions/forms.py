"""Question bank forms."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectField, StringField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, ValidationError


def _tags_ok(form: FlaskForm, field: StringField) -> None:
    tags = [t.strip() for t in (field.data or "").split(",") if t.strip()]
    if len(tags) > 10:
        raise ValidationError("Use at most 10 tags.")
    if any(len(t) > 60 for t in tags):
        raise ValidationError("Each tag must be at most 60 characters.")


class QuestionForm(FlaskForm):
    text = TextAreaField("Question", validators=[DataRequired(message="Write the question."),
                                                 Length(min=5, max=1000)])
    lang = SelectField("Language", choices=[SelectChoice("auto", "Detect"), SelectChoice("en", "English"),
                                                SelectChoice("zh", "中文")], default="auto")
    tags = StringField("Tags (comma-separated)", validators=[Length(max=700), _tags_ok])
    submit = SubmitField("Add question to my study")


class StudyTagForm(FlaskForm):
    tag = StringField(validators=[DataRequired(), Length(max=80)])
    submit = SubmitField("Study all")
