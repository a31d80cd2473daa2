"""The reminder sweep's SQL: which users are due, what they are sent, the results.

Finding is one query for the distinct (time zone, day start) pairs, then one query per page:
the next :data:`BATCH_SIZE` users by id (keyset pagination), of them the candidates joined to
their settings and, for each channel the sweep claims for (:func:`.channels.swept`), that
channel's settings and today's claim, with card counts and today's review counts computed for those
users only (by index), the per-zone local date and time of day passed in as ``CASE`` parameters
computed in Python (see :mod:`.timing` and :func:`.sweep_rules.clocks_at`). So a page costs the
same whatever the number of users, and a sweep is linear in them; the page statement is built
once a sweep. Claiming a page is a fixed number of statements too (:mod:`.sweep_claim`); sent
messages are recorded in groups (two statements). The decisions on plain values live in
:mod:`.sweep_rules`; :mod:`.sweep` runs a sweep and commits.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import Date, String, and_, bindparam, case, func, literal, or_, select, update
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from ..accounts.models import User
from ..drill import planned, queue, queue_queries
from ..drill.models import Card, CardState, ReviewLog
from ..drill.queue import Tally, queue_counts
from ..extensions import db
from ..postings.models import Posting, PostingForecast, display_name
from ..dbtypes import UTCDateTime
from ..questions.models import Question
from . import timing
from .channels import Channel, swept
from .models import (DEFAULT_ENABLED, DEFAULT_MINUTE, ReminderAttempt, ReminderChannel, ReminderLog, ReminderSettings,
                     ReminderStatus)
from .sweep_rules import DuePage, DueUser, InterviewLine, ZoneClocks, clocks_at, next_attempt, streak

BATCH_SIZE = 500
TOP_QUESTIONS = 3
TOP_INTERVIEWS = 3
STREAK_LOOKBACK = timedelta(days=400)
#: The tally counts a reminder is decided and worded by (what is due now and new today).
_TALLY_USED = ("learning_now", "reviews_due", "new", "planned")


# --- finding ---------------------------------------------------------------------------------

def _settings_columns() -> dict[str, ColumnElement[Any]]:
    return {
        "enabled": func.coalesce(ReminderSettings.enabled, literal(DEFAULT_ENABLED)),
        "minute": func.coalesce(ReminderSettings.remind_minute, DEFAULT_MINUTE),
    }


def _channel_on(channel: Channel, row: Any) -> ColumnElement[bool]:
    """SQL for :meth:`Channel.is_enabled` on ``row`` (an alias of ``reminder_channels``)."""
    on = func.coalesce(row.enabled, literal(channel.default_on)).is_(True)
    return and_(on, row.destination.is_not(None)) if channel.needs_destination else on


def _channel_row(channel: Channel) -> Any:
    return aliased(ReminderChannel, name=f"rc_{channel.name}")


def _joined_channel(stmt: Any, channel: Channel, row: Any) -> Any:
    return stmt.outerjoin(row, and_(row.user_id == User.id, row.channel == channel.name))


def _zone_pairs() -> list[tuple[str, int]]:
    """Query 1: the distinct (time zone, day start hour) pairs of users who want reminders."""
    rows = db.session.execute(_zone_pairs_statement(tuple(c.name for c in swept()))).all()
    return [(str(z), int(h)) for z, h in rows]


@lru_cache(maxsize=4)
def _zone_pairs_statement(channel_names: tuple[str, ...]) -> Any:
    """Query 1's statement for the swept channels (by name), built once: it has no parameter."""
    s = _settings_columns()
    stmt = (select(User.timezone, User.day_start_hour).distinct()
            .outerjoin(ReminderSettings, ReminderSettings.user_id == User.id))
    wanted = []
    for channel in swept():
        row = _channel_row(channel)
        stmt = _joined_channel(stmt, channel, row)
        wanted.append(_channel_on(channel, row))
    return stmt.where(s["enabled"].is_(True), or_(*wanted))


def _language_column() -> ColumnElement[Any]:
    column = getattr(User, "language", None)
    return column if column is not None else literal(None, String(8))


