"""A card's FSRS state and review history as Anki stores them (its ``cards`` and ``revlog``
columns), so Anki with FSRS on goes on where prep left off.

Anki counts review days from the collection's creation (``crt``), in the user's time zone with
the day starting at the user's hour (``creationOffset``, ``localOffset``, ``rollover`` in the
collection's settings); it keeps intraday learning steps as Unix seconds, the FSRS memory state in
each card's ``data`` JSON (``s`` stability in days, ``d`` difficulty 1–10, ``dr`` desired
retention, ``decay``, ``lrt`` last review in Unix seconds), and one ``revlog`` row per answer
(``ivl`` days when positive, seconds when negative).

Pure module: no Flask, no database; times are UTC-aware datetimes.
"""
from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from ..drill.memory import CardMemory, CardState
from ..drill.queue import day_bounds, study_day
from ..zones import user_day_start, user_zone

# Anki's card types and queues (rslib card/mod.rs).
TYPE_NEW, TYPE_LEARN, TYPE_REVIEW, TYPE_RELEARN = 0, 1, 2, 3
QUEUE_SUSPENDED, QUEUE_NEW, QUEUE_LEARN, QUEUE_REVIEW = -1, 0, 1, 2
# Anki's review kinds (revlog.type).
REVLOG_LEARN, REVLOG_REVIEW, REVLOG_RELEARN, REVLOG_FILTERED = 0, 1, 2, 3
INITIAL_EASE = 2500  # Anki's factor for a graduated card (FSRS leaves it alone)
MAX_ANSWER_MS = 60_000  # Anki's default cap on the time an answer counts for
_TYPE = {CardState.new: TYPE_NEW, CardState.learning: TYPE_LEARN,
         CardState.review: TYPE_REVIEW, CardState.relearning: TYPE_RELEARN}
_REVLOG_KIND = {CardState.new: REVLOG_LEARN, CardState.learning: REVLOG_LEARN,
                CardState.review: REVLOG_REVIEW, CardState.relearning: REVLOG_RELEARN}


@dataclass(frozen=True)
class Calendar:
    """The exported collection's day count: day 0 is ``first_day``, a study day of the user's."""

    first_day: date
    tz_name: str
    day_start_hour: int

    @property
    def crt(self) -> datetime:
        """When day 0 starts (the collection's creation time)."""
        return day_bounds(self.first_day, user_zone(self.tz_name), user_day_start(self.day_start_hour)).start

    def day_number(self, moment: datetime) -> int:
        """The study day ``moment`` falls on, counted from day 0."""
        return (study_day(moment, self.tz_name, self.day_start_hour).day - self.first_day).days

    def col_settings(self, now: datetime) -> dict[str, Any]:
        """The collection settings that make Anki count days as prep does (v2 cutoff handling)."""
        zone = user_zone(self.tz_name)
        return {"schedVer": 2, "rollover": user_day_start(self.day_start_hour),
                "creationOffset": _minutes_west(self.crt, zone), "localOffset": _minutes_west(now, zone)}


def _minutes_west(moment: datetime, zone: Any) -> int:
    offset = moment.astimezone(zone).utcoffset() or timedelta(0)
    return -int(offset.total_seconds() // 60)


def calendar_for(earliest: datetime | None, now: datetime, tz_name: str, day_start_hour: int) -> Calendar:
    """Day 0 on the study day of ``earliest`` (the first card added), never after today's."""
    first = min(earliest or now, now)
    return Calendar(study_day(first, tz_name, day_start_hour).day, tz_name, day_start_hour)


def memory_from_snapshot(snap: dict[str, Any]) -> CardMemory:
    """The state a :func:`prep.drill.scheduling.snapshot` recorded (a review log's ``card_before``)."""
    return CardMemory(CardState(snap["state"]), snap.get("step"), snap.get("stability"), snap.get("difficulty"),
                      datetime.fromisoformat(snap["due"]),
                      datetime.fromisoformat(snap["last_review"]) if snap.get("last_review") else None,
                      snap.get("reps") or 0, snap.get("lapses") or 0)


def has_memory(m: CardMemory) -> bool:
    """Whether the card has an FSRS memory state Anki can take (a stability and a difficulty in range)."""
    return m.state is not CardState.new and _finite(m.stability, 0.001, 36500) and _finite(m.difficulty, 1.0, 10.0)


def _finite(value: float | None, lo: float, hi: float) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value) and lo <= value <= hi


