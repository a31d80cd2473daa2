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

#: The most recent reviews per card the fit uses (see :func:`build_items`); the app passes
#: its ``OPTIMIZE_MAX_HISTORY_PER_CARD`` setting.
MAX_HISTORY_PER_CARD = 1000
#: The most review steps all training items may hold together (each item holds its card's
#: history up to it, so a card of n reviews holds about n²/2): past it, the per-card cap is
#: lowered for this fit until they fit (about 1 s of fitting and 100 MB).
MAX_TRAINING_STEPS = 4_000_000
MIN_REVIEWS = 400
TRAIN_SHARE = 0.75
DEFAULT_PARAMETERS: tuple[float, ...] = tuple(fsrs.Scheduler().parameters)


class OptimizeError(ValueError):
    """Not enough (or unusable) history to fit parameters."""


class TooFewReviews(OptimizeError):
    """Fewer reviews than the fit needs."""

    def __init__(self, need: int, have: int) -> None:
        super().__init__(f"Optimising needs at least {need} reviews; you have {have}.")
        self.need, self.have = need, have


class NoSplit(OptimizeError):
    """The reviews cannot be split in time into a training and a test set."""

    def __init__(self) -> None:
        super().__init__("Not enough reviews on separate days yet to train and to test on; keep studying.")


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
    """A card's history up to one review: the first ``length`` of ``history``, whose entries are
    (rating, days since the previous review). A card's items share one ``history`` tuple, so
    building them costs its length, not its square."""

    at: datetime
    history: tuple[tuple[int, int], ...]
    length: int

    @property
    def steps(self) -> tuple[tuple[int, int], ...]:
        return self.history[:self.length]

    @property
    def item(self) -> fsrs_rs.FSRSItem:
        return fsrs_rs.FSRSItem([fsrs_rs.FSRSReview(rating, delta) for rating, delta in self.steps])


def study_date(moment: datetime, tz: ZoneInfo, day_start_hour: int) -> date:
    """The local study day a moment falls on (the day starts at ``day_start_hour``)."""
    return (moment.astimezone(tz) - timedelta(hours=day_start_hour)).date()


def most_recent(reviews: Iterable[Review], max_history: int = MAX_HISTORY_PER_CARD) -> dict[int, list[Review]]:
    """Each card's most recent ``max_history`` reviews, oldest first."""
    by_card: dict[int, list[Review]] = defaultdict(list)
    for r in reviews:
        by_card[r.card_id].append(r)
    for history in by_card.values():
        history.sort(key=lambda r: r.reviewed_at)
        del history[:-max_history]
    return by_card


def affordable_history(lengths: Iterable[int], max_history: int = MAX_HISTORY_PER_CARD,
                       max_steps: int = MAX_TRAINING_STEPS) -> int:
    """The largest per-card cap, at most ``max_history``, whose training items hold at most
    ``max_steps`` review steps in all (a card of n reviews used holds at most n(n+1)/2)."""
    lengths = sorted(lengths, reverse=True)

    def steps(cap: int) -> int:
        return sum(min(n, cap) * (min(n, cap) + 1) // 2 for n in lengths)

    lo, hi = 1, max(1, max_history)
    if steps(hi) <= max_steps:
        return hi
    while lo < hi:  # steps() grows with the cap: the largest cap that fits
        mid = (lo + hi + 1) // 2
        if steps(mid) <= max_steps:
            lo = mid
        else:
            hi = mid - 1
    return lo


def build_items(reviews: Iterable[Review], tz_name: str = "UTC", day_start_hour: int = 4,
                max_history: int = MAX_HISTORY_PER_CARD) -> list[TrainingItem]:
    """One training item per review made on a later day than the card's previous one, holding
    the card's history up to and including it; sorted by the time of that review.

    Only a card's most recent ``max_history`` reviews are used: the fit reads every item's
    whole history, so a card's share of its work is the square of its length (12,000 reviews
    of one card took 26 s and 1.8 GB). Building is linear: a card's items share one tuple."""
    tz = user_zone(tz_name)
    items: list[TrainingItem] = []
    for history in most_recent(reviews, max_history).values():
        steps: list[tuple[int, int]] = []
        ends: list[tuple[datetime, int]] = []
        last = study_date(history[0].reviewed_at, tz, day_start_hour)
        for r in history:
            day = study_date(r.reviewed_at, tz, day_start_hour)
            delta = (day - last).days
            steps.append((r.rating, delta))
            last = day
            # Predict only reviews on a later day than the previous one (same-day ones are
            # short-term); such an item always has a long-term review, as fsrs-rs requires.
            if delta > 0:
                ends.append((r.reviewed_at, len(steps)))
        shared = tuple(steps)
        items += [TrainingItem(at, shared, length) for at, length in ends]
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
        day_start_hour: int = 4, min_reviews: int = MIN_REVIEWS, train_share: float = TRAIN_SHARE,
        max_history: int = MAX_HISTORY_PER_CARD) -> FitResult:
    """Train on the first ``train_share`` of the reviews (by time), test on the rest; each card's
    most recent ``max_history`` reviews are used (the split is taken over those)."""
    if len(reviews) < min_reviews:
        raise TooFewReviews(need=min_reviews, have=len(reviews))
    current = tuple(current) if current else DEFAULT_PARAMETERS
    by_card = most_recent(reviews, max_history)
    cap = affordable_history((len(h) for h in by_card.values()), max_history, MAX_TRAINING_STEPS)
    used = [r for history in by_card.values() for r in history[-cap:]]
    times = sorted(r.reviewed_at for r in used)
    split_at = times[min(len(times) - 1, int(len(times) * train_share))]
    items = build_items(used, tz_name, day_start_hour, cap)
    train = [i.item for i in items if i.at < split_at]
    test = [i.item for i in items if i.at >= split_at]
    if len(train) < 50 or len(test) < 20:
        raise NoSplit()
    fitted = clamp(fsrs_rs.FSRS(list(current)).compute_parameters(train))
    return FitResult(parameters=fitted, before=evaluate(current, test), after=evaluate(fitted, test),
                     train_items=len(train), test_items=len(test), split_at=split_at)
