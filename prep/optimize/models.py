"""A record of each optimisation: the metrics shown, the parameters before and after, for rollback."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .. import clock
from ..dbtypes import UTCDateTime


class OptimizationRun(db.Model):
    __tablename__ = "optimization_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)
    review_count: Mapped[int] = mapped_column(Integer)
    train_items: Mapped[int] = mapped_column(Integer)
    test_items: Mapped[int] = mapped_column(Integer)
    split_at: Mapped[datetime] = mapped_column(UTCDateTime())
    log_loss_before: Mapped[float] = mapped_column(Float)
    log_loss_after: Mapped[float] = mapped_column(Float)
    rmse_before: Mapped[float] = mapped_column(Float)
    rmse_after: Mapped[float] = mapped_column(Float)
    # JSON lists; old_parameters None means the defaults were in use.
    old_parameters: Mapped[str | None] = mapped_column(String(1000), default=None)
    new_parameters: Mapped[str] = mapped_column(String(1000))
    applied: Mapped[bool] = mapped_column(default=False)
    rolled_back_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), default=None)
