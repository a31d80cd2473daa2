"""The webhook reminder channel against a real HTTP server on 127.0.0.1 (``http.server`` in a
thread): one POST a day, the JSON each bot format takes, a 500 retried with back-off, a server
that never answers, a redirect not followed, private addresses refused, a crash between the POST
and its record (sent again after the lease with the same Idempotency-Key), and the settings form
(its messages next to the field, in English and Chinese). Fixed clocks."""
from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import date, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from flask import Flask
from sqlalchemy import select

from prep.accounts.passwords import hash_password
from prep.extensions import db
from prep.reminders import sweep as sweep_module
from prep.reminders import timing, worker
from prep.reminders.channels import webhook
from prep.reminders.channels.webhook import NetworkRules, WebhookUrlError, check_url
from prep.reminders.models import ReminderAttempt, ReminderChannel
from tests.support.app import PASSWORD
from tests.support.reminders import SHANGHAI_9, Recorder, log_rows, sweep


class Hook:
    """What the local server answers (a queue of (status, body, headers); 200 once it is empty)
    and every request it got."""

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.answers: list[tuple[int, bytes, dict[str, str]]] = []
        self.hang = threading.Event()  # set: the next request waits until ``release``
        self.release = threading.Event()
        self.url = ""

    def answer(self, status: int, body: bytes = b"ok", **headers: str) -> None:
        self.answers.append((status, body, headers))

    def bodies(self) -> list[dict]:
        return [r["json"] for r in self.requests]


@pytest.fixture
def hook() -> Iterator[Hook]:
    state = Hook()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            state.requests.append({"path": self.path, "headers": dict(self.headers), "json": json.loads(raw)})
            if state.hang.is_set():
                state.release.wait(30)
                return
            status, body, headers = state.answers.pop(0) if state.answers else (200, b"ok", {})
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # shutdown() waits for the loop's next look at its flag: every 20 ms, not the default half second
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/T000/B000"
    try:
        yield state
    finally:
        state.release.set()
        server.shutdown()
        server.server_close()
        thread.join(5)


def webhook_user(learner, url: str, style: str = "slack", *, email: bool = False, **fields):
    """A learner with one due card whose reminders go to ``url`` (email off unless asked)."""
    user = learner(settings={"email": email, "in_app": False}, **fields)
    db.session.add(ReminderChannel(user_id=user.id, channel="webhook", enabled=True, destination=url,
                                   options={"format": style}))
    db.session.commit()
    return user


def attempts(entry) -> list[ReminderAttempt]:
    return list(db.session.scalars(select(ReminderAttempt).where(ReminderAttempt.log_id == entry.id)
                                   .order_by(ReminderAttempt.number)))


# --- delivery --------------------------------------------------------------------------------

def test_the_reminder_is_posted_once_a_day(app: Flask, hook: Hook, smtp: Recorder, learner) -> None:
    user = webhook_user(learner, hook.url, email=True)
    report = sweep(SHANGHAI_9)
    assert sorted(u.channel for u in report.sent) == ["email", "webhook"]
    assert len(hook.requests) == 1 and smtp.recipients() == [user.email]  # each channel once
    request = hook.requests[0]
    assert request["path"] == "/hooks/T000/B000"
    assert request["headers"]["Content-Type"] == "application/json; charset=utf-8"
    assert request["headers"]["Idempotency-Key"] == f"prep-reminder-{user.id}-2026-03-10"
    assert sweep(SHANGHAI_9 + timedelta(minutes=5)).claimed == []
    assert sweep(SHANGHAI_9 + timedelta(hours=8)).claimed == []
    assert len(hook.requests) == 1
    [entry] = log_rows("webhook")
    assert (entry.status, entry.local_date, entry.attempts) == ("sent", date(2026, 3, 10), 1)
    assert [(a.outcome, a.transport) for a in attempts(entry)] == [("sent", "webhook")]
    assert [u.channel for u in sweep(SHANGHAI_9 + timedelta(days=1)).sent] == ["email", "webhook"]
    assert len(hook.requests) == 2


