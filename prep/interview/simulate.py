"""Interview mode against a simulated learner whose memory differs from the model.

The app schedules with its usual settings (default FSRS parameters, fuzz off); each learner
remembers with *its own* FSRS parameters, as in :mod:`prep.stats.simulate`, so whether an answer
is recalled depends on how that learner really forgets. One interview asks every question; a
cell of the table is a learner profile, a horizon (days to the interview), a number of questions
and a strategy:

* ``plain``: plain FSRS; the questions are introduced evenly so the last ones come two days
  before the interview, and every due review is done;
* ``cram``: ``plain`` plus cramming every question on the last two days (each crammed until
  recalled once; cram leaves the app's FSRS state alone but the learner does remember it);
* ``interview``: the plan of :mod:`prep.interview.planner`, made again at every session from the
  cards' states, with the seconds per answer and the stability scale (:func:`recall.calibrate`)
  taken from the learner's answers so far.

The share recalled on the day is the mean of the learner's true retrievability of every
question at the interview (an unseen question counts 0): the expected share, without sampling
noise. Deterministic for a given seed.

Pure module: no Flask, no ORM.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import date, datetime, time, timedelta, timezone
from statistics import fmean

import fsrs
from fsrs.scheduler import DEFAULT_PARAMETERS

from ..drill import scheduling
from ..drill.memory import CardMemory, CardState
from ..optimize import fit
from ..stats.simulate import FAST_FORGETTER, Learner
from . import plans
from .planner import make_plan
from . import recall

#: Remembers better than the defaults expect: higher initial stabilities, a steeper curve.
STRONG_LEARNER = (0.6, 2.5, 6.0, 16.0) + tuple(DEFAULT_PARAMETERS[4:20]) + (0.12,)

PROFILES: dict[str, Learner] = {
    "as modelled": Learner(true_parameters=tuple(DEFAULT_PARAMETERS), skip_day_probability=0.0),
    "fast forgetter": Learner(true_parameters=FAST_FORGETTER, first_rating_weights=(0.35, 0.2, 0.4, 0.05),
                              skip_day_probability=0.0),
    "strong": Learner(true_parameters=STRONG_LEARNER, first_rating_weights=(0.15, 0.1, 0.6, 0.15),
                      skip_day_probability=0.0),
}
STRATEGIES = ("plain", "cram", "interview")
SESSION_HOUR = 8
INTERVIEW_HOUR = 10
CRAM_DAYS = 2
#: The learner's history before the interview is set: this many days of plain FSRS on other
#: questions (5 new a day). prep's optimiser fits the app's parameters to it (as a candidate with
#: this much history would have done), and interview mode takes its seconds per answer and its
#: calibration from it.
HISTORY_DAYS = 28
HISTORY_QUESTIONS = 80
#: The history's questions are numbered from here (the interview's from 0).
HISTORY_INDEX = 100_000


@dataclass(frozen=True)
class Cell:
    profile: str
    horizon: int
    questions: int
    strategy: str
    recalled: float            # learner's share recalled on the day
    reviews: int               # answers given, cram included
    peak_minutes: float        # the most minutes spent in one day
    predicted: float | None = None   # interview mode: the first plan's predicted recall on the day
    on_track: bool | None = None     # interview mode: the first plan met the target
    minutes_needed: float | None = None
    message: str = ""
    last_predicted: float | None = None  # interview mode: the last plan's (the day before) prediction


@dataclass
class _Card:
    index: int
    memory: CardMemory | None = None   # the app's state
    truth: fsrs.Card | None = None     # the learner's memory


@dataclass
class _Run:
    learner: Learner
    rng: random.Random
    app: fsrs.Scheduler
    truth: fsrs.Scheduler
    cards: list[_Card]
    durations_ms: list[int] = field(default_factory=list)
    answers: list[recall.Answer] = field(default_factory=list)
    minutes_by_day: dict[int, float] = field(default_factory=dict)
    log: list[fit.Review] = field(default_factory=list)

    def answer(self, card: _Card, now: datetime, day: int, *, cram: bool = False) -> int:
        """The learner answers ``card`` at ``now``; returns the rating."""
        if card.truth is None:
            rating = self.rng.choices((1, 2, 3, 4), weights=self.learner.first_rating_weights)[0]
            card.truth = fsrs.Card(card_id=card.index + 1)
        else:
            recalled = self.rng.random() < self.truth.get_card_retrievability(card.truth, now)
            rating = self.rng.choices((2, 3, 4), weights=self.learner.pass_rating_weights)[0] if recalled else 1
        card.truth, _ = self.truth.review_card(card.truth, scheduling.RATINGS[rating], now)
        duration = self.rng.randint(6000, 45000) + (15000 if rating == 1 else 0)
        self.durations_ms.append(duration)
        self.minutes_by_day[day] = self.minutes_by_day.get(day, 0.0) + duration / 60000
        if not cram:
            self.log.append(fit.Review(card.index, now, rating))
            memory = card.memory
            if memory is not None and memory.state is CardState.review and memory.last_review is not None \
                    and memory.stability:
                elapsed = (now - memory.last_review).days
                self.answers.append(recall.Answer(elapsed, memory.stability, rating > 1))
            row = memory or CardMemory(state=CardState.new, step=0, stability=None, difficulty=None,
                                       due=now, last_review=None)
            outcome = scheduling.review(self.app, row, rating, now, duration)
            card.memory = CardMemory(state=outcome.state, step=outcome.step, stability=outcome.stability,
                                     difficulty=outcome.difficulty, due=outcome.due,
                                     last_review=outcome.last_review, reps=row.reps + 1)
        return rating

    def session(self, cards: list[_Card], start: datetime, day: int, *, budget_minutes: float | None = None) -> datetime:
        """Answer ``cards`` in order from ``start``, following (re)learning steps in the session.
        With ``budget_minutes``, no card of ``cards`` is started once the day's minutes and an
        answer for each card in its (re)learning steps reach it (the drill's budget stop in
        interview mode, :func:`prep.interview.plans.committed_seconds`); steps under way are finished."""
        t = start
        waiting: list[tuple[datetime, int, _Card]] = []
        pending = list(cards)
        answered = 0
        while pending or waiting:
            if budget_minutes is not None and answered and plans.committed_seconds(
                    self.minutes_by_day.get(day, 0.0) * 60, answered, len(waiting)) >= budget_minutes * 60:
                pending = []
            if not pending and not waiting:
                break
            waiting.sort(key=lambda w: (w[0], w[1]))
            if waiting and (waiting[0][0] <= t or not pending):
                due, _, card = waiting.pop(0)
                t = max(t, due)
            else:
                card = pending.pop(0)
            self.answer(card, t, day)
            answered += 1
            t += timedelta(milliseconds=self.durations_ms[-1])
            if card.memory.state in (CardState.learning, CardState.relearning):
                waiting.append((card.memory.due, card.index, card))
        return t

    def cram(self, cards: list[_Card], start: datetime, day: int) -> None:
        t = start
        queue = [(card, 0) for card in cards if card.truth is not None]
        while queue:
            card, tries = queue.pop(0)
            rating = self.answer(card, t, day, cram=True)
            t += timedelta(milliseconds=self.durations_ms[-1])
            if rating == 1 and tries < 2:
                queue.append((card, tries + 1))


def _truth(learner: Learner) -> fsrs.Scheduler:
    return fsrs.Scheduler(parameters=learner.true_parameters, enable_fuzzing=False, learning_steps=(),
                          relearning_steps=())


def history(profile: str, start: date = date(2026, 3, 2), seed: int = 1) -> _Run:
    """The learner's plain-FSRS history before ``start`` (default parameters), on questions the
    interview does not ask."""
    learner = PROFILES[profile]
    run = _Run(learner=learner, rng=random.Random(f"{seed}-{profile}-history"),
               app=recall.scheduler_for(scheduling.SchedulerSettings(enable_fuzzing=False)),
               truth=_truth(learner), cards=[_Card(HISTORY_INDEX + i) for i in range(HISTORY_QUESTIONS)])
    for day in range(-HISTORY_DAYS, 0):
        session = datetime.combine(start + timedelta(days=day), time(SESSION_HOUR), tzinfo=timezone.utc)
        due = sorted((c for c in run.cards if c.memory is not None and c.memory.due < session + timedelta(hours=20)),
                     key=lambda c: (c.memory.due, c.index))
        run.session(due + [c for c in run.cards if c.memory is None][:5], session, day)
    return run


@lru_cache(maxsize=16)
def fitted_settings(profile: str, start: date = date(2026, 3, 2), seed: int = 1) -> scheduling.SchedulerSettings:
    """The app's settings after prep's optimiser ran on the learner's history (its parameters
    when they predict the held-back reviews better than the defaults, as the app decides)."""
    run = history(profile, start, seed)
    try:
        result = fit.fit(run.log)
    except fit.OptimizeError:
        return scheduling.SchedulerSettings(enable_fuzzing=False)
    return scheduling.SchedulerSettings(enable_fuzzing=False,
                                        parameters=result.parameters if result.improved else None)


def run_cell(profile: str, horizon: int, questions: int, strategy: str, *, seed: int = 1,
             start: date = date(2026, 3, 2), target: float = recall.DEFAULT_TARGET,
             budget_minutes: float = plans.DEFAULT_BUDGET_MINUTES, fill: bool = False) -> Cell:
    """One cell of the table: ``questions`` new questions, an interview ``horizon`` days after ``start``.

    ``fill`` (interview mode): when a session's bookings are done with minutes left, the plan is
    made again from the answers just given and the time spent, and the session goes on with what
    it books for the same day, as the app does when the drill runs out of cards
    (:func:`prep.interview.service.after_rating`); without it each day is the session-start plan's."""
    learner = PROFILES[profile]
    past = history(profile, start, seed)
    app_settings = fitted_settings(profile, start, seed)
    run = _Run(learner=learner, rng=random.Random(f"{seed}-{profile}-{horizon}-{questions}-{strategy}"),
               app=recall.scheduler_for(app_settings), truth=_truth(learner),
               cards=[_Card(i) for i in range(questions)],
               durations_ms=list(past.durations_ms), log=list(past.log))
    run.answers = _answers(run.app, past.log)
    history_answers = len(run.durations_ms)
    interview_day = start + timedelta(days=horizon)
    interview = plans.Interview(1, interview_day, tuple(range(questions)))
    per_day = math.ceil(questions / max(1, horizon - CRAM_DAYS))
    first: plans.Plan | None = None
    last: plans.Plan | None = None
    for day in range(horizon):
        today = start + timedelta(days=day)
        session = datetime.combine(today, time(SESSION_HOUR), tzinfo=timezone.utc)
        if run.rng.random() < learner.skip_day_probability:
            continue
        if strategy == "interview":
            plan = _plan(run, interview, target, budget_minutes, session, explain_shortfall=first is None)
            first, last = first or plan, plan
            t = run.session(_booked(run, plan, today), session, day, budget_minutes=budget_minutes)
            for _ in range(FILL_ROUNDS if fill else 0):  # the drill ran out: plan again, go on
                spent = run.minutes_by_day.get(day, 0.0) * 60
                if spent >= budget_minutes * 60:
                    break
                booked = _booked(run, _plan(run, interview, target, budget_minutes, t, spent_today_seconds=spent,
                                            explain_shortfall=False), today)
                if not booked:
                    break
                t = run.session(booked, t, day, budget_minutes=budget_minutes)
            continue
        unseen = [c for c in run.cards if c.memory is None][:per_day]
        end = session + timedelta(hours=20)
        due = sorted((c for c in run.cards if c.memory is not None and c.memory.due < end),
                     key=lambda c: (c.memory.due, c.index))
        t = run.session(due + unseen, session, day)
        if strategy == "cram" and day >= horizon - CRAM_DAYS:
            run.cram(list(run.cards), t, day)
    at = datetime.combine(interview_day, time(INTERVIEW_HOUR), tzinfo=timezone.utc)
    recalled = fmean(run.truth.get_card_retrievability(c.truth, at) if c.truth else 0.0 for c in run.cards)
    cell = Cell(profile=profile, horizon=horizon, questions=questions, strategy=strategy, recalled=round(recalled, 3),
                reviews=len(run.durations_ms) - history_answers,
                peak_minutes=round(max(run.minutes_by_day.values(), default=0.0), 1))
    if first is not None:
        forecast = first.interviews[0]
        cell = Cell(**{**cell.__dict__, "predicted": round(forecast.recall_on_day, 3),
                       "on_track": first.shortfall is None, "message": first.message(),
                       "minutes_needed": first.shortfall.minutes_needed if first.shortfall else None,
                       "last_predicted": round(last.interviews[0].recall_on_day, 3) if last else None})
    return cell


