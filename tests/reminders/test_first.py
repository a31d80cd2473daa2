"""The reminder page names the next reminder at the chosen local time, in the
user's language, and nobody is mailed before their first reminder time after registering (and
then only with something due). Registration runs through the real pages and a real SMTP server
on 127.0.0.1 (aiosmtpd); the clock is the test clock."""
from __future__ import annotations

import re
import time
from datetime import datetime, timedelta, timezone

from flask import Flask
from sqlalchemy import select

from prep.accounts.models import User
from prep.drill.models import Card, CardState
from prep.extensions import db
from prep.questions.models import Question, Source
from tests.support.app import PASSWORD
from tests.support.reminders import Recorder, sweep

UTC = timezone.utc
REGISTERED = datetime(2026, 3, 10, 14, 7, tzinfo=UTC)   # 22:07 in Asia/Shanghai
NEXT_NINE = datetime(2026, 3, 11, 1, 0, tzinfo=UTC)     # 09:00 the next morning there


def _wait_for(smtp: Recorder, n: int) -> None:
    deadline = time.monotonic() + 30
    while len(smtp.messages) < n and time.monotonic() < deadline:
        time.sleep(0.05)  # the registration mail goes out from another thread: poll


def _register(app: Flask, smtp: Recorder, address: str) -> User:
    """Register through the pages: the form, the mailed link, the page that sets the password and
    creates the account."""
    client = app.test_client()
    sent = len(smtp.messages)
    assert client.post("/register", data={"email": address}).status_code == 200
    _wait_for(smtp, sent + 1)
    body = smtp.messages[-1][1].get_body(preferencelist=("plain",)).get_content()
    link = re.search(r"http\S+(/register/confirm/\S+)", body).group(1)
    form = {"password": PASSWORD, "confirm": PASSWORD, "timezone": "Asia/Shanghai"}
    assert client.post(link, data=form).status_code == 302
    return db.session.scalar(select(User).where(User.email == address))


def _add_due_card(user: User, text: str) -> None:
    q = Question(text=text, norm=text.lower(), source=Source.content)
    db.session.add(q)
    db.session.flush()
    db.session.add(Card(user_id=user.id, question_id=q.id, state=CardState.new, due=REGISTERED, added_at=REGISTERED))
    db.session.commit()


def _reminders(smtp: Recorder) -> list[str]:
    return sorted(r for rcpts, m in smtp.messages if "to review today" in m["Subject"] for r in rcpts)


def test_no_reminder_before_the_first_reminder_time_after_registering(app: Flask, smtp: Recorder, clock) -> None:
    clock.move_to(REGISTERED)
    keen = _register(app, smtp, "keen@example.com")
    idle = _register(app, smtp, "idle@example.com")   # registers, adds nothing
    assert keen.created_at == REGISTERED
    _add_due_card(keen, "What does a Raft leader do?")
    # The setting (09:00) has passed today: the sweeps that evening and night send nothing.
    now = REGISTERED
    while now < NEXT_NINE:
        assert sweep(now).claimed == [], now
        now += timedelta(minutes=5)
    assert sweep(NEXT_NINE - timedelta(minutes=1)).claimed == []
    assert _reminders(smtp) == []
    # The first reminder time after registering: the one with something due is reminded.
    report = sweep(NEXT_NINE)
    assert [u.email for u in report.sent] == ["keen@example.com"]
    assert _reminders(smtp) == ["keen@example.com"]
    assert idle.id not in {u.user_id for u in report.due}


def test_registering_before_the_time_is_reminded_that_day(app: Flask, smtp: Recorder, clock) -> None:
    clock.move_to(NEXT_NINE - timedelta(minutes=30))  # 08:30 local
    user = _register(app, smtp, "early@example.com")
    _add_due_card(user, "What is a vector clock?")
    assert sweep(NEXT_NINE - timedelta(minutes=1)).claimed == []
    assert [u.email for u in sweep(NEXT_NINE).sent] == ["early@example.com"]


def _next_line(page: str) -> str:
    return re.search(r"(Next reminder[^<]*|下次提醒[^<]*)", page).group(1)


def test_settings_page_names_the_next_reminder_at_the_set_time(app: Flask, client, login, make_user, clock) -> None:
    clock.move_to(REGISTERED)  # 22:07 local, setting 09:00
    user = make_user(timezone="Asia/Shanghai")
    login(user)
    page = client.get("/settings/reminders").get_data(as_text=True)
    assert "Mar 11, 2026, 9:00 AM" in _next_line(page)
    assert "10:07" not in _next_line(page)
    clock.move_to(NEXT_NINE - timedelta(hours=2))  # 07:00 local: today's 09:00 is ahead
    client = login(user, app.test_client())  # a new session (the first one has timed out overnight)
    assert "Mar 11, 2026, 9:00 AM" in _next_line(client.get("/settings/reminders").get_data(as_text=True))
    # A new time is shown as set, in the user's language.
    assert client.post("/settings/reminders", data={"enabled": "y", "remind_at": "07:30", "email": "y",
                                                    "in_app": "y"}).status_code == 302
    user.language = "zh"
    db.session.commit()
    assert "2026年3月11日 07:30" in _next_line(client.get("/settings/reminders").get_data(as_text=True))
