"""Own questions first: with an interview date, the plan and the drill order new cards by where
they come from — asked in an interview report of the company, then listed in the posting, then
the likely questions the candidate chose — the day's new cards are the plan's (the dashboard says
as many as the plan books), and the first session after importing a report starts with its
questions."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from prep.drill import planned, queue_queries, session
from prep.drill.models import Card, CardState, PlannedReview
from prep.extensions import db
from prep.interview import service
from prep.postings.importing import Review, ReviewedQuestion
from prep.postings.service import import_posting, likely_questions
from prep.questions.models import Question
from tests.support.interview import candidate  # noqa: F401 (a fixture)

POSTING = """Acme AI
GPU Communication Engineer
职位描述
- 负责 NCCL 集合通信库的性能优化，RDMA / RoCE 网络调优，AllReduce 算法
任职要求
- 熟悉 NCCL、RDMA、CUDA
"""
POSTING_QUESTIONS = ["What are the two phases of ring AllReduce?", "How does PFC prevent packet loss in RoCE networks?"]
REPORT = """Acme AI 通信工程师 一面面经
1. 讲一下你做过的通信优化项目
2. NCCL 什么时候用 tree 算法
3. 怎么判断训练作业是不是卡在通信上
"""
REPORT_QUESTIONS = ["讲一下你做过的通信优化项目", "NCCL 什么时候用 tree 算法", "怎么判断训练作业是不是卡在通信上"]


def _import(user, text, kind, questions, now):
    posting = import_posting(user, text, now, review=Review(
        company="Acme AI", title="GPU Communication Engineer", kind=kind,
        questions=[ReviewedQuestion(q) for q in questions])).posting
    db.session.commit()
    return posting


@pytest.fixture
def imported(clock, client, candidate, shipped_content):
    """A posting studied with its likely questions, then a report of the same company (not studied
    by hand), then the interview date 10 days out set on the posting page."""
    posting = _import(candidate, POSTING, "posting", POSTING_QUESTIONS, clock.now)
    likely = [q.id for q in likely_questions(posting)]  # what "with likely" studies now
    assert client.post(f"/postings/{posting.id}/study", data={"with_likely": "y"}).status_code == 302
    report = _import(candidate, REPORT, "report", REPORT_QUESTIONS, clock.now)
    day = (clock.now + timedelta(days=10)).date()
    assert client.post(f"/postings/{posting.id}/interview", data={"interview_date": day.isoformat()}).status_code == 302
    # One card per translation group: a report question that says what a likely one says shares
    # its card, so questions are grouped by their translation group, the report's rank first.
    group = {}
    for rank, ids in ((2, likely), (1, [pq.question_id for pq in posting.questions]),
                      (0, [pq.question_id for pq in report.questions])):
        for qid in ids:
            group[db.session.get(Question, qid).group_id] = rank
    groups = {q.id: group[q.group_id] for q in db.session.scalars(select(Question)) if q.group_id in group}
    return candidate, posting, groups


def _group_of(card_ids, groups):
    cards = {c.id: c for c in db.session.scalars(select(Card).where(Card.id.in_(card_ids)))}
    return [groups.get(cards[c].question_id, 3) for c in card_ids if cards[c].state is CardState.new]


def test_own_questions_first_in_the_plan_the_drill_and_the_dashboard(clock, client, imported):
    """One set-up (the shipped bank is slow to load) for the three sides of the rule."""
    user, posting, groups = imported
    assert sum(1 for g in groups.values() if g == 2) >= 1  # likely questions were chosen
    # The first session: report > posting > likely, never a likely one first, nothing else.
    shown = _group_of(session.next_card_ids(user, clock.now, 50), groups)
    assert shown and shown == sorted(shown) and shown[0] == 0 and 3 not in shown, shown

    # The plan introduces each of the report's questions no later than any likely one.
    plan = service.stored_plan(user, clock.now).plan
    first_day = {q: min(days) for q, days in plan.planned.items() if days}
    for own in (q for q, g in groups.items() if g == 0 and q in first_day):
        for likely in (q for q, g in groups.items() if g == 2 and q in first_day):
            assert first_day[own] <= first_day[likely], (own, likely)
    rows = db.session.scalars(select(PlannedReview).where(PlannedReview.hold.is_(False))).all()
    by_card = {c.id: c.question_id for c in db.session.scalars(select(Card))}
    assert {r.priority for r in rows if groups.get(by_card[r.card_id]) == 0} == {planned.OWN_REPORT}

    # "New allowed today" is the plan's new cards of today, on the dashboard too.
    today = queue_queries.study_day(user, clock.now).day
    booked_new = len(next(d for d in plan.days if d.day == today).new)
    assert queue_queries.counts(user, clock.now).new_available == booked_new == len(shown)
    assert f'<dd data-stat="new">{booked_new}</dd>' in client.get("/dashboard").get_data(as_text=True)


def test_without_a_plan_ahead_new_cards_come_as_before(clock, client, imported):
    user, posting, groups = imported
    assert client.post(f"/postings/{posting.id}/interview", data={"interview_date": ""}).status_code == 302
    counts = queue_queries.counts(user, clock.now)
    assert counts.new_available == min(user.new_per_day, db.session.query(Card).filter(
        Card.user_id == user.id, Card.state == CardState.new).count())
