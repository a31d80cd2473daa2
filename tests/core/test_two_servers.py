"""Two `prep serve` processes against one PostgreSQL database: concurrent ratings through both are
all recorded exactly once, and each user's reminder goes out once although both run the scheduler."""
from __future__ import annotations

import re
import threading
import time
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select

from prep.drill.cards import add_to_study
from prep.drill.models import Card, ReviewLog
from prep.extensions import db
from prep.questions.models import Source
from prep.questions.service import add_question
from tests.support.live import Browser, LiveServer
from tests.support.app import PASSWORD

USERS = 6
CARDS_PER_USER = 12
RATINGS_PER_CLIENT = 10


def _zone_at_noon(now: datetime) -> str:
    """A fixed-offset zone where it is about noon now, so a 09:00 reminder is due whenever CI runs."""
    offset = (12 - now.hour) % 24
    if offset > 14:
        offset -= 24
    return "UTC" if offset == 0 else (f"Etc/GMT-{offset}" if offset > 0 else f"Etc/GMT+{-offset}")


@pytest.fixture
def pg_app(tmp_path, postgres_url):
    from tests.support.app import app_on

    yield from app_on(tmp_path, postgres_url)


def test_two_servers_ratings_once_and_reminders_once(pg_app, postgres_url, tmp_path):
    from prep.accounts.service import create_user

    now = datetime.now(timezone.utc)
    zone = _zone_at_noon(now)
    users = [create_user(f"two{i}@example.com", PASSWORD, timezone=zone) for i in range(USERS)]
    for u in users:
        u.created_at = now - timedelta(days=1)  # registered yesterday: today's 09:00 is after it
        qs = [add_question(f"Two-server question {u.id}-{k}?", source=Source.content) for k in range(CARDS_PER_USER)]
        add_to_study(u, [q.id for q in qs], now)
    db.session.commit()
    emails = [u.email for u in users]

    servers = []
    for name in ("one", "two"):
        root = tmp_path / name
        root.mkdir()
        servers.append(LiveServer(root, env={"PREP_DATABASE_URL": postgres_url, "PREP_SCHEDULER": "1",
                                             "PREP_CONTENT_DIR": str(root / "no-content")}))
    try:
        for s in servers:
            s.start()
        acknowledged = []
        errors = []

        def client(index: int) -> None:
            email = emails[index % USERS]
            browser = Browser(servers[index % 2].url)
            other = Browser(servers[(index + 1) % 2].url)
            try:
                browser.login(email)
                other.login(email)
                for n in range(RATINGS_PER_CLIENT):
                    b = browser if n % 2 == 0 else other  # alternate servers within one user
                    page = b.get("/drill")
                    match = re.search(r'name="card_id"[^>]*value="(\d+)".*?name="version"[^>]*value="(\d+)"', page,
                                      re.S)
                    if match is None:
                        break
                    status = b.post("/drill/rate", {"csrf_token": b.token(page), "card_id": match.group(1),
                                                    "version": match.group(2), "rating": "3"})
                    if status == 200:  # followed the redirect back to /drill
                        acknowledged.append((match.group(1), match.group(2)))
                    elif status >= 500:
                        errors.append(status)
            except Exception as exc:  # noqa: BLE001 - reported below
                errors.append(repr(exc))

        threads = [threading.Thread(target=client, args=(i,)) for i in range(USERS * 2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=240)
        assert not errors, errors
        db.session.expire_all()
        logs = db.session.execute(select(ReviewLog.card_id, ReviewLog.card_version)).all()
        # Every acknowledged rating is recorded, once; nothing else was recorded.
        assert sorted((str(c), str(v)) for c, v in logs) == sorted(set(acknowledged))
        assert len(logs) == len(set(logs)) >= USERS
        # Card versions match their logs: the same (card, version) was never applied twice.
        for card in db.session.scalars(select(Card)):
            assert card.version == db.session.scalar(
                select(func.count(ReviewLog.id)).where(ReviewLog.card_id == card.id))

        # Both servers run the scheduler (first sweep at start-up); one email per user overall.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            mails = [p for s in servers for p in (s.root / "instance" / "outbox").glob("*.eml")]
            if len(mails) >= USERS:
                break
            time.sleep(0.5)  # two server processes send on their own clocks: poll, the clock fixture cannot reach them
        time.sleep(2)  # and give a late duplicate (the bug this catches) time to arrive
        mails = [p for s in servers for p in (s.root / "instance" / "outbox").glob("*.eml")]
        recipients = sorted(re.search(r"^To: (.+)$", p.read_text(), re.M).group(1).strip() for p in mails)
        assert recipients == sorted(emails)
    finally:
        for s in servers:
            s.stop()
