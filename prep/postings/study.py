"""A candidate's study of one posting: which of its questions (and of its likely questions) are
in study, what the posting page shows about them, and readiness for its interview.

Reads the database; the readiness maths itself is the pure :mod:`prep.postings.readiness`.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from ..content.lookup import explanations_for
from ..drill import planned, queue_queries, scheduling
from ..drill.cards import cards_for
from ..drill.models import CardState, ReviewLog
from ..extensions import db
from . import interview_dates
from .models import Posting
from .readiness import QuestionState, Readiness, assess, pace_per_day
from .service import likely_questions, postings_asking

#: Readiness's pace: new cards introduced a day over this many days.
PACE_DAYS = 14


@dataclass(frozen=True)
class PostingPage:
    """What the posting page shows beside the posting itself."""

    items: list[dict[str, Any]]   # per asked question: its row, explanations, other postings asking it
    in_study: set[int]            # asked question ids with a card
    likely: list[Any]             # the likely questions (prep.postings.service.likely_questions)
    likely_in_study: set[int]     # likely question ids with a card
    all_in_study: bool
    readiness: Readiness | None   # None until one of its questions is in study


def posting_page(user: Any, posting: Posting, *, lang: str, now: datetime) -> PostingPage:
    """The posting page's study data for ``user``, explanations in ``lang``."""
    question_ids = [pq.question_id for pq in posting.questions]
    likely = likely_questions(posting, lang=lang)
    likely_ids = [q.id for q in likely]
    every = question_ids + likely_ids
    studied = set(cards_for(user.id, every))  # a card on a translation counts
    likely_in_study = studied & set(likely_ids)
    asked_in = postings_asking(question_ids, user)
    items = [{"pq": pq, "explanations": explanations_for(pq.question, lang=lang), "asked_in": asked_in[pq.question_id]}
             for pq in posting.questions]
    return PostingPage(items=items, in_study=studied & set(question_ids), likely=likely,
                       likely_in_study=likely_in_study, all_in_study=set(every) <= studied,
                       readiness=readiness_for(user, posting, now, likely) if studied else None)


def study_question_ids(posting: Posting, *, with_likely: bool) -> list[int]:
    """The questions "study this posting" adds: the ones it asks, then (``with_likely``) its
    likely questions not among them."""
    ids = [pq.question_id for pq in posting.questions]
    if with_likely:
        ids += [q.id for q in likely_questions(posting) if q.id not in ids]
    return ids


@dataclass(frozen=True)
class SetQuestion:
    """One question of a posting's set (:func:`question_set`)."""

    question_id: int
    text: str
    priority: int  # prep.drill.planned.OWN_REPORT, OWN_POSTING or LIKELY


def question_set(user: Any, posting: Posting, likely: Sequence[Any] | None = None) -> list[SetQuestion]:
    """The questions an interview for this posting is about, own questions first: those asked in
    the candidate's interview reports of the same company under any of its names (the posting
    itself, when it is a report), those the posting lists, then the likely questions (``likely``, default
    :func:`likely_questions`) the candidate has in study. Readiness, recall now, recall on the
    day and the interview plan all count this one set."""
    reports = [posting] if posting.is_report else []
    if posting.company_key and posting.user_id == user.id:  # the same company under any of its names
        reports += list(db.session.scalars(select(Posting).where(
            Posting.user_id == user.id, Posting.kind == "report", Posting.id != posting.id,
            Posting.company_key == posting.company_key).order_by(Posting.id)))
    out: dict[int, SetQuestion] = {}
    for source, priority in [*((r, planned.OWN_REPORT) for r in reports), (posting, planned.OWN_POSTING)]:
        for pq in source.questions:
            if pq.question_id not in out:
                out[pq.question_id] = SetQuestion(pq.question_id, pq.text or pq.question.text, priority)
    likely = likely_questions(posting) if likely is None else likely
    in_study = cards_for(user.id, [q.id for q in likely])
    for q in likely:
        if q.id in in_study and q.id not in out:
            out[q.id] = SetQuestion(q.id, q.text, planned.LIKELY)
    return list(out.values())


def readiness_for(user: Any, posting: Posting, now: datetime, likely: Sequence[Any] | None = None) -> Readiness:
    """The candidate's readiness for this posting (retrievability at ``now``, pace over
    :data:`PACE_DAYS` days) over its :func:`question_set` (``likely``: the posting's likely
    questions, when the caller has them)."""
    wanted = [(q.question_id, q.text) for q in question_set(user, posting, likely)]
    ids = [qid for qid, _text in wanted]
    cards = cards_for(user.id, ids)
    sched = scheduling.make_scheduler(scheduling.settings_for_user(user))
    states = []
    for question_id, text in wanted:
        card = cards.get(question_id)
        reviewed = card is not None and card.state is not CardState.new
        states.append(QuestionState(
            question_id=question_id, text=text, studied=card is not None, reviewed=reviewed,
            retrievability=scheduling.retrievability(sched, card, now) if reviewed else 0.0,
            lapses=card.lapses if card else 0, reviews=card.reps if card else 0))
    today = queue_queries.study_day(user, now).day
    since = queue_queries.study_day(user, now - timedelta(days=PACE_DAYS - 1)).start
    introduced, first = db.session.execute(select(func.count(ReviewLog.id), func.min(ReviewLog.reviewed_at)).where(
        ReviewLog.user_id == user.id, ReviewLog.state_before == CardState.new.value, ReviewLog.kind == "review",
        ReviewLog.reviewed_at >= since)).one()
    pace = pace_per_day(int(introduced or 0), queue_queries.study_day(user, first).day if first else None,
                        today, PACE_DAYS)
    # A date more than a year ahead (stored before dates were checked) is no interview ahead.
    counted = posting.user_id == user.id and interview_dates.ahead_within_range(posting.interview_date, today)
    return assess(states, user.desired_retention, today=today,
                  interview_date=posting.interview_date if counted else None, pace_per_day=pace)
