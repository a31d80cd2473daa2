"""Reminders against the database: who is due, exactly-once claims, retries, SMTP (a real local
aiosmtpd server), crash and restart, two concurrent processes, query counts, pages, unsubscribe,
notifications, the calendar feed and the CLI. Fixed clocks; nothing sleeps."""
from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from datetime import date, datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from flask import Flask
from icalendar import Calendar
from sqlalchemy import event, func, select

from prep.accounts.models import User
from prep.drill.models import Card, CardState, ReviewLog
from prep.extensions import db
from prep.reminders import service, timing
from prep.reminders.models import Notification, ReminderAttempt, ReminderChannel, ReminderLog, ReminderSettings
from prep.reminders.sweep_query import find_due

from tests.support.clock import FIXED_NOW
from tests.support.pages import csrf_token_from
from tests.support.live import free_port
from tests.support.reminders import SHANGHAI_9, Recorder, channel_on, log_rows, remind_process, serve, sweep

UTC = timezone.utc


# --- a real SMTP server on 127.0.0.1 ------------------------------------------------------------


class Refuser:
    """Answers every recipient with a temporary failure."""

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        return "451 4.3.0 Mailbox temporarily unavailable"


@pytest.fixture
def refusing_smtp_url() -> Iterator[str]:
    for url, _ in serve(Refuser()):
        yield url


@pytest.fixture
def closed_port_url() -> str:
    return f"smtp://127.0.0.1:{free_port()}?timeout=2"


# --- data --------------------------------------------------------------------------------------


def attempts_of(entry: ReminderLog) -> list[ReminderAttempt]:
    return list(db.session.scalars(select(ReminderAttempt).where(ReminderAttempt.log_id == entry.id)
                                   .order_by(ReminderAttempt.number)))


# --- who is due --------------------------------------------------------------------------------

def test_shanghai_user_is_reminded_at_0900_local_once(app: Flask, smtp: Recorder, learner) -> None:
    user = learner("Asia/Shanghai")
    assert sweep(SHANGHAI_9 - timedelta(minutes=1)).claimed == []
    report = sweep(SHANGHAI_9)
    assert [u.email for u in report.sent] == [user.email]
    assert smtp.recipients() == [user.email]
    assert sweep(SHANGHAI_9 + timedelta(minutes=5)).claimed == []
    assert sweep(SHANGHAI_9 + timedelta(hours=10)).claimed == []
    assert len(smtp.messages) == 1
    [entry] = log_rows()
    assert (entry.status, entry.local_date, entry.attempts) == ("sent", date(2026, 3, 10), 1)
    assert [a.outcome for a in attempts_of(entry)] == ["sent"]
    # The next local day is a new reminder.
    assert [u.email for u in sweep(SHANGHAI_9 + timedelta(days=1)).sent] == [user.email]


@pytest.mark.parametrize(("zone", "before", "at_time", "local_date"), [
    ("America/Los_Angeles", "2026-03-07T16:59", "2026-03-07T17:00", date(2026, 3, 7)),   # PST
    ("America/Los_Angeles", "2026-03-08T15:59", "2026-03-08T16:00", date(2026, 3, 8)),   # the change: PDT
    ("America/Los_Angeles", "2026-03-09T15:59", "2026-03-09T16:00", date(2026, 3, 9)),
    ("Pacific/Kiritimati", "2026-03-09T18:59", "2026-03-09T19:00", date(2026, 3, 10)),  # UTC+14
    ("Pacific/Pago_Pago", "2026-03-10T19:59", "2026-03-10T20:00", date(2026, 3, 10)),   # UTC-11
])
def test_far_zones_and_dst(app: Flask, smtp: Recorder, learner, zone: str, before: str, at_time: str,
                           local_date: date) -> None:
    user = learner(zone, day_start_hour=0)
    assert sweep(datetime.fromisoformat(before).replace(tzinfo=UTC)).claimed == []
    assert [u.email for u in sweep(datetime.fromisoformat(at_time).replace(tzinfo=UTC)).sent] == [user.email]
    assert [e.local_date for e in log_rows()] == [local_date]


def test_los_angeles_week_across_the_dst_change(app: Flask, smtp: Recorder, learner) -> None:
    learner("America/Los_Angeles")
    sent_at = []
    start = datetime(2026, 3, 6, 8, 0, tzinfo=UTC)
    for step in range(0, 4 * 24 * 12):  # every 5 minutes for four days
        now = start + timedelta(minutes=5 * step)
        if sweep(now).sent:
            sent_at.append(now)
    assert sent_at == [datetime(2026, 3, 6, 17, 0, tzinfo=UTC), datetime(2026, 3, 7, 17, 0, tzinfo=UTC),
                       datetime(2026, 3, 8, 16, 0, tzinfo=UTC), datetime(2026, 3, 9, 16, 0, tzinfo=UTC)]
    assert len(smtp.messages) == 4


