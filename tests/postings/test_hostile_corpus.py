"""The DoS corpus: every hostile input in tests/data/hostile/cases.yaml goes through
every parser that takes its kind, and through every form that takes it, each within a budget of
one second of this thread's CPU time (CPU, not wall-clock: a busy machine must not fail it), and
no form answers with a 5xx.

A parser may refuse an input with the project's own error (a clear message); any other
exception (RecursionError, OverflowError, ...) is a failure.
"""
from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from prep.accounts.models import Role
from prep.extensions import db
from tests.support.app import PASSWORD, make_app
from tests.support.hostile import BUDGET, CASES, parsers, timed
from tests.support.htmlforms import read_form


def test_the_corpus_is_big_and_varied() -> None:
    assert len(CASES) >= 40
    kinds = {case["kind"] for case in CASES}
    assert {"text", "html", "markdown", "json", "steps", "timezone", "query"} <= kinds
    assert len({case["name"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_every_parser_is_bounded(case: dict[str, Any]) -> None:
    slow: list[str] = []
    for label, fn in parsers(case["kind"], case["text"]).items():
        timed(label, fn, slow)
    assert not slow, slow


# --- forms ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def corpus_app(tmp_path_factory) -> Iterator[Any]:
    app = make_app(tmp_path_factory.mktemp("hostile"))
    from prep.accounts.service import create_user
    from prep.questions.models import Source
    from prep.questions.service import add_question
    from prep.drill.cards import add_to_study
    from tests.support.clock import FIXED_NOW

    with app.app_context():
        candidate = create_user("hostile@example.com", PASSWORD)
        create_user("instructor@example.com", PASSWORD, role=Role.instructor)
        question = add_question("What does a ring all-reduce send?", source=Source.user, owner_id=candidate.id)
        add_to_study(candidate, [question.id], FIXED_NOW)
        db.session.commit()
        from prep.drill.models import Card
        app.config["HOSTILE_CARD_ID"] = db.session.scalar(db.select(Card.id))
    yield app


def _client(app, email: str):
    client = app.test_client()
    response = client.post("/login", data={"email": email, "password": PASSWORD})
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    return client


def _requests(app, case: dict[str, Any]) -> Iterator[tuple[str, Callable[[Any], Any], str]]:
    """(label, request, account) for each form the case's kind goes to."""
    text, kind = case["text"], case["kind"]
    card = app.config["HOSTILE_CARD_ID"]
    candidate, instructor = "hostile@example.com", "instructor@example.com"
    if kind in ("text", "html"):
        yield "paste", lambda c: c.post("/postings/new", data={"text": text}, content_type="multipart/form-data"), candidate
        yield "upload", lambda c: c.post("/postings/new", data={"file": (io.BytesIO(text.encode()), "p.html" if kind == "html" else "p.txt")},
                                         content_type="multipart/form-data"), candidate
        yield "review-save", lambda c: c.post("/postings/save", data={
            "source": text, "company": text[:300], "title": text[:400], "doc_kind": "report",
            "questions-0-keep": "y", "questions-0-text": text[:5000], "questions-0-kind": "coding",
            "questions-0-round": text[:100]}), candidate
        yield "review-add", lambda c: c.post("/postings/review/add", data={
            "source": text, "questions-0-keep": "y", "questions-0-text": text[:2000], "questions-0-origin": text[:30],
            "questions-0-confidence": text[:10], "new_question": text[:5000], "add": "Add"}), candidate
        yield "own-question", lambda c: c.post("/questions", data={"text": text[:50_000], "lang": "zh", "tags": text[:700]}), candidate
        yield "note", lambda c: c.post(f"/cards/{card}/note", data={"note": text[:30_000]}), candidate
        yield "search", lambda c: c.get("/search", query_string={"q": text[:5000]}), candidate
        yield "editor-preview", lambda c: c.post("/explanations/preview", data={"text": text, "area": "drafts"}), instructor
    elif kind == "markdown":
        yield "editor-preview", lambda c: c.post("/explanations/preview", data={"text": text, "area": "drafts"}), instructor
        yield "editor-new", lambda c: c.post("/explanations/new", data={"text": text, "area": "drafts", "preview": "1"}), instructor
    elif kind == "json":
        yield "import", lambda c: c.post("/export/import", data={"file": (io.BytesIO(text.encode()), "export.json")},
                                         content_type="multipart/form-data"), candidate
        yield "rate-json", lambda c: c.post("/drill/rate.json", data=text, content_type="application/json"), candidate
    elif kind in ("steps", "timezone"):
        def settings(c, field="learning_steps" if kind == "steps" else "timezone"):
            _action, data = read_form(c.get("/settings").get_data(as_text=True).replace(
                '<form method="post" novalidate class="stack"', '<form id="settings-form" method="post" novalidate class="stack"', 1),
                "settings-form")
            data[field] = text
            return c.post("/settings", data=data)
        yield "settings", settings, candidate
    elif kind == "query":
        yield "search", lambda c: c.get("/search", query_string={"q": text}), candidate
        yield "questions", lambda c: c.get("/questions", query_string={"q": text}), candidate


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_every_form_answers_without_5xx_in_budget(corpus_app, case: dict[str, Any]) -> None:
    with corpus_app.app_context():
        _forms(corpus_app, case)


def _forms(corpus_app, case: dict[str, Any]) -> None:
    slow: list[str] = []
    errors: list[str] = []
    clients: dict[str, Any] = {}
    for label, request, account in _requests(corpus_app, case):
        client = clients.get(account) or clients.setdefault(account, _client(corpus_app, account))
        start = time.thread_time()
        response = request(client)
        spent = time.thread_time() - start
        body = response.get_data(as_text=True)
        response.close()
        response.request.environ["wsgi.input"].close()  # a large body was spooled to a file
        if response.status_code >= 500 or "Traceback" in body:
            errors.append(f"{label}: {response.status_code}")
        if spent > BUDGET:
            slow.append(f"{label}: {spent:.2f} s")
    assert not errors, errors
    assert not slow, slow
