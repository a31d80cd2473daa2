"""Import a JSON export (see docs/export-schema.md): cards and their full review history.

Everything is checked first and every problem reported together; only a clean file changes
anything, inside the caller's one transaction. Questions are matched by normalised text (a
public question, or one of the user's own); a missing one becomes the user's own question.
Cards for questions the user already studies are left as they are and counted as skipped, so
importing the same file twice changes nothing the second time.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
import math
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import func, select

from ..accounts.models import User
from ..drill.models import Card, CardState, ReviewLog
from ..drill.scheduling import SchedulingError, parse_steps
from ..extensions import db
from ..questions.models import Question, Source
from ..questions.normalize import guess_lang, normalize_question
from ..questions.service import get_or_create_tags
from ..zones import is_user_zone
from .dump import FORMAT, SETTINGS, VERSION

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


@dataclass
class ImportReport:
    cards_added: int = 0
    reviews_added: int = 0
    questions_created: int = 0
    skipped: list[str] = field(default_factory=list)  # question texts already in the user's study
    settings_restored: bool = False


class _Checker:
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
            self.fail(where, "must be an ISO 8601 time with a UTC offset")
            return
        try:
            latest = self.now + ahead
            if not EARLIEST <= parsed <= latest:
                self.fail(where, f"{value} is outside {EARLIEST:%Y-%m-%d} to {latest:%Y-%m-%d}")
        except OverflowError:  # an offset pushing 9999-12-31 past the last representable day
            self.fail(where, f"{value} is out of range")

    def int_(self, where: str, value: Any, lo: int | None = 0, optional: bool = False) -> None:
        if value is None and optional:
            return
        if not isinstance(value, int) or isinstance(value, bool) or (lo is not None and value < lo):
            self.fail(where, f"must be a whole number{'' if lo is None else f' ≥ {lo}'}")
            return
        bounds = INT_RANGES.get(where.rsplit(".", 1)[-1])
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            self.fail(where, f"must be from {bounds[0]:,} to {bounds[1]:,}")

    def number(self, where: str, value: Any, optional: bool = True) -> None:
        if value is None and optional:
            return
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            self.fail(where, "must be a number")
            return
        bounds = FLOAT_RANGES.get(where.rsplit(".", 1)[-1])
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            self.fail(where, f"must be from {bounds[0]:g} to {bounds[1]:g}")

    def text(self, where: str, value: Any, longest: int) -> None:
        if isinstance(value, str) and len(value) > longest:
            self.fail(where, f"is over {longest:,} characters")


def parse(raw: bytes, now: datetime) -> dict[str, Any]:
    """Decode and validate an export file; raises :class:`ImportProblem` listing every problem.

    ``now`` bounds the times a file may hold (reviews not after now, due dates not past the
    longest interval); values are range-checked as the forms check them."""
    try:
        text = raw.decode("utf-8-sig")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise ImportProblem(["The file is not UTF-8 text."]) from None
    except json.JSONDecodeError as err:
        raise ImportProblem([f"The file is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})."]) from None
    except RecursionError:
        raise ImportProblem(["The file nests too deeply to be a prep export."]) from None
    except ValueError:  # an integer with thousands of digits
        raise ImportProblem(["The file holds a number too long to be a prep export's."]) from None
    if "\\u0000" in text.lower():  # PostgreSQL stores no NUL in a text
        nul_paths = _nul_paths(data)
        if nul_paths:
            raise ImportProblem([f"{where}: holds a NUL character (\\u0000), which no field accepts"
                                 for where in nul_paths])
    check = _Checker(now)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportProblem([f"This is not a prep export (expected \"format\": \"{FORMAT}\")."])
    if data.get("version") != VERSION:
        raise ImportProblem([f"Unsupported export version {data.get('version')!r}; this prep reads version {VERSION}."])
    settings = (data.get("user") or {}).get("settings") if isinstance(data.get("user"), dict) else None
    if settings is not None:
        _check_settings(check, settings)
    cards = data.get("cards")
    if not isinstance(cards, list):
        check.fail("cards", "must be a list")
        cards = []
    if len(cards) > MAX_CARDS:
        raise ImportProblem([f"cards: {len(cards):,} cards; an import may hold at most {MAX_CARDS:,}."])
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


def _check_settings(check: _Checker, s: Any) -> None:
    if not isinstance(s, dict):
        check.fail("user.settings", "must be an object")
        return
    for key in ("day_start_hour", "new_per_day", "reviews_per_day", "maximum_interval"):
        if key in s:
            check.int_(f"user.settings.{key}", s[key])
    if "day_start_hour" in s and isinstance(s["day_start_hour"], int) and not 0 <= s["day_start_hour"] <= 23:
        check.fail("user.settings.day_start_hour", "must be 0–23")
    if "desired_retention" in s and not (isinstance(s["desired_retention"], (int, float))
                                         and 0.7 <= s["desired_retention"] <= 0.99):
        check.fail("user.settings.desired_retention", "must be between 0.7 and 0.99")
    if "timezone" in s and not is_user_zone(s["timezone"]):
        check.fail("user.settings.timezone", f"unknown time zone {str(s['timezone'])[:64]!r}")
    for key in ("learning_steps", "relearning_steps"):
        if key in s:
            try:
                parse_steps(str(s[key]))
            except SchedulingError as err:
                check.fail(f"user.settings.{key}", str(err))
    params = s.get("fsrs_parameters")
    if params is not None:
        from fsrs import Scheduler

        try:
            Scheduler(parameters=params)
        except (ValueError, TypeError) as err:
            check.fail("user.settings.fsrs_parameters", str(err).splitlines()[0])


def _check_card(check: _Checker, where: str, c: Any) -> None:
    if not isinstance(c, dict):
        check.fail(where, "must be an object")
        return
    q = c.get("question")
    if not isinstance(q, dict) or not isinstance(q.get("text"), str) or not normalize_question(q.get("text", "")):
        check.fail(f"{where}.question.text", "must be the question's text")
    elif not isinstance(q.get("tags", []), list) or not all(isinstance(t, str) for t in q.get("tags", [])):
        check.fail(f"{where}.question.tags", "must be a list of strings")
    else:
        check.text(f"{where}.question.text", q["text"], MAX_QUESTION_CHARS)
        if len(q.get("tags", [])) > MAX_TAGS or any(len(t) > MAX_TAG_CHARS for t in q.get("tags", [])):
            check.fail(f"{where}.question.tags", f"at most {MAX_TAGS} tags of at most {MAX_TAG_CHARS} characters")
    _check_memory(check, where, c)
    check.time(f"{where}.due", c.get("due"), ahead=LONGEST_AHEAD)
    check.time(f"{where}.added_at", c.get("added_at"))
    check.time(f"{where}.last_review", c.get("last_review"), optional=True)
    check.time(f"{where}.buried_until", c.get("buried_until"), optional=True, ahead=LONGEST_AHEAD)
    for key in ("reps", "lapses", "version"):
        check.int_(f"{where}.{key}", c.get(key))
    if not isinstance(c.get("suspended"), bool):
        check.fail(f"{where}.suspended", "must be true or false")
    if not isinstance(c.get("note", ""), str):
        check.fail(f"{where}.note", "must be text")
    else:
        check.text(f"{where}.note", c.get("note", ""), MAX_NOTE_CHARS)
    reviews = c.get("reviews", [])
    if not isinstance(reviews, list):
        check.fail(f"{where}.reviews", "must be a list")
        return
    if len(reviews) > MAX_REVIEWS_PER_CARD:
        check.fail(f"{where}.reviews", f"{len(reviews):,} reviews; at most {MAX_REVIEWS_PER_CARD:,} per card")
        return
    versions: set[int] = set()
    for j, r in enumerate(reviews):
        w = f"{where}.reviews[{j}]"
        if not isinstance(r, dict):
            check.fail(w, "must be an object")
            continue
        check.int_(f"{w}.card_version", r.get("card_version"))
        if r.get("card_version") in versions:
            check.fail(f"{w}.card_version", "appears twice for this card")
        if isinstance(r.get("card_version"), int):
            versions.add(r["card_version"])
        if type(r.get("rating")) is not int or r["rating"] not in (1, 2, 3, 4):
            check.fail(f"{w}.rating", "must be 1, 2, 3 or 4")
        check.time(f"{w}.reviewed_at", r.get("reviewed_at"))
        check.int_(f"{w}.duration_ms", r.get("duration_ms"))
        for key in ("state_before", "state_after"):
            if r.get(key) not in STATES:
                check.fail(f"{w}.{key}", f"must be one of {', '.join(sorted(STATES))}")
        if r.get("kind", "review") not in KINDS:
            check.fail(f"{w}.kind", "must be review or cram")
        _check_snapshot(check, f"{w}.card_before", r.get("card_before"))


def _check_memory(check: _Checker, where: str, c: dict[str, Any]) -> None:
    """State, step, stability and difficulty of a card or a snapshot; a card past learning has
    a memory state (the scheduler reads it)."""
    if c.get("state") not in STATES:
        check.fail(f"{where}.state", f"must be one of {', '.join(sorted(STATES))}")
    check.int_(f"{where}.step", c.get("step"), optional=True)
    check.number(f"{where}.stability", c.get("stability"))
    check.number(f"{where}.difficulty", c.get("difficulty"))
    if c.get("state") in (CardState.review.value, CardState.relearning.value):
        for key in ("stability", "difficulty"):
            if c.get(key) is None:
                check.fail(f"{where}.{key}", f"a {c['state']} card needs a {key}")


def _check_snapshot(check: _Checker, where: str, snap: Any) -> None:
    """A review's ``card_before``: undo puts it back on the card and the stats page reads its
    times, so it is held to the card's own checks."""
    if not isinstance(snap, dict):
        check.fail(where, "must be an object (the card's state before the review)")
        return
    _check_memory(check, where, snap)
    check.time(f"{where}.due", snap.get("due"), ahead=LONGEST_AHEAD)
    check.time(f"{where}.last_review", snap.get("last_review"), optional=True)
    for key in ("reps", "lapses"):
        check.int_(f"{where}.{key}", snap.get(key), optional=True)


