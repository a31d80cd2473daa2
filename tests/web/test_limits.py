"""Limits: lists that can grow are paginated, per-user caps answer with a clear message and change
nothing, and an oversized request body is refused with a page, not a traceback."""
from __future__ import annotations

from sqlalchemy import func, select

from prep.content import routes as content_routes
from prep.content.models import Explanation
from prep.extensions import db
from prep.questions import routes as question_routes
from prep.questions.models import Question


def test_the_explanation_index_is_paginated(app, client, make_user, login):
    for i in range(120):
        db.session.add(Explanation(slug=f"topic-{i:03d}", lang="en", title=f"Topic {i:03d}", area="a", body_md="x"))
    db.session.commit()
    login(make_user())
    first = client.get("/explanations").get_data(as_text=True)
    assert first.count('href="/explanations/topic-') == content_routes.INDEX_PAGE_SIZE
    assert 'rel="next"' in first and "Topic 000" in first and "Topic 050" not in first
    last = client.get("/explanations?page=3").get_data(as_text=True)
    assert last.count('href="/explanations/topic-') == 20 and "Topic 119" in last and 'rel="next"' not in last
    # Past the end: the last page, not an empty one or an error.
    assert "Topic 119" in client.get("/explanations?page=99").get_data(as_text=True)
    # The search keeps paging.
    searched = client.get("/explanations?q=Topic 1").get_data(as_text=True)
    assert "Topic 100" in searched and "Topic 000" not in searched


def test_own_question_cap_refuses_with_a_message_and_adds_nothing(app, client, make_user, login, monkeypatch):
    monkeypatch.setattr(question_routes, "MAX_OWN_QUESTIONS", 2)
    login(make_user())
    for i in range(2):
        assert client.post("/questions", data={"text": f"My own question number {i}?", "lang": "en",
                                                "tags": ""}).status_code in (200, 302)
    response = client.post("/questions", data={"text": "One question too many?", "lang": "en", "tags": ""})
    assert response.status_code == 400
    assert "You have reached the limit of 2 own questions." in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count(Question.id))) == 2


def test_an_oversized_body_gets_a_page_not_a_traceback(app, client, make_user, login):
    login(make_user())
    app.config["MAX_CONTENT_LENGTH"] = 10_000
    # The posting form takes a whole document (its own limit, stated in characters); over it, the
    # form says so next to the field (and keeps the form).
    response = client.post("/postings/new", data={"text": "x" * 4_400_000}, content_type="multipart/form-data")
    html = response.get_data(as_text=True)
    response.request.environ["wsgi.input"].close()  # the test client spools a large body to a file
    assert response.status_code == 413
    assert ("What you sent is too large: a posting or interview report may be at most 1,000,000 characters of "
            "text, and a file at most 4 MB.") in html and 'id="import-form"' in html
    # Any other form: the error page.
    response = client.post("/questions", data={"text": "x" * 20_000, "lang": "en"})
    assert response.status_code == 413
    html = response.get_data(as_text=True)
    assert "What you sent is too large." in html and "Traceback" not in html
    assert db.session.scalar(select(func.count(Question.id))) == 0
