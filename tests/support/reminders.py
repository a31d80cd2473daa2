"""Reminder test pieces: a real SMTP server on 127.0.0.1 (aiosmtpd), learners with due cards, a
sweep that re-reads the rows afterwards, and ``prep remind`` as a separate process."""
from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from flask import Flask
from sqlalchemy import select

from prep.accounts.models import User
from prep.drill.models import Card, CardState
from prep.extensions import db
from prep.questions.models import Question, Source
from prep.reminders import service
from prep.reminders.channels import CHANNELS
from prep.reminders.models import ReminderChannel, ReminderLog, ReminderSettings

from .clock import FIXED_NOW
from .live import free_port

UTC = timezone.utc
REPO = Path(__file__).resolve().parents[2]
SHANGHAI_9 = datetime(2026, 3, 10, 1, 0, tzinfo=UTC)  # 09:00 in Asia/Shanghai


class Recorder:
    """Accepts every message and keeps it."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd hook name)
        message = message_from_bytes(envelope.original_content, policy=policy.default)
        self.messages.append((list(envelope.rcpt_tos), message))
        return "250 OK"

    def recipients(self) -> list[str]:
        return sorted(r for rcpts, _ in self.messages for r in rcpts)


def serve(handler) -> Iterator[tuple[str, object]]:
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}?timeout=5", handler
    finally:
        controller.stop()


@pytest.fixture
def smtp(app: Flask) -> Iterator[Recorder]:
    """A working SMTP server; the app sends to it."""
    for url, handler in serve(Recorder()):
        app.config["SMTP_URL"] = url
        yield handler  # type: ignore[misc]


@pytest.fixture
def question(app: Flask) -> Question:
    q = Question(text="请解释NCCL中AllReduce的Ring算法原理", norm="ring", source=Source.content)
    db.session.add(q)
    db.session.commit()
    return q


@pytest.fixture
def learner(app: Flask, question: Question) -> Callable[..., User]:
    """A user (no password hashing: fast) with one new card, unless told otherwise, registered
    30 days before FIXED_NOW (a reminder never goes out before the user's first reminder time).
    ``settings``: the reminder settings, a channel's name turning it on or off (``email=False``)."""
    counter = {"n": 0}

    def factory(tz: str = "Asia/Shanghai", *, cards: int = 1, state: CardState = CardState.new,
                due: datetime | None = None, settings: dict | None = None, **user_fields) -> User:
        counter["n"] += 1
        user = User(email=user_fields.pop("email", f"learner{counter['n']}@example.com"), password_hash="x",
                    timezone=tz, **{"created_at": FIXED_NOW - timedelta(days=30), **user_fields})
        db.session.add(user)
        db.session.flush()
        for k in range(cards):
            q = question if k == 0 else Question(text=f"Question {k} for {user.email}", norm=f"q{k}{user.id}",
                                                 source=Source.content)
            if k:
                db.session.add(q)
                db.session.flush()
            db.session.add(Card(user_id=user.id, question_id=q.id, state=state,
                                due=due or FIXED_NOW - timedelta(days=1), added_at=FIXED_NOW - timedelta(days=1)))
        if settings is not None:
            add_settings(user.id, settings)
        db.session.commit()
        return user

    return factory


def add_settings(user_id: int, settings: dict) -> None:
    """Reminder settings for a user: channel names (``email``, ``in_app``, ...) as on/off switches,
    the rest for ``ReminderSettings``."""
    settings = dict(settings)
    for name in [key for key in settings if key in CHANNELS]:
        db.session.add(ReminderChannel(user_id=user_id, channel=name, enabled=settings.pop(name), options={}))
    db.session.add(ReminderSettings(user_id=user_id, **settings))


def channel_on(user_id: int, name: str) -> bool:
    """Whether the user's stored settings turn channel ``name`` on (its default without a row)."""
    return CHANNELS[name].is_enabled(db.session.get(ReminderChannel, (user_id, name)))


def sweep(now: datetime, **kwargs):
    report = service.sweep(now, **kwargs)
    db.session.expire_all()
    return report


def log_rows(channel: str | None = "email") -> list[ReminderLog]:
    """The claims of ``channel`` (None: every channel's), by user and day."""
    stmt = select(ReminderLog).order_by(ReminderLog.user_id, ReminderLog.local_date, ReminderLog.channel)
    return list(db.session.scalars(stmt if channel is None else stmt.where(ReminderLog.channel == channel)))


def remind_process(database_url: str, smtp_url: str, instance: Path, now: datetime) -> subprocess.Popen:
    env = {**os.environ, "PREP_DATABASE_URL": database_url, "PREP_SMTP_URL": smtp_url,
           "PREP_SECRET_KEY": "test-secret", "PREP_INSTANCE_DIR": str(instance), "PREP_SCHEDULER": "0",
           "PREP_CONTENT_DIR": str(instance / "content")}
    return subprocess.Popen([sys.executable, "-m", "prep", "remind", "--now", now.isoformat()], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