@pytest.mark.parametrize(("style", "shape"), [
    ("slack", lambda body: body["text"]),
    ("feishu", lambda body: body["msg_type"] == "text" and body["content"]["text"]),
    ("dingtalk", lambda body: body["msgtype"] == "text" and body["text"]["content"]),
    ("generic", lambda body: body["due"] == 1 and body["date"] == "2026-03-10" and body["text"]),
])
def test_each_format_has_the_shape_its_bot_takes(app: Flask, hook: Hook, learner, style, shape) -> None:
    webhook_user(learner, hook.url, style)
    sweep(SHANGHAI_9)
    [body] = hook.bodies()
    text = shape(body)
    assert text and "You have 1 card to review today" in text
    assert "请解释NCCL中AllReduce的Ring算法原理" in text  # up first
    assert "Start the drill: http://127.0.0.1:5000/drill" in text
    expected_keys = {"slack": {"text"}, "feishu": {"msg_type", "content"}, "dingtalk": {"msgtype", "text"},
                     "generic": {"text", "date", "due", "learning", "reviews", "new", "questions", "url"}}
    assert set(body) == expected_keys[style]


def test_the_message_is_in_the_users_language(app: Flask, hook: Hook, learner) -> None:
    webhook_user(learner, hook.url, "feishu", language="zh")
    sweep(SHANGHAI_9)
    text = hook.bodies()[0]["content"]["text"]
    assert "张卡片待复习" in text and "开始练习: http://127.0.0.1:5000/drill" in text


def test_a_server_error_is_retried_with_back_off_and_shown(app: Flask, hook: Hook, learner, client, login) -> None:
    user = webhook_user(learner, hook.url)
    user.password_hash = hash_password(PASSWORD)
    db.session.commit()
    hook.answer(500, b"upstream down")
    report = sweep(SHANGHAI_9)
    assert report.sent == [] and "HTTP 500: upstream down" in report.retrying[0][1]
    [entry] = log_rows("webhook")
    assert (entry.status, entry.attempts, entry.next_attempt_at) == ("retry", 1, SHANGHAI_9 + timedelta(minutes=5))
    login(user)
    page = client.get("/settings/reminders").get_data(as_text=True)
    status = page.split('id="channel-webhook-status"', 1)[1].split("</p>", 1)[0]
    assert "retry" in status and "HTTP 500: upstream down" in status
    assert sweep(SHANGHAI_9 + timedelta(minutes=4)).claimed == []  # backing off
    assert [u.channel for u in sweep(SHANGHAI_9 + timedelta(minutes=5)).sent] == ["webhook"]
    [entry] = log_rows("webhook")
    assert (entry.status, entry.attempts) == ("sent", 2)
    assert [a.outcome for a in attempts(entry)] == ["error", "sent"]
    assert len(hook.requests) == 2


def test_a_bot_refusing_in_its_json_is_a_failure(app: Flask, hook: Hook, learner) -> None:
    webhook_user(learner, hook.url, "feishu")
    hook.answer(200, b'{"code": 19001, "msg": "param invalid: incoming webhook access token invalid"}')
    report = sweep(SHANGHAI_9)
    assert "code 19001 param invalid" in report.retrying[0][1]


def test_a_server_that_never_answers_times_out(app: Flask, hook: Hook, learner, monkeypatch) -> None:
    monkeypatch.setattr(webhook, "TIMEOUT", 0.3)
    webhook_user(learner, hook.url)
    hook.hang.set()
    report = sweep(SHANGHAI_9)
    hook.release.set()
    assert report.sent == [] and "timed out" in report.retrying[0][1]
    assert log_rows("webhook")[0].status == "retry"


def test_a_redirect_is_not_followed(app: Flask, hook: Hook, learner) -> None:
    webhook_user(learner, hook.url)
    elsewhere = hook.url.replace("/hooks/T000/B000", "/elsewhere")
    hook.answer(302, b"", Location=elsewhere)
    report = sweep(SHANGHAI_9)
    assert report.retrying == [] and f"HTTP 302: redirect to {elsewhere} not followed" in report.failed[0][1]
    assert [r["path"] for r in hook.requests] == ["/hooks/T000/B000"]
    assert log_rows("webhook")[0].status == "failed"
    assert sweep(SHANGHAI_9 + timedelta(hours=1)).claimed == []


