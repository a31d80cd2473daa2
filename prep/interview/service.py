"""Interview mode at the database edge: a candidate's settings, the plan made from their cards
and the postings with an interview ahead, and the bookings the drill offers each day.

The planning itself is the pure :mod:`prep.interview.planner`; this module gathers its inputs
(seconds per answer and the calibration from the candidate's own history) and stores the plan
(:class:`.models.StoredPlan`) and the days it books (:class:`prep.drill.models.PlannedReview`
rows). A plan is made by :func:`refresh_bookings`, which only the background job
(:mod:`prep.interview.jobs`) calls; requests ask for one (:func:`request_plan`) and pages read the
stored one (:func:`stored_plan`). ``now`` is passed in; callers commit.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

from sqlalchemy import bindparam, delete, exists, func, select
from sqlalchemy.orm import lazyload

from ..drill import planned as bookings, queue_queries, scheduling
from ..drill.cards import add_to_study, cards_for
from ..drill.memory import CardState, memory_of
from ..drill.models import Card, ReviewLog
from ..extensions import db
from ..zones import user_zone
from ..postings import interview_dates
from ..postings.models import Posting, PostingForecast, PostingQuestion
from ..postings.study import question_set
from ..questions.models import Question
from . import plans, recall
from .models import InterviewSettings, StoredPlan
from .planner import make_plan

#: How many of the candidate's latest answers the seconds per answer and the calibration read.
HISTORY_ANSWERS = 1000
#: The farthest interview a plan looks at, in days (the forms refuse dates beyond it).
HORIZON_DAYS = 366
#: The most interviews planned together (the nearest ones); the others are shown with the recall
#: plain FSRS predicts and planned once an earlier one has passed.
MAX_PLANNED_INTERVIEWS = 3
#: ``db.session.info`` key: the candidates whose plan this transaction asked for, with the time
#: it asked (the job module dispatches them after the commit).
PLANS_REQUESTED = "prep.plans_requested"


class SettingsError(ValueError):
    """A target or budget out of range (the form checks first; this guards the service)."""


def settings_of(user: Any) -> InterviewSettings:
    """The candidate's interview-mode settings (the defaults, not stored, when never changed)."""
    row = db.session.get(InterviewSettings, user.id)
    return row or InterviewSettings(user_id=user.id, enabled=True, target=recall.DEFAULT_TARGET,
                                    budget_minutes=int(plans.DEFAULT_BUDGET_MINUTES), planned_on=None,
                                    ahead_on=None)


def save_settings(user: Any, *, enabled: bool, target: float, budget_minutes: int, now: datetime) -> None:
    """Store the settings and ask for a plan made from them (a raised budget may book today again)."""
    if not 0.5 <= target <= 0.99 or not 1 <= budget_minutes <= 600:
        raise SettingsError(target, budget_minutes)
    row = db.session.get(InterviewSettings, user.id) or InterviewSettings(user_id=user.id)
    row.enabled, row.target, row.budget_minutes = enabled, target, budget_minutes
    db.session.add(row)
    request_plan(user.id, now, today_open=True)


def request_plan(user_id: int, now: datetime, *, rebook: bool = True, nothing_today_on: date | None = None,
                 today_open: bool = False) -> None:
    """Ask for the candidate's plan to be made again (a change it depends on is being committed):
    one row written in the caller's transaction; the background job makes the plan after the
    commit. ``rebook``: the plan books the drill's days again (else it only refreshes the
    forecasts, as after a rating mid-session). ``nothing_today_on``: that study day's budget is used, so the plan books nothing
    more on it; ``today_open``: a settings change lifts that."""
    row = db.session.get(StoredPlan, user_id) or StoredPlan(user_id=user_id)
    row.requested_at = now if row.requested_at is None else max(now, row.requested_at + timedelta(microseconds=1))
    row.rebook = bool(row.rebook) or rebook
    if nothing_today_on is not None:
        row.nothing_today_on = nothing_today_on
    elif today_open:
        row.nothing_today_on = None
    db.session.add(row)
    db.session.flush()
    db.session.info.setdefault(PLANS_REQUESTED, {})[user_id] = now


def set_interview_date(user: Any, posting: Posting, day: date | None, now: datetime) -> None:
    """Set (``None``: clear) the interview date of the candidate's own posting and ask for a plan
    made for it: the one way the posting page, its JSON twin and ``prep interview date`` set it.
    A day outside today..a year ahead (the candidate's study day) raises
    :class:`prep.postings.errors.InterviewDateError` and changes nothing."""
    interview_dates.check(day, queue_queries.study_day(user, now).day)
    posting.interview_date = day
    request_plan(user.id, now)


