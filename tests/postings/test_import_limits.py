"""Imports apply the forms' limits: a JSON export with an out-of-range
date, stability, counter, rating or setting is refused with one message naming the field and
the row, and nothing is written, on SQLite and PostgreSQL."""
from __future__ import annotations

import io
import json

import pytest
from sqlalchemy import func, select

from prep.drill.models import Card, ReviewLog
from prep.export import dump
from prep.extensions import db
from prep.questions.models import Question
from tests.support.clock import FIXED_NOW


def _counts():
    return tuple(db.session.scalar(select(func.count(m.id))) for m in (Card, ReviewLog, Question))


def _set(data: dict, path: str, value) -> None:
    target = data
    parts = path.split(".")
    for part in parts[:-1]:
        if "[" in part:
            name, index = part[:-1].split("[")
            target = target[name][int(index)]
        else:
            target = target[part]
    target[parts[-1]] = value


BAD = [
    ("cards[3].due", "9999-12-31T00:00:00+00:00", "outside"),
    ("cards[3].last_review", "2027-06-01T00:00:00+00:00", "outside"),
    ("cards[3].added_at", "1900-01-01T00:00:00+00:00", "outside"),
    ("cards[3].reviews[0].reviewed_at", "9999-12-31T23:59:59-23:59", "out"),
    ("cards[3].stability", 0, "from 0.001"),
    ("cards[3].stability", 1e308, "from 0.001"),
    ("cards[3].difficulty", 11, "from 1"),
    ("cards[3].reps", 10**12, "from 0"),
    ("cards[3].lapses", -1, "≥ 0"),
    ("cards[3].reviews[0].duration_ms", 10**15, "from 0"),
    ("cards[3].question.text", "x" * 1001, "over 1,000"),
    ("cards[3].note", "n" * 20_001, "over 20,000"),
    ("user.settings.maximum_interval", 10**12, "from 1"),
    ("user.settings.desired_retention", "sNaN", "between 0.7 and 0.99"),
    ("user.settings.timezone", "posixrules", "unknown time zone"),
    ("user.settings.timezone", "Factory", "unknown time zone"),
    ("user.settings.learning_steps", "99999999999999d", "bad step"),
    ("user.settings.learning_steps", "1m " * 50, "too many steps"),
    ("cards[3].added_at", "1999-12-31T23:00:00+00:00", "outside 2000-01-01"),
    ("cards[3].reviews[0].rating", 0, "must be 1, 2, 3 or 4"),
    ("cards[3].reviews[0].rating", 3.0, "must be 1, 2, 3 or 4"),
    ("cards[3].state", "review", None),  # with stability null, below
    # The snapshot each review carries (undo restores it; the stats page reads its times).
    ("cards[3].reviews[0].card_before.due", "not a time", "ISO 8601"),
    ("cards[3].reviews[0].card_before.due", "9999-12-31T00:00:00+00:00", "outside"),
    ("cards[3].reviews[0].card_before.last_review", 12345, "ISO 8601"),
    ("cards[3].reviews[0].card_before.stability", 0, "from 0.001"),
    ("cards[3].reviews[0].card_before.difficulty", float("inf"), "must be a number"),
    ("cards[3].reviews[0].card_before.state", "limbo", "must be one of"),
    ("cards[3].reviews[0].card_before.reps", -3, "≥ 0"),
    ("cards[3].reviews[0].card_before.step", 10**9, "from 0"),
    ("cards[3].reviews[0].card_before", {"state": "review"}, "due"),
]


@pytest.mark.parametrize("path, value, words", BAD, ids=[f"{p}={str(v)[:20]}" for p, v, _w in BAD])
def test_an_out_of_range_value_is_refused_by_field_and_row(rich_user, make_user, login, client, clock,
                                                           path, value, words):
    data = dump.build_export(rich_user, FIXED_NOW)
    if not data["cards"][3]["reviews"]:
        pytest.skip("the simulated card has no review")
    _set(data, path, value)
    if path == "cards[3].state":  # a review card must have a memory state
        _set(data, "cards[3].stability", None)
        path, words = "cards[3].stability", "needs a stability"
    newcomer = make_user("new@example.com")
    login(newcomer)
    before = _counts()
    response = client.post("/export/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "x.json")})
    html = response.get_data(as_text=True)
    assert response.status_code == 400, html[:500]
    assert path in html and words in html, html[html.find("problem"):][:800]
    assert _counts() == before


@pytest.mark.parametrize("body, words", [
    (b"[" * 100_000 + b"]" * 100_000, "nests too deeply"),
    (b'{"format": "prep-export", "n": ' + b"9" * 10_000 + b"}", "number too long"),
])
def test_hostile_json_is_refused_not_a_500(make_user, login, client, clock, body, words):
    login(make_user())
    response = client.post("/export/import", data={"file": (io.BytesIO(body), "x.json")})
    assert response.status_code == 400 and words in response.get_data(as_text=True)


def test_a_clean_file_still_imports(rich_user, make_user, login, client, clock):
    data = dump.build_export(rich_user, FIXED_NOW)
    login(make_user("new@example.com"))
    response = client.post("/export/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "x.json")})
    assert response.status_code == 302


def _post(client, data: dict):
    return client.post("/export/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "x.json")})


def test_questions_created_by_an_import_count_against_the_own_question_limit(rich_user, make_user, login,
                                                                             client, clock, monkeypatch):
    """The question form stops at MAX_OWN_QUESTIONS own questions; an import creating new
    questions is held to the same count (the row that crosses it is named)."""
    from prep.questions import service as questions_service

    monkeypatch.setattr(questions_service, "MAX_OWN_QUESTIONS", 3)
    data = dump.build_export(rich_user, FIXED_NOW)
    for i, card in enumerate(data["cards"][:5]):
        card["question"]["text"] = f"A question only this file has, number {i}?"
    login(make_user("new@example.com"))
    before = _counts()
    response = _post(client, data)
    html = response.get_data(as_text=True)
    assert response.status_code == 400, html[:300]
    assert "cards[3].question" in html and "3 own questions" in html, html[html.find("problem"):][:600]
    assert _counts() == before


@pytest.mark.parametrize("change, where, words", [
    ({"text": "GPU?"}, "cards[0].question.text", "at least 5 characters"),
    ({"text": "A question this file brings along?", "tags": [f"t{i}" for i in range(11)]},
     "cards[0].question.tags", "at most 10 tags"),
    ({"text": "A question this file brings along?", "tags": ["x" * 61]}, "cards[0].question.tags", "60 characters"),
])
def test_a_question_created_by_an_import_meets_the_question_form(rich_user, make_user, login, client, clock,
                                                                 change, where, words):
    data = dump.build_export(rich_user, FIXED_NOW)
    data["cards"][0]["question"].update(change)
    login(make_user("new@example.com"))
    before = _counts()
    response = _post(client, data)
    html = response.get_data(as_text=True)
    assert response.status_code == 400, html[:300]
    assert where in html and words in html, html[html.find("problem"):][:600]
    assert _counts() == before
