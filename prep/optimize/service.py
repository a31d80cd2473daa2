"""Optimisation on the database: read a user's review log, fit, record, apply or roll back.

Views call these and commit; these functions never commit themselves.
"""
from __future__ import annotations

import json
import logging
from dataclasses import replace
from datetime import datetime
from types import SimpleNamespace

from flask import current_app, has_app_context
from sqlalchemy import func, select, update

from ..accounts.models import User
from ..drill import scheduling
from ..drill.models import Card, ReviewLog
from ..drill.scheduling import settings_for_user
from ..extensions import db
from . import fit
from .models import OptimizationRun

log = logging.getLogger(__name__)


def review_count(user: User) -> int:
    return int(db.session.scalar(select(func.count(ReviewLog.id)).where(
        ReviewLog.user_id == user.id, ReviewLog.kind == "review")) or 0)


def max_history() -> int:
    """The ``OPTIMIZE_MAX_HISTORY_PER_CARD`` setting (the module default outside an app)."""
    value = current_app.config.get("OPTIMIZE_MAX_HISTORY_PER_CARD") if has_app_context() else None
    return max(1, int(value)) if value is not None else fit.MAX_HISTORY_PER_CARD


def reviews_for(user: User, most_recent: int | None = None) -> list[fit.Review]:
    """The user's scheduled reviews (cram reviews are not memory evidence the scheduler saw),
    oldest first; with ``most_recent``, only each card's most recent that many (chosen in the
    database, so a card with a huge history is never read whole)."""
    rank = func.row_number().over(partition_by=ReviewLog.card_id,
                                  order_by=(ReviewLog.reviewed_at.desc(), ReviewLog.id.desc())).label("rank")
    inner = (select(ReviewLog.id, ReviewLog.card_id, ReviewLog.reviewed_at, ReviewLog.rating, rank)
             .where(ReviewLog.user_id == user.id, ReviewLog.kind == "review").subquery())
    stmt = select(inner.c.card_id, inner.c.reviewed_at, inner.c.rating).order_by(inner.c.reviewed_at, inner.c.id)
    if most_recent is not None:
        stmt = stmt.where(inner.c.rank <= most_recent)
    return [fit.Review(card_id=c, reviewed_at=t, rating=r) for c, t, r in db.session.execute(stmt)]


def current_parameters(user: User) -> tuple[float, ...]:
    return scheduling.stored_parameters(user.fsrs_parameters) or fit.DEFAULT_PARAMETERS


def optimise(user: User, now: datetime) -> OptimizationRun:
    """Fit parameters to the user's history; apply them only when they predict the held-back
    later reviews better (lower log loss). Raises :class:`fit.OptimizeError` when it cannot fit.

    The history is read, then the transaction is ended before the fit (seconds of CPU) so no
    lock is held meanwhile (on SQLite a write transaction would stop every other user's
    rating); the result is written in a new transaction, which the caller commits."""
    cap = max_history()
    reviews = reviews_for(user, most_recent=cap)
    current, zone, day_start = current_parameters(user), user.timezone, user.day_start_hour
    db.session.commit()  # nothing written yet: ends the read before the slow part
    result = fit.fit(reviews, current, tz_name=zone, day_start_hour=day_start, max_history=cap)
    run = OptimizationRun(
        user_id=user.id, created_at=now, review_count=len(reviews), train_items=result.train_items,
        test_items=result.test_items, split_at=result.split_at, log_loss_before=result.before.log_loss,
        log_loss_after=result.after.log_loss, rmse_before=result.before.rmse_bins, rmse_after=result.after.rmse_bins,
        old_parameters=user.fsrs_parameters, new_parameters=json.dumps(list(result.parameters)),
        applied=result.improved)
    if result.improved:
        user.fsrs_parameters = run.new_parameters
        recompute_memory_states(user)
    db.session.add(run)
    db.session.flush()
    return run


