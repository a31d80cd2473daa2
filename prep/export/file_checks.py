"""The checks a JSON export file passes before a restore writes anything (see
docs/export-schema.md): decoding, the format and version, the settings, every card, review and
snapshot, each value held to the limits the forms and the scheduler keep.

Every problem is collected (at most :data:`MAX_PROBLEMS`) and reported together in one
:class:`ImportProblem`. No database access.
"""
from __future__ import annotations

import json
import math
from datetime import datetime, timedelta, timezone
from typing import Any

from flask_babel import gettext as _
from fsrs import Scheduler

from ..content.markdown_rules import SLUG_RE
from ..drill.self_grading import MAX_POINTS
from ..drill.models import CardState
from ..drill.scheduling import SchedulingError, parse_steps
from ..questions.normalize import normalize_question
from ..zones import is_user_zone
from .dump import FORMAT, VERSION

MAX_PROBLEMS = 20
# The limits the forms and the scheduler keep, applied to imported rows as well.
MAX_CARDS = 20_000
MAX_REVIEWS_PER_CARD = 20_000
MAX_QUESTION_CHARS = 1000
MAX_NOTE_CHARS = 20_000
MAX_TAGS = 20
MAX_TAG_CHARS = 80
#: A question the import creates is the user's own: the question form's limits
#: (prep.questions.forms.QuestionForm: text 5..1000 characters, at most 10 tags of 60).
MIN_QUESTION_CHARS = 5
MAX_QUESTION_TAGS = 10
MAX_QUESTION_TAG_CHARS = 60
#: No review, card or snapshot time before this (prep and FSRS are far younger; a year-1 or
#: 1970 time is a broken clock or a crafted file).
EARLIEST = datetime(2000, 1, 1, tzinfo=timezone.utc)
#: How far past "now" a review or an added time may be (clocks differ a little).
CLOCK_SKEW = timedelta(days=1)
#: How far ahead a due date may be (the longest interval the settings allow, and a margin).
LONGEST_AHEAD = timedelta(days=36500 + 366)
INT_RANGES = {"reps": (0, 1_000_000), "lapses": (0, 1_000_000), "version": (0, 10_000_000), "step": (0, 100),
              "card_version": (0, 10_000_000), "duration_ms": (0, 86_400_000),
              "day_start_hour": (0, 23), "new_per_day": (0, 9999), "reviews_per_day": (0, 99999),
              "maximum_interval": (1, 36500)}
#: FSRS-6 keeps stability within [0.001, 36500] days and difficulty within [1, 10].
FLOAT_RANGES = {"stability": (0.001, 36500.0), "difficulty": (1.0, 10.0)}
STATES = {s.value for s in CardState}
#: The keys of a review's snapshot (see :func:`prep.drill.scheduling.snapshot`) kept on import;
#: others (``buried_siblings``: card ids of the exporting account) mean nothing here.
SNAPSHOT_KEYS = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses")
KINDS = {"review", "cram"}


