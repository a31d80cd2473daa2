"""The prefetching drill's JSON endpoints (batch and rating) and ratings exactly once, with and
without JavaScript: the one-time token, duplicates, conflicts."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from prep.content.models import Explanation
from prep.drill import queue_queries, rating, session
from prep.drill.cards import add_to_study
from prep.drill.models import Card, ReviewLog
from prep.extensions import db
from prep.questions.models import LinkOrigin, QuestionExplanation
from tests.support.app import PASSWORD
from tests.support.pages import csrf_token_from


@pytest.fixture
def drilling(make_user, make_question, login, client, clock):
    def build(n: int = 6, **settings):
        user = make_user(**settings)
        questions = [make_question() for _ in range(n)]
        add_to_study(user, [q.id for q in questions], clock.now)
        db.session.commit()
        login(user)
        return user, db.session.scalars(select(Card).where(Card.user_id == user.id).order_by(Card.added_at)).all()
    return build


def _logs(card_id: int) -> int:
    return db.session.scalar(select(func.count(ReviewLog.id)).where(ReviewLog.card_id == card_id))


def test_batch_lists_the_queue_in_order_within_the_new_limit(drilling, client, clock):
    user, cards = drilling(6, new_per_day=4)
    body = client.get("/drill/batch.json?n=10").get_json()
    assert [c["id"] for c in body["cards"]] == [c.id for c in cards[:4]]
    first = body["cards"][0]
    assert first["id"] == queue_queries.next_card(user, clock.now).id
    assert first["version"] == 0 and set(first["intervals"]) == {"1", "2", "3", "4"}
    assert body["labels"]["3"] == "Good" and "question" in first and "answer_html" in first
    assert body["counts"] == {"learning": 0, "review": 0, "new": 4, "remaining": 4}
    assert len(client.get("/drill/batch.json?n=2").get_json()["cards"]) == 2


def test_batch_stops_before_a_sibling(drilling, client):
    user, cards = drilling(3)
    for card in cards[:2]:  # the first two share an explanation: rating one buries the other
        db.session.add(QuestionExplanation(question_id=card.question_id, slug="ring-allreduce", score=1.0,
                                            origin=LinkOrigin.manual))
    db.session.commit()
    body = client.get("/drill/batch.json?n=5").get_json()
    assert [c["id"] for c in body["cards"]] == [cards[0].id]


def _rate(client, card, version, rating=3, request_id="r-1"):
    return client.post("/drill/rate.json", json={"card_id": card.id, "version": version, "rating": rating,
                                                 "elapsed_ms": 1200, "request_id": request_id})


def test_json_rating_recorded_then_duplicate_then_conflict(drilling, client):
    user, cards = drilling(2)
    first = _rate(client, cards[0], 0)
    assert first.status_code == 200 and first.get_json()["status"] == "recorded"
    assert first.get_json()["counts"]["new"] == 1
    again = _rate(client, cards[0], 0).get_json()  # the same request, retried
    assert again["status"] == "duplicate"
    other_tab = _rate(client, cards[0], 0, request_id="r-2").get_json()
    assert other_tab["status"] == "conflict" and "another tab" in other_tab["message"]
    assert _logs(cards[0].id) == 1


def test_json_rating_checks_input_owner_and_login(drilling, client, make_user, make_question, app):
    user, cards = drilling(1)
    assert client.post("/drill/rate.json", json={"card_id": cards[0].id, "version": 0, "rating": 7}).status_code == 400
    assert client.post("/drill/rate.json", data="not json").status_code == 400
    other = make_user()
    q = make_question()
    add_to_study(other, [q.id], cards[0].added_at)
    db.session.commit()
    theirs = db.session.scalar(select(Card).where(Card.user_id == other.id))
    assert _rate(client, theirs, 0).status_code == 404
    assert _logs(theirs.id) == 0
    anonymous = app.test_client()
    assert anonymous.get("/drill/batch.json").status_code in (302, 401)
    assert _rate(anonymous, cards[0], 0).status_code in (302, 401)


def test_json_rating_needs_the_csrf_header(csrf_app, make_user, make_question, clock):
    user, q = make_user(), make_question()
    add_to_study(user, [q.id], clock.now)
    db.session.commit()
    card = db.session.scalar(select(Card).where(Card.user_id == user.id))
    client = csrf_app.test_client()
    token = csrf_token_from(client.get("/login").get_data(as_text=True))
    client.post("/login", data={"email": user.email, "password": PASSWORD, "csrf_token": token})
    assert _rate(client, card, 0).status_code == 400
    page = client.get("/drill").get_data(as_text=True)
    header = {"X-CSRFToken": csrf_token_from(page)}
    r = client.post("/drill/rate.json", headers=header,
                    json={"card_id": card.id, "version": 0, "rating": 3, "request_id": "x"})
    assert r.status_code == 200 and r.get_json()["status"] == "recorded"


# --- the no-JS form's one-time token ------------------------------------------------------------

def test_token_reuse_tamper_and_another_users_token():
    token = rating.make_token("secret", 1, 2, 3)
    nonce = rating.read_token("secret", token, 1, 2, 3)
    assert nonce and rating.read_token("secret", token, 1, 2, 3) == nonce  # stable: the log tells reuse
    assert rating.make_token("secret", 1, 2, 3) != token  # each render is a new request
    assert rating.read_token("secret", token[:-2] + ("AA" if token[-2:] != "AA" else "BB"), 1, 2, 3) is None
    assert rating.read_token("other secret", token, 1, 2, 3) is None
    assert rating.read_token("secret", token, 9, 2, 3) is None  # another user's token
    assert rating.read_token("secret", token, 1, 5, 3) is None  # another card
    assert rating.read_token("secret", token, 1, 2, 4) is None  # another version


def _form(page: str) -> dict:
    return dict(re.findall(r'name="(csrf_token|card_id|version|shown_at|token)"[^>]*value="([^"]*)"', page))


def test_no_js_back_and_resubmit_is_a_no_op(drilling, client):
    user, cards = drilling(2)
    page = client.get("/drill?show=1").get_data(as_text=True)
    form = {**_form(page), "rating": "3"}
    assert form["token"] and form["card_id"] == str(cards[0].id)
    assert client.post("/drill/rate", data=form).status_code == 302
    again = client.post("/drill/rate", data=form, follow_redirects=True).get_data(as_text=True)
    assert "This rating was already recorded." in again
    assert _form(again)["card_id"] == str(cards[1].id)  # and the next card is shown
    assert _logs(cards[0].id) == 1


def test_no_js_back_to_a_rated_answer_page_goes_on(drilling, client):
    """Back after a rating asks again for the answer page of the card as it was (its version in
    the Show answer link): the card has moved on, so the page says so and shows the next card."""
    user, cards = drilling(2)
    front = client.get("/drill").get_data(as_text=True)
    show = re.search(r'id="show-answer" href="([^"]+)"', front).group(1).replace("&amp;", "&")
    assert f"card={cards[0].id}" in show and "v=" in show
    form = {**_form(client.get(show).get_data(as_text=True)), "rating": "3"}
    client.post("/drill/rate", data=form)
    back = client.get(show, follow_redirects=True).get_data(as_text=True)
    assert "This rating was already recorded." in back
    assert _form(back)["card_id"] == str(cards[1].id)
    assert client.get(f"/drill?card={cards[0].id}&show=1").status_code == 200  # without v: as before
    assert _logs(cards[0].id) == 1


def test_no_js_stale_tab_is_told(drilling, client):
    user, cards = drilling(2)
    tab_a = _form(client.get("/drill?show=1").get_data(as_text=True))
    tab_b = _form(client.get("/drill?show=1").get_data(as_text=True))
    client.post("/drill/rate", data={**tab_a, "rating": "3"})
    stale = client.post("/drill/rate", data={**tab_b, "rating": "1"}, follow_redirects=True).get_data(as_text=True)
    assert "This card was already rated in another tab." in stale
    assert _logs(cards[0].id) == 1


def test_no_js_tampered_token_records_nothing(drilling, client):
    user, cards = drilling(1)
    form = _form(client.get("/drill?show=1").get_data(as_text=True))
    client.post("/drill/rate", data={**form, "rating": "3", "token": form["token"] + "x"})
    assert _logs(cards[0].id) == 0


def test_batch_order_matches_the_drill_across_kinds(drilling, client, clock):
    from datetime import timedelta

    from prep.drill.models import CardState

    user, cards = drilling(6, new_per_day=2)
    learning_soon, review, learning_now = cards[3], cards[4], cards[5]
    for card, state, due in ((learning_soon, CardState.learning, clock.now + timedelta(minutes=10)),
                             (review, CardState.review, clock.now - timedelta(days=1)),
                             (learning_now, CardState.learning, clock.now - timedelta(minutes=1))):
        card.state, card.due, card.stability, card.difficulty, card.step = state, due, 3.0, 5.0, 0
        card.last_review = clock.now - timedelta(days=2)
    cards[2].suspended = True
    db.session.commit()
    ids = [c["id"] for c in client.get("/drill/batch.json?n=10").get_json()["cards"]]
    assert ids == [learning_now.id, review.id, cards[0].id, cards[1].id, learning_soon.id]
    assert ids[0] == queue_queries.next_card(user, clock.now).id


def test_batch_answer_html_follows_the_note_and_the_explanation(drilling, client):
    """The answer HTML is cached per content (prep.web.fragments): a new note, an edited
    explanation and a new link each show on the next batch."""
    user, cards = drilling(1)

    def answer() -> str:
        return client.get("/drill/batch.json?n=1").get_json()["cards"][0]["answer_html"]

    assert "Write your own note" in answer()
    card = db.session.get(Card, cards[0].id)
    card.note = "Mind the PCIe switch"
    db.session.commit()
    assert "Mind the PCIe switch" in answer() and "Write your own note" not in answer()
    db.session.add(Explanation(slug="ring-allreduce", lang="en", title="Ring all-reduce", html="<p>First text</p>",
                               path="ring-allreduce.en.md"))
    db.session.add(QuestionExplanation(question_id=card.question_id, slug="ring-allreduce", score=1.0,
                                       origin=LinkOrigin.manual))
    db.session.commit()
    assert "First text" in answer()
    explanation = db.session.scalar(select(Explanation).where(Explanation.slug == "ring-allreduce"))
    explanation.html = "<p>Second text</p>"
    db.session.commit()
    assert "Second text" in answer() and "First text" not in answer()
