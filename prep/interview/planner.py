"""The interview plan: which cards to introduce and review on which day so that the predicted
recall on each interview day reaches a target, within a daily time budget.

How a card is planned (ordinary FSRS reviews, so each one updates the memory state):

* an unseen card is introduced on some day and reviewed again on a later day before the
  interview (never only introduced);
* while no single review can bring the recall on the day to the target, the next review goes
  where fsrs's forgetting curve reaches the target (moved earlier, within the load balancer's
  fuzz window, to the least loaded day);
* the last review goes anywhere between the farthest day that still reaches the target (the
  right distance) and the day before the interview: the least loaded of those days;
* a card asked by several interviews is planned for each date in turn, from the state the
  earlier plan leaves; after the last interview nothing is planned (plain FSRS again).

An introduction costs the answers of a first day, plus, for a first answer other than Good (its
share of the candidate's first answers), the reviews that bring the card back to the target.

Cards are placed in order of value per minute (a card's share of each interview it serves,
divided by the minutes it needs); a card that does not fit in the budget gets the best recall
the leftover minutes allow, and heads the list of questions to drop. When the budget cannot reach
the target, plans aiming each card a little lower are made too, and the one predicting the most
recall on the day is kept.

Pure module: no Flask, no ORM; ``now`` is passed in, days are the user's local study days.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from statistics import fmean

import fsrs

from ..drill import queue, scheduling
from . import recall
from .memory_model import MemoryModel
from .plans import (MAX_REVIEWS_PER_INTERVIEW, CardForecast, Interview, InterviewForecast, Plan, PlanCard, PlanDay,
                    PlanSettings, Shortfall, Booking, CardPlan, minutes_to_reach)


#: When the budget cannot reach the target, plans with each card aimed this much lower are tried too.
SHORT_MARGINS = (0.05, 0.10)
#: The most introduction days tried for one unseen card (half spread evenly over the days before
#: its interview, half the least loaded): the search is linear in questions x days.
INTRO_CHOICES = 16
#: Above this many card-days (cards x days to the last interview) a plan is large: the plans aimed
#: lower are not tried and the minutes that would reach the target are searched in a few runs.
LARGE_PLAN = 20_000
LARGE_PLAN_TRIES = 2
#: How much more a question is worth planning for than a likely one, by its priority
#: (:attr:`PlanCard.priority`): asked in a report of the company, listed in the posting.
PRIORITY_WEIGHTS = {0: 4.0, 1: 2.0}


def make_plan(cards: Sequence[PlanCard], interviews: Sequence[Interview], settings: PlanSettings,
              now: datetime, *, spent_today_seconds: float = 0.0, explain_shortfall: bool = True) -> Plan:
    """The plan of reviews from ``now`` (UTC-aware) to the last interview ahead.

    ``spent_today_seconds`` is the time already studied today (the plan is made again after every
    session): it counts against today's budget, so a second plan does not fill the day again."""
    planner = _Planner(cards, interviews, settings, now, spent_today_seconds)
    capacity = settings.budget_minutes * 60 / settings.seconds
    result = planner.run(capacity)
    plan = planner.to_plan(result, settings.budget_minutes)
    if all(f.met for f in plan.interviews):
        return plan
    large = len(planner.covering) * max(planner.horizon, 1) > LARGE_PLAN
    for margin in () if large else SHORT_MARGINS:  # short: cards planned for less than the target, if that recalls more
        lower = _Planner(cards, interviews, settings, now, spent_today_seconds, goal=settings.target - margin,
                         other=(planner.other_load, planner.other_reviews))
        other = lower.to_plan(lower.run(capacity), settings.budget_minutes)
        if sum(f.recall_on_day for f in other.interviews) > sum(f.recall_on_day for f in plan.interviews) + 1e-9:
            plan = other
    if all(f.met for f in plan.interviews) or not explain_shortfall:
        return plan
    free = planner.run(math.inf)
    minutes_needed = minutes_to_reach(
        lambda minutes: all(planner.run(minutes * 60 / settings.seconds).met), settings.budget_minutes,
        max(free.loads, default=0.0) * settings.seconds / 60,
        LARGE_PLAN_TRIES if large else None) if all(free.met) else None
    return Plan(days=plan.days, interviews=plan.interviews, target=plan.target,
                budget_minutes=plan.budget_minutes, seconds_per_review=plan.seconds_per_review,
                planned=plan.planned, shortfall=Shortfall(minutes_needed, tuple(result.dropped)))


def _intro_days(days: int, loads: list[float]) -> list[int | None]:
    """Introduction days to try for an unseen card whose interview is ``days`` days after the
    first possible one: every day when they are few, else :data:`INTRO_CHOICES` of them."""
    if days <= INTRO_CHOICES:
        return list(range(days))
    half = INTRO_CHOICES // 2
    spread = {round(i * (days - 1) / (half - 1)) for i in range(half)}
    quiet = sorted(range(days), key=lambda d: (loads[d], -d))[:half]
    return sorted(spread | set(quiet))