class ImportProblem(ValueError):
    """The file cannot be imported; ``problems`` lists why (nothing was changed)."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


class FileChecker:
    """Collects the problems of one file (or of the questions a restore would create)."""

    def __init__(self, now: datetime | None) -> None:
        """``now`` bounds the times checked; None for a checker that checks no time."""
        self.problems: list[str] = []
        self.now = now

    def fail(self, where: str, message: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(f"{where}: {message}")

    def time(self, where: str, value: Any, optional: bool = False, *, ahead: timedelta = CLOCK_SKEW) -> None:
        if value is None and optional:
            return
        try:
            parsed = datetime.fromisoformat(value) if isinstance(value, str) and len(value) <= 40 else None
        except ValueError:
            parsed = None
        if parsed is None or parsed.tzinfo is None:
            self.fail(where, _("must be an ISO 8601 time with a UTC offset"))
            return
        try:
            latest = self.now + ahead
            if not EARLIEST <= parsed <= latest:
                self.fail(where, _("%(value)s is outside %(first)s to %(last)s", value=value,
                                   first=f"{EARLIEST:%Y-%m-%d}", last=f"{latest:%Y-%m-%d}"))
        except OverflowError:  # an offset pushing 9999-12-31 past the last representable day
            self.fail(where, _("%(value)s is out of range", value=value))

    def int_(self, where: str, value: Any, lo: int | None = 0, optional: bool = False) -> None:
        if value is None and optional:
            return
        if not isinstance(value, int) or isinstance(value, bool) or (lo is not None and value < lo):
            self.fail(where, _("must be a whole number") if lo is None else _("must be a whole number ≥ %(lo)s", lo=lo))
            return
        bounds = INT_RANGES.get(where.rsplit(".", 1)[-1])
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            self.fail(where, _("must be from %(lo)s to %(hi)s", lo=f"{bounds[0]:,}", hi=f"{bounds[1]:,}"))

    def number(self, where: str, value: Any, optional: bool = True) -> None:
        if value is None and optional:
            return
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            self.fail(where, _("must be a number"))
            return
        bounds = FLOAT_RANGES.get(where.rsplit(".", 1)[-1])
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            self.fail(where, _("must be from %(lo)s to %(hi)s", lo=f"{bounds[0]:g}", hi=f"{bounds[1]:g}"))

    def text(self, where: str, value: Any, longest: int) -> None:
        if isinstance(value, str) and len(value) > longest:
            self.fail(where, _("is over %(num)s characters", num=f"{longest:,}"))


def parse(raw: bytes, now: datetime) -> dict[str, Any]:
    """Decode and validate an export file; raises :class:`ImportProblem` listing every problem.

    ``now`` bounds the times a file may hold (reviews not after now, due dates not past the
    longest interval); values are range-checked as the forms check them."""
    try:
        text = raw.decode("utf-8-sig")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise ImportProblem([_("The file is not UTF-8 text.")]) from None
    except json.JSONDecodeError as err:
        raise ImportProblem([_("The file is not valid JSON (line %(line)s, column %(column)s: %(error)s).",
                                     line=err.lineno, column=err.colno, error=err.msg)]) from None
    except RecursionError:
        raise ImportProblem([_("The file nests too deeply to be a prep export.")]) from None
    except ValueError:  # an integer with thousands of digits
        raise ImportProblem([_("The file holds a number too long to be a prep export's.")]) from None
    if "\\u0000" in text.lower():  # PostgreSQL stores no NUL in a text
        nul_paths = _nul_paths(data)
        if nul_paths:
            raise ImportProblem([_("%(where)s: holds a NUL character (\\u0000), which no field accepts", where=where)
                                 for where in nul_paths])
    check = FileChecker(now)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportProblem([_("This is not a prep export (expected \"format\": \"%(format)s\").", format=FORMAT)])
    if data.get("version") != VERSION:
        raise ImportProblem([_("Unsupported export version %(found)s; this prep reads version %(version)s.",
                                     found=repr(data.get("version"))[:40], version=VERSION)])
    settings = (data.get("user") or {}).get("settings") if isinstance(data.get("user"), dict) else None
    if settings is not None:
        _check_settings(check, settings)
    cards = data.get("cards")
    if not isinstance(cards, list):
        check.fail("cards", _("must be a list"))
        cards = []
    if len(cards) > MAX_CARDS:
        raise ImportProblem([_("cards: %(num)s cards; an import may hold at most %(max)s.", num=f"{len(cards):,}",
                                     max=f"{MAX_CARDS:,}")])
    for i, card in enumerate(cards):
        _check_card(check, f"cards[{i}]", card)
    if check.problems:
        raise ImportProblem(check.problems)
    return data


def _nul_paths(data: Any) -> list[str]:
    """Where strings holding a NUL character sit, as ``cards[3].question.text`` (at most
    :data:`MAX_PROBLEMS`); iterative, so any depth json.loads accepted is walked."""
    found: list[str] = []
    stack: list[tuple[str, Any]] = [("", data)]
    while stack and len(found) < MAX_PROBLEMS:
        where, value = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                found.append(where or "(the file)")
        elif isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                name = str(key).replace("\x00", "\\u0000")
                stack.append((f"{where}.{name}" if where else name, item))
                if "\x00" in str(key):
                    found.append(f"{where}.{name}" if where else name)
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", item) for i, item in reversed(list(enumerate(value))))
    return found[:MAX_PROBLEMS]


def _check_settings(check: FileChecker, s: Any) -> None:
    if not isinstance(s, dict):
        check.fail("user.settings", _("must be an object"))
        return
    for key in ("day_start_hour", "new_per_day", "reviews_per_day", "maximum_interval"):
        if key in s:
            check.int_(f"user.settings.{key}", s[key])
    if "day_start_hour" in s and isinstance(s["day_start_hour"], int) and not 0 <= s["day_start_hour"] <= 23:
        check.fail("user.settings.day_start_hour", _("must be 0–23"))
    if "desired_retention" in s and not (isinstance(s["desired_retention"], (int, float))
                                         and 0.7 <= s["desired_retention"] <= 0.99):
        check.fail("user.settings.desired_retention", _("must be between 0.7 and 0.99"))
    if "timezone" in s and not is_user_zone(s["timezone"]):
        check.fail("user.settings.timezone", _("unknown time zone %(zone)s", zone=repr(str(s["timezone"])[:64])))
    for key in ("learning_steps", "relearning_steps"):
        if key in s:
            try:
                parse_steps(str(s[key]))
            except SchedulingError as err:
                check.fail(f"user.settings.{key}", str(err))
    params = s.get("fsrs_parameters")
    if params is not None:
        try:
            Scheduler(parameters=params)
        except (ValueError, TypeError) as err:
            check.fail("user.settings.fsrs_parameters", str(err).splitlines()[0])


def _check_card(check: FileChecker, where: str, c: Any) -> None:
    if not isinstance(c, dict):
        check.fail(where, _("must be an object"))
        return
    q = c.get("question")
    if not isinstance(q, dict) or not isinstance(q.get("text"), str) or not normalize_question(q.get("text", "")):
        check.fail(f"{where}.question.text", _("must be the question's text"))
    elif not isinstance(q.get("tags", []), list) or not all(isinstance(t, str) for t in q.get("tags", [])):
        check.fail(f"{where}.question.tags", _("must be a list of strings"))
    else:
        check.text(f"{where}.question.text", q["text"], MAX_QUESTION_CHARS)
        if len(q.get("tags", [])) > MAX_TAGS or any(len(t) > MAX_TAG_CHARS for t in q.get("tags", [])):
            check.fail(f"{where}.question.tags", _("at most %(tags)s tags of at most %(chars)s characters",
                                                   tags=MAX_TAGS, chars=MAX_TAG_CHARS))
    _check_memory(check, where, c)
    check.time(f"{where}.due", c.get("due"), ahead=LONGEST_AHEAD)
    check.time(f"{where}.added_at", c.get("added_at"))
    check.time(f"{where}.last_review", c.get("last_review"), optional=True)
    check.time(f"{where}.buried_until", c.get("buried_until"), optional=True, ahead=LONGEST_AHEAD)
    for key in ("reps", "lapses", "version"):
        check.int_(f"{where}.{key}", c.get(key))
    if not isinstance(c.get("suspended"), bool):
        check.fail(f"{where}.suspended", _("must be true or false"))
    if not isinstance(c.get("note", ""), str):
        check.fail(f"{where}.note", _("must be text"))
    else:
        check.text(f"{where}.note", c.get("note", ""), MAX_NOTE_CHARS)
    reviews = c.get("reviews", [])
    if not isinstance(reviews, list):
        check.fail(f"{where}.reviews", _("must be a list"))
        return
    if len(reviews) > MAX_REVIEWS_PER_CARD:
        check.fail(f"{where}.reviews", _("%(num)s reviews; at most %(max)s per card", num=f"{len(reviews):,}",
                                             max=f"{MAX_REVIEWS_PER_CARD:,}"))
        return
    versions: set[int] = set()
    for j, r in enumerate(reviews):
        w = f"{where}.reviews[{j}]"
        if not isinstance(r, dict):
            check.fail(w, _("must be an object"))
            continue
        check.int_(f"{w}.card_version", r.get("card_version"))
        if r.get("card_version") in versions:
            check.fail(f"{w}.card_version", _("appears twice for this card"))
        if isinstance(r.get("card_version"), int):
            versions.add(r["card_version"])
        if type(r.get("rating")) is not int or r["rating"] not in (1, 2, 3, 4):
            check.fail(f"{w}.rating", _("must be 1, 2, 3 or 4"))
        check.time(f"{w}.reviewed_at", r.get("reviewed_at"))
        check.int_(f"{w}.duration_ms", r.get("duration_ms"))
        for key in ("state_before", "state_after"):
            if r.get(key) not in STATES:
                check.fail(f"{w}.{key}", _("must be one of %(values)s", values=", ".join(sorted(STATES))))
        if r.get("kind", "review") not in KINDS:
            check.fail(f"{w}.kind", _("must be review or cram"))
        _check_snapshot(check, f"{w}.card_before", r.get("card_before"))
        _check_ticks(check, f"{w}.key_points", r.get("key_points"))


def _check_ticks(check: FileChecker, where: str, ticks: Any) -> None:
    """A review's key-point ticks (null, or exactly the object the drill stores)."""
    if ticks is None:
        return
    if not isinstance(ticks, dict) or set(ticks) != {"slug", "lang", "total", "ticked"}:
        check.fail(where, _("must be null or an object with slug, lang, total and ticked"))
        return
    if not isinstance(ticks["slug"], str) or not SLUG_RE.fullmatch(ticks["slug"]) or len(ticks["slug"]) > 120:
        check.fail(f"{where}.slug", _("must be an explanation's slug"))
    if ticks["lang"] not in ("en", "zh"):
        check.fail(f"{where}.lang", _("must be en or zh"))
    total, ticked = ticks["total"], ticks["ticked"]
    if type(total) is not int or not 1 <= total <= MAX_POINTS:
        check.fail(f"{where}.total", _("must be from 1 to %(max)s", max=MAX_POINTS))
        return
    if not isinstance(ticked, list) or any(type(i) is not int or not 0 <= i < total for i in ticked) \
            or ticked != sorted(set(ticked)):
        check.fail(f"{where}.ticked", _("must list distinct point numbers from 0 to %(last)s, in order", last=total - 1))


