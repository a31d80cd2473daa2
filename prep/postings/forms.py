"""Postings forms: import by pasting or uploading (CSRF-protected), and bare POST buttons."""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import DateField, SubmitField, TextAreaField
from wtforms.validators import Optional

from .decode import MAX_POSTING_BYTES


class ImportPostingForm(FlaskForm):
    text = TextAreaField(_l("Paste the posting"), validators=[Optional()],
                         description=_l("Copy the whole page from the job board; page furniture is fine."))
    file = FileField(_l("…or upload a file"), validators=[Optional()],
                     description=_l("A text file or a saved HTML page (UTF-8, UTF-16 or GB18030/GBK), "
                                             "up to %(mb)s MB.", mb=MAX_POSTING_BYTES // 1_000_000))
    submit = SubmitField(_l("Import posting"))

    def validate(self, extra_validators: Any = None) -> bool:
        """Exactly one of the two: pasted text or a file."""
        if not super().validate(extra_validators):
            return False
        has_text = bool((self.text.data or "").strip())
        has_file = self.file.data is not None
        if has_text and has_file:
            self.text.errors.append(_l("Paste the text or upload a file, not both."))
            return False
        if not has_text and not has_file:
            if self.text.data:
                self.text.errors.append(_l("The posting is empty."))
            else:
                self.text.errors.append(_l("Paste the posting here, or choose a file below."))
            return False
        return True


class PostingActionForm(FlaskForm):
    """A bare form for POST buttons (study, delete)."""

    submit = SubmitField()


class InterviewDateForm(FlaskForm):
    """The date of the interview for this posting (empty clears it)."""

    interview_date = DateField(_l("Interview date"), validators=[Optional()])
    submit = SubmitField(_l("Save date"))