def interview_ahead_conditions(user_id: Any, today: Any) -> tuple[Any, ...]:
    """The conditions of a posting of the candidate's with an interview date after ``today``
    (values or bound parameters)."""
    return Posting.user_id == user_id, Posting.interview_date.is_not(None), Posting.interview_date > today


def interview_postings(user: Any, today: date, *, with_questions: bool = True) -> list[Posting]:
    """The candidate's own postings with an interview date after today and within the horizon
    (a date stored before dates were checked is left out, not planned), nearest first; their
    questions loaded with them unless ``with_questions`` is False."""
    query = select(Posting).where(*interview_ahead_conditions(user.id, today),
                                  Posting.interview_date <= _last_plannable(today))
    if not with_questions:
        query = query.options(lazyload(Posting.questions))
    return list(db.session.scalars(query.order_by(Posting.interview_date, Posting.id)))


def _last_plannable(today: date) -> date:
    return today + timedelta(days=HORIZON_DAYS)


@dataclass(frozen=True)
class Today:
    """Today's study as interview mode's budget counts it (:func:`today_of`)."""

    committed_seconds: float  # time spent, plus an answer for each card in its steps
    booked_left: bool         # a booking for today not answered yet

    def budget_used(self, budget_minutes: float) -> bool:
        """Whether today's committed time has reached a daily budget of this many minutes."""
        return self.committed_seconds >= budget_minutes * 60


@dataclass(frozen=True)
class UserPlan:
    """A candidate's plan and what the pages need to show it."""

    plan: plans.Plan
    postings: dict[int, Posting]          # interview id (= posting id) -> posting
    questions: dict[int, str]             # question id (the plan's card id) -> text
    card_ids: dict[int, int]              # question id -> the candidate's card id, when there is one
    today: date
    studied: Today                        # today's study as the budget counts it (the plan read it)
    made_at: datetime | None = None       # when the stored plan was made (None: made just now)
    pending: bool = False                 # a newer plan is asked for (or it is an earlier day's)
    priorities: dict[int, int] = field(default_factory=dict)  # question id -> its bookings' priority

    def forecast(self, posting_id: int) -> plans.InterviewForecast | None:
        """The plan's forecast for this posting, when the plan was made for its current date."""
        posting = self.postings.get(posting_id)
        return next((f for f in self.plan.interviews if f.interview_id == posting_id
                     and posting is not None and f.day == posting.interview_date), None)


def plan_for(user: Any, now: datetime, settings: InterviewSettings | None = None) -> UserPlan | None:
    """The plan from ``now`` over every question of the candidate's postings with an interview
    ahead, or None when there is none. Cards are named by question id."""
    today = queue_queries.study_day(user, now).day
    postings = interview_postings(user, today)[:MAX_PLANNED_INTERVIEWS]
    if not postings:
        return None
    settings = settings or settings_of(user)
    chosen = {p.id: interview_questions(user, p) for p in postings}
    asked = {p.id: tuple(chosen[p.id]) for p in postings}
    priorities: dict[int, int] = {}
    for ranks in chosen.values():
        for q, rank in ranks.items():
            priorities[q] = min(rank, priorities.get(q, rank))
    question_ids = {q for ids in asked.values() for q in ids}
    last_day = max(p.interview_date for p in postings)
    day_end = queue_queries.study_day(user, now).end
    # A card on any wording of an asked question (translations are one card) is that question's card.
    by_question = {q: c for q, c in cards_for(user.id, question_ids).items() if not c.suspended}
    others = db.session.scalars(select(Card).where(
        Card.user_id == user.id, Card.suspended.is_(False), Card.state != CardState.new,
        Card.due < day_end + timedelta(days=(last_day - today).days),
        Card.id.not_in([c.id for c in by_question.values()]))).all()
    plan_cards = [plans.PlanCard(q, memory_of(by_question[q]) if q in by_question else None, priorities[q])
                  for q in question_ids]
    plan_cards += [plans.PlanCard(c.question_id, memory_of(c)) for c in others if c.question_id not in question_ids]
    interviews = [plans.Interview(p.id, p.interview_date, asked[p.id]) for p in postings]
    studied = today_of(user, now)
    plan = make_plan(plan_cards, interviews, plan_settings(user, settings), now,
                     spent_today_seconds=studied.committed_seconds)
    texts = {q: text for q, text in _question_texts(question_ids).items()}
    texts.update({pq.question_id: pq.text or pq.question.text for p in postings for pq in p.questions})
    return UserPlan(plan=plan, postings={p.id: p for p in postings}, questions=texts,
                    card_ids={q: c.id for q, c in by_question.items()}, today=today, studied=studied,
                    priorities=priorities)


