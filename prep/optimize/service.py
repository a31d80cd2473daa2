"""Optimisation on the database: read a user's review log, fit, record, apply or roll back.

Views call these and commit; these functions never commit themselves.
"""
from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import func, select

from ..accounts.models import User
from ..drill.models import ReviewLog
from ..extensions import db
from . import fit
from .models import OptimizationRun


def review_count(user: User) -> int:
    return int(db.session.scalar(select(func.count(ReviewLog.id)).where(
        ReviewLog.user_id == user.id, ReviewLog.kind == "review")) or 0)


def reviews_for(user: User) -> list[fit.Review]:
    """The user's scheduled reviews (cram reviews are not memory evidence the scheduler saw)."""
    rows = db.session.execute(select(ReviewLog.card_id, ReviewLog.reviewed_at, ReviewLog.rating).where(
        ReviewLog.user_id == user.id, ReviewLog.kind == "review").order_by(ReviewLog.reviewed_at, ReviewLog.id))
    return [fit.Review(card_id=c, reviewed_at=t, rating=r) for c, t, r in rows]


def current_parameters(user: User) -> tuple[float, ...]:
    return tuple(json.loads(user.fsrs_parameters)) if user.fsrs_parameters else fit.DEFAULT_PARAMETERS


def optimise(user: User, now: datetime) -> OptimizationRun:
    """Fit parameters to the user's history; apply them only when they predict the held-back
    later reviews better (lower log loss). Raises :class:`fit.OptimizeError` when it cannot fit."""
    reviews = reviews_for(user)
    result = fit.fit(reviews, current_parameters(user), tz_name=user.timezone, day_start_hour=user.day_start_hour)
    run = OptimizationRun(
        user_id=user.id, created_at=now, review_count=len(reviews), train_items=result.train_items,
        test_items=result.test_items, split_at=result.split_at, log_loss_before=result.before.log_loss,
        log_loss_after=result.after.log_loss, rmse_before=result.before.rmse_bins, rmse_after=result.after.rmse_bins,
        old_parameters=user.fsrs_parameters, new_parameters=json.dumps(list(result.parameters)),
        applied=result.improved)
    if result.improved:
        user.fsrs_parameters = run.new_parameters
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
    db.session.flush()
    return run


def history(user: User, limit: int = 10) -> list[OptimizationRun]:
    return list(db.session.scalars(select(OptimizationRun).where(OptimizationRun.user_id == user.id)
                                   .order_by(OptimizationRun.id.desc()).limit(limit)))
