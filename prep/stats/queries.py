"""The aggregate queries behind the statistics pages: a fixed handful per page, each a GROUP BY.

Study days are grouped in the database: an instant's day number is
``(epoch_seconds + shift) // 86400``, where the shift is the user's UTC offset less the day start
hour, piecewise constant over the window (see :func:`compute.offset_segments`), so the result
matches :func:`prep.drill.queue.study_day` on SQLite and PostgreSQL alike.
"""
from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import BigInteger, Float, Integer, and_, case, cast, func, literal, or_, select
from sqlalchemy.exc import DataError
from sqlalchemy.sql.elements import ColumnElement

from ..accounts.models import User
from ..drill import planned, queue, scheduling
from ..drill.memory import memory_of
from ..drill.models import Card, CardState, PlannedReview, ReviewLog
from ..extensions import db
from ..questions.models import Question
from . import compute

log = logging.getLogger(__name__)


def _dialect() -> str:
    return db.session.get_bind().dialect.name


def epoch_seconds(column: Any) -> ColumnElement[int]:
    if _dialect() == "postgresql":
        return cast(func.floor(func.extract("epoch", column)), BigInteger)
    return cast(func.strftime("%s", column), Integer)


def _iso_epoch_seconds(text: Any) -> ColumnElement[float]:
    """Seconds since the epoch of an ISO-8601 string with an offset (from a JSON snapshot)."""
    if _dialect() == "postgresql":
        return func.extract("epoch", cast(text, db.DateTime(timezone=True)))
    return (func.julianday(text) - 2440587.5) * 86400.0


def day_number(column: Any, user: User, start: datetime, end: datetime) -> ColumnElement[int]:
    """The study day (days since 1970-01-01) of a UTC timestamp column, for instants in [start, end)."""
    segments = compute.offset_segments(user.timezone, user.day_start_hour, start, end)
    if len(segments) == 1:
        shift: Any = literal(segments[0][1], Integer)
    else:
        whens = [(column < segments[i + 1][0], segments[i][1]) for i in range(len(segments) - 1)]
        shift = case(*whens, else_=segments[-1][1])
    return (epoch_seconds(column) + shift) // 86400


@dataclass(frozen=True)
class DayActivity:
    reviews: int
    duration_ms: int


def daily_activity(user: User, first: queue.StudyDay, last: queue.StudyDay) -> dict[date, DayActivity]:
    """Reviews and time spent per study day, from ``first`` to ``last`` inclusive."""
    inner = (select(day_number(ReviewLog.reviewed_at, user, first.start, last.end).label("day"),
                    ReviewLog.duration_ms.label("ms"))
             .where(ReviewLog.user_id == user.id, ReviewLog.reviewed_at >= first.start,
                    ReviewLog.reviewed_at < last.end).subquery())
    rows = db.session.execute(select(inner.c.day, func.count(), func.coalesce(func.sum(inner.c.ms), 0))
                              .group_by(inner.c.day))
    return {compute.from_day_number(int(d)): DayActivity(int(n), int(ms)) for d, n, ms in rows}


def due_by_day(user: User, today: queue.StudyDay, days: int = compute.FORECAST_DAYS) -> dict[date, int]:
    """Unsuspended studied cards due per study day up to ``days`` ahead (overdue ones on their own
    past days: :func:`compute.forecast` folds them into today), as the drill will offer them under
    an interview plan: a card the plan books or holds from today on counts on its booked days and
    on its due day (today when overdue) only when not held back then (:func:`queue.forecast_days`).

    One query: the cards without such rows grouped by due day, those with them one row per
    booking or hold (their rows from today on, outer-joined)."""
    end = today.start + timedelta(days=days + 1)
    row = and_(PlannedReview.card_id == Card.id, PlannedReview.day >= today.day)
    in_plan = PlannedReview.id.is_not(None)
    inner = (select(day_number(Card.due, user, today.start, end).label("day"), PlannedReview.card_id.label("card_id"),
                    case((in_plan, Card.state), else_=None).label("state"),
                    case((in_plan, Card.last_review), else_=None).label("last_review"),
                    PlannedReview.day.label("booked"), PlannedReview.hold.label("hold"))
             .outerjoin(PlannedReview, row)
             .where(Card.user_id == user.id, Card.suspended.is_(False), Card.state != CardState.new,
                    or_(Card.due < end, in_plan)).subquery())
    c = inner.c
    out: dict[date, int] = {}
    plan_rows = []
    for day, card_id, state, last_review, booked, hold, n in db.session.execute(
            select(c.day, c.card_id, c.state, c.last_review, c.booked, c.hold, func.count())
            .group_by(c.day, c.card_id, c.state, c.last_review, c.booked, c.hold)):
        if card_id is None:
            due = compute.from_day_number(int(day))
            out[due] = out.get(due, 0) + int(n)
        else:
            plan_rows.append((card_id, compute.from_day_number(int(day)), state, last_review, booked, hold))
    for card in planned.fold_rows(plan_rows):
        due, booked = queue.forecast_days(max(card.due, today.day), card.booked, card.holds,
                                          holdable=card.state == CardState.review)
        answered_today = card.last_review is not None and card.last_review >= today.start
        for day in ([due] if due else []) + [d for d in booked if d > today.day or not answered_today]:
            out[day] = out.get(day, 0) + 1
    return out