def interview_questions(user: Any, posting: Posting) -> dict[int, int]:
    """The questions an interview for this posting is planned over, own questions first, each
    with its priority (:func:`prep.postings.study.question_set`: the set readiness counts)."""
    return {q.question_id: q.priority for q in question_set(user, posting)}


def _question_texts(question_ids: Any) -> dict[int, str]:
    return dict(db.session.execute(select(Question.id, Question.text).where(Question.id.in_(list(question_ids)))).all())


def plan_settings(user: Any, settings: InterviewSettings) -> plans.PlanSettings:
    """The planner's settings: the candidate's target and budget, seconds per answer and the
    stability scale from their own answers, their zone, day start and scheduler."""
    scheduler_settings = replace(scheduling.settings_for_user(user), enable_fuzzing=False)
    logs = db.session.execute(select(ReviewLog.duration_ms, ReviewLog.rating, ReviewLog.reviewed_at,
                                     ReviewLog.state_before, ReviewLog.card_before, ReviewLog.card_id).where(
        ReviewLog.user_id == user.id, ReviewLog.kind == "review")
        .order_by(ReviewLog.reviewed_at.desc()).limit(HISTORY_ANSWERS)).all()
    scheduler = recall.scheduler_for(scheduler_settings)
    return plans.PlanSettings(
        target=settings.target, budget_minutes=float(settings.budget_minutes),
        seconds_per_review=plans.seconds_per_review(row.duration_ms for row in logs),
        tz_name=user.timezone, day_start_hour=user.day_start_hour, scheduler=scheduler_settings,
        stability_scale=recall.calibrate(scheduler, _answers(logs)),
        answers_per_new=plans.answers_per_new(_first_day_answers(user, logs)),
        first_ratings=plans.first_ratings(row.rating for row in logs if row.state_before == CardState.new.value))


def _first_day_answers(user: Any, logs: list[Any]) -> list[int]:
    """Answers each card introduced in these logs took on its first study day."""
    first: dict[int, Any] = {}
    for row in logs:
        if row.state_before == CardState.new.value:
            first[row.card_id] = queue_queries.study_day(user, row.reviewed_at).day
    counts = dict.fromkeys(first, 0)
    for row in logs:
        if row.card_id in first and queue_queries.study_day(user, row.reviewed_at).day == first[row.card_id]:
            counts[row.card_id] += 1
    return list(counts.values())


def _answers(logs: list[Any]) -> list[recall.Answer]:
    """The answers to review-state cards, as :func:`recall.calibrate` reads them."""
    answers = []
    for row in logs:
        before = row.card_before or {}
        if row.state_before != CardState.review.value or not before.get("last_review") or not before.get("stability"):
            continue
        elapsed = (row.reviewed_at - datetime.fromisoformat(before["last_review"])).days
        answers.append(recall.Answer(elapsed_days=elapsed, stability=float(before["stability"]),
                                     recalled=row.rating > 1))
    return answers


def today_of(user: Any, now: datetime) -> Today:
    """Today's :class:`Today` in one statement: the answers' time and count, the cards in their
    (re)learning steps due before the day ends, and whether a booking for today is left."""
    day = queue_queries.study_day(user, now)
    logs = (ReviewLog.user_id == user.id, ReviewLog.reviewed_at >= day.start, ReviewLog.reviewed_at < day.end)
    row = db.session.execute(select(
        select(func.coalesce(func.sum(ReviewLog.duration_ms), 0)).where(*logs).scalar_subquery(),
        select(func.count(ReviewLog.id)).where(*logs).scalar_subquery(),
        select(func.count(Card.id)).where(Card.user_id == user.id, Card.suspended.is_(False),
                                          Card.state.in_([CardState.learning, CardState.relearning]),
                                          Card.due < day.end).scalar_subquery(),
        select(Card.id).where(Card.user_id == user.id, Card.suspended.is_(False),
                              bookings.booked_today(user.id, day)).exists())).one()
    spent, answers, in_steps, booked = row
    return Today(committed_seconds=plans.committed_seconds((spent or 0) / 1000, int(answers or 0), int(in_steps or 0)),
                 booked_left=bool(booked))


