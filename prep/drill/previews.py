"""The intervals the rating buttons show, kept per memory state (the drill page and the card
batch preview the same cards again and again until they are rated).

Pure module: no Flask, no database. With fuzz off, what :func:`.scheduling.preview_intervals`
gives depends on the settings, the card's scheduling fields and only the whole days since its
last review (fsrs reads ``(now - last_review).days``; the due date it returns is ``now`` plus the
interval), so those are the key.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from . import scheduling
from .memory import memory_of

MAX_ENTRIES = 4096  # all dropped when full

_kept: dict[tuple, dict[int, timedelta]] = {}


def preview_intervals(settings: scheduling.SchedulerSettings, row: scheduling.CardRow,
                      now: datetime) -> dict[int, timedelta]:
    """:func:`.scheduling.preview_intervals`, computed once per settings, memory state and whole
    days since the last review (as fsrs reads that last review: :func:`.scheduling.to_fsrs`)."""
    last = scheduling.to_fsrs(row).last_review
    key = (settings, memory_of(row), None if last is None else (now.astimezone(timezone.utc) - last).days)
    found = _kept.get(key)
    if found is None:
        if len(_kept) >= MAX_ENTRIES:
            _kept.clear()
        found = _kept[key] = scheduling.preview_intervals(settings, row, now)
    return dict(found)
