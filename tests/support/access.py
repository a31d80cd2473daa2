"""A small world for access tests: users A and B, an instructor and an admin, A's private
question, card, posting and tokens (``world``), every GET route's URL filled with A's ids, and a
client logged in as each role."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import select

from prep.accounts.models import Role
from prep.content.sync import sync_tree
from prep.drill.cards import add_to_study
from prep.drill.models import Card
from prep.extensions import db
from prep.questions.models import LinkOrigin, QuestionExplanation, Source
from prep.questions.service import add_question

from .app import PASSWORD
from .clock import FIXED_NOW

ROLES = ["anonymous", "a", "b", "instructor", "admin"]


EXPLANATION = """---
title: RDMA verbs
skills: [RDMA]
questions:
  - What is a queue pair?
---
Queue pairs, completion queues and memory regions.
"""


POSTING = """Acme GPU 公司
GPU 通信库工程师
职位详情
负责 NCCL 与 RDMA 通信优化。
面试指南
- 请解释Ring AllReduce的两个阶段
"""


REPORT = """Acme GPU 面经
一面
面试官王老师，微信：zhang_san88。
1. 请解释Ring AllReduce的两个阶段
"""


@pytest.fixture
def world(app, make_user):
    a = make_user("a@example.com")
    b = make_user("b@example.com")
    instructor = make_user("i@example.com", role=Role.instructor)
    admin = make_user("admin@example.com", role=Role.admin)
    private = add_question("A's own private question about RDMA?", source=Source.user, owner_id=a.id)
    public = add_question("What is a queue pair?", source=Source.content)
    public.links.append(QuestionExplanation(slug="rdma-verbs", score=0.9, origin=LinkOrigin.auto))
    add_to_study(a, [private.id, public.id], FIXED_NOW)
    db.session.commit()
    card = db.session.scalar(select(Card).where(Card.user_id == a.id))
    root = Path(app.config["CONTENT_DIR"]) / "networking"
    root.mkdir(parents=True, exist_ok=True)
    (root / "rdma-verbs.md").write_text(EXPLANATION, encoding="utf-8")
    sync_tree(root.parent)
    db.session.commit()
    ids = {"card_id": card.id, "question_id": private.id, "public_question_id": public.id, "link_id": public.links[0].id, "slug": "rdma-verbs",
           "decision": "confirm", "action": "remove", "filename": "css/app.css", "number": 1}
    try:
        from prep.postings.service import import_posting

        posting = import_posting(a, POSTING, FIXED_NOW).posting
        ids["posting_id"], ids["key"] = posting.id, posting.company_key  # key: A's company, known to nobody else
        report = import_posting(a, REPORT, FIXED_NOW).posting
        assert report.is_report
        from prep.sharing import service as sharing

        ids["report_id"], ids["share_id"] = report.id, sharing.share(report, REPORT, FIXED_NOW).id  # pending
        db.session.commit()
    except ImportError:
        pass
    from prep.accounts.reset import make_token

    ids["reset_token"] = make_token(a)  # A's password-reset link: the token is the credential
    from prep.accounts import registration
    from prep import clock

    ids["register_token"] = registration.start(  # a pending registration's link
        "pending@example.com", language=None, now=clock.now()).token
    db.session.commit()
    try:
        from prep.reminders import service as reminders

        ids["token"] = reminders.reset_calendar_token(a)
        db.session.commit()
        ids["unsub_token"] = reminders.unsubscribe_url(a.id).rsplit("/", 1)[-1]
    except ImportError:
        pass
    return {"users": {"a": a, "b": b, "instructor": instructor, "admin": admin}, "ids": ids}


OVERRIDES = {("reminders.unsubscribe_confirm", "token"): "unsub_token",
             ("accounts.reset_password", "token"): "reset_token",
             ("accounts.confirm_registration", "token"): "register_token",
             ("content.question_links", "question_id"): "public_question_id",
             ("postings.withdraw_question", "question_id"): "public_question_id",
             ("sharing.share", "posting_id"): "report_id", ("sharing.withdraw", "posting_id"): "report_id"}


def route_url(rule, ids) -> str | None:
    url = rule.rule
    for arg in rule.arguments:
        key = OVERRIDES.get((rule.endpoint, arg), arg)
        if key not in ids:
            pytest.fail(f"access matrix: no test value for <{arg}> in {rule.rule} ({rule.endpoint}); add one")
        url = re.sub(r"<(?:[^:<>]+:)?%s>" % arg, str(ids[key]), url)
    return url


def role_client(app, world, role):
    client = app.test_client()
    if role != "anonymous":
        user = world["users"][role]
        r = client.post("/login", data={"email": user.email, "password": PASSWORD})
        assert r.status_code == 302
    return client
