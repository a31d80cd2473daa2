"""The key-point checklist in the drill (server side): shown first on the answer side with its
suggestion table, sent with the rating (no JavaScript needed), kept with the review log, and
exported (JSON with restore, CSV, Anki). The browser side is tests/drill/test_key_points_e2e.py."""
from __future__ import annotations

import csv
import io
import json
import zipfile
import sqlite3

import pytest
from sqlalchemy import func, select

from prep.content.models import Explanation
from prep.drill.cards import add_to_study
from prep.drill.models import Card, ReviewLog
from prep.export import dump, restore
from prep.extensions import db
from prep.questions.models import LinkOrigin, QuestionExplanation
from tests.support.app import PASSWORD
from tests.support.clock import FIXED_NOW
from tests.support.pages import csrf_token_from

POINTS_EN = ["Reduce-scatter, then all-gather", "2(N−1)/N·S bytes per rank", "Latency grows with N"]
POINTS_ZH = ["先 reduce-scatter，再 all-gather", "每个 rank 发送 2(N−1)/N·S 字节", "延迟随 N 增长"]
ZH = {"Accept-Language": "zh-CN,zh;q=0.9"}


@pytest.fixture
def studied(make_user, make_question, clock):
    """A candidate studying one question linked to an explanation with key points (en and zh)."""
    user = make_user()
    question = make_question("How does ring AllReduce work, step by step?")
    for lang, points in (("en", POINTS_EN), ("zh", POINTS_ZH)):
        db.session.add(Explanation(slug="ring-allreduce", lang=lang, title=f"Ring ({lang})", key_points=points,
                                   html="<p>The <strong>full</strong> explanation.</p>"))
    db.session.add(QuestionExplanation(question_id=question.id, slug="ring-allreduce", score=1.0,
                                       origin=LinkOrigin.content))
    add_to_study(user, [question.id], FIXED_NOW)
    db.session.commit()
    card = db.session.scalar(select(Card).where(Card.user_id == user.id))
    return user, card


def _explanation(lang: str) -> Explanation:
    return db.session.scalar(select(Explanation).where(Explanation.slug == "ring-allreduce", Explanation.lang == lang))


@pytest.mark.parametrize(("headers", "lang", "legend"), [
    ({}, "en", "Key points: tick each one your answer covered"), (ZH, "zh", "要点：勾选你的回答讲到了的每一条")])
def test_the_answer_side_shows_the_checklist_first(client, login, studied, headers, lang, legend):
    user, card = studied
    login(user)
    html = client.get(f"/drill?card={card.id}&show=1", headers=headers).get_data(as_text=True)
    points = POINTS_EN if lang == "en" else POINTS_ZH
    assert legend in html
    assert html.index(legend) < html.index("explanation-details") < html.index("The <strong>full</strong>")
    for i, point in enumerate(points):
        assert (f'<input type="checkbox" class="key-point" name="key_point" value="{i}" id="key-point-{i}" '
                f'form="rate-form">') in html
        assert f'<label for="key-point-{i}">{point}</label>' in html
    assert f'name="key_points_of" value="{_explanation(lang).id}" form="rate-form"' in html
    for attr in ('data-total="3"', 'data-slow="1,1,2,3"', 'data-quick="1,1,2,4"', 'data-quick-ms="30000"'):
        assert attr in html
    assert '<details class="explanation-details" id="explanation-details" open>' in html
    assert 'id="key-point-suggestion"' in html and "data-suggested=" in html


def test_without_key_points_the_answer_is_as_before(client, login, studied):
    user, card = studied
    for e in db.session.scalars(select(Explanation)):
        e.key_points = []
    db.session.commit()
    login(user)
    html = client.get(f"/drill?card={card.id}&show=1").get_data(as_text=True)
    assert 'class="key-point"' not in html and 'id="key-points"' not in html and "explanation-details" not in html
    assert "The <strong>full</strong> explanation." in html


def _rate(client, card, **extra):
    data = {"card_id": card.id, "version": card.version, "rating": 2, **extra}
    return client.post("/drill/rate", data=data)


def test_the_ticks_are_kept_with_the_review(client, login, studied):
    user, card = studied
    login(user)
    # 5 is a possible checkbox but past this page's three points: dropped, not an error.
    response = _rate(client, card, key_points_of=_explanation("en").id, key_point=["2", "0", "5"])
    assert response.status_code == 302
    log = db.session.scalar(select(ReviewLog))
    assert (log.rating, log.key_points_ticked) == (2, {"slug": "ring-allreduce", "lang": "en", "total": 3,
                                                       "ticked": [0, 2]})


def test_nothing_ticked_is_kept_too_and_no_checklist_keeps_nothing(client, login, studied, make_user,
                                                                  make_question):
    user, card = studied
    login(user)
    _rate(client, card, key_points_of=_explanation("zh").id)
    assert db.session.scalar(select(ReviewLog)).key_points_ticked == {
        "slug": "ring-allreduce", "lang": "zh", "total": 3, "ticked": []}
    other = make_question("What is a completion queue in RDMA verbs?")
    add_to_study(user, [other.id], FIXED_NOW)
    db.session.commit()
    card2 = db.session.scalar(select(Card).where(Card.question_id == other.id))
    _rate(client, card2, key_point=["1"])  # ticks without the explanation that showed them
    _rate(client, db.session.get(Card, card2.id), key_points_of=999_999)  # an explanation gone since
    logs = db.session.scalars(select(ReviewLog).where(ReviewLog.card_id == card2.id)).all()
    assert [log.key_points_ticked for log in logs] == [None, None]


