"""An instructor's explanation that lists a candidate's question (its text, or the same question
in other words or the other language) answers that question: no second shared question, and the
candidates who hold it see the link as checked."""
from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from prep.content.sync import sync_tree
from prep.drill.cards import add_to_study
from prep.drill.models import Card
from prep.extensions import db
from prep.postings.models import PostingQuestion
from prep.postings.service import Review, ReviewedQuestion, import_posting
from prep.questions.models import LinkOrigin, Question, QuestionExplanation
from tests.support.clock import FIXED_NOW

ASKED = "你们的 GPU 集群里 NCCL 的 all-to-all 为什么比 allreduce 更容易受拥塞影响？"
REWORDED = "为什么 NCCL all-to-all 比 allreduce 更容易受网络拥塞影响？"
PAGE = """---
title: All-to-all under congestion
skills: [NCCL]
questions:
  - {asked}
  - Why is NCCL all-to-all more sensitive to congestion than allreduce?
---
## Why

Every rank talks to every other rank at once, so incast is the normal case.
"""


@pytest.fixture
def content_dir(app) -> Path:
    root = Path(app.config["CONTENT_DIR"])
    (root / "collectives").mkdir(parents=True, exist_ok=True)
    return root


def _import(user, text: str) -> Question:
    report = f"某厂 面经\n1. {text}\n"
    review = Review(company="某厂", title="面经", kind="report", questions=[ReviewedQuestion(text)])
    outcome = import_posting(user, report, FIXED_NOW, review=review)
    db.session.commit()
    return outcome.posting.questions[0].question


def _write_page(content_dir: Path) -> None:
    (content_dir / "collectives" / "alltoall-congestion.md").write_text(PAGE.format(asked=ASKED), encoding="utf-8")
    sync_tree(content_dir)
    db.session.commit()


def test_the_explanation_answers_the_candidates_question_without_a_second_one(app, content_dir, make_user):
    first, second = make_user("first@example.com"), make_user("second@example.com")
    mine, theirs = _import(first, ASKED), _import(second, ASKED)
    assert mine.owner_id == first.id and theirs.id != mine.id
    add_to_study(first, [mine.id], FIXED_NOW)
    add_to_study(second, [theirs.id], FIXED_NOW)
    db.session.commit()
    mine_id = mine.id

    _write_page(content_dir)
    same_text = db.session.scalars(select(Question).where(Question.text == ASKED)).all()
    assert [q.id for q in same_text] == [mine_id]          # the bank lists the text once
    shared = same_text[0]
    assert shared.owner_id is None
    assert any(lk.slug == "alltoall-congestion" and lk.origin is LinkOrigin.content for lk in shared.links)
    cards = db.session.scalars(select(Card).order_by(Card.user_id)).all()
    assert [(c.user_id, c.question_id) for c in cards] == [(first.id, mine_id), (second.id, mine_id)]
    # The English wording of the page is the same question: one group, one card each.
    english = db.session.scalar(select(Question).where(Question.text.like("Why is NCCL all-to-all%")))
    assert english.group_id == shared.group_id


def test_a_candidates_rewording_gets_the_explanation_as_checked(app, content_dir, make_user):
    user = make_user()
    asked = _import(user, REWORDED)
    asked.links.append(QuestionExplanation(slug="alltoall-congestion", score=0.4, origin=LinkOrigin.auto))
    db.session.commit()
    _write_page(content_dir)
    link = db.session.scalar(select(QuestionExplanation).where(QuestionExplanation.question_id == asked.id,
                                                               QuestionExplanation.slug == "alltoall-congestion"))
    assert link.origin is LinkOrigin.content
    assert db.session.scalar(select(func.count(Question.id)).where(Question.text == REWORDED)) == 1


def test_the_candidates_posting_page_shows_the_link_as_checked(app, client, login, content_dir, make_user):
    user = make_user()
    asked = _import(user, ASKED)
    _write_page(content_dir)
    login(user)
    pq = db.session.scalar(select(PostingQuestion).where(PostingQuestion.question_id == asked.id))
    page = client.get(f"/postings/{pq.posting_id}").get_data(as_text=True)
    assert "All-to-all under congestion" in page
    block = page.split("All-to-all under congestion", 1)[1][:200]
    assert "suggested, not checked" not in block