def refresh_bookings(user: Any, now: datetime, *, nothing_today: bool | None = None,
                     requested: datetime | None = None) -> int:
    """Make the plan again (:func:`make_plan_for`) and store it (:func:`store_plan`) in the
    caller's transaction. The plan job does the two in separate transactions, so that making the
    plan holds no write lock. Returns the bookings stored."""
    return store_plan(user, now, make_plan_for(user, now), nothing_today=nothing_today, requested=requested,
                      rebook=True)


def make_plan_for(user: Any, now: datetime) -> UserPlan | None:
    """The plan as :func:`plan_for` makes it, or None when interview mode is off (reads only)."""
    settings = settings_of(user)
    return plan_for(user, now, settings) if settings.enabled else None


def store_plan(user: Any, now: datetime, found: UserPlan | None, *, nothing_today: bool | None = None,
               requested: datetime | None = None, rebook: bool | None = None) -> int:
    """Store a plan made by :func:`make_plan_for` (:class:`.models.StoredPlan`, the pages' copy)
    and the days it books a card on, replacing the earlier bookings (none without a plan: the
    cards follow plain FSRS). A question the plan introduces gets its card now (the drill offers
    only cards). ``nothing_today``: today's budget is used, so no booking is kept for today
    whatever the plan says (None: as the stored request says). ``requested``: the request this
    plan answers (its time). ``rebook``: replace the bookings (None: when a request asked for it
    or they are from an earlier day; otherwise only the plan and its forecasts are stored).
    Returns the bookings stored (0 when it did not book)."""
    settings = settings_of(user)
    today = queue_queries.study_day(user, now).day
    row = db.session.get(StoredPlan, user.id) or StoredPlan(user_id=user.id)
    if nothing_today is None:
        nothing_today = row.nothing_today_on == today
    if rebook is None:
        rebook = bool(row.rebook) or settings.planned_on is None or settings.planned_on < today
    stored = _store_bookings(user, now, found, today, nothing_today) if rebook else 0
    _store_forecasts(user.id, found.plan if found is not None else None, today, now)
    row.plan = plans.plan_to_json(found.plan) if found is not None else None
    row.made_at, row.made_on = now, today
    row.made_for = requested if requested is not None else (row.requested_at or now)
    if nothing_today:
        row.nothing_today_on = today
    if rebook:
        row.rebook = False
        settings.planned_on = today
        db.session.add(settings)  # the defaults become a stored row
    db.session.add(row)
    db.session.flush()
    return stored


def _store_bookings(user: Any, now: datetime, found: UserPlan | None, today: date, nothing_today: bool) -> int:
    """Replace the candidate's bookings with the days this plan books (none without a plan)."""
    pairs: list[tuple[int, date]] = []
    holds: dict[int, date] = {}
    if found is not None:
        unseen = [q for q in found.plan.planned if q not in found.card_ids and q in found.questions]
        card_ids = dict(found.card_ids)
        if unseen and add_to_study(user, unseen, now):
            card_ids.update({q: c.id for q, c in cards_for(user.id, unseen).items()})
        # Two asked wordings of one question share a card: book each (card, day) once.
        pairs = list(dict.fromkeys((card_ids[q], day) for q, days in found.plan.planned.items()
                                   for day in days if q in card_ids and not (nothing_today and day == today)))
        # Every asked card is held until its last interview: reviewed when the plan says, not when
        # FSRS makes it due after its last planned review (the plan counted no such review).
        for interview in found.plan.interviews:
            for card_row in interview.cards:
                if card_row.card_id in card_ids and interview.day > holds.get(card_ids[card_row.card_id], today):
                    holds[card_ids[card_row.card_id]] = interview.day
    priorities = ({card_ids[q]: rank for q, rank in found.priorities.items() if q in card_ids}
                  if found is not None else {})
    return bookings.replace_bookings(user.id, pairs, today, holds.items(), priorities)


def _store_forecasts(user_id: int, plan: plans.Plan | None, today: date, now: datetime) -> None:
    """Keep the stored plan's recall on the day per posting with an interview ahead (what the
    daily reminder says), replacing the earlier ones; none without a plan."""
    db.session.execute(delete(PostingForecast).where(PostingForecast.user_id == user_id))
    if plan is not None:
        db.session.add_all(PostingForecast(posting_id=f.interview_id, user_id=user_id, recall_on_day=f.recall_on_day,
                                           target=plan.target, met=f.met, made_at=now)
                           for f in plan.interviews if f.day > today)