def interval_days(m: CardMemory) -> int:
    """The scheduled interval in whole days (at least 1), from the last review to the due date."""
    if m.last_review is None:
        return 1
    return max(1, round((m.due - m.last_review) / timedelta(days=1)))


def _unix(moment: datetime) -> int:
    return int(moment.timestamp())


@dataclass(frozen=True)
class CardColumns:
    type: int
    queue: int
    due: int
    ivl: int
    factor: int
    reps: int
    lapses: int
    left: int
    data: str


def card_columns(m: CardMemory, *, suspended: bool, position: int, calendar: Calendar, learning_steps: int,
                 relearning_steps: int, desired_retention: float, decay: float | None) -> CardColumns:
    """Anki's columns for a card in state ``m``; ``position`` orders new cards."""
    ctype = _TYPE.get(m.state, TYPE_NEW)
    if ctype == TYPE_NEW or not has_memory(m):
        return CardColumns(TYPE_NEW, QUEUE_SUSPENDED if suspended else QUEUE_NEW, position, 0, 0, 0, 0, 0, "{}")
    data: dict[str, Any] = {"s": round(float(m.stability), 4), "d": round(float(m.difficulty), 4),  # type: ignore[arg-type]
                            "dr": round(desired_retention, 4)}
    if decay is not None:
        data["decay"] = round(decay, 4)
    if m.last_review is not None:
        data["lrt"] = _unix(m.last_review)
    if ctype == TYPE_REVIEW:
        queue, due, left, ivl = QUEUE_REVIEW, calendar.day_number(m.due), 0, interval_days(m)
    else:
        steps = learning_steps if ctype == TYPE_LEARN else relearning_steps
        queue, due, left = QUEUE_LEARN, _unix(m.due), max(1, steps - (m.step or 0))
        ivl = interval_days(m) if ctype == TYPE_RELEARN else 0
    factor = INITIAL_EASE if ctype in (TYPE_REVIEW, TYPE_RELEARN) or m.reps > 1 else 0
    return CardColumns(ctype, QUEUE_SUSPENDED if suspended else queue, due, ivl, factor, m.reps, m.lapses, left,
                       json.dumps(data, separators=(",", ":")))


@dataclass(frozen=True)
class Answer:
    """One review log of prep's: when, which button, how long, the card's state before, and
    whether it was a cram (practice that left the schedule alone)."""

    reviewed_at: datetime
    rating: int
    duration_ms: int
    before: CardMemory
    cram: bool = False


@dataclass(frozen=True)
class RevlogRow:
    id: int
    ease: int
    ivl: int
    last_ivl: int
    factor: int
    time: int
    type: int


def _log_interval(m: CardMemory, at: datetime) -> int:
    """Anki's revlog interval for the state a review left: days, or minus seconds while learning."""
    if m.state is CardState.review:
        return interval_days(m)
    return -max(1, int((m.due - at).total_seconds()))


def revlog_rows(answers: Sequence[Answer], current: CardMemory, taken: set[int] | None = None) -> list[RevlogRow]:
    """One card's answers (oldest first) as revlog rows; the state after an answer is the state
    before the next recorded one, or ``current`` after the last. Ids are the answer times in
    milliseconds, moved on past the ids in ``taken`` (Anki keeps one row per id), which grows."""
    taken = set() if taken is None else taken
    scheduled = [a for a in answers if not a.cram]
    after = {id(a): (scheduled[i + 1].before if i + 1 < len(scheduled) else current) for i, a in enumerate(scheduled)}
    rows: list[RevlogRow] = []
    last_ivl, last_id = 0, 0
    for a in answers:
        row_id = max(int(a.reviewed_at.timestamp() * 1000), last_id + 1)
        while row_id in taken:
            row_id += 1
        taken.add(row_id)
        ease = a.rating if 1 <= a.rating <= 4 else 3
        time_ms = max(0, min(int(a.duration_ms or 0), MAX_ANSWER_MS))
        if a.cram:
            rows.append(RevlogRow(row_id, ease, 0, last_ivl, 0, time_ms, REVLOG_FILTERED))
        else:
            state = after[id(a)]
            ivl = _log_interval(state, a.reviewed_at)
            factor = 100 + int((float(state.difficulty) - 1) / 9 * 1000) if has_memory(state) else 0  # type: ignore[arg-type]
            rows.append(RevlogRow(row_id, ease, ivl, last_ivl, factor, time_ms, _REVLOG_KIND.get(a.before.state, 0)))
            last_ivl = ivl
        last_id = row_id
    return rows
