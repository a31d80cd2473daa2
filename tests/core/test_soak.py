"""Soak: a real `prep serve` on 127.0.0.1, driven from a separate process by 8 concurrent simulated
candidates who log in and rate as fast as they can for PREP_SOAK_SECONDS (default 20) per database.
Afterwards every rating acknowledged with a 2xx is in the review log exactly once, nothing else is,
no request got a 5xx, and replaying each card's log through the scheduler gives its stored state."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import pytest
from sqlalchemy import select

from prep.accounts.models import User
from prep.drill import scheduling
from prep.drill.cards import add_to_study
from prep.drill.models import Card, ReviewLog
from prep.extensions import db
from prep.questions.models import Source
from prep.questions.service import add_question
from tests.support.live import LiveServer
from tests.support.app import PASSWORD

pytestmark = pytest.mark.heavy
ROOT = Path(__file__).resolve().parents[2]
CLIENTS = 8
CARDS_PER_USER = 60
SECONDS = float(os.environ.get("PREP_SOAK_SECONDS", "20"))


def _replay(user: User, logs: list[ReviewLog], card: Card) -> list[str]:
    """Replay one card's log through the scheduler; the memory state after each review must be the
    state the next log saw before it, and the last one the card's stored state."""
    scheduler = scheduling.make_scheduler(scheduling.settings_for_user(user, enable_fuzzing=False))
    problems = []
    row = SimpleNamespace()
    scheduling.restore(row, logs[0].card_before)
    for i, log in enumerate(logs):
        outcome = scheduling.review(scheduler, row, log.rating, log.reviewed_at)
        scheduling.apply(row, outcome)
        after = logs[i + 1].card_before if i + 1 < len(logs) else scheduling.snapshot(card)
        for key in ("state", "step", "reps", "lapses"):
            got = row.state.value if key == "state" else getattr(row, key)
            if got != after[key]:
                problems.append(f"card {card.id} review {i}: {key} {got!r} != stored {after[key]!r}")
        for key in ("stability", "difficulty"):
            if after[key] != pytest.approx(getattr(row, key), rel=1e-9):
                problems.append(f"card {card.id} review {i}: {key} {getattr(row, key)!r} != {after[key]!r}")
        # The stored state is the truth for the next step (due comes from the load balancer).
        scheduling.restore(row, after)
    return problems


def test_soak_every_acknowledged_rating_is_logged_once(app, database_url, tmp_path):
    from prep.accounts.service import create_user

    now = datetime.now(timezone.utc)
    users = []
    for i in range(CLIENTS):
        user = create_user(f"soak{i}@example.com", PASSWORD)
        user.new_per_day = CARDS_PER_USER
        users.append(user)
    db.session.flush()
    for user in users:
        qs = [add_question(f"Soak question {user.id}-{k}?", source=Source.content) for k in range(CARDS_PER_USER)]
        add_to_study(user, [q.id for q in qs], now)
    emails = [u.email for u in users]
    db.session.commit()
    db.session.close()  # hold no transaction (on SQLite, no write lock) while the server runs

    root = tmp_path / "server"
    root.mkdir()
    server = LiveServer(root, env={"PREP_DATABASE_URL": database_url, "PREP_SCHEDULER": "0",
                                   "PREP_CONTENT_DIR": str(root / "no-content")})
    server.start()
    try:
        code = ("import json, sys; from tests.support.live import run_clients; "
                "print(json.dumps(run_clients(sys.argv[1], sys.argv[2].split(','), float(sys.argv[3]))))")
        done = subprocess.run([sys.executable, "-c", code, server.url, ",".join(emails), str(SECONDS)],
                              cwd=ROOT, capture_output=True, text=True, timeout=SECONDS + 300)
        assert done.returncode == 0, done.stderr[-3000:]
        result = json.loads(done.stdout.strip().splitlines()[-1])
    finally:
        server.stop()

    assert result["errors"] == []
    fives = sum(n for status, n in result["statuses"].items() if int(status) >= 500)
    acked = sorted(tuple(pair) for pair in result["acked"])
    db.session.expire_all()
    logged = sorted(db.session.execute(select(ReviewLog.card_id, ReviewLog.card_version)).all())
    logged = [tuple(row) for row in logged]
    print(f"\nsoak {database_url.split(':')[0]}: {len(acked)} ratings acknowledged, {len(logged)} recorded, "
          f"{fives} 5xx, statuses {result['statuses']}")
    assert fives == 0
    assert len(acked) >= CLIENTS  # the run did real work
    assert len(set(acked)) == len(acked)  # no (card, version) acknowledged twice
    assert logged == acked  # each acknowledged rating logged exactly once, nothing else logged

    by_user = {u.id: u for u in db.session.scalars(select(User))}
    problems: list[str] = []
    for card in db.session.scalars(select(Card).where(Card.reps > 0)):
        logs = list(db.session.scalars(select(ReviewLog).where(ReviewLog.card_id == card.id)
                                       .order_by(ReviewLog.card_version)))
        assert [log.card_version for log in logs] == list(range(len(logs)))
        assert card.version == len(logs)
        problems += _replay(by_user[card.user_id], logs, card)
    assert problems == []