def plan_due(row: StoredPlan | None, settings: InterviewSettings | None, today: date) -> bool:
    """Whether the candidate's plan should be made again: a change asked for one after the stored
    plan was made, or the stored plan (or the drill's bookings) are from an earlier study day."""
    if row is not None and row.requested_at is not None and (row.made_for is None or row.requested_at > row.made_for):
        return True
    made_on = row.made_on if row is not None and row.made_on is not None else (settings.planned_on if settings else None)
    return made_on is not None and made_on < today


def stored_plan(user: Any, now: datetime) -> UserPlan | None:
    """The plan the background job last stored for the candidate, with what the pages need to
    show it, or None when no interview is ahead. Reads only (a page never plans), and only a few
    rows whatever the postings' sizes: ``questions`` holds the texts of the questions the page
    names (the first to drop), ``card_ids`` is empty. Its ``plan`` is None while the first one
    is being made; ``pending`` says a newer one is on its way."""
    today = queue_queries.study_day(user, now).day
    postings = interview_postings(user, today, with_questions=False)
    if not postings:
        return None
    row = db.session.get(StoredPlan, user.id)
    settings = db.session.get(InterviewSettings, user.id)
    plan = plans.plan_from_json(row.plan) if row is not None and row.plan else None
    named = list(plan.shortfall.drop_first[:SHOWN_QUESTIONS]) if plan is not None and plan.shortfall else []
    return UserPlan(plan=plan, postings={p.id: p for p in postings}, questions=question_texts(postings, named),
                    card_ids={}, today=today, studied=today_of(user, now),
                    made_at=row.made_at if row is not None else None,
                    pending=plan_due(row, settings, today) or (plan is None and (settings is None or settings.enabled)))


#: The questions a page names from a stored plan (the first to drop).
SHOWN_QUESTIONS = 10


def question_texts(postings: list[Posting], question_ids: list[int]) -> dict[int, str]:
    """The wording these postings ask each of ``question_ids`` in (one statement)."""
    if not question_ids:
        return {}
    rows = db.session.execute(select(PostingQuestion.question_id, PostingQuestion.text, Question.text)
                              .join(Question, Question.id == PostingQuestion.question_id)
                              .where(PostingQuestion.posting_id.in_([p.id for p in postings]),
                                     PostingQuestion.question_id.in_(question_ids))).all()
    return {qid: own or bank for qid, own, bank in rows}


#: What :func:`after_rating` did: planned again at the session's end, or when this rating used up
#: the day's budget (today's remaining bookings moved to later days).
PLANNED, BUDGET_USED = "planned", "budget_used"
#: The name interview mode reacts to each rating under (:func:`prep.drill.rating.on_rated`):
#: ``rated.reactions[RATING_HOOK]`` is what :func:`after_rating` did.
RATING_HOOK = "interview"


@functools.cache
def _interview_ahead_statement() -> Any:
    """Whether the candidate has a posting with an interview after ``today`` (bound: ``uid``,
    ``today``), built once: it runs after every rating, and building it cost more than running it."""
    return select(exists().where(*interview_ahead_conditions(bindparam("uid"), bindparam("today"))))


def after_rating(user: Any, now: datetime) -> str | None:
    """After a rating: when interview mode has an interview ahead, ask for the plan to be made
    again from the answers just given (the caller commits; the job plans after) if the drill has
    no card left (the session is over: :data:`PLANNED`) or if today's study time, counting the
    steps under way, has reached the daily budget with bookings for today left
    (:data:`BUDGET_USED`): the plan then books nothing more today, so the drill stops offering
    today's bookings and the budget holds on a day with more lapses than the plan expected. None
    when it did not plan. With no interview ahead the plan books nothing and the bookings were
    replaced when the last one passed (the day's first request) or its posting changed, so one
    indexed lookup of the postings is all; else one queue lookup more, and mid-session one
    statement of today's figures (:func:`today_of`)."""
    today = queue_queries.study_day(user, now).day
    if not db.session.scalar(_interview_ahead_statement(), {"uid": user.id, "today": today}):
        return None
    if not queue_queries.has_card_now(user, now):
        request_plan(user.id, now)
        return PLANNED
    if _budget_just_used(user, now):
        # The stop itself is immediate (today's bookings go now); the plan that moves them to
        # the coming days is made in the background.
        bookings.drop_bookings_on(user.id, today)
        request_plan(user.id, now, nothing_today_on=today)
        return BUDGET_USED
    request_plan(user.id, now, rebook=False)  # the forecasts follow each answer; the bookings stay
    return None