def test_nothing_sent_when_nothing_due_or_reminders_off(app: Flask, smtp: Recorder, learner) -> None:
    learner(cards=0)                                                             # no cards at all
    learner(state=CardState.review, due=FIXED_NOW + timedelta(days=7))           # next review next week
    learner(new_per_day=0)                                                       # new cards but limit 0
    learner(settings={"enabled": False})                                         # reminders off
    learner(settings={"enabled": True, "email": False, "in_app": False})         # no channel
    due = learner(state=CardState.review, due=SHANGHAI_9 + timedelta(hours=5))  # due later today: counts
    report = sweep(SHANGHAI_9 + timedelta(minutes=1))
    assert [u.email for u in report.sent] == [due.email]
    assert report.due[0].reviews == 1
    assert smtp.recipients() == [due.email]


def test_new_card_limit_counts_reviews_done_today(app: Flask, smtp: Recorder, learner, question) -> None:
    user = learner(new_per_day=1, cards=2)
    card = db.session.scalars(select(Card).where(Card.user_id == user.id)).first()
    db.session.add(ReviewLog(card_id=card.id, user_id=user.id, card_version=0, rating=3,
                             reviewed_at=SHANGHAI_9 - timedelta(minutes=30), state_before="new",
                             state_after="learning", card_before={}))
    card.state, card.due = CardState.learning, SHANGHAI_9 + timedelta(hours=2)
    db.session.commit()
    assert find_due(SHANGHAI_9) == []  # today's one new card is done; the learning card is not due yet


def test_settings_change_takes_effect_the_same_day(app: Flask, smtp: Recorder, learner) -> None:
    user = learner(settings={"enabled": True, "remind_minute": 18 * 60, "email": True, "in_app": True})
    assert sweep(SHANGHAI_9).claimed == []  # 09:00 local, reminder at 18:00
    db.session.get(ReminderSettings, user.id).remind_minute = 8 * 60
    db.session.commit()
    assert [u.email for u in sweep(SHANGHAI_9 + timedelta(minutes=5)).sent] == [user.email]
    db.session.get(ReminderSettings, user.id).remind_minute = 10 * 60  # later: still only once today
    db.session.commit()
    assert sweep(SHANGHAI_9 + timedelta(hours=3)).claimed == []


def test_in_app_only_makes_a_notification_and_no_email(app: Flask, smtp: Recorder, learner) -> None:
    user = learner(settings={"enabled": True, "email": False, "in_app": True})
    report = sweep(SHANGHAI_9)
    assert [(u.email, u.channel) for u in report.stored] == [(user.email, "in_app")] and report.sent == []
    assert smtp.messages == []
    [note] = db.session.scalars(select(Notification)).all()
    assert (note.user_id, note.due_count, note.local_date) == (user.id, 1, date(2026, 3, 10))
    assert log_rows() == [] and [(e.channel, e.status) for e in log_rows("in_app")] == [("in_app", "sent")]
    assert sweep(SHANGHAI_9 + timedelta(minutes=5)).claimed == []
    assert db.session.scalar(select(func.count(Notification.id))) == 1


def test_dry_run_records_and_sends_nothing(app: Flask, smtp: Recorder, learner) -> None:
    user = learner()
    report = sweep(SHANGHAI_9, dry_run=True)
    assert [(u.email, u.channel) for u in report.due] == [(user.email, "email"), (user.email, "in_app")]
    assert "would remind" in report.lines()[0] and "via email, in_app" in report.lines()[0]
    assert log_rows(None) == [] and smtp.messages == []
    assert db.session.scalar(select(func.count(Notification.id))) == 0


# --- the email ---------------------------------------------------------------------------------

