"""Fit FSRS parameters to a review history and judge them on the future, as the srs-benchmark does.

The history is split in time: parameters are trained on the earlier reviews only, and both the
current and the fitted parameters predict the later reviews (each prediction uses the card's
history up to then). Lower log loss on that later part is what "better" means.

Pure module: no Flask, no database. Reviews come in as plain :class:`Review` values.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import fsrs
import fsrs_rs_python as fsrs_rs
from fsrs.scheduler import LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS

from ..zones import user_zone

#: The most recent reviews per card the fit uses (see :func:`build_items`).
MAX_HISTORY_PER_CARD = 200
MIN_REVIEWS = 400
TRAIN_SHARE = 0.75
DEFAULT_PARAMETERS: tuple[float, ...] = tuple(fsrs.Scheduler().parameters)


class OptimizeError(ValueError):
    """Not enough (or unusable) history to fit parameters."""

    def __init__(self, message: str, code: str = "", **params: int) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Review:
    card_id: int
    reviewed_at: datetime  # UTC-aware
    rating: int            # 1..4


@dataclass(frozen=True)
class Metrics:
    log_loss: float
    rmse_bins: float


@dataclass(frozen=True)
class FitResult:
    parameters: tuple[float, ...]
    before: Metrics           # current parameters on the later reviews
    after: Metrics            # fitted parameters on the later reviews
    train_items: int
    test_items: int
    split_at: datetime        # reviews from here on were held back

    @property
    def improved(self) -> bool:
        return self.after.log_loss < self.before.log_loss


@dataclass(frozen=True)
class TrainingItem:
    """A card's history up to one review: ``steps`` are (rating, days since the previous review)."""

    at: datetime
    steps: tuple[tuple[int, int], ...]

    @property
    def item(self) -> fsrs_rs.FSRSItem:
        return fsrs_rs.FSRSItem([fsrs_rs.FSRSReview(rating, delta) for rating, delta in self.steps])


def study_date(moment: datetime, tz: ZoneInfo, day_start_hour: int) -> date:
    """The local study day a moment falls on (the day starts at ``day_start_hour``)."""
    return (moment.astimezone(tz) - timedelta(hours=day_start_hour)).date()


def build_items(reviews: Iterable[Review], tz_name: str = "UTC", day_start_hour: int = 4,
                max_history: int = MAX_HISTORY_PER_CARD) -> list[TrainingItem]:
    """One training item per review made on a later day than the card's previous one, holding
    the card's history up to and including it; sorted by the time of that review.

    Each item holds the whole history before it, so a card's items cost the square of its
    length: only the card's most recent ``max_history`` reviews are used (12,000 reviews of one
    card took 26 s and 1.8 GB; now at most ``max_history`` items of at most that many steps)."""
    tz = user_zone(tz_name)
    by_card: dict[int, list[Review]] = defaultdict(list)
    for r in reviews:
        by_card[r.card_id].append(r)
    items: list[_Item] = []
    for history in by_card.values():
        history.sort(key=lambda r: r.reviewed_at)
        del history[:-max_history]
        steps: list[tuple[int, int]] = []
        last = study_date(history[0].reviewed_at, tz, day_start_hour)
        for r in history:
            day = study_date(r.reviewed_at, tz, day_start_hour)
            delta = (day - last).days
            steps.append((r.rating, delta))
            last = day
            # Predict only reviews on a later day than the previous one (same-day ones are short-term).
            if delta > 0 and fsrs_rs.FSRSItem([fsrs_rs.FSRSReview(g, d) for g, d in steps]).long_term_review_cnt() > 0:
                items.append(TrainingItem(r.reviewed_at, tuple(steps)))
    items.sort(key=lambda i: i.at)
    return items


def clamp(parameters: Sequence[float]) -> tuple[float, ...]:
    """Keep fitted values inside the ranges py-fsrs accepts."""
    return tuple(min(max(float(p), lo), hi)
                 for p, lo, hi in zip(parameters, LOWER_BOUNDS_PARAMETERS, UPPER_BOUNDS_PARAMETERS))


def evaluate(parameters: Sequence[float], items: Sequence[fsrs_rs.FSRSItem]) -> Metrics:
    result = fsrs_rs.FSRS(list(parameters)).evaluate(list(items))
    return Metrics(log_loss=float(result.log_loss), rmse_bins=float(result.rmse_bins))


def fit(reviews: Sequence[Review], current: Sequence[float] | None = None, *, tz_name: str = "UTC",
        day_start_hour: int = 4, min_reviews: int = MIN_REVIEWS, train_share: float = TRAIN_SHARE) -> FitResult:
    """Train on the first ``train_share`` of the reviews (by time), test on the rest."""
    if len(reviews) < min_reviews:
        raise OptimizeError(f"Optimising needs at least {min_reviews} reviews; you have {len(reviews)}.",
                            "too_few", need=min_reviews, have=len(reviews))
    current = tuple(current) if current else DEFAULT_PARAMETERS
    times = sorted(r.reviewed_at for r in reviews)
    split_at = times[min(len(times) - 1, int(len(times) * train_share))]
    items = build_items(reviews, tz_name, day_start_hour)
    train = [i.item for i in items if i.at < split_at]
    test = [i.item for i in items if i.at >= split_at]
    if len(train) < 50 or len(test) < 20:
        raise OptimizeError("Not enough reviews on separate days yet to train and to test on; keep studying.",
                            "no_split")
    fitted = clamp(fsrs_rs.FSRS(list(current)).compute_parameters(train))
    return FitResult(parameters=fitted, before=evaluate(current, test), after=evaluate(fitted, test),
                     train_items=len(train), test_items=len(test), split_at=split_at)
