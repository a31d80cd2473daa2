"""Query efficiency: no N+1 on the main pages, and the drill's queries use indexes (EXPLAIN)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import event, select, text

from prep.drill import queue_queries
from prep.drill.cards import add_to_study
from prep.drill.models import Card, CardState
from prep.extensions import db
from prep.questions.models import LinkOrigin, QuestionExplanation
from tests.support.clock import FIXED_NOW
from tests.support.queries import count_statements

PAGES = ["/dashboard", "/drill", "/questions", "/cards", "/settings"]
MAX_STATEMENTS = 20


def _user_with(make_user, make_question, n: int):
    user = make_user()
    qs = [make_question(f"Question {user.id}-{i} about NCCL rings?", tags=("NCCL", f"t{i % 7}")) for i in range(n)]
    for q in qs:
        q.links.append(QuestionExplanation(slug="ring-allreduce", score=1.0, origin=LinkOrigin.content))
    add_to_study(user, [q.id for q in qs], FIXED_NOW)
    db.session.commit()
    for i, card in enumerate(db.session.scalars(select(Card).where(Card.user_id == user.id)).all()):
        if i % 2:
            card.state, card.due, card.stability, card.difficulty, card.step = (
                CardState.review, FIXED_NOW - timedelta(hours=i), 3.0, 5.0, None)
            card.last_review = FIXED_NOW - timedelta(days=3)
    db.session.commit()
    return user


@pytest.mark.parametrize("url", PAGES)
def test_statement_count_does_not_grow_with_data(client, login, make_user, make_question, url):
    small = _user_with(make_user, make_question, 3)
    big = _user_with(make_user, make_question, 40)
    counts = []
    for user in (small, big):
        c = login(user)
        with count_statements() as counter:
            assert c.get(url).status_code == 200
        counts.append(counter["n"])
        c.post("/logout")
    assert counts[1] <= counts[0] + 1, counts
    assert counts[1] <= MAX_STATEMENTS, counts


def _plan(sql: str, params: dict) -> str:
    dialect = db.engine.dialect.name
    prefix = "EXPLAIN QUERY PLAN " if dialect == "sqlite" else "EXPLAIN "
    rows = db.session.execute(text(prefix + sql), params).all()
    return "\n".join(" ".join(str(c) for c in row) for row in rows)


def test_drill_queries_use_indexes(app, make_user, make_question):
    user = _user_with(make_user, make_question, 30)
    if db.engine.dialect.name == "postgresql":
        db.session.execute(text("ANALYZE"))
        db.session.execute(text("SET enable_seqscan = off"))  # small tables: ask what it *can* use
    compiled = []
    captured: list[tuple[str, dict]] = []

    def grab(conn, cursor, statement, params, context, executemany):
        if "FROM cards" in statement or "FROM review_logs" in statement:
            captured.append((statement, params))

    event.listen(db.engine, "before_cursor_execute", grab)
    try:
        queue_queries.next_card(user, FIXED_NOW)
        queue_queries.counts(user, FIXED_NOW)
    finally:
        event.remove(db.engine, "before_cursor_execute", grab)
    assert captured
    for statement, params in captured:
        if db.engine.dialect.name == "sqlite":
            rows = db.session.connection().exec_driver_sql("EXPLAIN QUERY PLAN " + statement, params).all()
            plan = "\n".join(str(r[-1]) for r in rows)
            for line in plan.splitlines():
                if line.startswith("SCAN cards") or line.startswith("SCAN review_logs"):
                    pytest.fail(f"full scan in:\n{statement}\n{plan}")
        else:
            rows = db.session.connection().exec_driver_sql("EXPLAIN " + statement, params).all()
            plan = "\n".join(str(r[0]) for r in rows)
            assert "Seq Scan on cards" not in plan and "Seq Scan on review_logs" not in plan, (statement, plan)
        compiled.append(plan)
    db.session.rollback()