def test_email_content_and_one_click_unsubscribe_headers(app: Flask, smtp: Recorder, learner, client) -> None:
    user = learner(display_name="Ada", cards=2)
    db.session.add(ReviewLog(card_id=db.session.scalars(select(Card.id)).first(), user_id=user.id, card_version=99,
                             rating=3, reviewed_at=SHANGHAI_9 - timedelta(days=1), state_before="review",
                             state_after="review", card_before={}))
    db.session.commit()
    sweep(SHANGHAI_9)
    [(rcpts, message)] = smtp.messages
    assert rcpts == [user.email]
    assert message["Subject"] == "2 cards to review today"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message["Message-ID"] == f"<reminder-{user.id}-2026-03-10@127.0.0.1>"
    unsubscribe_url = str(message["List-Unsubscribe"]).strip().strip("<>")
    assert unsubscribe_url.startswith("http://127.0.0.1:5000/unsubscribe/")
    assert message.is_multipart()
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert "You have 2 cards to review today" in text and "2 cards to review today</p>" in html
    for body in (text, html):
        assert "Ada" in body
        assert "请解释NCCL中AllReduce的Ring算法原理" in body
        assert "1 day" in body  # the streak: yesterday's review
        assert "http://127.0.0.1:5000/drill" in body
        assert unsubscribe_url in body
    assert "Start the drill" in html and "#0b57d0" in html
    # RFC 8058: the mail client POSTs to the URL, no login, no CSRF token.
    app.config["WTF_CSRF_ENABLED"] = True
    path = unsubscribe_url.removeprefix("http://127.0.0.1:5000")
    response = client.post(path, data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert channel_on(user.id, "email") is False
    assert sweep(SHANGHAI_9 + timedelta(days=1)).sent == []


def test_outbox_when_no_smtp_is_configured(app: Flask, learner, caplog) -> None:
    app.config["SMTP_URL"] = None
    user = learner()
    with caplog.at_level("INFO", logger="prep.mail"):
        report = sweep(SHANGHAI_9)
    assert [u.email for u in report.sent] == [user.email]
    outbox = Path(app.instance_path) / "outbox"
    [path] = list(outbox.glob("*.eml"))
    assert f"To: {user.email}" in path.read_text()
    assert "PREP_SMTP_URL is not set" in caplog.text
    assert attempts_of(log_rows()[0])[0].transport == "outbox"


# --- failures, retries, crash and restart ------------------------------------------------------

def test_temporary_smtp_failure_is_retried_with_backoff_then_marked_failed(
        app: Flask, learner, refusing_smtp_url: str) -> None:
    app.config["SMTP_URL"] = refusing_smtp_url
    learner()
    t = SHANGHAI_9
    report = sweep(t)
    assert report.sent == [] and len(report.retrying) == 1 and "451" in report.retrying[0][1]
    [entry] = log_rows()
    assert (entry.status, entry.attempts, entry.next_attempt_at) == ("retry", 1, t + timedelta(minutes=5))
    assert sweep(t + timedelta(minutes=4)).claimed == []  # backing off
    for offset, status in ((5, "retry"), (20, "retry"), (65, "failed")):  # 5m, +15m, +45m
        sweep(t + timedelta(minutes=offset))
        [entry] = log_rows()
        assert entry.status == status
    assert entry.attempts == timing.MAX_ATTEMPTS
    assert "451" in entry.last_error
    attempts = attempts_of(entry)
    assert [a.outcome for a in attempts] == ["error"] * timing.MAX_ATTEMPTS
    assert all("451" in a.error for a in attempts)
    assert sweep(t + timedelta(hours=5)).claimed == []  # failed for good today


def test_closed_port_is_retried_and_then_delivered(app: Flask, learner, closed_port_url: str, smtp: Recorder) -> None:
    working = app.config["SMTP_URL"]
    app.config["SMTP_URL"] = closed_port_url
    user = learner()
    report = sweep(SHANGHAI_9)
    assert "ConnectionRefusedError" in report.retrying[0][1]
    app.config["SMTP_URL"] = working  # the server is back
    report = sweep(SHANGHAI_9 + timedelta(minutes=5))
    assert [u.email for u in report.sent] == [user.email]
    [entry] = log_rows()
    assert (entry.status, entry.attempts) == ("sent", 2)
    assert [a.outcome for a in attempts_of(entry)] == ["error", "sent"]
    assert smtp.recipients() == [user.email]


def test_retries_stop_at_the_end_of_the_local_day(app: Flask, learner, closed_port_url: str) -> None:
    app.config["SMTP_URL"] = closed_port_url
    learner(settings={"enabled": True, "remind_minute": 23 * 60 + 58, "email": True, "in_app": False})
    late = datetime(2026, 3, 10, 15, 58, tzinfo=UTC)  # 23:58 in Shanghai
    sweep(late)
    assert log_rows()[0].status == "failed"  # the next try would fall tomorrow
    assert "ConnectionRefusedError" in log_rows()[0].last_error


class Crash(BaseException):
    """Stands in for the process dying (not an error the sweep handles)."""


class CrashingTransport:
    name = "smtp"

    def send(self, message: EmailMessage) -> None:
        raise Crash()


def test_interrupted_send_is_retried_once_after_the_lease(app: Flask, smtp: Recorder, learner) -> None:
    user = learner()
    with pytest.raises(Crash):
        service.sweep(SHANGHAI_9, mail_transport=CrashingTransport())
    db.session.rollback()
    db.session.expire_all()
    [entry] = log_rows()
    assert entry.status == "sending"  # the claim was committed before the send
    # Another sweep while the lease runs leaves it alone (a live process may still be sending).
    assert sweep(SHANGHAI_9 + timedelta(minutes=5)).claimed == []
    # After the lease: exactly one retry.
    restart = SHANGHAI_9 + timing.SEND_LEASE + timedelta(minutes=1)
    assert [u.email for u in sweep(restart).sent] == [user.email]
    assert sweep(restart + timedelta(minutes=30)).claimed == []
    [entry] = log_rows()
    assert (entry.status, entry.attempts) == ("sent", 2)
    assert [a.outcome for a in attempts_of(entry)] == ["lost", "sent"]
    assert smtp.recipients() == [user.email]


def test_restart_after_a_successful_send_sends_nothing_again(tmp_path: Path, app: Flask, smtp: Recorder,
                                                             learner) -> None:
    from tests.support.app import make_app

    user = learner()
    assert [u.email for u in sweep(SHANGHAI_9).sent] == [user.email]
    db.session.commit()  # release the test's read transaction (SQLite takes the write lock at BEGIN)
    # A new process on the same database, well after any lease.
    again = make_app(tmp_path / "restart", SQLALCHEMY_DATABASE_URI=app.config["SQLALCHEMY_DATABASE_URI"],
                     SMTP_URL=app.config["SMTP_URL"])
    with again.app_context():
        assert service.sweep(SHANGHAI_9 + timedelta(hours=2)).claimed == []
        db.session.remove()
        db.engine.dispose()
    assert len(smtp.messages) == 1


def test_dismissing_the_notification_does_not_stop_the_email(app: Flask, learner, closed_port_url: str,
                                                              smtp: Recorder, client, login) -> None:
    working = app.config["SMTP_URL"]
    app.config["SMTP_URL"] = closed_port_url
    user = learner()
    sweep(SHANGHAI_9)  # notification made, email failed
    note = db.session.scalars(select(Notification)).one()
    assert service.dismiss(user, note.id, SHANGHAI_9) == 1
    db.session.commit()
    app.config["SMTP_URL"] = working
    assert [u.email for u in sweep(SHANGHAI_9 + timedelta(minutes=5)).sent] == [user.email]
    assert db.session.scalar(select(func.count(Notification.id))) == 1


# --- concurrency: two OS processes -------------------------------------------------------------


def test_two_concurrent_sweeps_in_two_processes_send_one_email_per_user(
        tmp_path: Path, app: Flask, smtp: Recorder, learner) -> None:
    users = [learner(tz) for tz in ["Asia/Shanghai", "UTC", "Asia/Kolkata", "Europe/Berlin"] * 5]
    db.session.commit()
    now = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)  # past 09:00 in all four zones
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    procs = [remind_process(url, app.config["SMTP_URL"], tmp_path / f"proc{i}", now) for i in range(2)]
    outputs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outputs):
        assert p.returncode == 0, err
    assert smtp.recipients() == sorted(u.email for u in users)  # each exactly once
    db.session.expire_all()
    assert {e.status for e in log_rows()} == {"sent"}
    assert len(log_rows()) == len(users)
    sent_lines = sum(out.count("reminded ") for out, _ in outputs)
    assert sent_lines == len(users)


