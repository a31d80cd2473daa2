"""What goes into the interview planner and what comes out: the cards and interviews, the
candidate's settings (target recall, daily budget, seconds per answer), and the plan (per day:
new cards, reviews, minutes; per interview: predicted recall on the day; a shortfall when the
budget cannot reach the target).

Pure module: no Flask, no ORM.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from statistics import fmean

from ..drill import scheduling
from ..drill.memory import CardMemory
from . import recall

#: Minutes a day interview mode may use unless the candidate sets another budget.
DEFAULT_BUDGET_MINUTES = 20.0
#: Seconds one answer takes when the candidate has no history yet (the median answer in
#: prep's drill is 20-40 s for a spoken interview answer; 30 s is the stated default).
DEFAULT_SECONDS_PER_REVIEW = 30.0
#: The most reviews planned for one card before one interview (a bound on the search).
MAX_REVIEWS_PER_INTERVIEW = 8


class PlanError(ValueError):
    """Settings a plan cannot be made with (a target or budget out of range)."""


@dataclass(frozen=True)
class PlanCard:
    """A card to plan: its memory state, or None when it has never been studied. ``card_id`` is
    any id unique among the cards of one plan (a question's id will do for a question the user
    has no card for yet); interviews name cards by the same ids."""

    card_id: int
    memory: CardMemory | None = None
    #: Lower is introduced first among unseen cards planned for the same interviews (the
    #: candidate's own questions before the likely ones: :data:`prep.drill.planned.OWN_REPORT` ...).
    priority: int = 3


@dataclass(frozen=True)
class Interview:
    """An interview on a local date, and the cards of the questions it may ask."""

    interview_id: int
    day: date
    card_ids: tuple[int, ...]


@dataclass(frozen=True)
class PlanSettings:
    target: float = recall.DEFAULT_TARGET
    budget_minutes: float = DEFAULT_BUDGET_MINUTES
    seconds_per_review: float | None = None  # None: DEFAULT_SECONDS_PER_REVIEW
    tz_name: str = "UTC"
    day_start_hour: int = 4
    session_hour: int = 8     # local time the day's reviews are assumed to happen
    interview_hour: int = 10  # local time recall on the interview day is predicted for
    scheduler: scheduling.SchedulerSettings = scheduling.SchedulerSettings(enable_fuzzing=False)
    stability_scale: float = 1.0  # recall.calibrate's correction of the model (1: none)
    answers_per_new: float | None = None  # answers on a new card's first day (None: steps + 1)
    #: shares of the candidate's first answers to new cards (Again, Hard, Good, Easy); None: all Good
    first_ratings: tuple[float, float, float, float] | None = None

    def __post_init__(self) -> None:
        problems = []
        if not 0.5 <= self.target <= 0.99:
            problems.append("target recall must be between 0.50 and 0.99")
        if not 0 < self.budget_minutes <= 24 * 60:
            problems.append("daily budget must be between 1 minute and 24 hours")
        if self.seconds_per_review is not None and not 1 <= self.seconds_per_review <= 600:
            problems.append("seconds per review must be between 1 and 600")
        if self.answers_per_new is not None and not 1 <= self.answers_per_new <= 20:
            problems.append("answers per new card must be between 1 and 20")
        if self.first_ratings is not None and (len(self.first_ratings) != 4 or min(self.first_ratings) < 0
                                               or abs(sum(self.first_ratings) - 1) > 1e-6):
            problems.append("first-answer shares must be four non-negative numbers adding up to 1")
        if problems:
            raise PlanError("; ".join(problems))

    @property
    def seconds(self) -> float:
        return self.seconds_per_review or DEFAULT_SECONDS_PER_REVIEW


def seconds_per_review(durations_ms: Iterable[int | None]) -> float:
    """Seconds one answer takes, from the candidate's logged answer times (the mean of the
    plausible ones, 1 s to 10 min), or :data:`DEFAULT_SECONDS_PER_REVIEW` without history."""
    values = [d / 1000 for d in durations_ms if d is not None and 1000 <= d <= 600_000]
    return round(fmean(values), 1) if len(values) >= 10 else DEFAULT_SECONDS_PER_REVIEW


def committed_seconds(spent_seconds: float, answers: int, in_steps: int) -> float:
    """Today's study time as the budget counts it: the time spent on today's ``answers``, and one
    more answer, at today's mean (else the default), for each of the ``in_steps`` cards still in
    their learning or relearning steps (they come back today whatever the plan says). The drill's
    budget stop and the plan made during a day both read it, so a day's steps are not left to
    overrun the budget after the stop."""
    mean = spent_seconds / answers if answers > 0 and spent_seconds > 0 else DEFAULT_SECONDS_PER_REVIEW
    return max(0.0, spent_seconds) + max(0, in_steps) * mean


def answers_per_new(first_day_answers: Iterable[int]) -> float | None:
    """Answers a new card takes on its first day, from the candidate's history (the mean over the
    cards introduced), or None without enough history (the planner then counts steps + 1)."""
    values = [n for n in first_day_answers if n >= 1]
    return round(fmean(values), 2) if len(values) >= 10 else None


def first_ratings(ratings: Iterable[int]) -> tuple[float, float, float, float] | None:
    """Shares of Again, Hard, Good and Easy among the candidate's first answers to new cards, or
    None without enough history (the planner then assumes Good)."""
    values = [r for r in ratings if 1 <= r <= 4]
    if len(values) < 10:
        return None
    shares = [values.count(r) / len(values) for r in (1, 2, 3, 4)]
    return (shares[0], shares[1], shares[2], 1.0 - shares[0] - shares[1] - shares[2])


@dataclass(frozen=True)
class PlanDay:
    """One study day of the plan. ``answers`` counts every answer expected (a new card takes
    one per learning step and one more); ``other_reviews`` are due reviews of cards no
    interview asks, left to plain FSRS but counted against the budget."""

    day: date
    new: tuple[int, ...]
    reviews: tuple[int, ...]
    other_reviews: int
    answers: float
    minutes: float


@dataclass(frozen=True)
class CardForecast:
    card_id: int
    recall_now: float
    recall_on_day: float


@dataclass(frozen=True)
class InterviewForecast:
    """Predicted recall of an interview's cards now and on its day (means over its cards)."""

    interview_id: int
    day: date
    recall_now: float
    recall_on_day: float
    met: bool
    cards: tuple[CardForecast, ...]


