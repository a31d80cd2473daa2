"""Interview-mode test data: a signed-in candidate, a posting with an interview date and its
questions, a reviewed card."""
from __future__ import annotations

from datetime import timedelta

import pytest

from prep.drill.models import Card, CardState
from prep.extensions import db
from prep.postings.models import Posting, PostingQuestion


@pytest.fixture
def candidate(clock, make_user, login):
    """A signed-in candidate in UTC."""
    user = make_user("cand@example.com", timezone="UTC")
    login(user)
    return user


def make_posting(user, questions, *, days_ahead: int | None, now, title="ML engineer", company="Acme",
                 kind="posting") -> Posting:
    posting = Posting(user_id=user.id, company=company, title=title, raw_text="x", content_hash=f"h{title}", kind=kind,
                      interview_date=(now.date() + timedelta(days=days_ahead)) if days_ahead is not None else None)
    db.session.add(posting)
    db.session.flush()
    for i, q in enumerate(questions):
        db.session.add(PostingQuestion(posting_id=posting.id, question_id=q.id, position=i, text=q.text))
    db.session.commit()
    return posting


def review_card(user, question, *, now, days_ago: int, stability: float = 20.0) -> Card:
    """A card reviewed ``days_ago`` days ago with this stability, due long after today."""
    card = Card(user_id=user.id, question_id=question.id, state=CardState.review, step=None, stability=stability,
                difficulty=5.0, last_review=now - timedelta(days=days_ago), due=now + timedelta(days=30),
                reps=3, added_at=now - timedelta(days=60))
    db.session.add(card)
    db.session.commit()
    return card