# --- the query count does not grow with the number of users ------------------------------------

class QueryCounter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, *args) -> None:
        self.count += 1


def _counting(app: Flask, fn: Callable[[], object]) -> int:
    counter = QueryCounter()
    event.listen(db.engine, "before_cursor_execute", counter)
    try:
        fn()
    finally:
        event.remove(db.engine, "before_cursor_execute", counter)
    return counter.count


class CountingTransport:
    """Records how many statements ran before the first email."""

    name = "test"

    def __init__(self, counter: QueryCounter) -> None:
        self.counter = counter
        self.before_first: int | None = None
        self.sent = 0

    def send(self, message: EmailMessage) -> None:
        if self.before_first is None:
            self.before_first = self.counter.count
        self.sent += 1


@pytest.mark.parametrize("channel", ["in_app", "email"])
def test_sweep_query_count_is_independent_of_user_count(app: Flask, learner, channel: str) -> None:
    zones = ["Asia/Shanghai", "UTC", "America/Sao_Paulo", "Asia/Kolkata", "Europe/Berlin"]
    settings = {"enabled": True, "email": channel == "email", "in_app": channel == "in_app"}
    now = datetime(2026, 3, 10, 15, 0, tzinfo=UTC)  # past 09:00 in every zone listed
    results = {}
    day = 0
    for n in (5, 50):
        while db.session.scalar(select(func.count(User.id))) < n:
            count = db.session.scalar(select(func.count(User.id)))
            learner(zones[count % len(zones)], settings=settings)
        when = now + timedelta(days=day)
        day += 1
        find = _counting(app, lambda: find_due(when))
        db.session.rollback()
        counter = QueryCounter()
        transport = CountingTransport(counter)
        event.listen(db.engine, "before_cursor_execute", counter)
        try:
            report = service.sweep(when, mail_transport=transport)
        finally:
            event.remove(db.engine, "before_cursor_execute", counter)
        assert len(report.claimed) == n
        results[n] = (find, transport.before_first if channel == "email" else counter.count)
    assert results[5] == results[50], results
    assert results[5][0] <= 3