def _is_mature() -> ColumnElement[bool]:
    """Whether the interval a review's card was scheduled with (from its JSON snapshot) was ≥ 21 days."""
    interval = (_iso_epoch_seconds(ReviewLog.card_before["due"].as_string())
                - _iso_epoch_seconds(ReviewLog.card_before["last_review"].as_string()))
    return interval >= (compute.MATURE_DAYS - 0.5) * 86400


def _snapshot_grouped(user: User, grouped: Any) -> list[Any] | None:
    """The rows of a GROUP BY that reads review snapshots in SQL, or None when PostgreSQL met a
    snapshot time it cannot cast (only a row written past the import's checks holds one; the
    query ran in a savepoint): the caller then judges each snapshot in Python."""
    if _dialect() != "postgresql":  # SQLite's julianday() reads a bad time as NULL: never raises
        return list(db.session.execute(grouped))
    try:
        with db.session.begin_nested():
            return list(db.session.execute(grouped))
    except DataError:
        log.warning("user %s: a review snapshot holds a time that is not one; read row by row", user.id)
        return None


def retention_rows(user: User, today: queue.StudyDay, weeks: int = compute.RETENTION_WEEKS
                   ) -> list[tuple[int, bool, int, int]]:
    """(weeks ago, mature?, passed, total) for reviews of review-state cards in the last ``weeks``
    weeks. Mature: the interval the card was scheduled with was ≥ 21 days (from its snapshot),
    read in SQL (see :func:`_snapshot_grouped` for a snapshot it cannot read)."""
    start = today.start - timedelta(days=7 * weeks - 1)
    today_n = compute.day_number(today.day)
    ago = ((today_n - day_number(ReviewLog.reviewed_at, user, start, today.end)) // 7).label("ago")
    passed = case((ReviewLog.rating > 1, 1), else_=0).label("passed")
    window = (ReviewLog.user_id == user.id, ReviewLog.reviewed_at >= start, ReviewLog.reviewed_at < today.end,
              ReviewLog.kind == "review", ReviewLog.state_before == CardState.review.value)
    mature = case((_is_mature(), 1), else_=0)
    inner = select(ago, mature.label("mature"), passed).where(*window).subquery()
    grouped = (select(inner.c.ago, inner.c.mature, func.sum(inner.c.passed), func.count())
               .group_by(inner.c.ago, inner.c.mature))
    rows = _snapshot_grouped(user, grouped)
    if rows is not None:
        return [(int(a), bool(m), int(p), int(n)) for a, m, p, n in rows]
    counts: dict[tuple[int, bool], list[int]] = {}
    for weeks_ago, ok, before in db.session.execute(select(ago, passed, ReviewLog.card_before).where(*window)):
        cell = counts.setdefault((int(weeks_ago), _mature_snapshot(before)), [0, 0])
        cell[0] += int(ok)
        cell[1] += 1
    return [(a, m, p, n) for (a, m), (p, n) in counts.items()]


def answer_button_rows(user: User, first: queue.StudyDay, last: queue.StudyDay) -> list[tuple[int, str, int, int]]:
    """(study day number, card age, rating, answers) for the reviews from ``first`` to ``last``
    inclusive (crams left out: they schedule nothing), in one GROUP BY. The age is Anki's: learning
    when the card was new, learning or relearning; young or mature (interval ≥ 21 days) when it was
    a review card."""
    day = day_number(ReviewLog.reviewed_at, user, first.start, last.end).label("day")
    learning = ReviewLog.state_before != CardState.review.value
    age = case((learning, literal("learning")), (_is_mature(), literal("mature")), else_=literal("young")).label("age")
    window = (ReviewLog.user_id == user.id, ReviewLog.reviewed_at >= first.start, ReviewLog.reviewed_at < last.end,
              ReviewLog.kind == "review")
    inner = select(day, age, ReviewLog.rating.label("rating")).where(*window).subquery()
    rows = _snapshot_grouped(user, select(inner.c.day, inner.c.age, inner.c.rating, func.count())
                             .group_by(inner.c.day, inner.c.age, inner.c.rating))
    if rows is not None:
        return [(int(d), str(a), int(r), int(n)) for d, a, r, n in rows]
    counts: Counter[tuple[int, str, int]] = Counter()
    for d, rating, state_before, before in db.session.execute(
            select(day, ReviewLog.rating, ReviewLog.state_before, ReviewLog.card_before).where(*window)):
        kind = "learning" if state_before != CardState.review.value else "mature" if _mature_snapshot(before) else "young"
        counts[(int(d), kind, int(rating))] += 1
    return [(d, a, r, n) for (d, a, r), n in counts.items()]


def _mature_snapshot(snapshot: Any) -> bool:
    """Whether a review snapshot's scheduled interval was ≥ 21 days; False when it cannot be read."""
    try:
        due = datetime.fromisoformat(snapshot["due"])
        last = datetime.fromisoformat(snapshot["last_review"])
        return (due - last).total_seconds() >= (compute.MATURE_DAYS - 0.5) * 86400
    except (KeyError, TypeError, ValueError, OverflowError):
        return False


def state_rows(user: User) -> list[tuple[str, bool, int]]:
    rows = db.session.execute(select(Card.state, Card.suspended, func.count())
                              .where(Card.user_id == user.id).group_by(Card.state, Card.suspended))
    return [(state.value, bool(suspended), int(n)) for state, suspended, n in rows]


def leeches(user: User, limit: int = 50, threshold: int = compute.LEECH_LAPSES) -> list[Any]:
    """The user's cards with ``threshold`` or more lapses, most lapses first (one query: rows with
    id, text, lang, lapses, reps, state, suspended)."""
    return list(db.session.execute(
        select(Card.id, Question.text, Question.lang, Card.lapses, Card.reps, Card.state, Card.suspended)
        .join(Question, Question.id == Card.question_id)
        .where(Card.user_id == user.id, Card.lapses >= threshold)
        .order_by(Card.lapses.desc(), Card.id).limit(limit)))


# ---- instructors: per-question aggregates across all candidates ---------------------------

MIN_LEARNERS = 3  # fewer than this and an aggregate would describe one person


@dataclass(frozen=True)
class QuestionDifficulty:
    question_id: int
    text: str
    lang: str
    learners: int
    reviews: int
    lapses: int
    leeches: int
    average_retrievability: float | None

    @property
    def lapse_rate(self) -> float:
        return self.lapses / self.reviews if self.reviews else 0.0


def question_difficulty(now: datetime, page: int, per_page: int = 25,
                        min_learners: int = MIN_LEARNERS) -> tuple[list[QuestionDifficulty], int]:
    """One page of questions studied by at least ``min_learners`` people, highest lapse rate
    first, and the number of such questions. Two aggregate queries plus one for retrievability."""
    reviewed = and_(Card.state != CardState.new)
    learners = func.count(func.distinct(Card.user_id))
    grouped = (select(Card.question_id.label("qid"), learners.label("learners"),
                      func.sum(Card.reps).label("reps"), func.sum(Card.lapses).label("lapses"),
                      func.sum(case((Card.lapses >= compute.LEECH_LAPSES, 1), else_=0)).label("leeches"))
               .where(reviewed).group_by(Card.question_id).having(learners >= min_learners).subquery())
    total = db.session.scalar(select(func.count()).select_from(grouped)) or 0
    rate = cast(grouped.c.lapses, Float) / func.nullif(grouped.c.reps, 0)
    rows = db.session.execute(
        select(grouped, Question.text, Question.lang).join(Question, Question.id == grouped.c.qid)
        .order_by(func.coalesce(rate, 0).desc(), grouped.c.qid)
        .limit(per_page).offset((page - 1) * per_page)).all()
    ids = [r.qid for r in rows]
    recall: dict[int, list[float]] = {i: [] for i in ids}
    if ids:
        schedulers: dict[str | None, Any] = {}
        cards = db.session.execute(
            select(Card.question_id, Card.state, Card.step, Card.stability, Card.difficulty, Card.due,
                   Card.last_review, User.fsrs_parameters)
            .join(User, User.id == Card.user_id).where(Card.question_id.in_(ids), reviewed)).all()
        for c in cards:
            if c.fsrs_parameters not in schedulers:
                schedulers[c.fsrs_parameters] = scheduling.make_scheduler(scheduling.SchedulerSettings(
                    parameters=scheduling.stored_parameters(c.fsrs_parameters), enable_fuzzing=False))
            recall[c.question_id].append(scheduling.retrievability(schedulers[c.fsrs_parameters], memory_of(c), now))
    out = [QuestionDifficulty(question_id=r.qid, text=r.text, lang=r.lang, learners=int(r.learners),
                              reviews=int(r.reps or 0), lapses=int(r.lapses or 0), leeches=int(r.leeches or 0),
                              average_retrievability=compute.mean(recall[r.qid])) for r in rows]
    return out, int(total)