def zone_clocks(now: datetime) -> ZoneClocks | None:
    """Query 1 of a sweep; None when nobody wants reminders."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    return clocks_at(now, _zone_pairs())


def _page_statement(zc: ZoneClocks, one_user: bool) -> Any:
    return _page_statement_of(zc.zones, zc.pairs, one_user, db.session.get_bind().dialect.name,
                              tuple(c.name for c in swept()))


@lru_cache(maxsize=16)
def _page_statement_of(zones: tuple[str, ...], pairs: tuple[tuple[str, int], ...], one_user: bool,
                       dialect: str, channel_names: tuple[str, ...]) -> Any:
    """Page statements by their shape: the zones and (zone, day start) pairs they compare users to,
    the one-user filter, the database and the swept channels. The clocks' values are parameters
    (:func:`_page_params`), so consecutive sweeps over the same zones run the same statement
    object, and its compiled SQL is reused: building it cost most of a small sweep."""
    return _build_page_statement(zones, pairs, one_user)


def _page_params(zc: ZoneClocks) -> dict[str, Any]:
    """The values of a page statement's clock parameters at ``zc.now``: per zone ``z<i>_date``
    (its local date) and ``z<i>_minute`` (its minute of the day), per pair ``p<j>_day``,
    ``p<j>_start`` and ``p<j>_end`` (its study day), ``now`` and ``horizon``."""
    params: dict[str, Any] = {"now": zc.now, "horizon": zc.now + queue.LEARN_AHEAD}
    for i, zone in enumerate(zc.zones):
        clock = zc.clocks[zone]
        params[f"z{i}_date"], params[f"z{i}_minute"] = clock.local_date, clock.minute_of_day
    for j, pair in enumerate(zc.pairs):
        day = zc.days[pair]
        params[f"p{j}_day"], params[f"p{j}_start"], params[f"p{j}_end"] = day.day, day.start, day.end
    return params


def _build_page_statement(zones: tuple[str, ...], pairs: tuple[tuple[str, int], ...], one_user: bool) -> Any:
    """The page query over ``zones`` and ``pairs``, with parameters ``after_id``, ``batch_size``
    (and ``only_user``) and the clocks of :func:`_page_params`."""
    now = bindparam("now", type_=UTCDateTime())

    def by_zone(name: str, type_: Any) -> ColumnElement[Any]:
        return case(*[(User.timezone == z, bindparam(f"z{i}_{name}", type_=type_)) for i, z in enumerate(zones)])

    def by_pair(name: str, type_: Any) -> ColumnElement[Any]:
        return case(*[(and_(User.timezone == z, User.day_start_hour == h), bindparam(f"p{j}_{name}", type_=type_))
                      for j, (z, h) in enumerate(pairs)])

    local_date = by_zone("date", Date())
    study_date = by_pair("day", Date())
    minute_now = by_zone("minute", db.Integer())
    study_start = by_pair("start", UTCDateTime())
    study_end = by_pair("end", UTCDateTime())
    s = _settings_columns()
    # Per channel the sweep claims for: the user's settings of it and today's claim of it, and
    # whether that channel is due (on, and no claim today or a claim to try again).
    per_channel: list[ColumnElement[Any]] = []
    claimables: list[ColumnElement[bool]] = []
    joined: list[tuple[Channel, Any, Any]] = []
    for channel in swept():
        row, claim = _channel_row(channel), aliased(ReminderLog, name=f"rl_{channel.name}")
        claimable = and_(_channel_on(channel, row), or_(
            claim.id.is_(None),
            and_(claim.status == ReminderStatus.retry.value, claim.next_attempt_at <= now),
            and_(claim.status == ReminderStatus.sending.value, claim.lease_until <= now)))
        claimables.append(claimable)
        joined.append((channel, row, claim))
        per_channel += [case((claimable, 1), else_=0).label(f"{channel.name}_due"),
                        claim.id.label(f"{channel.name}_log"), claim.status.label(f"{channel.name}_status"),
                        claim.attempts.label(f"{channel.name}_attempts"), row.destination.label(f"{channel.name}_to"),
                        row.options.label(f"{channel.name}_options")]
    # The page's users: the next ``batch_size`` by id, whatever their settings. Filtering first
    # and limiting after let PostgreSQL hash-join every user after ``after_id`` to their settings
    # and sort them for each page (its estimate of the filters is far too low), so a sweep was
    # quadratic in its users; scanning the id range first bounds a page by its size.
    scanned = (select(User.id.label("user_id")).where(User.id > bindparam("after_id", type_=db.Integer()))
               .order_by(User.id).limit(bindparam("batch_size", type_=db.Integer())).cte("scanned"))
    candidates = (
        select(User.id.label("user_id"), User.email, User.display_name, User.timezone,
               User.reviews_per_day, User.new_per_day, s["minute"].label("minute"), *per_channel,
               _language_column().label("language"), User.created_at.label("created_at"),
               study_start.label("study_start"), study_end.label("study_end"), study_date.label("study_date"))
        .outerjoin(ReminderSettings, ReminderSettings.user_id == User.id)
    )
    for channel, row, claim in joined:
        candidates = _joined_channel(candidates, channel, row).outerjoin(claim, and_(
            claim.user_id == User.id, claim.local_date == local_date, claim.channel == channel.name))
    candidates = (
        candidates
        .where(User.id > bindparam("after_id", type_=db.Integer()),
               User.id <= select(func.max(scanned.c.user_id)).scalar_subquery(), s["enabled"].is_(True),
               User.timezone.in_(zones), minute_now >= s["minute"], or_(*claimables),
               *([User.id == bindparam("only_user", type_=db.Integer())] if one_user else []))
        .cte("candidates")
    )
    c = candidates.c
    # On PostgreSQL the two aggregates are MATERIALIZED CTEs: the planner estimates one candidate
    # (its filters are CASEs over the zones), so as subqueries it nested-looped the page over
    # today's review counts, sorting and aggregating them again for each of the 500 users
    # (EXPLAIN ANALYZE at 100,000 users: 34 ms of the page's execution; 12 ms materialized).
    # Both join the candidates, whose study day (a CASE over the pairs) is computed once per
    # user: not once per card or review row, and not rendered (nor parsed) again in each.

    def by_candidate(user_id: ColumnElement[int]) -> list[ColumnElement[bool]]:
        # SQLite would scan every card (every review) and probe the candidates; the IN makes it
        # look them up by index from the candidates. PostgreSQL does that from the join alone.
        return [] if db.session.get_bind().dialect.name == "postgresql" else [user_id.in_(select(c.user_id))]

    tally = {col.name: col for col in queue_queries.tally_columns(now, c.study_end, c.study_start, c.study_date,
                                                                  bindparam("horizon", type_=UTCDateTime()))}
    card_counts = (  # the drill's tally query (prep.drill.queue_queries), per user: the counts a reminder needs
        select(Card.user_id.label("user_id"), *[tally[name] for name in _TALLY_USED])
        .join(candidates, c.user_id == Card.user_id)
        .where(*by_candidate(Card.user_id))
        .group_by(Card.user_id)
        .cte("card_counts").prefix_with("MATERIALIZED", dialect="postgresql")
    )
    done = (
        select(ReviewLog.user_id.label("user_id"),
               func.sum(case((ReviewLog.state_before == CardState.new.value, 1), else_=0)).label("new_done"),
               func.sum(case((ReviewLog.state_before == CardState.review.value, 1), else_=0)).label("reviews_done"))
        .join(candidates, c.user_id == ReviewLog.user_id)
        .where(*by_candidate(ReviewLog.user_id), ReviewLog.kind == "review", ReviewLog.reviewed_at >= c.study_start, ReviewLog.reviewed_at < c.study_end)
        .group_by(ReviewLog.user_id)
        .cte("done_today").prefix_with("MATERIALIZED", dialect="postgresql")
    )
    c = candidates.c
    stmt = (
        select(c.user_id, c.email, c.display_name, c.timezone, c.minute, c.language, c.reviews_per_day,
               c.new_per_day, func.coalesce(done.c.new_done, 0), func.coalesce(done.c.reviews_done, 0),
               *[getattr(card_counts.c, name) for name in _TALLY_USED], c.study_date, c.study_start, c.study_end,
               c.created_at, *[c[col.name] for col in per_channel], scanned.c.user_id)
        .select_from(scanned)
        .outerjoin(candidates, c.user_id == scanned.c.user_id)
        .outerjoin(card_counts, card_counts.c.user_id == c.user_id)
        .outerjoin(done, done.c.user_id == c.user_id)
        .order_by(scanned.c.user_id)
    )
    return stmt


@lru_cache(maxsize=4096)  # pure; a page's users share a few combinations of small counts
def _due_counts(learning_now: int, reviews_due: int, new: int, planned: int, new_per_day: int, reviews_per_day: int,
                new_done: int, reviews_done: int) -> tuple[int, int, int]:
    """What a reminder counts (learning, reviews, new) from the tally counts of :data:`_TALLY_USED`
    within the daily limits, as the drill's :func:`queue_counts` does; their sum is what the
    drill would show now."""
    counts = queue_counts(Tally(learning_now=learning_now, reviews_due=reviews_due, new=new, planned=planned),
                          queue.Limits(new_per_day=new_per_day, reviews_per_day=reviews_per_day),
                          queue.DoneToday(new=new_done, reviews=reviews_done))
    return counts.learning_now, counts.reviews_now + counts.planned_now, counts.new_today


def find_due_page(zc: ZoneClocks, *, after_id: int = 0, batch_size: int = BATCH_SIZE,
                  user_id: int | None = None) -> DuePage:
    """One query: the next ``batch_size`` users by id after ``after_id`` (keyset pagination on
    the primary key), and of them the candidates, each with its card and today's review counts,
    computed for those users only (index ``ix_cards_user_due`` and ``ix_review_logs_user_time``).
    A candidate wants a reminder, has reached its time today and has no claim today (or a claim
    to retry); those with nothing to study, and those who registered after today's reminder time
    (their first reminder is tomorrow's), are skipped in Python, after the page."""
    clocks = zc.clocks
    params = {"after_id": after_id, "batch_size": batch_size, **_page_params(zc)}
    if user_id is not None:
        params["only_user"] = user_id
    # The session's connection, not the session: a Core statement's rows need no ORM loading.
    rows = db.session.connection().execute(_page_statement(zc, user_id is not None), params).all()
    out = []
    study_days: dict[tuple[Any, Any, Any], queue.StudyDay] = {}  # one object per (zone, day start)
    channels = swept()
    for row in rows:
        if row[0] is None:
            continue  # a user of the page who is not a candidate
        learning, reviews, new = _due_counts(int(row[10] or 0), int(row[11] or 0), int(row[12] or 0),
                                             int(row[13] or 0), int(row[7]), int(row[6]), int(row[8]),
                                             int(row[9]))
        clock = clocks[row[3]]
        day_key = (row[14], row[15], row[16])
        study = study_days.get(day_key)
        if study is None:
            study = study_days[day_key] = queue.StudyDay(day=row[14], start=row[15], end=row[16])
        if learning + reviews + new <= 0 or not timing.first_reminder_reached(row[17], clock.local_date,
                                                                              int(row[4]), row[3]):
            continue
        user = None
        for k, channel in enumerate(channels):
            due, log_id, status, attempts, destination, options = row[18 + 6 * k:24 + 6 * k]
            if not due:
                continue
            if user is None:
                user = DueUser(user_id=row[0], email=row[1], display_name=row[2] or "", timezone=row[3],
                               remind_minute=int(row[4]), local_date=clock.local_date, day_end=clock.day_end,
                               learning=learning, reviews=reviews, new=new, language=row[5], study_day=study)
            out.append(user.on_channel(channel.name, channel.destination_for(row[1], destination), options,
                                       log_id, status, int(attempts or 0)))
    return DuePage(due=out, last_id=rows[-1][-1] if len(rows) >= batch_size else None)


def find_due(now: datetime, *, batch_size: int = BATCH_SIZE) -> list[DueUser]:
    """Every user whose reminder is due at ``now``: one query for the zones, then one per page
    of ``batch_size`` users."""
    zc = zone_clocks(now)
    out: list[DueUser] = []
    after = 0
    while zc is not None:
        page = find_due_page(zc, after_id=after, batch_size=batch_size)
        out += page.due
        if page.last_id is None:
            break
        after = page.last_id
    return out


# --- expiring ----------------------------------------------------------------------------------

def expire_ended_days(now: datetime) -> int:
    """Give up on retries whose local day has ended (one statement)."""
    result = db.session.execute(
        update(ReminderLog)
        .where(ReminderLog.status.in_([ReminderStatus.retry.value, ReminderStatus.sending.value]),
               ReminderLog.expires_at <= now)
        .values(status=ReminderStatus.failed.value, lease_until=None, next_attempt_at=None,
                last_error=func.coalesce(ReminderLog.last_error, "interrupted") + " (gave up: the local day ended)")
        .execution_options(synchronize_session=False))
    return int(result.rowcount or 0)


# --- message content (batched) ---------------------------------------------------------------

def top_questions(users: Sequence[DueUser], now: datetime, limit: int = TOP_QUESTIONS) -> dict[int, list[str]]:
    """The first few questions each user will see (one query for all users): learning and review
    cards due before the user's study day ends and new cards, as the drill offers them on that day under
    an interview plan: a card booked for that day counts like a due one (after them, before new
    cards), a review card the plan holds back does not (:func:`planned.not_held`)."""
    if not users:
        return {}
    by_day: dict[queue.StudyDay, list[int]] = defaultdict(list)
    for user in users:  # the study day the page query computed (a few distinct ones a sweep); a
        # DueUser queued before it was carried falls back to the default day start
        by_day[user.study_day or queue.study_day(now, user.timezone)].append(user.user_id)

    def per_user(value: Callable[[queue.StudyDay], Any], type_: Any) -> ColumnElement[Any]:
        return case(*[(User.id.in_(ids), literal(value(day), type_)) for day, ids in by_day.items()])

    user_ids = [u.user_id for u in users]
    user_days = (select(User.id.label("user_id"), per_user(lambda d: d.day, Date()).label("study_date"),
                        per_user(lambda d: d.start, UTCDateTime()).label("study_start"),
                        per_user(lambda d: d.end, UTCDateTime()).label("study_end"))
                 .where(User.id.in_(user_ids)).cte("user_days"))
    ud = user_days.c
    active = and_(Card.suspended.is_(False), or_(Card.buried_until.is_(None), Card.buried_until <= now))
    horizon = ud.study_end  # what the drill offers today: due before the user's study day ends
    due_soon = and_(Card.due < horizon, or_(Card.state != CardState.review, planned.not_held(ud.study_date)))
    booked = planned.booked_today(Card.user_id, queue.StudyDay(day=ud.study_date, start=ud.study_start, end=None))
    rank = func.row_number().over(
        partition_by=Card.user_id,
        order_by=(case((and_(Card.state != CardState.new, Card.due < horizon), 0), (booked, 1), else_=2),
                  Card.due, Card.id)).label("rank")
    inner = (select(Card.user_id.label("user_id"), Question.text.label("text"), rank)
             .join(user_days, ud.user_id == Card.user_id)
             .join(Question, Question.id == Card.question_id)
             .where(Card.user_id.in_(user_ids), active,
                    or_(Card.state == CardState.new, booked, due_soon))
             .subquery())
    out: dict[int, list[str]] = defaultdict(list)
    for user_id, text, _rank in db.session.execute(
            select(inner.c.user_id, inner.c.text, inner.c.rank).where(inner.c.rank <= limit)
            .order_by(inner.c.user_id, inner.c.rank)):
        out[user_id].append(text)
    return out


def streaks(users: Sequence[DueUser], now: datetime) -> dict[int, int]:
    """Each user's current streak (one query for all users)."""
    if not users:
        return {}
    ids = [u.user_id for u in users]
    meta = {uid: (tz, int(h)) for uid, tz, h in db.session.execute(
        select(User.id, User.timezone, User.day_start_hour).where(User.id.in_(ids)))}
    reviews: dict[int, list[datetime]] = defaultdict(list)
    for user_id, reviewed_at in db.session.execute(
            select(ReviewLog.user_id, ReviewLog.reviewed_at)
            .where(ReviewLog.user_id.in_(ids), ReviewLog.reviewed_at >= now - STREAK_LOOKBACK)):
        reviews[user_id].append(reviewed_at)
    return {uid: streak(reviews[uid], now, tz, hour) for uid, (tz, hour) in meta.items()}


def interviews_ahead(users: Sequence[DueUser], now: datetime, limit: int = TOP_INTERVIEWS) -> dict[int, list[InterviewLine]]:
    """Each user's nearest interviews after their study day (their own postings with an interview
    date), with the recall on the day their last stored plan predicted (one query for all users)."""
    if not users:
        return {}
    days = {u.user_id: (u.study_day or queue.study_day(now, u.timezone)).day for u in users}
    out: dict[int, list[InterviewLine]] = defaultdict(list)
    rows = db.session.execute(
        select(Posting.user_id, Posting.id, Posting.company, Posting.title, Posting.interview_date,
               PostingForecast.recall_on_day, PostingForecast.target, PostingForecast.met)
        .outerjoin(PostingForecast, PostingForecast.posting_id == Posting.id)
        .where(Posting.user_id.in_(list(days)), Posting.interview_date > min(days.values()))
        .order_by(Posting.user_id, Posting.interview_date, Posting.id))
    for user_id, posting_id, company, title, day, recall, target, met in rows:
        left = (day - days[user_id]).days
        if left > 0 and len(out[user_id]) < limit:
            out[user_id].append(InterviewLine(name=display_name(company, title, posting_id), day=day, days_left=left,
                                              recall=recall, target=target, met=met))
    return out


# --- recording results -----------------------------------------------------------------------

def record_sent(users: Sequence[DueUser], now: datetime) -> None:
    """Mark these deliveries sent (two statements for any number of them)."""
    if not users:
        return
    ids = [u.log_id for u in users]
    db.session.execute(update(ReminderLog).where(ReminderLog.id.in_(ids))
                       .values(status=ReminderStatus.sent.value, sent_at=now, lease_until=None)
                       .execution_options(synchronize_session=False))
    # The claim marked any older 'sending' attempt 'lost': the one left is this attempt.
    db.session.execute(update(ReminderAttempt)
                       .where(ReminderAttempt.log_id.in_(ids), ReminderAttempt.outcome == "sending")
                       .values(outcome="sent", finished_at=now)
                       .execution_options(synchronize_session=False))


def record_failure(user: DueUser, now: datetime, error: str, *, retry: bool = True) -> bool:
    """Schedule a retry (unless ``retry`` is False: it cannot help), or mark the reminder failed;
    returns True when it will be retried."""
    retry_at = next_attempt(user, now) if retry else None
    will_retry = retry_at is not None
    db.session.execute(update(ReminderLog).where(ReminderLog.id == user.log_id).values(
        status=(ReminderStatus.retry if will_retry else ReminderStatus.failed).value,
        next_attempt_at=retry_at, lease_until=None, last_error=error)
        .execution_options(synchronize_session=False))
    db.session.execute(update(ReminderAttempt)
                       .where(ReminderAttempt.log_id == user.log_id, ReminderAttempt.number == user.attempts)
                       .values(outcome="error", finished_at=now, error=error)
                       .execution_options(synchronize_session=False))
    return will_retry


def record_skipped(user: DueUser, error: str) -> None:
    """Mark a user's claim failed because their data could not be used (the caller commits)."""
    db.session.execute(update(ReminderLog).where(ReminderLog.id == user.log_id).values(
        status=ReminderStatus.failed.value, next_attempt_at=None, lease_until=None,
        last_error=f"skipped: {error}"[:1000]).execution_options(synchronize_session=False))


def user_ids_after(after: int, limit: int) -> list[int]:
    """The ids of the next ``limit`` users after ``after`` (every user, wanted or not)."""
    return list(db.session.scalars(select(User.id).where(User.id > after).order_by(User.id).limit(limit)))