@dataclass(frozen=True)
class Shortfall:
    """Why the target is not met: ``minutes_needed`` a day would meet it (None: no budget can,
    the days left are too few), and the questions to drop first, lowest value per minute first."""

    minutes_needed: float | None
    drop_first: tuple[int, ...]


@dataclass(frozen=True)
class Plan:
    days: tuple[PlanDay, ...]
    interviews: tuple[InterviewForecast, ...]
    target: float
    budget_minutes: float
    seconds_per_review: float
    shortfall: Shortfall | None = None
    planned: dict[int, tuple[date, ...]] = field(default_factory=dict)

    def day(self, day: date) -> PlanDay | None:
        return next((d for d in self.days if d.day == day), None)

    @property
    def total_answers(self) -> float:
        return sum(d.answers for d in self.days)

    @property
    def peak_minutes(self) -> float:
        return max((d.minutes for d in self.days), default=0.0)

    def message(self) -> str:
        """The plan's verdict in one plain sentence (the web layer translates its fields)."""
        if self.shortfall is None:
            return (f"On track: predicted recall on the day reaches {self.target:.0%} within "
                    f"{self.budget_minutes:g} minutes a day.")
        best = ", ".join(f"{f.day.isoformat()}: {f.recall_on_day:.0%}" for f in self.interviews if not f.met)
        need = (f"{self.shortfall.minutes_needed:g} minutes a day would reach it"
                if self.shortfall.minutes_needed is not None else "no daily budget reaches it in the days left")
        drop = len(self.shortfall.drop_first)
        return (f"{self.budget_minutes:g} minutes a day cannot reach {self.target:.0%}: best predicted recall "
                f"{best}; {need}; or drop the {drop} question{'s' if drop != 1 else ''} worth least per minute.")


def planned_day(plan: Plan, card_id: int, today: date) -> date | None:
    """The next day the plan reviews this card, or None: the card follows plain FSRS (it is in
    no interview ahead, or its last interview is over)."""
    return next((d for d in plan.planned.get(card_id, ()) if d >= today), None)




