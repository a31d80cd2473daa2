"""Postings forms: import by pasting or uploading, the review checklist, study and interview date (all CSRF-protected)."""
from __future__ import annotations

from datetime import date
from typing import Any

from flask_babel import LazyString, format_date
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (BooleanField, DateField, FieldList, Form, FormField, HiddenField, SelectField, StringField,
                     SubmitField, TextAreaField)
from werkzeug.datastructures import MultiDict
from wtforms.fields.choices import SelectChoice
from wtforms.validators import Length, Optional, ValidationError

from .. import clock
from . import interview_dates
from .decode import FILE_TOO_LARGE, LIMITS, MAX_FILE_BYTES, MAX_POSTING_CHARS, TOO_LONG, limit_params, megabytes
from .errors import InterviewDateError, as_sentence
from .asking import question_kind
from .extract import KINDS, MAX_QUESTIONS, UNCERTAIN_BELOW
from .origins import HOWS, MAX_QUOTE_CHARS
from .sentence_model import match_key
from .service import Preview, Review, ReviewedQuestion

#: The longest question wording the review checklist accepts.
MAX_QUESTION_CHARS = 1000
#: The origin of a question the candidate added on the review page (the others are :data:`.origins.HOWS`).
ADDED = "added"


def _sentences(*parts: str) -> str:
    """Sentences one after another: a space after an English full stop, none after a Chinese one."""
    return "".join(part + ("" if part.endswith("。") or i == len(parts) - 1 else " ") for i, part in enumerate(parts))


class ImportPostingForm(FlaskForm):
    # The limits, stated under the box and checked by the page before sending (static/js/app.js),
    # in the words the server refuses with.
    text = TextAreaField(_l("Paste the posting"), validators=[Optional()],
                         description=LazyString(lambda: _sentences(
                             _("Copy the whole page from the job board; page furniture is fine."),
                             as_sentence(_(LIMITS, **limit_params())))),
                         render_kw={"data-max-chars": MAX_POSTING_CHARS, "data-too-long": LazyString(
                             lambda: as_sentence(_(TOO_LONG, length="{length}", limit=f"{MAX_POSTING_CHARS:,}")))})
    file = FileField(_l("…or upload a file"), validators=[Optional()],
                     description=_l("A text file, a saved HTML page (UTF-8, UTF-16 or GB18030/GBK), a PDF "
                                    "or a Word (.docx) file, at most %(size)s.", size=megabytes(MAX_FILE_BYTES)),
                     render_kw={"data-max-bytes": MAX_FILE_BYTES, "data-too-large": LazyString(
                         lambda: as_sentence(_(FILE_TOO_LARGE, size="{size}", limit=megabytes(MAX_FILE_BYTES))))})
    #: "report" when the candidate came to paste an interview report (the review form then says so).
    kind = HiddenField(validators=[Optional()])
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


class RoleForm(FlaskForm):
    """No posting yet: start from a target role (its skills give the likely questions)."""

    role = SelectField(_l("Target role"), choices=[], validate_choice=True)
    submit = SubmitField(_l("Start from this role"))


class ApprovePendingForm(FlaskForm):
    """An instructor admits a privately imported question to the shared bank, wording fixed."""

    text = TextAreaField(_l("Question"), validators=[Optional(), Length(max=MAX_QUESTION_CHARS)])
    submit = SubmitField(_l("Add to the bank"))


class WithdrawForm(FlaskForm):
    """An instructor withdraws a public question from the shared bank, saying why."""

    reason = TextAreaField(_l("Why (kept in the history)"), validators=[Optional(), Length(max=500)])
    submit = SubmitField(_l("Withdraw from the shared bank"))


class StudyPostingForm(FlaskForm):
    """"Study this posting": its questions, and the likely ones unless unticked."""

    with_likely = BooleanField(_l("Also the likely questions"), default=True)
    submit = SubmitField(_l("Study this posting"))