def _check_memory(check: FileChecker, where: str, c: dict[str, Any]) -> None:
    """State, step, stability and difficulty of a card or a snapshot; a card past learning has
    a memory state (the scheduler reads it)."""
    if c.get("state") not in STATES:
        check.fail(f"{where}.state", _("must be one of %(values)s", values=", ".join(sorted(STATES))))
    check.int_(f"{where}.step", c.get("step"), optional=True)
    check.number(f"{where}.stability", c.get("stability"))
    check.number(f"{where}.difficulty", c.get("difficulty"))
    if c.get("state") in (CardState.review.value, CardState.relearning.value):
        for key in ("stability", "difficulty"):
            if c.get(key) is None:
                check.fail(f"{where}.{key}", _("a %(state)s card needs a %(key)s", state=c["state"], key=key))


def _check_snapshot(check: FileChecker, where: str, snap: Any) -> None:
    """A review's ``card_before``: undo puts it back on the card and the stats page reads its
    times, so it is held to the card's own checks."""
    if not isinstance(snap, dict):
        check.fail(where, _("must be an object (the card's state before the review)"))
        return
    _check_memory(check, where, snap)
    check.time(f"{where}.due", snap.get("due"), ahead=LONGEST_AHEAD)
    check.time(f"{where}.last_review", snap.get("last_review"), optional=True)
    for key in ("reps", "lapses"):
        check.int_(f"{where}.{key}", snap.get(key), optional=True)