def _snapshot(snap: dict[str, Any]) -> dict[str, Any]:
    return {key: snap[key] for key in SNAPSHOT_KEYS if key in snap}


def _t(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _find_question(user: User, text: str, own_first: bool) -> Question | None:
    norm = normalize_question(text)
    rows = db.session.scalars(select(Question).where(
        Question.norm == norm, (Question.owner_id.is_(None)) | (Question.owner_id == user.id))).all()
    if not rows:
        return None
    rows = sorted(rows, key=lambda q: ((q.owner_id is None) == own_first, q.id))
    return rows[0]


def _new_question_problems(check: _Checker, where: str, q: dict[str, Any]) -> None:
    """A question the import creates is the user's own: held to the question form's limits."""
    if len(q["text"].strip()) < MIN_QUESTION_CHARS:
        check.fail(f"{where}.question.text", f"a new question needs at least {MIN_QUESTION_CHARS} characters")
    tags = [t.strip() for t in q.get("tags", []) if t.strip()]
    if len(tags) > MAX_QUESTION_TAGS or any(len(t) > MAX_QUESTION_TAG_CHARS for t in tags):
        check.fail(f"{where}.question.tags", f"a new question takes at most {MAX_QUESTION_TAGS} tags of at most "
                                             f"{MAX_QUESTION_TAG_CHARS} characters")


def import_export(user: User, data: dict[str, Any], *, restore_settings: bool = True) -> ImportReport:
    """Add the cards and reviews of a parsed export (see :func:`parse`) to ``user``; flushes only.

    First every card's question is looked up (no write): questions the file would create are
    held to the question form's limits and to the user's own-question limit, and
    :class:`ImportProblem` is raised before anything is added."""
    from ..questions import service as questions_service

    report = ImportReport()
    check = _Checker(None)  # question limits only: no time to bound
    found: dict[str, Question | None] = {}
    own = int(db.session.scalar(select(func.count(Question.id)).where(Question.owner_id == user.id)) or 0)
    for i, c in enumerate(data["cards"]):
        q = c["question"]
        norm = normalize_question(q["text"])
        if norm in found:
            continue
        found[norm] = _find_question(user, q["text"], bool(q.get("own")))
        if found[norm] is None:
            _new_question_problems(check, f"cards[{i}]", q)
            own += 1
            if own > questions_service.MAX_OWN_QUESTIONS:
                check.fail(f"cards[{i}].question", f"would be your own question number {own:,}; you may have at "
                                                   f"most {questions_service.MAX_OWN_QUESTIONS:,} own questions")
                break
    if check.problems:
        raise ImportProblem(check.problems)
    studied = set(db.session.scalars(select(Card.question_id).where(Card.user_id == user.id)))
    settings = (data.get("user") or {}).get("settings")
    if restore_settings and isinstance(settings, dict):
        for key in SETTINGS:
            if key in settings:
                setattr(user, key, settings[key])
        if "fsrs_parameters" in settings:
            params = settings["fsrs_parameters"]
            user.fsrs_parameters = json.dumps(params) if params is not None else None
        report.settings_restored = True
    pending: list[tuple[Card, list[dict[str, Any]]]] = []
    for c in data["cards"]:
        q = c["question"]
        norm = normalize_question(q["text"])
        question = found[norm]
        if question is None:
            text = q["text"].strip()
            lang = q.get("lang") if q.get("lang") in ("en", "zh") else guess_lang(text)
            question = Question(text=text, norm=norm, lang=lang, source=Source.user, owner_id=user.id)
            question.tags = get_or_create_tags(q.get("tags", []))
            db.session.add(question)
            db.session.flush()
            found[norm] = question
            report.questions_created += 1
        if question.id in studied:
            report.skipped.append(q["text"])
            continue
        studied.add(question.id)
        card = Card(user_id=user.id, question_id=question.id, state=CardState(c["state"]), step=c.get("step"),
                    stability=c.get("stability"), difficulty=c.get("difficulty"), due=_t(c["due"]),
                    last_review=_t(c.get("last_review")), reps=c["reps"], lapses=c["lapses"], version=c["version"],
                    suspended=c["suspended"], buried_until=_t(c.get("buried_until")), note=c.get("note", ""),
                    added_at=_t(c["added_at"]))
        db.session.add(card)
        pending.append((card, c.get("reviews", [])))
    db.session.flush()
    for card, reviews in pending:
        db.session.add_all(ReviewLog(
            card_id=card.id, user_id=user.id, card_version=r["card_version"], rating=r["rating"],
            reviewed_at=_t(r["reviewed_at"]), duration_ms=r["duration_ms"], state_before=r["state_before"],
            state_after=r["state_after"], kind=r.get("kind", "review"), card_before=_snapshot(r["card_before"]))
            for r in reviews)
        report.cards_added += 1
        report.reviews_added += len(reviews)
    db.session.flush()
    return report