@pytest.mark.parametrize("url", ["https://10.0.0.7/hook", "https://169.254.169.254/latest/meta-data",
                                 "https://192.168.1.20:8443/x", "https://[::ffff:10.0.0.1]/x"])
def test_a_private_address_is_refused_at_delivery(app: Flask, hook: Hook, learner, url: str) -> None:
    webhook_user(learner, url)  # stored past the form (an old row, a changed rule)
    report = sweep(SHANGHAI_9)
    assert "private network" in report.failed[0][1] and report.retrying == []
    assert log_rows("webhook")[0].status == "failed"


def test_a_crash_between_the_post_and_its_record_posts_again_after_the_lease_with_the_same_key(
        app: Flask, hook: Hook, learner, monkeypatch) -> None:
    class Crash(BaseException):
        """Stands in for the process dying."""

    user = webhook_user(learner, hook.url)
    real = sweep_module.record_sent

    def crash(*args, **kwargs):
        raise Crash()

    monkeypatch.setattr(sweep_module, "record_sent", crash)
    with pytest.raises(Crash):
        sweep(SHANGHAI_9)
    db.session.rollback()
    monkeypatch.setattr(sweep_module, "record_sent", real)
    assert log_rows("webhook")[0].status == "sending" and len(hook.requests) == 1
    assert sweep(SHANGHAI_9 + timedelta(minutes=5)).claimed == []  # the lease still holds
    restart = SHANGHAI_9 + timing.SEND_LEASE + timedelta(minutes=1)
    assert [u.channel for u in sweep(restart).sent] == ["webhook"]
    assert sweep(restart + timedelta(minutes=30)).claimed == []
    keys = [r["headers"]["Idempotency-Key"] for r in hook.requests]
    assert keys == [f"prep-reminder-{user.id}-2026-03-10"] * 2  # the documented at-least-once window
    assert [a.outcome for a in attempts(log_rows("webhook")[0])] == ["lost", "sent"]


def test_through_the_job_queue_a_job_run_twice_posts_once(app: Flask, hook: Hook, learner) -> None:
    jobs: list = []
    app.extensions["prep.reminder_enqueuer"] = lambda: (lambda now, users: jobs.append((now, list(users))))
    webhook_user(learner, hook.url)
    report = sweep(SHANGHAI_9)
    assert [u.channel for u in report.queued] == ["webhook"] and hook.requests == []
    [(now, users)] = jobs
    assert worker.deliver(now, users) == 1
    assert worker.deliver(now, users) == 0  # the queue ran the job again: the claim is done
    assert len(hook.requests) == 1 and log_rows("webhook")[0].status == "sent"


# --- where a webhook may go ------------------------------------------------------------------

def _resolving(*addresses: str):
    return lambda host, port: list(addresses)


@pytest.mark.parametrize(("url", "rules", "addresses", "refused"), [
    ("https://hooks.slack.com/services/T/B/x", NetworkRules(), ("3.5.140.2",), None),
    ("https://open.feishu.cn/open-apis/bot/v2/hook/x", NetworkRules(), ("2001:db8::1",), "private network"),
    ("https://internal.example.com/x", NetworkRules(), ("3.5.140.2", "10.1.2.3"), "private network"),
    ("https://metadata.example.com/x", NetworkRules(), ("169.254.169.254",), "private network"),
    ("https://loop.example.com/x", NetworkRules(allow_loopback=True), ("127.0.0.1",), None),
    ("https://intranet.example.com/x", NetworkRules(allow_private=True), ("10.1.2.3",), None),
    ("http://hooks.example.com/x", NetworkRules(), ("3.5.140.2",), "https://"),
    ("http://127.0.0.1:9/x", NetworkRules(), ("127.0.0.1",), "https://"),
    ("http://localhost:9/x", NetworkRules(allow_loopback=True), ("127.0.0.1",), None),
    ("http://localhost:9/x", NetworkRules(allow_loopback=True), ("10.0.0.1",), "private network"),
    ("http://intranet.example.com/x", NetworkRules(allow_private=True), ("10.1.2.3",), None),
    ("ftp://hooks.example.com/x", NetworkRules(allow_private=True), ("3.5.140.2",), "https://"),
    ("https:///no-host", NetworkRules(), (), "https://"),
    ("https://nowhere.invalid/x", NetworkRules(), (), "could not be found"),
    ("https://hooks.example.com/" + "x" * 2100, NetworkRules(), ("3.5.140.2",), "2,048"),
])
def test_where_a_webhook_may_go(url: str, rules: NetworkRules, addresses: tuple[str, ...],
                                refused: str | None) -> None:
    if refused is None:
        target = check_url(url, rules, _resolving(*addresses))
        assert target.address == addresses[0]
        return
    with pytest.raises(WebhookUrlError) as err:
        check_url(url, rules, _resolving(*addresses))
    assert refused in str(err.value.message)


