"""The reminder email is written in the recipient's language (their account setting, English
when unset), whatever language the sweep runs in: subject, text and HTML parts, and
``<html lang>``. Sent through the file outbox with a fixed clock; headers must stay well-formed."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from flask import Flask

from prep.accounts.models import User
from prep.drill.models import Card, CardState
from prep.extensions import db
from prep.questions.models import Question, Source
from prep.reminders import service

SHANGHAI_9 = datetime(2026, 3, 10, 1, 0, tzinfo=timezone.utc)  # 09:00 in Asia/Shanghai


def _learner(email: str, language: str | None, cards: int) -> User:
    user = User(email=email, password_hash="x", timezone="Asia/Shanghai", language=language,
                created_at=SHANGHAI_9 - timedelta(days=30))
    db.session.add(user)
    db.session.flush()
    for k in range(cards):
        q = Question(text=f"Question {k} for {email}", norm=f"q{k}-{email}", source=Source.content)
        db.session.add(q)
        db.session.flush()
        db.session.add(Card(user_id=user.id, question_id=q.id, state=CardState.new,
                            due=SHANGHAI_9 - timedelta(days=1), added_at=SHANGHAI_9 - timedelta(days=1)))
    db.session.commit()
    return user


def _outbox(app: Flask) -> dict[str, tuple[bytes, EmailMessage]]:
    out = {}
    for path in sorted((Path(app.instance_path) / "outbox").glob("*.eml")):
        raw = path.read_bytes()
        message = message_from_bytes(raw, policy=policy.default)
        out[str(message["To"])] = (raw, message)
    return out


def _parts(message: EmailMessage) -> tuple[str, str]:
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert text is not None and html is not None
    return text.get_content(), html.get_content()


def _assert_well_formed(raw: bytes, message: EmailMessage) -> None:
    head = raw.split(b"\n\n", 1)[0] if b"\r\n\r\n" not in raw else raw.split(b"\r\n\r\n", 1)[0]
    head.decode("ascii")  # non-ASCII header text is RFC 2047-encoded, never raw bytes
    assert not message.defects
    for name in ("Subject", "From", "To", "Date", "Message-ID", "List-Unsubscribe", "List-Unsubscribe-Post"):
        assert message[name], name
        assert not message[name].defects, name
        assert "\n" not in str(message[name]) and "\r" not in str(message[name]), name
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert str(message["List-Unsubscribe"]).strip().startswith("<http")


def test_each_recipient_gets_the_email_in_their_language(app: Flask) -> None:
    app.config["SMTP_URL"] = None  # the file outbox
    zh = _learner("zh@example.com", "zh", cards=2)
    en = _learner("en@example.com", "en", cards=1)
    unset = _learner("unset@example.com", None, cards=3)
    # The sweep runs under a Chinese request context: each email must still follow its recipient.
    with app.test_request_context("/", headers={"Accept-Language": "zh-CN"}):
        report = service.sweep(SHANGHAI_9)
    assert sorted(u.email for u in report.sent) == sorted([zh.email, en.email, unset.email])
    mails = _outbox(app)
    assert set(mails) == {zh.email, en.email, unset.email}
    for raw, message in mails.values():
        _assert_well_formed(raw, message)

    _, zh_mail = mails[zh.email]
    assert zh_mail["Subject"] == "今天有 2 张卡片待复习"
    text, html = _parts(zh_mail)
    assert text.splitlines()[0] == "zh，你好："
    assert "你今天有 2 张卡片待复习" in text and "开始练习: http" in text and "退订这些邮件" in text
    assert "to review today" not in text and "Unsubscribe" not in text and "Hello" not in text
    assert '<html lang="zh-CN">' in html and "今天有 2 张卡片待复习" in html and "退订" in html
    assert "to review today" not in html and "Start the drill" not in html and "Hello" not in html

    for address, count, noun in ((en.email, 1, "card"), (unset.email, 3, "cards")):
        _, mail = mails[address]
        assert mail["Subject"] == f"{count} {noun} to review today"
        text, html = _parts(mail)
        assert text.startswith("Hello ") and f"You have {count} {noun} to review today" in text
        assert "Unsubscribe from these emails:" in text
        assert '<html lang="en">' in html and "Start the drill" in html and "Start a streak today." in html
        assert not any("\u4e00" <= ch <= "\u9fff" for ch in text + html)  # no Chinese at all
