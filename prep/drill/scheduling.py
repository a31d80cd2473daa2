"""The one adapter between our cards and py-fsrs.

Pure module: no Flask, no ORM; a card is anything with the fields of :class:`CardRow` (a
:class:`prep.drill.memory.CardMemory`, a simulated card, or a row read at the edge). Times are UTC-aware datetimes; fsrs insists on ``timezone.utc``.
"""
from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol

import fsrs
from fsrs.scheduler import FUZZ_RANGES, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

from .memory import CardState

_STATE_TO_FSRS = {
    CardState.new: fsrs.State.Learning,
    CardState.learning: fsrs.State.Learning,
    CardState.review: fsrs.State.Review,
    CardState.relearning: fsrs.State.Relearning,
}
_FSRS_TO_STATE = {
    fsrs.State.Learning: CardState.learning,
    fsrs.State.Review: CardState.review,
    fsrs.State.Relearning: CardState.relearning,
}
RATINGS = {1: fsrs.Rating.Again, 2: fsrs.Rating.Hard, 3: fsrs.Rating.Good, 4: fsrs.Rating.Easy}
RATING_NAMES = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}

_STEP = re.compile(r"([0-9]{1,9})([smhd])")  # ASCII digits; used with fullmatch
#: The longest learning step (a step is minutes or hours; more than a year is a typo) and the most steps.
MAX_STEP = timedelta(days=365)
MAX_STEPS = 20
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class SchedulingError(ValueError):
    """Bad scheduler settings (learning steps, retention, interval)."""


class TooManySteps(SchedulingError):
    """More learning steps than :data:`MAX_STEPS`."""


class StepTooLong(SchedulingError):
    """A learning step longer than a year."""


class CardRow(Protocol):
    state: CardState
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None


@dataclass(frozen=True)
class SchedulerSettings:
    desired_retention: float = 0.9
    learning_steps: str = "1m 10m"
    relearning_steps: str = "10m"
    maximum_interval: int = 36500
    parameters: tuple[float, ...] | None = None
    enable_fuzzing: bool = True


def parse_steps(text: str) -> tuple[timedelta, ...]:
    """Parse learning steps such as ``"1m 10m 1h"`` (units s, m, h, d)."""
    steps = []
    parts = text.split()
    if len(parts) > MAX_STEPS:
        raise TooManySteps(f"too many steps ({len(parts)}); at most {MAX_STEPS}")
    for part in parts:
        match = _STEP.fullmatch(part.strip().lower()[:20])
        if not match or int(match.group(1)) == 0:
            raise SchedulingError(f"bad step {part[:20]!r}: use a number and a unit, like 1m, 10m, 1h or 1d")
        step = timedelta(seconds=int(match.group(1)) * _UNIT[match.group(2)])
        if step > MAX_STEP:
            raise StepTooLong(f"step {part[:20]!r} is longer than a year")
        steps.append(step)
    return tuple(steps)


def stored_parameters(text: object) -> tuple[float, ...] | None:
    """Fitted FSRS parameters stored on an account (a JSON list), or None (the defaults) when
    they are not the 21 finite numbers within py-fsrs's bounds that the optimiser writes."""
    if not isinstance(text, str) or not text or len(text) > 10_000:
        return None
    try:
        values = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(values, list) or len(values) != len(LOWER_BOUNDS_PARAMETERS):
        return None
    for value, lo, hi in zip(values, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS):
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not lo <= value <= hi:
            return None  # NaN fails the comparison too
    return tuple(float(v) for v in values)


def _stored_steps(text: object, default: str) -> str:
    try:
        return text if isinstance(text, str) and parse_steps(text) is not None else default
    except SchedulingError:
        return default


def settings_for_user(user: Any, *, enable_fuzzing: bool = True) -> SchedulerSettings:
    """The scheduler settings of an account, read defensively: a stored value the settings form
    could not have written (only a row written past it holds one) is read as the default, so
    building the scheduler never raises."""
    default = SchedulerSettings()
    retention = user.desired_retention
    if not (isinstance(retention, (int, float)) and not isinstance(retention, bool) and 0.7 <= retention <= 0.99):
        retention = default.desired_retention
    interval = user.maximum_interval
    if not (isinstance(interval, int) and not isinstance(interval, bool) and 1 <= interval <= 36500):
        interval = default.maximum_interval
    return SchedulerSettings(
        desired_retention=float(retention),
        learning_steps=_stored_steps(user.learning_steps, default.learning_steps),
        relearning_steps=_stored_steps(user.relearning_steps, default.relearning_steps),
        maximum_interval=interval,
        parameters=stored_parameters(user.fsrs_parameters),
        enable_fuzzing=enable_fuzzing,
    )


