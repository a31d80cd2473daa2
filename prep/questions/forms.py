"""Question bank forms."""
from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectField, StringField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, ValidationError


def _tags_ok(form: FlaskForm, field: StringField) -> None:
    tags = [t.strip() for t in (field.data or "").split(",") if t.strip()]
    if len(tags) > 10:
        raise ValidationError(_("Use at most 10 tags."))
    if any(len(t) > 60 for t in tags):
        raise ValidationError(_("Each tag must be at most 60 characters."))


class QuestionForm(FlaskForm):
    text = TextAreaField(_l("Question"), validators=[DataRequired(message=_l("Write the question.")),
                                                     Length(min=5, max=1000)])
    lang = SelectField(_l("Language of the question"),
                       choices=[SelectChoice("auto", _l("Detect")),
                                SelectChoice("en", "English", render_kw={"lang": "en"}),
                                SelectChoice("zh", "中文", render_kw={"lang": "zh-CN"})], default="auto")
    tags = StringField(_l("Tags (comma-separated)"), validators=[Length(max=700), _tags_ok],
                       description=_l("e.g. NCCL, RDMA, 集合通信"))
    submit = SubmitField(_l("Add question to my study"))


class StudyTagForm(FlaskForm):
    tag = StringField(validators=[DataRequired(), Length(max=80)])
    submit = SubmitField(_l("Study all"))


class TranslationForm(FlaskForm):
    """An instructor's link: this question is a translation of question number ``other``."""

    other = IntegerField(_l("Question number of the other wording"),
                         validators=[DataRequired(message=_l("Give the other question's number.")),
                                     NumberRange(min=1)])
    submit = SubmitField(_l("Link as translations"))
