"""The .apkg carries prep's scheduling into Anki: the real ``anki`` library imports it with
scheduling, and each card comes out with prep's FSRS memory state, due date and review history,
tagged with the companies, roles and sections that asked it."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import anki.collection as anki_collection
import anki.scheduler.v3 as anki_v3
import pytest
from sqlalchemy import select

from prep.drill.memory import CardMemory, CardState, memory_of
from prep.drill.models import Card, ReviewLog
from prep.drill.queue import study_day
from prep.export import anki_scheduling as sched
from prep.extensions import db
from prep.postings.models import Posting, PostingQuestion
from tests.support.clock import FIXED_NOW


SHANGHAI = "Asia/Shanghai"


def _import_into_anki(tmp_path, package: bytes):
    apkg = tmp_path / "prep.apkg"
    apkg.write_bytes(package)
    (tmp_path / "anki").mkdir()
    col = anki_collection.Collection(str(tmp_path / "anki" / "collection.anki2"))
    col.set_config("fsrs", True)
    col.import_anki_package(anki_collection.ImportAnkiPackageRequest(
        package_path=str(apkg), options=anki_collection.ImportAnkiPackageOptions(with_scheduling=True)))
    return col


def _anki_date(col, day_number: int):
    """The date of one of Anki's day numbers, counted from the day its current day cutoff ends
    (Anki reads the machine's real clock, not the test's frozen one: the dates are absolute)."""
    today = datetime.fromtimestamp(col.sched.day_cutoff, timezone.utc) - timedelta(days=1)
    return (today + timedelta(days=day_number - col.sched.today)).date()


def test_anki_goes_on_where_prep_left_off(rich_user, login, client, clock, tmp_path):
    cards = db.session.scalars(select(Card).where(Card.user_id == rich_user.id).order_by(Card.id)).all()
    asked = cards[0].question
    posting = Posting(user_id=rich_user.id, company="Byte Dance", title="LLM 推理 工程师", raw_text="x",
                      content_hash="anki-tags")
    db.session.add(posting)
    db.session.flush()
    db.session.add(PostingQuestion(posting_id=posting.id, question_id=asked.id, section="一面 Round 1", text=asked.text))
    for card, state in ((cards[4], CardState.learning), (cards[5], CardState.relearning)):
        card.state, card.step, card.due = state, 0, FIXED_NOW + timedelta(minutes=10)
    db.session.commit()
    login(rich_user)
    response = client.get("/export/prep.apkg")
    assert response.status_code == 200
    col = _import_into_anki(tmp_path, response.data)
    try:
        by_text = {}
        for cid in col.find_cards(""):
            card = col.get_card(cid)
            by_text[card.note()["Question"]] = card
        assert len(by_text) == len(cards)
        compared = {"review": 0, "learning": 0, "new": 0}
        for card in cards:
            anki_card = by_text[card.question.text]
            logs = db.session.scalar(select(db.func.count()).select_from(ReviewLog).where(ReviewLog.card_id == card.id))
            assert col.db.scalar("select count() from revlog where cid = ?", anki_card.id) == logs
            if card.state is CardState.new:
                assert anki_card.type == 0 and anki_card.memory_state is None
                compared["new"] += 1
                continue
            memory = anki_card.memory_state
            assert memory is not None, card.question.text
            assert memory.stability == pytest.approx(card.stability, rel=0.05)
            assert memory.difficulty == pytest.approx(card.difficulty, rel=0.05)
            assert anki_card.desired_retention == pytest.approx(0.85, abs=1e-4)
            if card.state is CardState.review:
                assert anki_card.type == 2
                expected = study_day(card.due, SHANGHAI, 4).day
                assert abs((_anki_date(col, anki_card.due) - expected).days) <= 1
                assert anki_card.ivl == sched.interval_days(memory_of(card))
                compared["review"] += 1
            else:
                assert anki_card.type in (1, 3) and abs(anki_card.due - card.due.timestamp()) <= 60
                compared["learning"] += 1
            assert (anki_card.queue == -1) == card.suspended
            assert anki_card.reps == card.reps and anki_card.lapses == card.lapses
        assert compared == {"review": 10, "learning": 2, "new": 1}

        # Studying goes on in Anki from prep's memory state: a Good on an overdue card grows it.
        col.decks.select(col.decks.id_for_name("prep interview questions"))
        grown = []
        for _ in range(6):  # the two learning cards come first
            shown = col.sched.getCard()
            before = shown.memory_state.stability
            col.sched.answer_card(col.sched.build_answer(
                card=shown, states=col._backend.get_scheduling_states(shown.id), rating=anki_v3.CardAnswer.GOOD))
            if shown.type == 2:
                grown.append(col.get_card(shown.id).memory_state.stability > before)
        assert grown and all(grown)

        tags = by_text[asked.text].note().tags
        assert {"company::Byte_Dance", "role::LLM_推理_工程师", "section::一面_Round_1", "sim"} <= set(tags)
        assert not any(t.startswith("company::") for t in by_text[cards[3].question.text].note().tags)
    finally:
        col.close()


def test_the_history_replays_in_order_with_anki_intervals():
    start = FIXED_NOW - timedelta(days=10)
    new = CardMemory(CardState.new, 0, None, None, start, None)
    learning = CardMemory(CardState.learning, 1, 2.0, 5.0, start + timedelta(minutes=10), start)
    review = CardMemory(CardState.review, None, 3.0, 4.9, start + timedelta(days=3), start + timedelta(minutes=10))
    answers = [sched.Answer(start, 3, 4000, new),
               sched.Answer(start + timedelta(minutes=10), 3, 90_000, learning),
               sched.Answer(start + timedelta(days=1), 1, 1000, review, cram=True)]
    rows = sched.revlog_rows(answers, review, taken={int(start.timestamp() * 1000)})
    assert [r.ivl for r in rows] == [-600, 3, 0]          # 10 minutes, then 3 days; a cram changes nothing
    assert [r.last_ivl for r in rows] == [0, -600, 3]
    assert [r.type for r in rows] == [0, 0, 3]
    assert rows[0].id == int(start.timestamp() * 1000) + 1  # moved past an id another card took
    assert rows[1].time == 60_000                           # Anki's cap on an answer's time
    assert rows[1].factor == 100 + int((4.9 - 1) / 9 * 1000)


def test_collection_days_start_at_the_users_hour():
    calendar = sched.calendar_for(datetime(2026, 3, 1, 19, 0, tzinfo=timezone.utc), FIXED_NOW, SHANGHAI, 4)
    assert calendar.first_day.isoformat() == "2026-03-01"  # 3:00 on the 2nd in Shanghai: still the 1st's day
    assert calendar.crt == datetime(2026, 2, 28, 20, 0, tzinfo=timezone.utc)  # 4:00 on the 1st in Shanghai
    settings = calendar.col_settings(FIXED_NOW)
    assert settings == {"schedVer": 2, "rollover": 4, "creationOffset": -480, "localOffset": -480}
    assert calendar.day_number(datetime(2026, 3, 2, 19, 59, tzinfo=timezone.utc)) == 1
    assert calendar.day_number(datetime(2026, 3, 2, 20, 0, tzinfo=timezone.utc)) == 2
    assert json.loads(sched.card_columns(
        CardMemory(CardState.review, None, 12.5, 6.0, FIXED_NOW, FIXED_NOW - timedelta(days=12)),
        suspended=False, position=1, calendar=calendar, learning_steps=2, relearning_steps=1,
        desired_retention=0.9, decay=0.1542).data) == {"s": 12.5, "d": 6.0, "dr": 0.9, "decay": 0.1542,
                                                       "lrt": int((FIXED_NOW - timedelta(days=12)).timestamp())}
