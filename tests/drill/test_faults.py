"""Injected faults: a locked database during a rating gives a clear "try again" page and
changes nothing."""
from __future__ import annotations

import sqlite3

from sqlalchemy import func, select

from prep.accounts.service import create_user
from prep.drill.cards import add_to_study
from prep.drill.models import Card, ReviewLog
from prep.extensions import db
from prep.questions.models import Source
from prep.questions.service import add_question
from tests.support.app import PASSWORD, make_app
from tests.support.clock import FIXED_NOW


def test_locked_database_during_rating(tmp_path):
    app = make_app(tmp_path, SQLITE_BUSY_TIMEOUT_MS=50)
    with app.app_context():
        user = create_user("lock@example.com", PASSWORD)
        q = add_question("What is a queue pair?", source=Source.content)
        add_to_study(user, [q.id], FIXED_NOW)
        db.session.commit()
        card_id = db.session.scalar(select(Card.id))
        client = app.test_client()
        assert client.post("/login", data={"email": user.email, "password": PASSWORD}).status_code == 302

        # Another process holds the write lock for the whole request.
        blocker = sqlite3.connect(tmp_path / "test.sqlite3", isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            r = client.post("/drill/rate", data={"card_id": card_id, "version": 0, "rating": 3})
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert r.status_code == 503
        assert "try again" in r.get_data(as_text=True).lower()
        assert db.session.scalar(select(func.count(ReviewLog.id))) == 0
        card = db.session.get(Card, card_id)
        assert card.version == 0 and card.reps == 0
        # Once the lock is gone the same submit works, once.
        assert client.post("/drill/rate", data={"card_id": card_id, "version": 0, "rating": 3}).status_code == 302
        assert db.session.scalar(select(func.count(ReviewLog.id))) == 1
        db.session.remove()
        db.engine.dispose()