def react_to_rating(user: Any, rated: Any, now: datetime) -> str | None:
    """The drill's :func:`prep.drill.rating.on_rated` hook: :func:`after_rating`."""
    return after_rating(user, now)


def _budget_just_used(user: Any, now: datetime) -> bool:
    """Whether today's study time (:func:`today_of`) has reached the budget while a booking for
    today is left: the plan made again then books nothing more today. Once it has, no booking is
    left, so this plans again at most once a day (unless the budget is raised). Not on a day the
    candidate chose to study ahead (:mod:`prep.interview.ahead`)."""
    settings = settings_of(user)
    if not settings.enabled or settings.ahead_on == queue_queries.study_day(user, now).day:
        return False  # off, or the candidate chose to study ahead of the plan today
    today = today_of(user, now)
    return today.booked_left and today.budget_used(settings.budget_minutes)


def forecast_for(user: Any, posting: Posting, now: datetime) -> plans.InterviewForecast | None:
    """Recall now and predicted on the interview day of this posting's questions (the
    candidate's own posting, interview ahead): after the plan's reviews in interview mode,
    after none when it is off."""
    return forecast_or_pending(user, posting, now)[0]


def forecast_or_pending(user: Any, posting: Posting, now: datetime) -> tuple[plans.InterviewForecast | None, bool]:
    """:func:`forecast_for`, and whether a newer plan is being made (with no forecast: the first)."""
    today = queue_queries.study_day(user, now).day
    if posting.user_id != user.id or posting.interview_date is None or posting.interview_date <= today:
        return None, False
    settings = settings_of(user)
    if settings.enabled:
        found = stored_plan(user, now)
        forecast = found.forecast(posting.id) if found is not None and found.plan is not None else None
        if found is None or posting.id not in found.postings:
            return forecast, False
        if forecast is not None:
            return forecast, found.pending  # a newer one may be on its way
        if not found.pending:  # planned without it (beyond the interviews planned together)
            return _plain_forecast(user, posting, settings, now), False
        return None, True
    return _plain_forecast(user, posting, settings, now), False


def _plain_forecast(user: Any, posting: Posting, settings: InterviewSettings, now: datetime) -> plans.InterviewForecast:
    """Recall now and on the day of a posting's questions with no review more (plain FSRS)."""
    question_ids = list(interview_questions(user, posting))
    cards = {q: memory_of(c) for q, c in cards_for(user.id, question_ids).items()}
    free = replace(plan_settings(user, settings), budget_minutes=24 * 60)
    scheduler = recall.scheduler_for(free.scheduler)
    day_time = _interview_time(posting.interview_date, free)
    rows = tuple(plans.CardForecast(q, recall.retrievability(scheduler, recall.memory_card(cards.get(q)), now,
                                                             free.stability_scale),
                                    recall.retrievability(scheduler, recall.memory_card(cards.get(q)), day_time,
                                                          free.stability_scale)) for q in question_ids)
    on_day = sum(r.recall_on_day for r in rows) / len(rows) if rows else 1.0
    return plans.InterviewForecast(posting.id, posting.interview_date,
                                   sum(r.recall_now for r in rows) / len(rows) if rows else 1.0,
                                   on_day, on_day >= settings.target, rows)


def _interview_time(day: date, settings: plans.PlanSettings) -> datetime:
    return datetime.combine(day, time(settings.interview_hour), tzinfo=user_zone(settings.tz_name)).astimezone(
        timezone.utc)


def upcoming(user: Any, now: datetime) -> list[tuple[Posting, plans.InterviewForecast | None]]:
    """The dashboard's interviews ahead, each with its predicted recall on the day (the stored
    plan's; None while it is being made)."""
    settings = settings_of(user)
    found = stored_plan(user, now) if settings.enabled else None
    if found is None or found.plan is None:
        postings = found.postings.values() if found else interview_postings(user, queue_queries.study_day(user, now).day)
        return [(p, None if found else _plain_forecast(user, p, settings, now)) for p in postings]
    return [(p, found.forecast(p.id) or (None if found.pending else _plain_forecast(user, p, settings, now)))
            for p in found.postings.values()]