def test_production_refuses_loopback_unless_the_operator_allows_private_networks() -> None:
    assert NetworkRules.from_config({"TESTING": False}) == NetworkRules()
    assert NetworkRules.from_config({"TESTING": True}).allow_loopback
    assert NetworkRules.from_config({"WEBHOOK_ALLOW_PRIVATE": True}).allow_private
    with pytest.raises(WebhookUrlError):
        check_url("https://127.0.0.1/x", NetworkRules(), _resolving("127.0.0.1"))


# --- the settings form ---------------------------------------------------------------------------

def _field_errors(page: str) -> str:
    return page.split('id="webhook_url-error"', 1)[1].split("</div>", 1)[0] if 'id="webhook_url-error"' in page else ""


def test_the_settings_form_saves_a_webhook(app: Flask, hook: Hook, client, login, make_user) -> None:
    user = make_user()
    login(user)
    page = client.get("/settings/reminders").get_data(as_text=True)
    assert 'name="webhook_url"' in page and 'value="feishu"' in page
    response = client.post("/settings/reminders", data={"enabled": "y", "remind_at": "09:00", "webhook": "y",
                                                         "webhook_url": hook.url, "webhook_format": "dingtalk"})
    assert response.status_code == 302
    row = db.session.get(ReminderChannel, (user.id, "webhook"))
    assert (row.enabled, row.destination, row.options) == (True, hook.url, {"format": "dingtalk"})
    page = client.get("/settings/reminders").get_data(as_text=True)
    assert f'value="{hook.url}"' in page and '<option selected value="dingtalk">' in page


@pytest.mark.parametrize(("lang", "data", "message"), [
    ("en", {"webhook": "y"}, "Give the webhook's URL, or untick the webhook."),
    ("zh", {"webhook": "y"}, "请填写 Webhook 地址，或取消勾选 Webhook。"),
    ("en", {"webhook": "y", "webhook_url": "hooks.slack.com/services/x"}, "Give a full URL starting with https://."),
    ("en", {"webhook": "y", "webhook_url": "http://hooks.example.com/x"}, "Use an https:// URL."),
    ("zh", {"webhook": "y", "webhook_url": "http://hooks.example.com/x"}, "请使用 https:// 地址。"),
    ("en", {"webhook_url": "https://10.0.0.7/hook"}, "This URL leads into a private network; prep does not send there."),
    ("zh", {"webhook_url": "https://10.0.0.7/hook"}, "这个地址指向内部网络；prep 不向那里发送。"),
])
def test_the_settings_form_says_what_is_wrong_next_to_the_field(app: Flask, client, login, make_user, lang: str,
                                                                data: dict, message: str) -> None:
    login(make_user(language=lang))
    response = client.post("/settings/reminders", data={"enabled": "y", "remind_at": "09:00", "email": "y", **data})
    assert response.status_code == 400
    errors = _field_errors(response.get_data(as_text=True))
    assert message in errors.replace("&#39;", "'")
    assert db.session.scalar(select(ReminderChannel).where(ReminderChannel.channel == "webhook")) is None