#: At most this many plans made again in one session when the drill runs out (each books what is
#: left of the day's budget, so two or three suffice).
FILL_ROUNDS = 5


def _plan(run: _Run, interview: plans.Interview, target: float, budget_minutes: float, now: datetime, *,
          spent_today_seconds: float = 0.0, explain_shortfall: bool) -> plans.Plan:
    """The plan as the app makes it at ``now``: seconds per answer, calibration, answers per new
    card and first answers from the learner's answers so far."""
    settings = plans.PlanSettings(
        target=target, budget_minutes=budget_minutes, seconds_per_review=plans.seconds_per_review(run.durations_ms),
        session_hour=SESSION_HOUR, interview_hour=INTERVIEW_HOUR,
        stability_scale=recall.calibrate(run.app, run.answers),
        answers_per_new=plans.answers_per_new(_first_day_answers(run.log)),
        first_ratings=plans.first_ratings(_first_ratings(run.log)))
    return make_plan([plans.PlanCard(c.index, c.memory) for c in run.cards], [interview], settings, now,
                     spent_today_seconds=spent_today_seconds, explain_shortfall=explain_shortfall)


def _booked(run: _Run, plan: plans.Plan, today: date) -> list[_Card]:
    """Today's bookings of ``plan``: reviews, then new cards."""
    planned = plan.day(today)
    return [run.cards[i] for i in (list(planned.reviews) + list(planned.new) if planned else [])]