@pytest.mark.parametrize("bad", [{"key_point": ["9"]}, {"key_point": ["x"]}, {"key_points_of": "-1"},
                                 {"key_points_of": "abc"}])
def test_a_malformed_tick_changes_nothing(client, login, studied, bad):
    user, card = studied
    login(user)
    response = _rate(client, card, **bad)
    assert response.status_code == 302
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 0
    page = client.get("/drill").get_data(as_text=True)
    assert "That rating could not be read; the card was not changed." in page


def test_the_rating_form_with_ticks_needs_csrf(csrf_app, client, studied):
    user, card = studied
    token = csrf_token_from(client.get("/login").get_data(as_text=True))
    client.post("/login", data={"email": user.email, "password": PASSWORD, "csrf_token": token})
    assert _rate(client, card, key_points_of=_explanation("en").id, key_point=["0"]).status_code == 400
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 0
    page = client.get(f"/drill?card={card.id}&show=1").get_data(as_text=True)
    response = _rate(client, card, key_points_of=_explanation("en").id, key_point=["0"],
                     csrf_token=csrf_token_from(page))
    assert response.status_code == 302
    assert db.session.scalar(select(ReviewLog)).key_points_ticked["ticked"] == [0]


def _reviewed(client, login, studied):
    user, card = studied
    login(user)
    _rate(client, card, key_points_of=_explanation("en").id, key_point=["0", "1"])
    return user


def test_json_export_carries_the_ticks_and_a_restore_keeps_them(client, login, studied, make_user):
    user = _reviewed(client, login, studied)
    data = json.loads(client.get("/export/prep-export.json").data)
    (review,) = data["cards"][0]["reviews"]
    assert review["key_points"] == {"slug": "ring-allreduce", "lang": "en", "total": 3, "ticked": [0, 1]}
    newcomer = make_user("new@example.com")
    restore.import_export(newcomer, restore.parse(json.dumps(data).encode(), FIXED_NOW))
    db.session.commit()
    log = db.session.scalar(select(ReviewLog).where(ReviewLog.user_id == newcomer.id))
    assert log.key_points_ticked == review["key_points"]
    assert dump.build_export(newcomer, FIXED_NOW)["cards"] == data["cards"]


@pytest.mark.parametrize(("ticks", "where"), [
    ({"slug": "x", "lang": "en", "total": 3}, "key_points: must be null or an object"),
    ("0;1", "key_points: must be null or an object"),
    ({"slug": "Bad Slug", "lang": "en", "total": 3, "ticked": []}, "key_points.slug"),
    ({"slug": "x", "lang": "fr", "total": 3, "ticked": []}, "key_points.lang"),
    ({"slug": "x", "lang": "en", "total": 9, "ticked": []}, "key_points.total: must be from 1 to 6"),
    ({"slug": "x", "lang": "en", "total": 3, "ticked": [3]}, "key_points.ticked"),
    ({"slug": "x", "lang": "en", "total": 3, "ticked": [1, 1]}, "key_points.ticked"),
    ({"slug": "x", "lang": "en", "total": 3, "ticked": [True]}, "key_points.ticked"),
])
def test_a_restore_refuses_malformed_ticks(app, client, login, studied, ticks, where):
    _reviewed(client, login, studied)
    data = json.loads(client.get("/export/prep-export.json").data)
    data["cards"][0]["reviews"][0]["key_points"] = ticks
    with app.test_request_context(), pytest.raises(restore.ImportProblem) as err:  # messages are translated
        restore.parse(json.dumps(data).encode(), FIXED_NOW)
    assert any(where in p for p in err.value.problems), err.value.problems


def test_csv_export_has_the_ticks(client, login, studied):
    _reviewed(client, login, studied)
    with zipfile.ZipFile(io.BytesIO(client.get("/export/prep-export.zip").data)) as zf:
        rows = list(csv.DictReader(io.StringIO(zf.read("reviews.csv").decode("utf-8-sig"))))
    assert [(r["key_points_of"], r["key_points_ticked"], r["key_points_total"]) for r in rows] == [
        ("ring-allreduce.en", "1; 2", "3")]


def test_the_anki_deck_lists_the_key_points_on_the_back(client, login, studied):
    _reviewed(client, login, studied)
    with zipfile.ZipFile(io.BytesIO(client.get("/export/prep.apkg").data)) as zf:
        conn = sqlite3.connect(":memory:")
        conn.deserialize(zf.read("collection.anki2"))
    (fields,) = [f for (f,) in conn.execute("select flds from notes")]
    back = fields.split("\x1f")[1]
    assert '<ul class="key-points"><li>Reduce-scatter, then all-gather</li>' in back
    assert back.index("key-points") < back.index("The <strong>full</strong>")


def test_a_cram_review_keeps_the_ticks_too(studied):
    from prep.drill import cramming, rating

    user, card = studied
    ticks = {"slug": "ring-allreduce", "lang": "en", "total": 3, "ticked": [1]}
    assert cramming.cram(user, rating.Answer(card.id, card.version, 3, 5000, key_points=ticks), FIXED_NOW).recorded
    db.session.commit()
    log = db.session.scalar(select(ReviewLog))
    assert (log.kind, log.key_points_ticked) == ("cram", ticks)
