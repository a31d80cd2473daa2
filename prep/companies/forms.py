"""The company page's "Study the top N" form (N and the filters the list is narrowed to)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField
from wtforms.validators import InputRequired, NumberRange

from .filters import STUDY_DEFAULT, STUDY_MAX, STUDY_MIN, Filters, read_filters


class StudyTopForm(FlaskForm):
    n = IntegerField(_l("How many"), default=STUDY_DEFAULT, validators=[
        InputRequired(_l("Say how many questions to study.")),
        NumberRange(STUDY_MIN, STUDY_MAX, _l("Choose between %(min)s and %(max)s questions.",
                                             min=STUDY_MIN, max=STUDY_MAX))])
    round = HiddenField()
    kind = HiddenField()
    lang = HiddenField()
    role = HiddenField()

    def filters(self) -> Filters:
        """The filters the list was narrowed to (each dropped when it is not an allowed value)."""
        return read_filters({name: getattr(self, name).data or "" for name in ("round", "kind", "lang", "role")})

    @classmethod
    def for_filters(cls, filters: Filters) -> StudyTopForm:
        """An unsubmitted form that studies the list narrowed by ``filters``."""
        return cls(formdata=None, **filters.as_args())
