"""The fast reminder composer writes the same email as the reference composer (``EmailMessage``
and the templates per email): same headers, same text and HTML, in English and Chinese, and a
valid RFC 5322 message the ``email`` package parses without defects."""
from __future__ import annotations

import time
from datetime import date, datetime, timezone
from email import message_from_bytes, policy

import pytest
from flask import Flask

from prep.reminders import compose as fast
from prep.reminders.sweep_rules import DueUser, InterviewLine, ReminderMessage

HEADERS = ("From", "To", "Message-ID", "List-Unsubscribe", "List-Unsubscribe-Post", "List-Id",
           "Auto-Submitted", "Subject", "Content-Type")


def _mail(language: str | None, *, name: str, due: tuple[int, int, int], streak: int,
          questions: tuple[str, ...], interviews: tuple[InterviewLine, ...] = ()) -> ReminderMessage:
    user = DueUser(user_id=7, email="ada@example.com", display_name=name, timezone="Asia/Shanghai",
                   remind_minute=540, local_date=date(2026, 3, 10),
                   day_end=datetime(2026, 3, 10, 16, tzinfo=timezone.utc), channel="email",
                   learning=due[0], reviews=due[1], new=due[2], log_id=3, attempts=1,
                   language=language)
    return ReminderMessage(user=user, top_questions=questions, streak=streak,
                           message_id="<reminder-7-2026-03-10@127.0.0.1>", interviews=interviews)


CASES = [
    ("en", "Ada <b>&", (1, 2, 0), 3, ("What is <RAII> & why?", "Explain NCCL ring allreduce")),
    ("en", "", (0, 0, 1), 0, ()),
    ("zh", "小明", (0, 1, 0), 1, ("请解释NCCL中AllReduce的Ring算法原理",)),
    ("zh", "李雷 & 韩梅梅", (2, 3, 4), 0, ("问题一", "问题二", "问题三 <x>")),
    (None, "Bob", (5, 0, 0), 12, ("a" * 1200,)),
]


INTERVIEWS = (
    InterviewLine("Acme <GPU> & Co — NCCL engineer", date(2026, 3, 11), 1, 0.874, 0.9, False),
    InterviewLine("字节跳动 — 通信库研发", date(2026, 3, 14), 4, 0.93, 0.9, True),
    InterviewLine("Posting #9", date(2026, 3, 30), 20),
)
CASES += [
    ("en", "Ada", (1, 2, 0), 3, ("Explain RDMA verbs",), INTERVIEWS),
    ("zh", "小明", (0, 1, 0), 0, (), INTERVIEWS[1:]),
    ("zh", "李雷", (2, 0, 0), 2, ("问题一",), INTERVIEWS[:1]),
    ("en", "Bob", (0, 0, 3), 0, (), INTERVIEWS[2:]),
]
CASES = [case if len(case) == 6 else case + ((),) for case in CASES]


@pytest.mark.parametrize("language,name,due,streak,questions,interviews", CASES)
def test_fast_composer_matches_the_reference(app: Flask, language, name, due, streak, questions, interviews) -> None:
    mail = _mail(language, name=name, due=due, streak=streak, questions=questions, interviews=interviews)
    with app.app_context():
        reference = fast.compose_reference(mail)
        raw = fast.compose(mail)
        assert isinstance(raw, fast.RawMessage)
        data = raw.as_bytes()
    head = data.split(b"\r\n\r\n", 1)[0]
    head.decode("ascii")  # non-ASCII header text is RFC 2047-encoded
    assert all(len(line) <= 998 for line in data.split(b"\r\n"))
    assert b"\n" not in data.replace(b"\r\n", b"")
    parsed = message_from_bytes(data, policy=policy.default)
    assert not parsed.defects
    for header in HEADERS:
        assert not parsed[header].defects, header
        if header != "Content-Type":
            assert str(parsed[header]) == str(reference[header]), header
    assert parsed.get_content_type() == reference.get_content_type() == "multipart/alternative"
    for kind in ("plain", "html"):
        mine, theirs = parsed.get_body((kind,)), reference.get_body((kind,))
        assert mine.get_content_charset() == "utf-8"
        assert mine.get_content().replace("\r\n", "\n") == theirs.get_content().replace("\r\n", "\n"), kind
    assert raw.sender and raw.recipient == "ada@example.com"


def test_non_ascii_address_falls_back_to_the_reference(app: Flask) -> None:
    mail = _mail("en", name="x", due=(1, 0, 0), streak=0, questions=())
    mail = ReminderMessage(user=mail.user.__class__(**{**mail.user.__dict__, "email": "用户@例子.com"}),
                         top_questions=(), streak=0, message_id=mail.message_id)
    with app.app_context():
        assert not isinstance(fast.compose(mail), fast.RawMessage)


def test_fast_composer_is_fast(app: Flask) -> None:
    mails = [_mail(lang, name=f"User {k}", due=(k % 3, k % 5, k % 7 + 1), streak=k % 4,
                   questions=tuple(f"Question {k}.{j}" for j in range(k % 4))) for k, lang in
             ((k, ("en", "zh")[k % 2]) for k in range(400))]
    with app.app_context():
        for mail in mails[:50]:
            fast.compose(mail)  # prepares the templates
        started = time.thread_time()
        for mail in mails:
            fast.compose(mail)
        fast_s = time.thread_time() - started
        started = time.thread_time()
        for mail in mails[:100]:
            fast.compose_reference(mail)
        reference_s = (time.thread_time() - started) * 4
    assert fast_s * 3 < reference_s, (fast_s, reference_s)


def test_the_email_names_each_interview_ahead_with_its_forecast(app: Flask) -> None:
    mail = _mail("en", name="Ada", due=(1, 0, 0), streak=0, questions=(), interviews=INTERVIEWS)
    with app.app_context():
        parsed = message_from_bytes(fast.compose(mail).as_bytes(), policy=policy.default)
    text = parsed.get_body(("plain",)).get_content()
    html = parsed.get_body(("html",)).get_content()
    assert "Acme <GPU> & Co — NCCL engineer: in 1 day (2026-03-11). Predicted recall on the day: 87%, " \
           "below your 90% target." in text
    assert "字节跳动 — 通信库研发: in 4 days (2026-03-14). Predicted recall on the day: 93%, on track." in text
    assert "Posting #9: in 20 days (2026-03-30)." in text
    assert "/plan" in text
    assert "Acme &lt;GPU&gt; &amp; Co" in html and "<GPU>" not in html
    assert 'href="http' in html and '/plan"' in html


def test_no_interview_section_without_interviews(app: Flask) -> None:
    mail = _mail("en", name="Ada", due=(1, 0, 0), streak=0, questions=())
    with app.app_context():
        parsed = message_from_bytes(fast.compose(mail).as_bytes(), policy=policy.default)
    assert "Interviews ahead" not in parsed.get_body(("plain",)).get_content()
    assert "Interviews ahead" not in parsed.get_body(("html",)).get_content()
