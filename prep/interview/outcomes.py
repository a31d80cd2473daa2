"""After the interview: "how did it go?" — the posting's questions that came up, other questions
(importable as an interview report), and a rating of the day. Database edge; views commit."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..postings.models import Posting
from .models import InterviewOutcome

#: The longest "other questions" text stored.
MAX_OTHER_QUESTIONS_CHARS = 5000
#: How long after an interview the dashboard keeps asking how it went.
ASK_FOR_DAYS = 30


def outcome_for(posting: Posting) -> InterviewOutcome | None:
    return db.session.scalar(select(InterviewOutcome).where(InterviewOutcome.posting_id == posting.id))


def save_outcome(user: Any, posting: Posting, *, came_up: Sequence[int], other_questions: str,
                 rating: int) -> InterviewOutcome:
    """Store (or replace) how the interview of this posting (the user's own) went."""
    asked = {pq.question_id for pq in posting.questions}
    row = outcome_for(posting) or InterviewOutcome(user_id=user.id, posting_id=posting.id)
    row.came_up = [q for q in dict.fromkeys(came_up) if q in asked]
    row.other_questions = other_questions.strip()[:MAX_OTHER_QUESTIONS_CHARS]
    row.rating = rating
    db.session.add(row)
    db.session.flush()
    return row


def to_ask(user: Any, today: date) -> list[Posting]:
    """The candidate's postings whose interview is over (within :data:`ASK_FOR_DAYS`) and not told yet."""
    told = select(InterviewOutcome.posting_id).where(InterviewOutcome.user_id == user.id)
    return list(db.session.scalars(select(Posting).where(
        Posting.user_id == user.id, Posting.interview_date.is_not(None), Posting.interview_date < today,
        Posting.interview_date >= today - timedelta(days=ASK_FOR_DAYS), Posting.id.not_in(told))
        .order_by(Posting.interview_date.desc(), Posting.id)))


def report_text(posting: Posting, outcome: InterviewOutcome) -> str:
    """The interview as a report the posting import reads: a title line, then the questions that
    came up and the other ones as ``Q1:`` lines under a Questions heading."""
    texts = {pq.question_id: pq.text or pq.question.text for pq in posting.questions}
    questions = [texts[q] for q in outcome.came_up if q in texts]
    questions += [line.strip() for line in outcome.other_questions.splitlines() if line.strip()]
    head = f"{posting.company or ''} {posting.title or ''} interview report {posting.interview_date}".strip()
    lines = [head, "", "Questions"] + [f"Q{i}: {q}" for i, q in enumerate(questions, 1)]
    return "\n".join(lines) + "\n"