class ListTransport:
    """Keeps every message; raises ``Crash`` on the send numbered ``crash_at`` (1-based)."""

    name = "test"

    def __init__(self, crash_at: int | None = None) -> None:
        self.messages: list[EmailMessage] = []
        self.crash_at = crash_at

    def send(self, message: EmailMessage) -> None:
        if self.crash_at is not None and len(self.messages) + 1 == self.crash_at:
            raise Crash()
        self.messages.append(message)

    def recipients(self) -> list[str]:
        return sorted(str(m["To"]) for m in self.messages)


def _paged_world(learner, n: int = 11) -> list[User]:
    """``n`` due users, with users who have nothing due (or reminders off) between them."""
    due = []
    for k in range(n):
        due.append(learner())
        if k % 3 == 0:
            learner(cards=0)
            learner(settings={"enabled": False})
    return due


def test_one_sweep_reminds_every_due_user_a_page_at_a_time(app: Flask, learner) -> None:
    from prep.reminders.sweep import run_sweep
    from prep.reminders.sweep_query import find_due_page, zone_clocks

    due = _paged_world(learner)
    users = 11 + 4 + 4  # a page is the next 4 users by id, wanted or not (the bound on a page's cost)
    pages = []
    zc = zone_clocks(SHANGHAI_9)
    after = 0
    while True:
        counter = QueryCounter()
        event.listen(db.engine, "before_cursor_execute", counter)
        try:
            page = find_due_page(zc, after_id=after, batch_size=4)
        finally:
            event.remove(db.engine, "before_cursor_execute", counter)
        pages.append((len(page.due), counter.count))
        if not page.more:
            break
        after = page.last_id
    assert [count for _, count in pages] == [1] * len(pages)  # one query a page
    assert len(pages) == users // 4 + 1 and sum(n for n, _ in pages) == 2 * len(due)  # email and in-app each
    db.session.rollback()
    transport = ListTransport()
    report = run_sweep(SHANGHAI_9, service.senders(transport), batch_size=4)
    db.session.expire_all()
    assert transport.recipients() == sorted(u.email for u in due)  # every due user, in one sweep, once
    assert sorted(u.email for u in report.sent) == sorted(u.email for u in due)
    assert {e.status for e in log_rows()} == {"sent"} and len(log_rows()) == len(due)
    assert {a.outcome for e in log_rows() for a in attempts_of(e)} == {"sent"}
    assert run_sweep(SHANGHAI_9 + timedelta(minutes=5), service.senders(transport), batch_size=4).claimed == []
    assert len(transport.messages) == len(due)


def test_a_stopped_sweep_is_carried_on_by_the_next(app: Flask, learner) -> None:
    from prep.reminders.sweep import run_sweep

    due = _paged_world(learner)
    transport = ListTransport()
    asked = []
    first = run_sweep(SHANGHAI_9, service.senders(transport), batch_size=4,
                      keep_going=lambda: asked.append(1) and False)
    assert len(asked) == 1 and 0 < len(first.sent) < len(due)  # one page, then the lease was lost
    rest = run_sweep(SHANGHAI_9 + timedelta(minutes=5), service.senders(transport), batch_size=4)
    assert len(first.sent) + len(rest.sent) == len(due)
    assert transport.recipients() == sorted(u.email for u in due)


def test_sent_emails_are_recorded_in_groups_and_a_crash_keeps_what_went_out(
        app: Flask, learner, monkeypatch) -> None:
    from prep.reminders import sweep as sweep_module

    monkeypatch.setattr(sweep_module, "RECORD_EVERY", 2)
    users = [learner() for _ in range(6)]
    crashing = ListTransport(crash_at=4)
    with pytest.raises(Crash):
        sweep_module.run_sweep(SHANGHAI_9, service.senders(crashing))
    db.session.rollback()
    db.session.expire_all()
    status = {e.user_id: e.status for e in log_rows()}
    went_out = {u.id for u in users if u.email in crashing.recipients()}
    assert len(went_out) == 3 and all(status[uid] == "sent" for uid in went_out)  # 2 in a group, 1 at the crash
    assert sorted(status[u.id] for u in users if u.id not in went_out) == ["sending"] * 3
    # After the lease, the three that never went out are sent, once; nothing goes twice.
    again = ListTransport()
    later = sweep_module.run_sweep(SHANGHAI_9 + timing.SEND_LEASE + timedelta(minutes=1), service.senders(again))
    assert sorted(u.user_id for u in later.sent) == sorted(u.id for u in users if u.id not in went_out)
    assert sorted(crashing.recipients() + again.recipients()) == sorted(u.email for u in users)


# --- pages -------------------------------------------------------------------------------------

def test_settings_page_shows_zone_and_saves(app: Flask, client, login, make_user) -> None:
    user = make_user(timezone="Asia/Shanghai")
    login(user)
    page = client.get("/settings/reminders").get_data(as_text=True)
    assert "Asia/Shanghai" in page and 'href="/settings"' in page
    assert 'value="09:00"' in page
    response = client.post("/settings/reminders", data={"enabled": "y", "remind_at": "07:30", "in_app": "y"})
    assert response.status_code == 302
    row = db.session.get(ReminderSettings, user.id)
    assert (row.enabled, row.remind_minute, channel_on(user.id, "email"), channel_on(user.id, "in_app")) == (
        True, 450, False, True)
    bad = client.post("/settings/reminders", data={"enabled": "y", "remind_at": "07:30"})
    assert bad.status_code == 400 and "Choose at least one way to be reminded" in bad.get_data(as_text=True)
    assert client.post("/settings/reminders", data={"remind_at": "25:00"}).status_code == 400