def last_applied(user: User) -> OptimizationRun | None:
    return db.session.scalar(select(OptimizationRun).where(
        OptimizationRun.user_id == user.id, OptimizationRun.applied.is_(True),
        OptimizationRun.rolled_back_at.is_(None)).order_by(OptimizationRun.id.desc()).limit(1))


def rollback(user: User, now: datetime) -> OptimizationRun | None:
    """Put back the parameters in use before the latest applied optimisation (None: nothing to undo)."""
    run = last_applied(user)
    if run is None:
        return None
    user.fsrs_parameters = run.old_parameters
    run.rolled_back_at = now
    recompute_memory_states(user)
    db.session.flush()
    return run


def replay(scheduler, before: dict, reviews: list[tuple[int, datetime]]) -> SimpleNamespace:
    """A card's scheduling state after replaying ``reviews`` (rating, time), oldest first, from the
    state ``before`` the first of them (a :func:`prep.drill.scheduling.snapshot`)."""
    row = SimpleNamespace()
    scheduling.restore(row, before)
    for rating, at in reviews:
        scheduling.apply(row, scheduling.review(scheduler, row, rating, at))
    return row


def recompute_memory_states(user: User) -> int:
    """Recompute every card's memory state (stability, difficulty) from its review log with the
    parameters now in use, so the scheduler's state matches its parameters (as Anki does when
    FSRS parameters change). Due dates, states and steps stay as they are: the product has no
    "reschedule on change" option, and Anki's is off by default. Cram reviews are not replayed
    (they never changed the memory state). Four statements whatever the number of cards.
    Returns how many cards changed."""
    first = (select(ReviewLog.card_id, ReviewLog.card_before,
                    func.row_number().over(partition_by=ReviewLog.card_id,
                                           order_by=(ReviewLog.reviewed_at, ReviewLog.id)).label("n"))
             .where(ReviewLog.user_id == user.id, ReviewLog.kind == "review").subquery())
    befores = dict(db.session.execute(select(first.c.card_id, first.c.card_before).where(first.c.n == 1)).all())
    if not befores:
        return 0
    history: dict[int, list[tuple[int, datetime]]] = {}
    for card_id, rating, at in db.session.execute(
            select(ReviewLog.card_id, ReviewLog.rating, ReviewLog.reviewed_at)
            .where(ReviewLog.user_id == user.id, ReviewLog.kind == "review")
            .order_by(ReviewLog.card_id, ReviewLog.reviewed_at, ReviewLog.id)):
        history.setdefault(card_id, []).append((rating, at))
    # S and D do not depend on fuzz (it only moves due dates), so replay without it.
    scheduler = scheduling.make_scheduler(replace(settings_for_user(user), enable_fuzzing=False))
    changes = []
    for card_id, stability, difficulty in db.session.execute(
            select(Card.id, Card.stability, Card.difficulty).where(Card.user_id == user.id)):
        if card_id not in befores:
            continue
        try:
            row = replay(scheduler, befores[card_id], history[card_id])
        except (KeyError, TypeError, ValueError) as err:  # a malformed snapshot (e.g. hand-edited import)
            log.warning("card %s: memory state not recomputed: %s", card_id, err)
            continue
        if (row.stability, row.difficulty) != (stability, difficulty):
            changes.append({"id": card_id, "stability": row.stability, "difficulty": row.difficulty})
    if changes:
        db.session.execute(update(Card), changes)  # one executemany by primary key
        changed = {c["id"] for c in changes}
        for obj in list(db.session.identity_map.values()):
            if isinstance(obj, Card) and obj.id in changed:
                db.session.expire(obj, ["stability", "difficulty"])
    return len(changes)


def history(user: User, limit: int = 10) -> list[OptimizationRun]:
    return list(db.session.scalars(select(OptimizationRun).where(OptimizationRun.user_id == user.id)
                                   .order_by(OptimizationRun.id.desc()).limit(limit)))