class _Planner(MemoryModel):
    def __init__(self, cards: Sequence[PlanCard], interviews: Sequence[Interview], settings: PlanSettings,
                 now: datetime, spent_today_seconds: float = 0.0, goal: float | None = None,
                 other: tuple[list[float], list[float]] | None = None) -> None:
        """``other``: the other cards' expected answers and reviews per day, when another planner
        over the same cards has them already (they do not depend on the goal)."""
        super().__init__(settings, now, goal)
        self.cards = {c.card_id: c for c in cards}
        self.interviews = sorted((i for i in interviews if i.day > self.today), key=lambda i: (i.day, i.interview_id))
        self.past = [i for i in interviews if i.day <= self.today]
        self.horizon = max(((i.day - self.today).days for i in self.interviews), default=0)
        self.intro_cost = float(settings.answers_per_new or recall.introduction_reviews(self.scheduler))
        self.covering: dict[int, list[int]] = {}  # card id -> interview day indexes, sorted
        self.value: dict[int, float] = {}
        for interview in self.interviews:
            index = (interview.day - self.today).days
            ids = [c for c in dict.fromkeys(interview.card_ids) if c in self.cards]
            for card_id in ids:
                self.covering.setdefault(card_id, [])
                if index not in self.covering[card_id]:
                    self.covering[card_id].append(index)
                weight = PRIORITY_WEIGHTS.get(self.cards[card_id].priority, 1.0)
                self.value[card_id] = self.value.get(card_id, 0.0) + weight / len(ids)
        self.start = {cid: recall.memory_card(c.memory) for cid, c in self.cards.items()}
        self.other_load, self.other_reviews = other if other is not None else self._other_load()
        self.spent_today = max(0.0, spent_today_seconds) / settings.seconds  # in answers
        self._order: list[int] | None = None

    # -- load of cards no interview asks ---------------------------------------------------------
    def _other_load(self) -> tuple[list[float], list[float]]:
        """Expected answers and reviews per day of the cards no interview asks (plain FSRS, due
        before the last interview), lapses included (:func:`recall.plain_reviews`)."""
        answers, reviews = [0.0] * max(self.horizon, 1), [0.0] * max(self.horizon, 1)
        end = self.at(self.horizon) if self.horizon else self.now

        def index_of(when: datetime) -> int:
            return max(0, (queue.study_day(when, self.settings.tz_name, self.day_start).day - self.today).days)

        for card_id, card in self.start.items():
            if card_id not in self.covering and card is not None:
                recall.plain_reviews(self.scheduler, card, end, index_of, self.at, answers, reviews, self.scale)
        return answers, reviews

    # -- one card ------------------------------------------------------------------------------
    def plan_card(self, card_id: int, loads: list[float], capacity: float, need_target: bool) -> CardPlan | None:
        start = self.start[card_id]
        targets = self.covering[card_id]
        first_free = 0
        seen_today = self.last_day(start)
        if seen_today is not None and seen_today >= 0:
            first_free = 1  # reviewed today already: its next review is on a later day
        options: list[int | None] = [None] if start is not None else _intro_days(max(targets[0] - 1, 0), loads)
        best: CardPlan | None = None
        for intro in options:
            if intro is not None and loads[intro] + self.intro_cost + self.first_answer_cost(intro, targets[0]) > capacity:
                continue
            plan = self._plan_from(start, intro, first_free, targets, loads, capacity, need_target)
            if plan is None:
                continue
            if best is None or self._better(plan, best, loads, need_target):
                best = plan
        return best

    @staticmethod
    def _better(a: CardPlan, b: CardPlan, loads: list[float], need_target: bool) -> bool:
        if not need_target:  # best effort: the most recall, then the fewest answers
            return (-round(sum(a.recalls), 9), a.cost) < (-round(sum(b.recalls), 9), b.cost)
        # load balancing first: the plan whose busiest day is least busy, then the fewest answers
        def key(plan: CardPlan) -> tuple[float, float, float]:
            return max((loads[d] for d in plan.days), default=0.0), plan.cost, -sum(plan.recalls)
        return key(a) < key(b)

    def _plan_from(self, card: fsrs.Card | None, intro: int | None, first_free: int, targets: list[int],
                   loads: list[float], capacity: float, need_target: bool) -> CardPlan | None:
        days: list[int] = []
        amounts: list[float] = []
        cost = 0.0
        extra: dict[int, float] = {}  # this card's own answers, not yet in loads

        def load(index: int) -> float:
            return loads[index] + extra.get(index, 0.0)

        def room(index: int, amount: float = 1.0) -> bool:
            return load(index) + amount <= capacity + 1e-9

        def take(index: int, amount: float = 1.0) -> None:
            nonlocal cost
            extra[index] = extra.get(index, 0.0) + amount
            days.append(index)
            amounts.append(amount)
            cost += amount

        if intro is not None:
            take(intro, self.intro_cost + self.first_answer_cost(intro, targets[0]))
            card = self.good(None, intro)
            first_free = intro + 1
        recalls = []
        met = True
        for target in targets:
            must_review = intro is not None and target == targets[0]
            value, card, first_free = self._segment(card, first_free, target, must_review, load, room, take,
                                                    need_target)
            if value is None:
                return None
            recalls.append(value)
            met = met and value >= self.goal - 1e-9
            first_free = max(first_free, target)
        if need_target and not met:
            return None
        return CardPlan(days=tuple(days), amounts=tuple(amounts), cost=cost, recalls=tuple(recalls), met=met)

    def _segment(self, card: fsrs.Card | None, first: int, target: int, must_review: bool, load, room, take,
                 need_target: bool) -> tuple[float | None, fsrs.Card | None, int]:
        """Plan reviews on days ``first``..``target - 1`` for the interview on day ``target``.
        Returns (expected recall on the day or None if impossible, card state, next free day)."""
        goal = self.goal
        if not must_review and self.expected(card, None, target) >= goal:
            return self.expected(card, None, target), card, first
        for _ in range(MAX_REVIEWS_PER_INTERVIEW):
            if first > target - 1:
                break
            # the last review: any day from the right distance to the day before the interview
            if self.expected(card, target - 1, target) >= goal:
                lo, hi = first, target - 1
                while lo < hi:  # the farthest day that still reaches the target
                    mid = (lo + hi) // 2
                    if self.expected(card, mid, target) >= goal:
                        hi = mid
                    else:
                        lo = mid + 1
                window = [d for d in range(lo, target) if room(d, self.review_cost(card, d))]
                if window:
                    day = min(window, key=lambda d: (load(d), -d))
                    take(day, self.review_cost(card, day))
                    return self.expected(card, day, target), self.good(card, day), day + 1
                if need_target:
                    return None, card, first
            if not need_target:
                # best effort: the latest day with room
                window = [d for d in range(first, target) if room(d, self.review_cost(card, d))]
                if not window:
                    return self.expected(card, None, target), card, first
                day = window[-1]
                take(day, self.review_cost(card, day))
                return self.expected(card, day, target), self.good(card, day), day + 1
            # an intermediate review where recall falls to the target, moved earlier within the
            # load balancer's window to the least loaded day
            if card is None:
                return None, card, first
            due = min(self.due_index(card, first - 1), target - 2)
            if due < first:
                return None, card, first
            interval = max(1, due - (self.last_day(card) or 0))
            low, _high = scheduling.fuzz_range(interval, 36500) if interval >= 3 else (interval, interval)
            window = [d for d in range(max(first, due - (interval - low)), due + 1)
                      if room(d, self.review_cost(card, d))]
            if not window:  # the latest day with room before it
                window = next(([d] for d in range(due, first - 1, -1) if room(d, self.review_cost(card, d))), [])
            if not window:
                return None, card, first
            day = min(window, key=lambda d: (load(d), -d))
            take(day, self.review_cost(card, day))
            card = self.good(card, day)
            first = day + 1
        return None, card, first

    # -- all cards ------------------------------------------------------------------------------
    def order(self) -> list[int]:
        """Cards by value per minute, most first (the minutes of their plan on an empty calendar)."""
        if self._order is None:
            empty = [0.0] * max(self.horizon, 1)
            costs: dict[tuple, float] = {}  # cards in the same state for the same dates cost the same

            def per_minute(card_id: int) -> float:
                key = (self._key(self.start[card_id]), tuple(self.covering[card_id]))
                if key not in costs:
                    plan = self.plan_card(card_id, empty, math.inf, need_target=True)
                    costs[key] = plan.cost if plan is not None else math.inf
                return self.value[card_id] / costs[key] if costs[key] else math.inf
            self._order = sorted(self.covering, key=lambda c: (-per_minute(c), c))
        return self._order

    def run(self, capacity: float) -> Booking:
        loads = list(self.other_load)
        loads[0] += self.spent_today
        result = Booking(loads=loads, reviews={}, introduced={}, dropped=[])
        left = []
        for card_id in self.order():
            plan = self.plan_card(card_id, loads, capacity, need_target=True)
            if plan is None:
                left.append(card_id)
                continue
            self._book(card_id, plan, loads, result)
        for card_id in left:  # the best the leftover minutes allow
            plan = self.plan_card(card_id, loads, capacity, need_target=False)
            if plan is not None:
                self._book(card_id, plan, loads, result)
        result.dropped = list(reversed(left))
        self._own_first(result)
        result.met = [self._met(interview, result) for interview in self.interviews]
        return result

    def _own_first(self, result: Booking) -> None:
        """Give the earliest introductions to the highest priority (:attr:`PlanCard.priority`):
        unseen cards planned for the same interviews have interchangeable plans (same memory state,
        value and targets), so their plans are handed out again, earliest first, in priority
        order. The loads and the recall on each day stay exactly as they were."""
        groups: dict[tuple[int, ...], list[int]] = {}
        for card_id in self.covering:
            if self.start[card_id] is None:
                groups.setdefault(tuple(self.covering[card_id]), []).append(card_id)
        owner: dict[int, int] = {}  # card whose plan it was -> card whose plan it is now
        for ids in groups.values():
            slots = sorted(ids, key=lambda c: (result.introduced.get(c, math.inf), c))
            owner.update(zip(slots, sorted(ids, key=lambda c: (self.cards[c].priority, c))))
        moved = {c: (result.introduced.pop(c, None), result.reviews.pop(c, None)) for c in owner}
        for old, new in owner.items():
            intro, reviews = moved[old]
            if intro is not None:
                result.introduced[new] = intro
            if reviews is not None:
                result.reviews[new] = reviews
        result.dropped = [owner.get(c, c) for c in result.dropped]

    def _book(self, card_id: int, plan: CardPlan, loads: list[float], result: Booking) -> None:
        days = list(plan.days)
        for d, amount in zip(plan.days, plan.amounts):
            loads[d] += amount
        if self.start[card_id] is None and days:
            result.introduced[card_id] = days[0]
            days = days[1:]
        result.reviews[card_id] = days

    def _card_recall(self, card_id: int, result: Booking, target_index: int) -> float:
        card = self.start[card_id]
        planned = []
        if card_id in result.introduced:
            planned.append(result.introduced[card_id])
        planned += [d for d in result.reviews.get(card_id, []) if d < target_index]
        planned = [d for d in planned if d < target_index]
        if not planned:
            return self.expected(card, None, target_index)
        for d in planned[:-1]:
            card = self.good(card, d)
        return self.expected(card, planned[-1], target_index)

    def _met(self, interview: Interview, result: Booking) -> bool:
        index = (interview.day - self.today).days
        values = [self._card_recall(c, result, index) for c in dict.fromkeys(interview.card_ids) if c in self.cards]
        return not values or fmean(values) >= self.settings.target - 1e-9

    def to_plan(self, result: Booking, budget_minutes: float) -> Plan:
        seconds = self.settings.seconds
        days = []
        for index in range(self.horizon):
            new = tuple(sorted(c for c, d in result.introduced.items() if d == index))
            reviews = tuple(sorted(c for c, ds in result.reviews.items() for d in ds if d == index))
            answers = result.loads[index]
            days.append(PlanDay(day=self.today + timedelta(days=index), new=new, reviews=reviews,
                                other_reviews=round(self.other_reviews[index]), answers=answers,
                                minutes=round(answers * seconds / 60, 1)))
        forecasts = []
        for interview in self.interviews + self.past:
            index = (interview.day - self.today).days
            rows = []
            for card_id in dict.fromkeys(interview.card_ids):
                if card_id not in self.cards:
                    continue
                # Recall now is the model's own (no calibration): the figure readiness shows
                # (prep.postings.readiness.recall_now) for the same questions.
                now_value = recall.retrievability(self.scheduler, self.start[card_id], self.now)
                on_day = (self._card_recall(card_id, result, index) if index > 0 else recall.retrievability(
                    self.scheduler, self.start[card_id], self.interview_at(index), self.scale))
                rows.append(CardForecast(card_id, now_value, on_day))
            on_day_mean = fmean(r.recall_on_day for r in rows) if rows else 1.0
            forecasts.append(InterviewForecast(
                interview_id=interview.interview_id, day=interview.day,
                recall_now=fmean(r.recall_now for r in rows) if rows else 1.0,
                recall_on_day=on_day_mean, met=on_day_mean >= self.settings.target - 1e-9 or index <= 0,
                cards=tuple(rows)))
        planned = {}
        for card_id in self.covering:
            indexes = sorted(([result.introduced[card_id]] if card_id in result.introduced else [])
                             + result.reviews.get(card_id, []))
            planned[card_id] = tuple(self.today + timedelta(days=d) for d in indexes)
        return Plan(days=tuple(days), interviews=tuple(forecasts), target=self.settings.target,
                    budget_minutes=budget_minutes, seconds_per_review=seconds, planned=planned)
