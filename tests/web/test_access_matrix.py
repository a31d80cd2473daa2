"""Access control matrix: every GET route × {anonymous, candidate A, candidate B, instructor,
admin}, and the state-changing routes on A's objects for the others. Another user's object is a
404; instructor pages are 403 for candidates; anonymous users are sent to log in."""
from __future__ import annotations

import pytest

from prep.drill.models import Card
from prep.extensions import db
from prep.postings.models import SharedReport, ShareStatus
from prep.questions.models import QuestionExplanation
from tests.support.access import ROLES, role_client, route_url

PUBLIC = {"accounts.index", "accounts.login", "accounts.register", "accounts.logout", "ops.healthz", "static",
          "accounts.forgot_password", "accounts.reset_password", "accounts.confirm_registration",
          "reminders.calendar_feed", "reminders.unsubscribe_confirm"}
INSTRUCTOR = {"content.new", "content.edit", "content.unanswered", "content.question_links", "stats.questions",
              "content.preview", "content.decide_link", "postings.pending", "postings.approve_pending",
              "postings.reject_pending", "content.revision", "content.restore_revision", "content.restore_removed",
              "postings.withdraw_question", "postings.withdrawn", "postings.restore_question"}
# GET routes naming one of A's objects: only A may see them.
OWNED = {"drill.card", "drill.card_action", "drill.cram", "postings.show", "postings.delete", "questions.show",
         "interview.outcome", "sharing.share", "sharing.withdraw",
         "companies.show"}
# A's shared report, waiting for review: A and the instructors who review it read it, nobody else.
REVIEWED = {"sharing.read"}
# Token routes: the token is the credential (A's real token), the same for everyone.
TOKEN = {"reminders.calendar_feed", "reminders.unsubscribe_confirm", "accounts.reset_password",
         "accounts.confirm_registration"}


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
    if endpoint in REVIEWED:
        return {404} if role == "b" else {200}
    return {200}


def test_every_get_route_for_every_role(app, world):
    rules = [r for r in app.url_map.iter_rules() if "GET" in r.methods]
    checked = 0
    failures = []
    for role in ROLES:
        client = role_client(app, world, role)
        for rule in rules:
            url = route_url(rule, world["ids"])
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
    ("/postings/{posting_id}/outcome", lambda ids: {"rating": 3}),
    ("/postings/{report_id}/share", lambda ids: {"text": "taken over"}),
    ("/postings/{report_id}/share/withdraw", lambda ids: {}),
    ("/shared/{share_id}/study", lambda ids: {}),  # waiting for review: nobody studies it yet
]


@pytest.mark.parametrize("role", ["b", "instructor", "admin"])
def test_others_cannot_act_on_as_objects(app, world, role):
    client = role_client(app, world, role)
    ids = world["ids"]
    for template, data in OWNER_POSTS:
        if "{posting_id}" in template and "posting_id" not in ids:
            continue
        url = template.format(**ids)
        assert client.post(url, data=data(ids)).status_code == 404, (role, url)
    card = db.session.get(Card, ids["card_id"])
    assert card.note == "" and not card.suspended and card.reps == 0
    share = db.session.get(SharedReport, ids["share_id"])
    assert share.status == ShareStatus.pending and "taken over" not in share.text


@pytest.mark.parametrize("url, data", [
    ("/explanations/preview", {"text": "x"}),
    ("/instructor/links/{link_id}/reject", {}),
    ("/instructor/questions/{public_question_id}/links", {"slug": "rdma-verbs"}),
    ("/explanations/{slug}/revisions/1/restore", {}),
    ("/explanations/{slug}/restore", {}),
    ("/instructor/questions/{public_question_id}/withdraw", {"reason": "taken over"}),
    ("/instructor/shared/{share_id}/approve", {}),
    ("/instructor/shared/{share_id}/reject", {"reason": "taken over"}),
])
def test_candidates_cannot_post_instructor_actions(app, world, url, data):
    client = role_client(app, world, "b")
    assert client.post(url.format(**world["ids"]), data=data).status_code == 403
    link = db.session.get(QuestionExplanation, world["ids"]["link_id"])
    assert not link.rejected
    assert db.session.get(SharedReport, world["ids"]["share_id"]).status == ShareStatus.pending


def test_search_never_shows_another_users_private_question(app, world):
    """/search (in the GET matrix above: login required) searches only the bank the searcher sees."""
    private_url = f'href="/questions/{world["ids"]["question_id"]}"'
    for role in ("b", "instructor", "admin"):
        html = role_client(app, world, role).get("/search?q=private question").get_data(as_text=True)
        assert private_url not in html and "own private" not in html, role
    html = role_client(app, world, "a").get("/search?q=private question").get_data(as_text=True)
    assert private_url in html
