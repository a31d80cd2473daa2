"""Live-server drill data for browser tests: a candidate with new cards written straight into the
live server's database, and the review logs read back from it (one per card, none twice)."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.support.live import LiveServer

PASSWORD = "a long enough passphrase"


def seed(server: LiveServer, email: str, n: int) -> None:
    """A candidate studying ``n`` new cards (the daily new limit above ``n``), written straight
    into the live server's database."""
    from sqlalchemy import select

    from prep import create_app
    from prep import clock
    from prep.accounts.models import User
    from prep.drill.cards import add_to_study
    from prep.extensions import db
    from prep.questions.models import Source
    from prep.questions.service import add_question

    server.prep("users", "create", email, "--password", PASSWORD)
    app = create_app({"SQLALCHEMY_DATABASE_URI": server.env["PREP_DATABASE_URL"],
                      "INSTANCE_PATH": str(server.root / "instance"), "SECRET_KEY": "live-test-secret",
                      "SCHEDULER_ENABLED": False})
    with app.app_context():
        user = db.session.scalar(select(User).where(User.email == email))
        user.new_per_day = 200
        questions = [add_question(f"{email} prefetch question {i}: explain collective pattern {i}.",
                                  source=Source.content, tags=("prefetch",)) for i in range(n)]
        add_to_study(user, [q.id for q in questions], clock.now())
        db.session.commit()
        db.session.remove()
        db.engine.dispose()


def logs(server: LiveServer, email: str) -> list[tuple[int, int]]:
    """(card id, number of review logs) for each card of the user that has any."""
    with sqlite3.connect(Path(server.root / "live.sqlite3")) as conn:
        return conn.execute("SELECT r.card_id, COUNT(*) FROM review_logs r JOIN users u ON u.id = r.user_id"
                            " WHERE u.email = ? GROUP BY r.card_id", (email,)).fetchall()
