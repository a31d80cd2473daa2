"""Access control matrix: every GET route × {anonymous, candidate A, candidate B, instructor,
admin}, and the state-changing routes on A's objects for the others. Another user's object is a
404; instructor pages are 403 for candidates; anonymous users are sent to log in."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import select

from prep.accounts.models import Role
from prep.content.sync import sync_tree
from prep.drill import service as drill_service
from prep.drill.models import Card
from prep.extensions import db
from prep.questions.models import LinkOrigin, QuestionExplanation, Source
from prep.questions.service import add_question
from tests.conftest import FIXED_NOW, PASSWORD

ROLES = ["anonymous", "a", "b", "instructor", "admin"]

PUBLIC = {"accounts.index", "accounts.login", "accounts.register", "accounts.logout", "ops.healthz", "static",
          "accounts.forgot_password", "accounts.reset_password", "accounts.confirm_registration",
          "reminders.calendar_feed", "reminders.unsubscribe_confirm"}
INSTRUCTOR = {"content.new", "content.edit", "content.unanswered", "content.question_links", "stats.questions",
              "content.preview", "content.decide_link", "postings.pending", "postings.approve_pending",
              "postings.reject_pending"}
# GET routes naming one of A's objects: only A may see them.
OWNED = {"drill.card", "drill.card_action", "drill.cram", "postings.show", "postings.delete", "questions.show"}
# Token routes: the token is the credential (A's real token), the same for everyone.
TOKEN = {"reminders.calendar_feed", "reminders.unsubscribe_confirm", "accounts.reset_password",
         "accounts.confirm_registration"}

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


@pytest.fixture
def world(app, make_user):
    a = make_user("a@example.com")
    b = make_user("b@example.com")
    instructor = make_user("i@example.com", role=Role.instructor)
    admin = make_user("admin@example.com", role=Role.admin)
    private = add_question("A's own private question about RDMA?", source=Source.user, owner_id=a.id)
    public = add_question("What is a queue pair?", source=Source.content)
    public.links.append(QuestionExplanation(slug="rdma-verbs", score=0.9, origin=LinkOrigin.auto))
    drill_service.add_to_study(a, [private.id, public.id], FIXED_NOW)
    db.session.commit()
    card = db.session.scalar(select(Card).where(Card.user_id == a.id))
    root = Path(app.config["CONTENT_DIR"]) / "networking"
    root.mkdir(parents=True, exist_ok=True)
    (root / "rdma-verbs.md").write_text(EXPLANATION, encoding="utf-8")
    sync_tree(root.parent)
    db.session.commit()
    ids = {"card_id": card.id, "question_id": private.id, "public_question_id": public.id, "link_id": public.links[0].id, "slug": "rdma-verbs",
           "decision": "confirm", "action": "remove", "filename": "css/app.css"}
    try:
        from prep.postings.service import import_posting

        ids["posting_id"] = import_posting(a, POSTING, FIXED_NOW).posting.id
        db.session.commit()
    except ImportError:
        pass
    from prep.accounts.reset import make_token

    ids["reset_token"] = make_token(a)  # A's password-reset link: the token is the credential
    from prep.accounts import registration
    from prep.clock import now as utcnow

    ids["register_token"] = registration.start(  # a pending registration's link (issue 16 item 7)
        "pending@example.com", PASSWORD, display_name="", timezone="UTC", language=None, now=utcnow()).token
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
             ("content.question_links", "question_id"): "public_question_id"}


def _url(rule, ids) -> str | None:
    url = rule.rule
    for arg in rule.arguments:
        key = OVERRIDES.get((rule.endpoint, arg), arg)
        if key not in ids:
            pytest.fail(f"access matrix: no test value for <{arg}> in {rule.rule} ({rule.endpoint}); add one")
        url = re.sub(r"<(?:[^:<>]+:)?%s>" % arg, str(ids[key]), url)
    return url


def _expected(endpoint: str, role: str) -> set[int]:
    if endpoint in TOKEN:
        return {200}
    if endpoint in PUBLIC:
        return {200, 302}
    if role == "anonymous":
        return {302}
    if endpoint in INSTRUCTOR:
        return {200} if role in ("instructor", "admin") else {403}
    if endpoint in OWNED:
        return {200} if role == "a" else {404}
    return {200}


def _client(app, world, role):
    client = app.test_client()
    if role != "anonymous":
        user = world["users"][role]
        r = client.post("/login", data={"email": user.email, "password": PASSWORD})
        assert r.status_code == 302
    return client


def test_every_get_route_for_every_role(app, world):
    rules = [r for r in app.url_map.iter_rules() if "GET" in r.methods]
    checked = 0
    failures = []
    for role in ROLES:
        client = _client(app, world, role)
        for rule in rules:
            url = _url(rule, world["ids"])
            response = client.get(url)
            response.close()
            if response.status_code not in _expected(rule.endpoint, role):
                failures.append(f"{role} GET {url} ({rule.endpoint}): {response.status_code}, "
                                f"expected {_expected(rule.endpoint, role)}")
            if role == "anonymous" and response.status_code == 302 and rule.endpoint not in PUBLIC:
                assert "/login" in response.headers["Location"], url
            checked += 1
    assert not failures, "\n".join(failures)
    assert checked == len(rules) * len(ROLES)


OWNER_POSTS = [
    ("/drill/rate", lambda ids: {"card_id": ids["card_id"], "version": 0, "rating": 3}),
    ("/drill/cram/{posting_id}/rate", lambda ids: {"card_id": ids["card_id"], "version": 0, "rating": 3}),
    ("/cards/{card_id}/note", lambda ids: {"note": "taken over"}),
    ("/cards/{card_id}/suspend", lambda ids: {}),
    ("/cards/{card_id}/remove", lambda ids: {}),
    ("/questions/{question_id}/study", lambda ids: {}),
    ("/postings/{posting_id}/study", lambda ids: {}),
    ("/postings/{posting_id}/delete", lambda ids: {}),
]


@pytest.mark.parametrize("role", ["b", "instructor", "admin"])
def test_others_cannot_act_on_as_objects(app, world, role):
    client = _client(app, world, role)
    ids = world["ids"]
    for template, data in OWNER_POSTS:
        if "{posting_id}" in template and "posting_id" not in ids:
            continue
        url = template.format(**ids)
        assert client.post(url, data=data(ids)).status_code == 404, (role, url)
    card = db.session.get(Card, ids["card_id"])
    assert card.note == "" and not card.suspended and card.reps == 0


@pytest.mark.parametrize("url, data", [
    ("/explanations/preview", {"text": "x"}),
    ("/instructor/links/{link_id}/reject", {}),
    ("/instructor/questions/{public_question_id}/links", {"slug": "rdma-verbs"}),
])
def test_candidates_cannot_post_instructor_actions(app, world, url, data):
    client = _client(app, world, "b")
    assert client.post(url.format(**world["ids"]), data=data).status_code == 403
    link = db.session.get(QuestionExplanation, world["ids"]["link_id"])
    assert not link.rejected


def test_search_never_shows_another_users_private_question(app, world):
    """/search (in the GET matrix above: login required) searches only the bank the searcher sees."""
    private_url = f'href="/questions/{world["ids"]["question_id"]}"'
    for role in ("b", "instructor", "admin"):
        html = _client(app, world, role).get("/search?q=private question").get_data(as_text=True)
        assert private_url not in html and "own private" not in html, role
    html = _client(app, world, "a").get("/search?q=private question").get_data(as_text=True)
    assert private_url in html