def test_settings_post_needs_csrf(csrf_app: Flask, client, login, make_user) -> None:
    user = make_user()
    login_page = client.get("/login").get_data(as_text=True)
    client.post("/login", data={"email": user.email, "password": "correct horse battery staple",
                                "csrf_token": csrf_token_from(login_page)})
    assert client.post("/settings/reminders", data={"remind_at": "07:00"}).status_code == 400
    page = client.get("/settings/reminders").get_data(as_text=True)
    ok = client.post("/settings/reminders", data={"remind_at": "07:00", "email": "y", "enabled": "y",
                                                  "csrf_token": csrf_token_from(page)})
    assert ok.status_code == 302
    assert db.session.get(ReminderSettings, user.id).remind_minute == 420


def test_settings_page_requires_login(client) -> None:
    assert client.get("/settings/reminders").status_code == 302


def test_unsubscribe_get_confirms_post_unsubscribes_without_login(csrf_app: Flask, client, learner) -> None:
    user = learner()
    path = service.unsubscribe_url(user.id).removeprefix("http://127.0.0.1:5000")
    page = client.get(path)
    assert page.status_code == 200 and "Stop reminder emails?" in page.get_data(as_text=True)
    assert db.session.get(ReminderSettings, user.id) is None  # GET changed nothing
    assert db.session.scalar(select(func.count()).select_from(ReminderChannel)) == 0
    done = client.post(path, data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and "unsubscribed" in done.get_data(as_text=True)
    assert (channel_on(user.id, "email"), channel_on(user.id, "in_app"), service.settings_for(user).enabled) == (
        False, True, True)


def test_tampered_unsubscribe_token_is_refused(csrf_app: Flask, client, learner) -> None:
    victim = learner()
    attacker = learner()
    token = service.unsubscribe_url(attacker.id).rsplit("/", 1)[1]
    payload, signature = token.split(".")
    import base64
    import json

    forged_payload = base64.urlsafe_b64encode(json.dumps({"u": victim.id}).encode()).decode().rstrip("=")
    for bad in (f"{forged_payload}.{signature}", token[:-1] + ("x" if token[-1] != "x" else "y"), "nonsense"):
        assert client.get(f"/unsubscribe/{bad}").status_code == 404
        assert client.post(f"/unsubscribe/{bad}", data={"List-Unsubscribe": "One-Click"}).status_code == 404
    assert db.session.scalar(select(func.count()).select_from(ReminderSettings)) == 0
    assert db.session.scalar(select(func.count()).select_from(ReminderChannel)) == 0


def test_banner_and_notifications_with_dismiss(app: Flask, client, login, make_user, question, clock) -> None:
    user = make_user(timezone="UTC")
    db.session.add(Card(user_id=user.id, question_id=question.id, due=FIXED_NOW - timedelta(days=1)))
    db.session.commit()
    login(user)
    assert "reminder-banner" not in client.get("/dashboard").get_data(as_text=True)
    now = clock.now
    local_date = timing.zone_clock(now, "UTC").local_date
    db.session.add(Notification(user_id=user.id, local_date=local_date, due_count=1, message="You have 1 card"))
    db.session.commit()
    page = client.get("/dashboard").get_data(as_text=True)
    assert 'id="reminder-banner"' in page and "1 card to review today" in page
    listing = client.get("/notifications").get_data(as_text=True)
    assert "You have 1 card" in listing
    note = db.session.scalars(select(Notification)).one()
    assert client.post(f"/notifications/{note.id}/dismiss").status_code == 302
    assert "reminder-banner" not in client.get("/dashboard").get_data(as_text=True)
    assert "(dismissed)" in client.get("/notifications").get_data(as_text=True)
    assert client.post(f"/notifications/{note.id}/dismiss").status_code == 404


def test_other_users_notification_cannot_be_dismissed(app: Flask, client, login, make_user) -> None:
    owner, other = make_user(), make_user()
    db.session.add(Notification(user_id=owner.id, local_date=date(2026, 3, 10), message="m"))
    db.session.commit()
    login(other)
    note = db.session.scalars(select(Notification)).one()
    assert client.post(f"/notifications/{note.id}/dismiss").status_code == 404
    db.session.expire_all()
    assert db.session.get(Notification, note.id).dismissed_at is None


def test_dismiss_needs_csrf(csrf_app: Flask, client, make_user) -> None:
    user = make_user()
    db.session.add(Notification(user_id=user.id, local_date=date(2026, 3, 10), message="m"))
    db.session.commit()
    login_page = client.get("/login").get_data(as_text=True)
    client.post("/login", data={"email": user.email, "password": "correct horse battery staple",
                                "csrf_token": csrf_token_from(login_page)})
    note = db.session.scalars(select(Notification)).one()
    assert client.post(f"/notifications/{note.id}/dismiss").status_code == 400


def test_calendar_feed_private_and_revocable(app: Flask, client, login, make_user, question) -> None:
    user = make_user(timezone="Asia/Shanghai")
    db.session.add(Card(user_id=user.id, question_id=question.id, due=FIXED_NOW - timedelta(days=1)))
    db.session.commit()
    login(user)
    assert client.post("/settings/reminders/calendar").status_code == 302
    token = db.session.get(ReminderSettings, user.id).calendar_token
    assert token and token in client.get("/settings/reminders").get_data(as_text=True)
    client.get("/logout")
    response = client.get(f"/calendar/{token}.ics")  # no login: the token is the key
    assert response.status_code == 200 and response.mimetype == "text/calendar"
    cal = Calendar.from_ical(response.data)
    [today, *_] = cal.walk("VEVENT")
    assert str(today["summary"]) == "Learn 1 new card"  # a new card, named as the plan and /stats name it
    start = today.decoded("dtstart")
    assert (start.hour, start.minute, str(today["dtstart"].params["TZID"])) == (9, 0, "Asia/Shanghai")
    login(user)
    client.post("/settings/reminders/calendar")
    assert client.get(f"/calendar/{token}.ics").status_code == 404
    assert client.get("/calendar/not-a-token.ics").status_code == 404


def test_the_settings_page_builds_the_calendar_link_from_base_url_not_the_host_header(
        app: Flask, client, login, make_user) -> None:
    app.config["BASE_URL"] = "https://prep.example.org/app"
    login(make_user())
    client.post("/settings/reminders/calendar")
    session = client.get_cookie(app.config["SESSION_COOKIE_NAME"])  # the same login, sent to the forged host
    client.set_cookie(session.key, session.value, domain="evil.example.net")
    page = client.get("/settings/reminders", headers={"Host": "evil.example.net"}).get_data(as_text=True)
    link = page.split('id="calendar-url"', 1)[0].rsplit('value="', 1)[1].split('"', 1)[0]
    assert link.startswith("https://prep.example.org/app/calendar/") and link.endswith(".ics")
    assert "evil.example.net" not in page


# --- CLI and scheduler -------------------------------------------------------------------------

def test_cli_remind_dry_run_and_real(app: Flask, runner, smtp: Recorder, learner) -> None:
    user = learner()
    result = runner.invoke(args=["remind", "--dry-run", "--now", "2026-03-10T01:05:00Z"])
    assert result.exit_code == 0, result.output
    assert f"would remind {user.email} (Asia/Shanghai, 09:00 local, 2026-03-10): 1 due" in result.output
    assert "nothing sent" in result.output and smtp.messages == []
    result = runner.invoke(args=["remind", "--now", "2026-03-10T01:05:00"])  # no zone: UTC
    assert result.exit_code == 0, result.output
    assert f"reminded {user.email}" in result.output and "1 message(s) sent (email 1)" in result.output
    assert smtp.recipients() == [user.email]
    bad = runner.invoke(args=["remind", "--now", "yesterday"])
    assert bad.exit_code != 0 and "ISO 8601" in bad.output


def test_scheduler_job_is_an_interval_of_five_minutes(app: Flask) -> None:
    from apscheduler.schedulers.background import BackgroundScheduler

    from prep.reminders import scheduler

    sched = scheduler.configure(BackgroundScheduler(timezone=UTC), app)
    jobs = {job.id: job for job in sched.get_jobs()}
    # the reminder sweep, and the other features' periodic work (the day's interview plans)
    assert set(jobs) == {scheduler.JOB_ID, *app.extensions["prep.periodic_jobs"]}
    for job in jobs.values():
        assert job.trigger.interval == timedelta(minutes=5)
        assert job.max_instances == 1 and job.coalesce is True
    scheduler.sweep_job(app)()  # runs a real sweep (nobody due) without raising
    jobs["interview-plans"].func()  # and the plans' sweep (nothing due)


def test_background_scheduler_starts_only_forserve(tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    import waitress

    from prep import reminders
    from prep.cli import main
    from prep.reminders import scheduler

    started = []
    monkeypatch.setattr(scheduler, "start_background", lambda app, *a: started.append(app))
    monkeypatch.setattr(waitress, "serve", lambda *a, **k: None)
    env = {"PREP_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "PREP_INSTANCE_DIR": str(tmp_path / "i"),
           "PREP_SECRET_KEY": "s", "PREP_SCHEDULER": "1", "PREP_CONTENT_DIR": str(tmp_path)}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    from prep import create_app

    schema_app = create_app({"SCHEDULER_ENABLED": False})
    with schema_app.app_context():
        db.create_all()
        db.engine.dispose()
    cli = CliRunner()

    def run(*args: str):
        monkeypatch.setattr(sys, "argv", ["prep", *args])
        result = cli.invoke(main, list(args))
        assert result.exit_code == 0, result.output
        return result

    run("remind", "--dry-run")
    run("serve", "--help")
    assert started == []
    run("serve", "--port", "5999")
    assert len(started) == 1
    monkeypatch.setenv("PREP_SCHEDULER", "0")
    run("serve", "--port", "5999")
    assert len(started) == 1
    monkeypatch.setenv("PREP_SCHEDULER", "1")
    monkeypatch.setattr(sys, "argv", ["prep", "serve"])
    from prep import create_app

    create_app({"SCHEDULER_ENABLED": True})  # outside the CLI (tests, WSGI workers): never
    assert len(started) == 1


@pytest.mark.parametrize(("argv", "name"), [
    (["serve", "--port", "1"], "serve"), (["--app", "x", "serve"], "serve"), (["-e", ".env", "remind"], "remind"),
    (["--debug", "scheduler"], "scheduler"), (["--help"], None), ([], None),
])
def test_cli_command_name(argv: list[str], name: str | None) -> None:
    from prep.reminders.wiring import cli_command

    assert cli_command(argv)[0] == name


def test_migration_builds_the_tables_the_models_describe(tmp_path: Path) -> None:
    """The reminder tables' migrations (the first, then the channels') build what the models
    describe; the channels' keeps each user's switches and a day's claims, and goes back."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from alembic.operations import Operations
    from sqlalchemy import MetaData, create_engine, text

    first, channels = _revision("0003_reminders"), _revision("0023_reminder_channels")

    ours = {"reminder_settings", "reminder_channels", "reminder_log", "reminder_attempts", "notifications"}
    engine = create_engine(f"sqlite:///{tmp_path / 'migrated.sqlite3'}")
    with engine.begin() as conn:
        db.metadata.tables["users"].create(conn)
        with Operations.context(MigrationContext.configure(conn)):
            first.upgrade()
        for uid, email, in_app in ((1, True, True), (2, False, True), (3, True, False)):
            conn.execute(text("INSERT INTO users (id, email, display_name, password_hash, role, created_at,"
                              " session_version, timezone, day_start_hour, new_per_day, reviews_per_day,"
                              " desired_retention, learning_steps, relearning_steps, maximum_interval) VALUES"
                              f" ({uid}, 'u{uid}@example.com', '', 'x', 'candidate', '2026-01-01 00:00:00', 1, 'UTC',"
                              " 4, 20, 200, 0.9, '1m 10m', '10m', 36500)"))
            conn.execute(text("INSERT INTO reminder_settings (user_id, enabled, remind_minute, email, in_app,"
                              f" updated_at) VALUES ({uid}, true, 540, {email}, {in_app}, '2026-01-01 00:00:00')"))
        conn.execute(text("INSERT INTO reminder_log (user_id, local_date, status, channels, due_count, attempts,"
                          " claimed_at, expires_at) VALUES (1, '2026-03-10', 'retry', 'email,in_app', 3, 1,"
                          " '2026-03-10 09:00:00', '2026-03-11 00:00:00'), (2, '2026-03-10', 'sent', 'in_app', 3,"
                          " 0, '2026-03-10 09:00:00', '2026-03-11 00:00:00')"))
        with Operations.context(MigrationContext.configure(conn)):
            channels.upgrade()
        assert sorted(conn.execute(text("SELECT user_id, channel, enabled FROM reminder_channels")).all()) == [
            (1, "email", 1), (1, "in_app", 1), (2, "email", 0), (2, "in_app", 1), (3, "email", 1), (3, "in_app", 0)]
        assert sorted(conn.execute(text("SELECT user_id, channel, status, attempts FROM reminder_log")).all()) == [
            (1, "email", "retry", 1), (1, "in_app", "sent", 0), (2, "in_app", "sent", 0)]
        wanted = MetaData()
        for name in ours | {"users"}:
            db.metadata.tables[name].to_metadata(wanted)
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), wanted)
        assert diff == []
        with Operations.context(MigrationContext.configure(conn)):
            channels.downgrade()
        assert sorted(conn.execute(text("SELECT user_id, email, in_app FROM reminder_settings")).all()) == [
            (1, 1, 1), (2, 0, 1), (3, 1, 0)]
        assert sorted(conn.execute(text("SELECT user_id, channels, status FROM reminder_log")).all()) == [
            (1, "email,in_app", "retry"), (2, "in_app", "sent")]
        with Operations.context(MigrationContext.configure(conn)):
            first.downgrade()
    engine.dispose()


def _revision(name: str):
    """A revision file of prep/migrations/versions, loaded as a module."""
    path = Path(__file__).resolve().parents[2] / "prep" / "migrations" / "versions" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"revision_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
