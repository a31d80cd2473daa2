"""Cram includes learning cards; automatic links under ``LINK_MIN_SCORE`` are a
"suggested explanation", not the answer, and keep the question in the unanswered queue."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from prep.config import ConfigError, from_environ
from prep.content.models import Explanation
from prep.drill import cramming
from prep.drill.cards import add_to_study
from prep.drill.models import Card, CardState
from prep.extensions import db
from prep.postings.coverage import unanswered_statement
from prep.postings.models import Posting, PostingQuestion
from prep.questions.models import LinkOrigin, QuestionExplanation
from prep.accounts.models import Role
from tests.support.clock import FIXED_NOW


def _posting(user, questions) -> Posting:
    posting = Posting(user_id=user.id, company="Acme", title="GPU engineer", raw_text=f"posting {user.id}",
                      content_hash=f"{user.id:064d}", sections={}, skills=[], created_at=FIXED_NOW)
    posting.questions = [PostingQuestion(question_id=q.id, position=i, text=q.text) for i, q in enumerate(questions)]
    db.session.add(posting)
    db.session.commit()
    return posting


def test_cram_includes_learning_cards(make_user, make_question, client, login, clock):
    user = make_user()
    learning_q, relearning_q, new_q = (make_question() for _ in range(3))
    add_to_study(user, [learning_q.id, relearning_q.id, new_q.id], FIXED_NOW)
    cards = {c.question_id: c for c in db.session.scalars(select(Card).where(Card.user_id == user.id))}
    for q, state in ((learning_q, CardState.learning), (relearning_q, CardState.relearning)):
        card = cards[q.id]
        card.state, card.step, card.stability, card.difficulty = state, 1, 1.0, 5.0
        card.due, card.last_review, card.reps = FIXED_NOW + timedelta(minutes=10), FIXED_NOW, 1
    db.session.commit()
    posting = _posting(user, [learning_q, relearning_q, new_q])
    ids = [learning_q.id, relearning_q.id, new_q.id]
    assert cramming.cram_counts(user, ids, FIXED_NOW) == cramming.CramCounts(left=2, done=0)
    first = cramming.next_cram_card(user, ids, FIXED_NOW)
    assert first.question_id in (learning_q.id, relearning_q.id)
    login(user)
    page = client.get(f"/drill/cram/{posting.id}").get_data(as_text=True)
    assert f'data-card="{first.id}"' in page


@pytest.fixture
def weak_and_strong(make_question):
    db.session.add(Explanation(slug="ring-allreduce", lang="en", title="Ring AllReduce", path="x/ring.md",
                               area="collectives", body_md="Ring.", html="<p>Ring.</p>", tags=[], skills=[],
                               questions=[], related=[], difficulty=None))
    db.session.commit()
    weak = make_question("How do you tune NCCL for a 2-node job?")
    strong = make_question("How does ring AllReduce work?")
    db.session.add_all([
        QuestionExplanation(question_id=weak.id, slug="ring-allreduce", score=0.55, origin=LinkOrigin.auto),
        QuestionExplanation(question_id=strong.id, slug="ring-allreduce", score=0.80, origin=LinkOrigin.auto)])
    db.session.commit()
    return weak, strong


def test_weak_links_stay_in_the_unanswered_queue(app, weak_and_strong):
    weak, strong = weak_and_strong
    ids = [q.id for q, _n in db.session.execute(unanswered_statement()).all()]
    assert weak.id in ids and strong.id not in ids
    assert weak.id not in [q.id for q, _n in db.session.execute(unanswered_statement(min_score=0.5)).all()]


def test_a_weak_link_is_a_suggestion_not_the_answer(app, client, login, make_user, weak_and_strong):
    weak, strong = weak_and_strong
    user = make_user()
    add_to_study(user, [weak.id, strong.id], FIXED_NOW)
    db.session.commit()
    login(user)
    cards = {c.question_id: c.id for c in db.session.scalars(select(Card).where(Card.user_id == user.id))}
    html = client.get(f"/drill?card={cards[weak.id]}&show=1").get_data(as_text=True)
    assert 'class="explanation-body"' not in html and 'data-suggested="1"' in html
    assert "No explanation yet for this question." in html
    html = client.get(f"/drill?card={cards[strong.id]}&show=1").get_data(as_text=True)
    assert 'class="explanation-body"' in html and "suggested-explanations" not in html
    assert "suggested, not checked" in client.get(f"/questions/{weak.id}").get_data(as_text=True)
    instructor = make_user(role=Role.instructor)
    queue_page = login(instructor, app.test_client()).get("/instructor/unanswered").get_data(as_text=True)
    assert weak.text in queue_page and strong.text not in queue_page


def test_the_threshold_is_configured():
    assert from_environ({"PREP_LINK_MIN_SCORE": "0.7"}) == {"LINK_MIN_SCORE": 0.7}
    for bad in ("1.5", "high", "-0.1"):
        with pytest.raises(ConfigError):
            from_environ({"PREP_LINK_MIN_SCORE": bad})