def _first_day_answers(log: list[fit.Review]) -> list[int]:
    first: dict[int, date] = {}
    counts: dict[int, int] = {}
    for review in log:
        day = review.reviewed_at.date()
        if first.setdefault(review.card_id, day) == day:
            counts[review.card_id] = counts.get(review.card_id, 0) + 1
    return list(counts.values())


def _first_ratings(log: list[fit.Review]) -> list[int]:
    first: dict[int, int] = {}
    for review in sorted(log, key=lambda r: r.reviewed_at):
        first.setdefault(review.card_id, review.rating)
    return list(first.values())


def _answers(app: fsrs.Scheduler, log: list[fit.Review]) -> list[recall.Answer]:
    """The history's answers as the app with these parameters would have predicted them."""
    answers = []
    cards: dict[int, fsrs.Card] = {}
    for review in sorted(log, key=lambda r: (r.reviewed_at, r.card_id)):
        card = cards.get(review.card_id) or fsrs.Card(card_id=1)
        if card.state is fsrs.State.Review and card.last_review is not None:
            answers.append(recall.Answer((review.reviewed_at - card.last_review).days, card.stability,
                                         review.rating > 1))
        cards[review.card_id], _ = app.review_card(card, scheduling.RATINGS[review.rating], review.reviewed_at)
    return answers


def run_table(*, profiles: tuple[str, ...] = tuple(PROFILES), horizons: tuple[int, ...] = (7, 14, 30),
              sizes: tuple[int, ...] = (60, 200), strategies: tuple[str, ...] = STRATEGIES, seed: int = 1,
              target: float = recall.DEFAULT_TARGET,
              budget_minutes: float = plans.DEFAULT_BUDGET_MINUTES, fill: bool = False) -> list[Cell]:
    """Every cell of profiles x horizons x sizes x strategies."""
    return [run_cell(p, h, n, s, seed=seed, target=target, budget_minutes=budget_minutes, fill=fill)
            for p in profiles for h in horizons for n in sizes for s in strategies]