def minutes_to_reach(meets: Callable[[float], bool], budget_minutes: float, peak_minutes: float,
                     max_tries: int | None = None) -> float:
    """The daily minutes (in steps of 5) at which ``meets(minutes)`` first holds, searched up from
    the budget; ``peak_minutes`` is the busiest day of a plan without a budget (a first guess).
    ``max_tries``: after that many calls of ``meets`` the smallest budget known to meet is returned
    (an upper bound: it reaches the target, perhaps with a few minutes to spare)."""
    tries = 0

    def tried(minutes: float) -> bool:
        nonlocal tries
        tries += 1
        return meets(minutes)

    lo, hi = budget_minutes, max(budget_minutes, math.ceil(peak_minutes / 5) * 5)
    while hi < 24 * 60 and not tried(hi):
        lo, hi = hi, hi * 2  # the greedy order may need a little more than the free plan's peak
    while max_tries is None or tries < max_tries:  # every step narrows (lo, hi), so this ends whatever the budget
        mid = math.ceil((lo + hi) / 2 / 5) * 5
        if mid >= hi:
            mid = math.floor((lo + hi) / 2 / 5) * 5
        if not lo < mid < hi:
            return float(hi)
        if tried(mid):
            hi = mid
        else:
            lo = mid
    return float(hi)


@dataclass
class Booking:
    """One run of the planner: the answers booked per day, per card, and what did not fit."""

    loads: list[float]
    reviews: dict[int, list[int]]          # card id -> day indexes of planned answers
    introduced: dict[int, int]             # card id -> day index of its introduction
    dropped: list[int]
    met: list[bool] = field(default_factory=list)


@dataclass(frozen=True)
class CardPlan:
    """The reviews the planner would book for one card."""

    days: tuple[int, ...]   # day indexes, the first one the introduction of an unseen card
    amounts: tuple[float, ...]  # answers expected on each of those days
    cost: float
    recalls: tuple[float, ...]  # expected recall on each of the card's interview days
    met: bool


def plan_to_json(plan: Plan) -> dict:
    """The plan as plain JSON values (dates as ISO strings), for storing; :func:`plan_from_json`
    reads it back equal."""
    return {
        "days": [[d.day.isoformat(), list(d.new), list(d.reviews), d.other_reviews, d.answers, d.minutes]
                 for d in plan.days],
        "interviews": [{"id": f.interview_id, "day": f.day.isoformat(), "now": f.recall_now,
                        "on_day": f.recall_on_day, "met": f.met,
                        "cards": [[c.card_id, c.recall_now, c.recall_on_day] for c in f.cards]}
                       for f in plan.interviews],
        "target": plan.target, "budget_minutes": plan.budget_minutes,
        "seconds_per_review": plan.seconds_per_review,
        "shortfall": (None if plan.shortfall is None else
                      {"minutes_needed": plan.shortfall.minutes_needed, "drop_first": list(plan.shortfall.drop_first)}),
        "planned": [[card_id, [d.isoformat() for d in days]] for card_id, days in plan.planned.items()],
    }


def plan_from_json(data: dict) -> Plan:
    """The plan :func:`plan_to_json` stored."""
    shortfall = data.get("shortfall")
    return Plan(
        days=tuple(PlanDay(date.fromisoformat(day), tuple(new), tuple(reviews), int(other), float(answers),
                           float(minutes)) for day, new, reviews, other, answers, minutes in data["days"]),
        interviews=tuple(InterviewForecast(
            interview_id=int(f["id"]), day=date.fromisoformat(f["day"]), recall_now=float(f["now"]),
            recall_on_day=float(f["on_day"]), met=bool(f["met"]),
            cards=tuple(CardForecast(int(c), float(now), float(on_day)) for c, now, on_day in f["cards"]))
            for f in data["interviews"]),
        target=float(data["target"]), budget_minutes=float(data["budget_minutes"]),
        seconds_per_review=float(data["seconds_per_review"]),
        shortfall=None if shortfall is None else Shortfall(shortfall["minutes_needed"], tuple(shortfall["drop_first"])),
        planned={int(card_id): tuple(date.fromisoformat(d) for d in days) for card_id, days in data["planned"]})
