"""A rating's review log written with one Core INSERT (issue 20: a unit-of-work flush of the ORM
object cost more CPU than the statement). The unique (card, version) key stays the exactly-once
guard; undo, the optimiser and the tests read the row back through the ORM.
"""
from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from .models import ReviewLog

_LOG_COLUMNS = ("card_id", "user_id", "card_version", "rating", "reviewed_at", "duration_ms", "state_before",
                "state_after", "kind", "card_before", "key_points_ticked", "request_id")


@functools.cache
def _insert_log_statement() -> Any:
    return insert(ReviewLog.__table__)


def insert_log(log: ReviewLog) -> bool:
    """INSERT a rating's review log (Core, not a unit-of-work flush: issue 20) and set its id;
    False when the (card, version) was recorded already. ``log`` stays out of the session (read it
    back by id). Pending ORM changes are not flushed first (a rating writes its card with Core).

    The version check ran under the row lock; the constraint only catches a race on a card
    without one. A failed INSERT rolls the whole session back, so no savepoint is needed."""
    try:
        result = db.session.connection().execute(_insert_log_statement(), {c: getattr(log, c) for c in _LOG_COLUMNS})
    except IntegrityError:
        db.session.rollback()
        return False
    log.id = result.inserted_primary_key[0]
    return True