def make_scheduler(settings: SchedulerSettings) -> fsrs.Scheduler:
    """The fsrs Scheduler for these settings (cached: it holds no per-card state; callers must
    not change its attributes)."""
    try:
        return _cached_scheduler(settings)
    except TypeError:  # unhashable settings (parameters given as a list): built each time
        return _build_scheduler(settings)


@lru_cache(maxsize=256)
def _cached_scheduler(settings: SchedulerSettings) -> fsrs.Scheduler:
    return _build_scheduler(settings)


def _build_scheduler(settings: SchedulerSettings) -> fsrs.Scheduler:
    kwargs: dict[str, Any] = dict(
        desired_retention=settings.desired_retention,
        learning_steps=parse_steps(settings.learning_steps),
        relearning_steps=parse_steps(settings.relearning_steps),
        maximum_interval=settings.maximum_interval,
        enable_fuzzing=settings.enable_fuzzing,
    )
    if settings.parameters is not None:
        kwargs["parameters"] = settings.parameters
    return fsrs.Scheduler(**kwargs)


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError("naive datetime")
    return value.astimezone(timezone.utc)


#: What a stored memory state is read as when it is missing or out of FSRS's range (a row an
#: old version or a bad restore left): a fresh card's, so the next rating rebuilds it.
_FALLBACK_STABILITY = 1.0
_FALLBACK_DIFFICULTY = 5.0


def _in_range(value: float | None, lo: float, hi: float) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) and lo <= value <= hi else None


def to_fsrs(row: CardRow) -> fsrs.Card:
    """The fsrs Card for one of our rows, read defensively: a stability or difficulty that is
    missing or out of range where the state needs one is replaced by a fresh card's, a step by
    0, and a last review after ``due`` or before 1970 is dropped (never an assertion or an
    overflow in fsrs, whatever the row holds)."""
    state = row.state if row.state in _STATE_TO_FSRS else CardState.new
    stability = _in_range(row.stability, 0.001, 36500.0)
    difficulty = _in_range(row.difficulty, 1.0, 10.0)
    if state is not CardState.new or row.last_review is not None:
        stability = stability if stability is not None else _FALLBACK_STABILITY
        difficulty = difficulty if difficulty is not None else _FALLBACK_DIFFICULTY
    step = row.step if state in (CardState.new, CardState.learning, CardState.relearning) else None
    if step is not None and not 0 <= step <= 100:
        step = 0
    last_review = _utc(row.last_review)
    if last_review is not None and last_review.year < 1970:
        last_review = None
    return fsrs.Card(
        card_id=1,
        state=_STATE_TO_FSRS[state],
        step=step,
        stability=stability,
        difficulty=difficulty,
        due=_utc(row.due),
        last_review=last_review,
    )


def snapshot(row: CardRow) -> dict[str, Any]:
    """The scheduling state of a row as JSON-friendly data (for undo and export)."""
    return {
        "state": row.state.value,
        "step": row.step,
        "stability": row.stability,
        "difficulty": row.difficulty,
        "due": row.due.isoformat(),
        "last_review": row.last_review.isoformat() if row.last_review else None,
        "reps": getattr(row, "reps", 0),
        "lapses": getattr(row, "lapses", 0),
    }


def restore(row: Any, snap: dict[str, Any]) -> None:
    """Put a snapshot back onto a row."""
    row.state = CardState(snap["state"])
    row.step = snap["step"]
    row.stability = snap["stability"]
    row.difficulty = snap["difficulty"]
    row.due = datetime.fromisoformat(snap["due"])
    row.last_review = datetime.fromisoformat(snap["last_review"]) if snap["last_review"] else None
    row.reps = snap.get("reps", 0)
    row.lapses = snap.get("lapses", 0)


@dataclass(frozen=True)
class ReviewOutcome:
    state: CardState
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime
    lapsed: bool


def review(scheduler: fsrs.Scheduler, row: CardRow, rating: int, now: datetime,
           duration_ms: int | None = None) -> ReviewOutcome:
    """Apply a rating (1–4) at ``now`` and return the new scheduling state."""
    if rating not in RATINGS:
        raise SchedulingError("rating must be 1, 2, 3 or 4")
    card, _log = scheduler.review_card(to_fsrs(row), RATINGS[rating], _utc(now), duration_ms)
    new_state = _FSRS_TO_STATE[card.state]
    return ReviewOutcome(
        state=new_state,
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=card.due,
        last_review=card.last_review or _utc(now),
        lapsed=row.state is CardState.review and new_state is CardState.relearning,
    )


