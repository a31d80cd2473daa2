"""Drill forms: rating and notes (CSRF-protected; the buttons use :class:`prep.web.forms.EmptyForm`)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from types import SimpleNamespace
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectMultipleField, SubmitField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from ..web.forms import ButtonForm
from .self_grading import MAX_POINTS


class RateForm(FlaskForm):
    card_id = IntegerField(validators=[InputRequired(), NumberRange(min=0, max=2**31 - 1)])
    version = IntegerField(validators=[InputRequired(), NumberRange(min=0, max=2**31 - 1)])
    rating = IntegerField(validators=[InputRequired(), AnyOf([1, 2, 3, 4], message=_l("Rating must be 1–4."))])
    duration_ms = IntegerField(validators=[Optional(), NumberRange(min=0)])  # clamped by the route
    shown_at = HiddenField()
    # The key-point checklist: the explanation whose points were shown, and the ticked indices.
    key_points_of = IntegerField(validators=[Optional(), NumberRange(min=1, max=2**31 - 1)])
    key_point = SelectMultipleField(coerce=int, choices=[SelectChoice(str(i)) for i in range(MAX_POINTS)],
                                    validate_choice=True)
    # The no-JS form's one-time token (prep.drill.rating.make_token): Back then resubmit is a no-op.
    token = HiddenField()


class RateFormValues(ButtonForm):
    """The values of a :class:`RateForm` as templates/drill/_face.html shows them (it writes the
    inputs itself: ``form.<name>.data``, and ``form.csrf_token`` defined when CSRF is on, as on a
    FlaskForm), without building the WTForms form on every drill page (its fields, lazy
    translations and CSRF set-up cost about a tenth of the page). The POST reads a real RateForm."""

    def __init__(self, *, card_id: int, version: int, shown_at: str, token: str | None = None) -> None:
        super().__init__()
        for name, value in (("card_id", card_id), ("version", version), ("shown_at", shown_at), ("token", token)):
            setattr(self, name, SimpleNamespace(data=value))


@dataclass(frozen=True)
class RatingJson:
    """A rating sent by the prefetching drill (POST /drill/rate.json)."""

    card_id: int
    version: int
    rating: int
    elapsed_ms: int | None
    request_id: str | None
    key_points_of: int | None
    key_point: list[int]


def _int(value: Any, low: int, high: int) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high else None


def read_rating_json(body: Any) -> RatingJson | None:
    """The rating in a JSON body, checked as :class:`RateForm` checks the form; None if unreadable.
    ``ticks`` (optional): ``{"of": explanation id, "points": [indices]}``."""
    if not isinstance(body, dict):
        return None
    card_id, version = _int(body.get("card_id"), 0, 2**31 - 1), _int(body.get("version"), 0, 2**31 - 1)
    rating = _int(body.get("rating"), 1, 4)
    request_id = body.get("request_id")
    ticks = body.get("ticks") if isinstance(body.get("ticks"), dict) else {}
    points = ticks.get("points") if isinstance(ticks.get("points"), list) else []
    if card_id is None or version is None or rating is None or (
            request_id is not None and not (isinstance(request_id, str) and 0 < len(request_id) <= 64)):
        return None
    return RatingJson(card_id=card_id, version=version, rating=rating,
                      elapsed_ms=_int(body.get("elapsed_ms"), 0, 2**31 - 1), request_id=request_id,
                      key_points_of=_int(ticks.get("of"), 1, 2**31 - 1),
                      key_point=[p for p in points if _int(p, 0, MAX_POINTS - 1) is not None])


#: The longest time on one card a rating records: a card left open overnight is still a rating.
MAX_ANSWER_MS = 86_400_000


@dataclass(frozen=True)
class RatingPost:
    """A rating posted by the drill's form, read as :class:`RateForm` validates it."""

    card_id: int
    version: int
    rating: int
    duration_ms: int | None
    shown_at: str
    key_points_of: int | None
    key_point: list[int]
    token: str

    def duration(self, now: datetime) -> int | None:
        """Time on the card: the browser's measure, else since the page was rendered (no JS),
        capped at :data:`MAX_ANSWER_MS`."""
        duration = self.duration_ms
        if duration is None and self.shown_at:
            try:
                shown_at = datetime.fromisoformat(self.shown_at)
                if shown_at.tzinfo is not None:
                    duration = int((now - shown_at.astimezone(timezone.utc)).total_seconds() * 1000)
            except (ValueError, OverflowError):  # a malformed or out-of-range time
                duration = None
        return None if duration is None else max(0, min(duration, MAX_ANSWER_MS))


def _form_int(form: Any, name: str, low: int, high: int, *, required: bool) -> int | None | bool:
    """The field as :class:`RateForm`'s IntegerField reads it: None when optional and empty,
    False when it does not validate."""
    raw = form.get(name)
    if raw is None or (not raw.strip() and not required):
        return False if required else None
    try:
        value = int(raw)
    except ValueError:
        return False
    return value if low <= value <= high else False


def read_rating_form(form: Any) -> RatingPost | None:
    """The posted rating (``request.form``), checked as :class:`RateForm` checks it (same fields,
    ranges, choices) without building the WTForms form (the rating's hot path; the CSRF
    token is checked for every POST by CSRFProtect). None when it does not validate."""
    values = {"card_id": _form_int(form, "card_id", 0, 2**31 - 1, required=True),
              "version": _form_int(form, "version", 0, 2**31 - 1, required=True),
              "rating": _form_int(form, "rating", 1, 4, required=True),
              "duration_ms": _form_int(form, "duration_ms", 0, float("inf"), required=False),
              "key_points_of": _form_int(form, "key_points_of", 1, 2**31 - 1, required=False)}
    if any(v is False for v in values.values()):
        return None
    points = []
    for raw in form.getlist("key_point"):
        try:
            point = int(raw)
        except ValueError:
            return None
        if not 0 <= point < MAX_POINTS:
            return None
        points.append(point)
    return RatingPost(**values, shown_at=form.get("shown_at", ""), key_point=points, token=form.get("token", ""))


class NoteForm(FlaskForm):
    note = TextAreaField(_l("Your note"), validators=[Length(max=20000)],
                         description=_l("Shown on the answer side, under the explanation if there is one."))
    submit = SubmitField(_l("Save note"))