def interview_date_message(span: interview_dates.DateRange) -> str:
    """What the page says next to an interview date outside ``span`` (today..a year ahead)."""
    return _("Choose a day from today (%(first)s) to a year ahead (%(last)s).",
             first=format_date(span.first, "medium"), last=format_date(span.last, "medium"))


class InterviewDateField(DateField):
    """An interview date: empty, or a day from the form's ``today`` (the candidate's study day)
    to a year ahead (:mod:`.interview_dates`); the browser's picker is held to the same days."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(_l("Enter the date as YYYY-MM-DD.")) from None

    def pre_validate(self, form: Any) -> None:
        try:
            interview_dates.check(self.data, _today_of(form))
        except InterviewDateError:
            raise ValidationError(interview_date_message(interview_dates.allowed(_today_of(form)))) from None


def _today_of(form: Any) -> date:
    today = getattr(form, "today", None)
    return today if today is not None else clock.now().date()


class _WithInterviewDate(FlaskForm):
    """A form with an ``interview_date`` checked against ``today`` (the candidate's study day,
    passed by the view; the UTC date when not given)."""

    interview_date: InterviewDateField

    def __init__(self, *args: Any, today: date | None = None, **kwargs: Any) -> None:
        self.today = today
        super().__init__(*args, **kwargs)
        span = interview_dates.allowed(_today_of(self))
        self.interview_date.render_kw = {**(self.interview_date.render_kw or {}),
                                         "min": span.first.isoformat(), "max": span.last.isoformat()}

    def flag_stored_date(self) -> None:
        """Say next to the field when the date it shows (a stored one, set before dates were
        checked) is more than a year ahead: nothing is planned for it until it is set again."""
        day, today = self.interview_date.data, _today_of(self)
        if day is None or interview_dates.ahead_within_range(day, today):
            return
        self.interview_date.errors = [_("%(date)s is more than a year ahead, so nothing is planned for it.",
                                        date=format_date(day, "medium")),
                                      interview_date_message(interview_dates.allowed(today))]


class InterviewDateForm(_WithInterviewDate):
    """The date of the interview for this posting (empty clears it)."""

    interview_date = InterviewDateField(_l("Interview date"), validators=[Optional()])
    submit = SubmitField(_l("Save date"))


class InterviewDateJsonForm(InterviewDateForm):
    """:class:`InterviewDateForm` read from a JSON body (the app's CSRF protection has checked the
    request's ``X-CSRFToken`` header already); ``readable`` is False for a body that is not
    ``{"interview_date": "YYYY-MM-DD" or null}``."""

    class Meta:
        csrf = False

    readable: bool = True

    def validate(self, extra_validators: Any = None) -> bool:
        if not self.readable:
            self.interview_date.errors = [_("Send the date as {\"interview_date\": \"YYYY-MM-DD\"}, or null to clear it.")]
            return False
        return super().validate(extra_validators)


def interview_date_json_form(body: Any, today: date) -> InterviewDateJsonForm:
    """The interview date form over a JSON body (see :class:`InterviewDateJsonForm`)."""
    value = body.get("interview_date", False) if isinstance(body, dict) else False
    readable = value is None or (isinstance(value, str) and len(value) <= 40)
    form = InterviewDateJsonForm(formdata=MultiDict({"interview_date": value if readable and value else ""}),
                                 today=today)
    form.readable = readable
    return form


def kind_choices() -> list[SelectChoice]:
    return [SelectChoice("concept", _l("Concept")), SelectChoice("coding", _l("Coding")),
            SelectChoice("design", _l("System design")), SelectChoice("behavioural", _l("Behavioural / project"))]


def doc_kind_choices() -> list[SelectChoice]:
    return [SelectChoice("posting", _l("a job posting")), SelectChoice("report", _l("an interview report (面经)"))]


class QuestionRowForm(Form):
    """One row of the review checklist (no CSRF of its own: the outer form carries it)."""

    keep = BooleanField(_l("Keep"))
    text = TextAreaField(_l("Question"), validators=[Optional(), Length(max=MAX_QUESTION_CHARS)])
    kind = SelectField(_l("Kind"), choices=kind_choices, default="concept")
    round = HiddenField(validators=[Optional(), Length(max=60)])
    section = HiddenField(validators=[Optional(), Length(max=120)])
    #: The bank question the import found this one to be (reworded or translated), if any.
    match = HiddenField(validators=[Optional(), Length(max=12)])
    separate = BooleanField(_l("Keep it as a separate question"))
    #: Where the import found it (:class:`.origins.Origin`: how, the document's words) and how sure
    #: it was: shown beside the row, carried through the page's round trips.
    origin = HiddenField(validators=[Optional(), Length(max=20)])
    quote = HiddenField(validators=[Optional(), Length(max=MAX_QUOTE_CHARS)])
    confidence = HiddenField(validators=[Optional(), Length(max=8)])

    def match_id(self) -> int | None:
        """:attr:`match` as a question id (None when empty or not a number)."""
        value = (self.match.data or "").strip()
        return int(value) if value.isdigit() and len(value) <= 12 else None

    def origin_how(self) -> str:
        """:attr:`origin` when it is one the page can say ("" otherwise)."""
        value = (self.origin.data or "").strip()
        return value if value in HOWS or value == ADDED else ""

    def confidence_value(self) -> float | None:
        """:attr:`confidence` as a number in [0, 1] (None when empty or not one)."""
        try:
            value = float((self.confidence.data or "").strip()[:8])
        except ValueError:
            return None
        return value if 0.0 <= value <= 1.0 else None


class ReviewPostingForm(_WithInterviewDate):
    """The review checklist: what was found, editable, and nothing stored until it is submitted.

    ``source`` carries the decoded text back (the candidate's own input; it is decoded and
    checked again on save, so editing it in the page gains nothing).
    """

    source = HiddenField(validators=[Optional()])
    company = StringField(_l("Company"), validators=[Optional(), Length(max=200)])
    title = StringField(_l("Title"), validators=[Optional(), Length(max=300)])
    doc_kind = SelectField(_l("This is"), choices=doc_kind_choices, default="posting")
    interview_date = InterviewDateField(_l("Interview date (if you know it)"), validators=[Optional()],
                               description=_l("Readiness then counts down to that day; you can set it later."))
    questions = FieldList(FormField(QuestionRowForm), max_entries=MAX_QUESTIONS + 20)
    #: A question the import missed, added to the list by :attr:`add` (or kept by saving with it written).
    new_question = TextAreaField(_l("Add a question the import missed"), validators=[Optional()],
                                 render_kw={"data-enter-clicks": "review-add-button"})
    add = SubmitField(_l("Add to the list"))
    submit = SubmitField(_l("Save posting"))

    def validate(self, extra_validators: Any = None) -> bool:
        ok = super().validate(extra_validators)
        if not (self.source.data or "").strip():
            self.source.errors = [*self.source.errors, _l("The posting's text is missing; import it again.")]
            ok = False
        if self.new_wording() and not self.add.data and not self.check_new_question():
            ok = False  # saved with a question written in the "add" field: it is saved too, if it can join
        kept = [row for row in self.questions if row.form.keep.data and (row.form.text.data or "").strip()]
        if len(kept) + bool(self.new_wording()) > MAX_QUESTIONS:
            self.questions.errors = [_l("Keep at most %(max)s questions.", max=MAX_QUESTIONS)]
            ok = False
        return ok

    def new_wording(self) -> str:
        """The question written in the "add" field, its spaces collapsed ("" when empty)."""
        return " ".join((self.new_question.data or "").split())

    def check_new_question(self) -> bool:
        """Whether the question written in the "add" field can join the list; if not, the reason
        is put next to the field (empty, too long, already in the list ticked or unticked)."""
        text = self.new_wording()
        message = None
        if not text:
            message = _("Write the question first, then add it.")
        elif len(text) > MAX_QUESTION_CHARS:
            message = _("A question may be at most %(max)s characters; this one has %(num)s.",
                        max=f"{MAX_QUESTION_CHARS:,}", num=f"{len(text):,}")
        else:
            key = match_key(text) or text.casefold()
            for number, row in enumerate(self.questions, 1):
                wording = (row.form.text.data or "").strip()
                if wording and (match_key(wording) or wording.casefold()) == key:
                    message = (_("This is question %(num)s in the list already.", num=number) if row.form.keep.data
                               else _("This is question %(num)s in the list, unticked: tick it to keep it.", num=number))
                    break
        if message is not None:
            self.new_question.errors = [*self.new_question.errors, message]
        return message is None

    def add_new_question(self) -> bool:
        """Move the question of the "add" field into the list, ticked, and empty the field; False
        (with the reason next to the field) when it cannot join the list."""
        if self.new_question.errors or not self.check_new_question():
            return False
        if len(self.questions) >= (self.questions.max_entries or MAX_QUESTIONS):
            self.new_question.errors = [_("The list is full: it holds at most %(max)s questions.",
                                          max=self.questions.max_entries)]
            return False
        text = self.new_wording()
        self.questions.append_entry({"keep": True, "text": text, "kind": question_kind(text), "round": "", "section": "",
                                     "match": "", "separate": False, "origin": ADDED, "quote": "", "confidence": ""})
        self.new_question.data = ""
        return True

    @classmethod
    def from_preview(cls, preview: Preview, kind: str | None = None, *, today: date | None = None) -> ReviewPostingForm:
        """The checklist for a previewed posting: every question found, in the document's order,
        with where it was found (the uncertain ones unticked); the "add" field below it is empty."""
        result = preview.result
        assert result is not None
        matches = preview.matches or [None] * len(result.questions)
        rows = [{"keep": q.confidence >= UNCERTAIN_BELOW, "text": q.text, "kind": q.kind, "round": q.round or "",
                 "section": q.section or "", "separate": False,
                 "match": str(m.question_id) if m is not None and not m.exact else "",
                 "origin": q.origin.how, "quote": q.origin.quote, "confidence": f"{q.confidence:.2f}"}
                for q, m in zip(result.questions, matches)]
        return cls(formdata=None, today=today, data={
            "source": preview.text, "company": result.company or "", "title": result.title or "",
            "doc_kind": kind if kind in ("posting", "report") else result.doc_kind, "questions": rows})

    def review(self) -> Review:
        """What the candidate confirmed, for :func:`prep.postings.service.import_posting`."""
        return Review(company=(self.company.data or "").strip() or None, title=(self.title.data or "").strip() or None,
                      kind=self.doc_kind.data, interview_date=self.interview_date.data,
                      questions=[ReviewedQuestion(q["text"], q["kind"] if q["kind"] in KINDS else "concept",
                                                  q["round"], q["section"], q["match_id"], q["separate"])
                                 for q in self.kept_questions()])

    def kept_questions(self) -> list[dict[str, Any]]:
        """The ticked rows with words in them, in order, as plain values."""
        out = []
        for row in self.questions:
            f = row.form
            text = " ".join((f.text.data or "").split())
            if f.keep.data and text:
                out.append({"text": text, "kind": f.kind.data or "concept", "round": (f.round.data or "").strip() or None,
                            "section": (f.section.data or "").strip(), "match_id": f.match_id(),
                            "separate": bool(f.separate.data)})
        if self.new_wording():  # written in the "add" field and saved without pressing "Add"
            out.append({"text": self.new_wording(), "kind": question_kind(self.new_wording()), "round": None,
                        "section": "", "match_id": None, "separate": False})
        return out