def apply(row: Any, outcome: ReviewOutcome) -> None:
    row.state = outcome.state
    row.step = outcome.step
    row.stability = outcome.stability
    row.difficulty = outcome.difficulty
    row.due = outcome.due
    row.last_review = outcome.last_review
    row.reps = (row.reps or 0) + 1
    if outcome.lapsed:
        row.lapses = (row.lapses or 0) + 1


# Anki 24.11 balances only intervals up to this many days; longer ones get plain fuzz.
MAX_LOAD_BALANCE_INTERVAL = 90


def fuzz_range(interval_days: int, maximum_interval: int) -> tuple[int, int]:
    """The days fsrs's fuzz could pick for an interval of ``interval_days``: the bounds of
    ``fsrs.Scheduler._get_fuzzed_interval`` (fsrs 6), inclusive."""
    delta = 1.0
    for band in FUZZ_RANGES:
        delta += band["factor"] * max(min(float(interval_days), band["end"]) - band["start"], 0.0)
    low = max(2, round(interval_days - delta))
    high = min(round(interval_days + delta), maximum_interval)
    return min(low, high), high


@dataclass(frozen=True)
class BalanceWindow:
    """Where a review interval may move: ``low``..``high`` days after the review (inclusive);
    ``target`` is the interval fsrs computed without fuzz."""

    target: int
    low: int
    high: int

    @property
    def days(self) -> range:
        return range(self.low, self.high + 1)

    @property
    def balanced(self) -> bool:
        """Short enough to balance by load (Anki: 90 days); longer ones get plain fuzz."""
        return self.target <= MAX_LOAD_BALANCE_INTERVAL


def balance_window(outcome: ReviewOutcome, now: datetime, maximum_interval: int) -> BalanceWindow | None:
    """The window a fuzz-free outcome may be moved in, or None when fsrs would not fuzz it
    (not a review, or an interval under 2.5 days)."""
    if outcome.state is not CardState.review:
        return None
    days = (outcome.due - _utc(now)).days
    if days < 2.5:
        return None
    low, high = fuzz_range(days, maximum_interval)
    return BalanceWindow(target=days, low=low, high=high)


def choose_interval(window: BalanceWindow, due_counts: Sequence[int], rng: random.Random) -> int:
    """The interval in ``window`` to use. Balanced windows take the day with the fewest cards
    already due (``due_counts[i]`` for day ``window.low + i``), ties going to the day nearest
    fsrs's own interval, then the earlier one; longer windows pick uniformly, like fsrs's fuzz."""
    days = list(window.days)
    if not window.balanced:
        return rng.choice(days)
    if len(due_counts) != len(days):
        raise ValueError("one due count per day of the window")
    return min(days, key=lambda d: (due_counts[d - window.low], abs(d - window.target), d))


def with_interval(outcome: ReviewOutcome, now: datetime, days: int) -> ReviewOutcome:
    """The outcome due ``days`` days after ``now`` instead."""
    return replace(outcome, due=_utc(now) + timedelta(days=days))


def preview_intervals(settings: SchedulerSettings, row: CardRow, now: datetime) -> dict[int, timedelta]:
    """The interval each rating would give now (fuzz off, so the label is stable)."""
    plain = make_scheduler(SchedulerSettings(**{**settings.__dict__, "enable_fuzzing": False}))
    return {r: review(plain, row, r, now).due - now for r in RATINGS}


def format_interval(delta: timedelta) -> str:
    """A short label like Anki's: 45s, 10m, 3h, 4d, 2.1mo, 1.3y."""
    seconds = max(0, int(round(delta.total_seconds())))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{round(seconds / 60)}m"
    if seconds < 86400:
        return f"{round(seconds / 3600)}h"
    days = seconds / 86400
    if days < 30:
        return f"{round(days)}d"
    if days < 365:
        return f"{days / 30:.1f}mo".replace(".0mo", "mo")
    return f"{days / 365:.1f}y".replace(".0y", "y")


def retrievability(scheduler: fsrs.Scheduler, row: CardRow, now: datetime) -> float:
    """Current probability of recall for a reviewed card (0 for a new one)."""
    if row.state is CardState.new or row.last_review is None:
        return 0.0
    return float(scheduler.get_card_retrievability(to_fsrs(row), _utc(now)))
