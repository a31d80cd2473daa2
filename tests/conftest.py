"""Shared fixtures: an app on a throw-away SQLite database, a client, a CLI runner, users."""
from __future__ import annotations

import contextvars
import re
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from prep import create_app
from prep.accounts.models import Role, User
from prep.accounts.service import create_user
from prep.extensions import db
from prep.questions.models import Question, Source
from prep.questions.service import add_question

PASSWORD = "correct horse battery staple"
FIXED_NOW = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)


class IsolatedClient(FlaskClient):
    """Runs each request in its own app context and database session, as in production.

    The test body keeps an app context of its own (for direct database access); without this,
    requests would share it, and with it Flask-Login's cached user and the session's identity map.
    """

    _inside = False

    def open(self, *args, **kwargs):
        if self._inside:  # a redirect being followed: already isolated
            return super().open(*args, **kwargs)
        db.session.commit()  # end the test's own transaction so the request can take the write lock
        self._inside = True
        try:
            response = contextvars.Context().run(super().open, *args, **kwargs)
        finally:
            self._inside = False
        db.session.expire_all()
        return response


def make_app(tmp_path: Path, **overrides) -> Flask:
    config = {
        "TESTING": True,
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
        "CONTENT_DIR": str(tmp_path / "content"),
        "SCHEDULER_ENABLED": False,
    }
    config.update(overrides)
    app = create_app(config)
    app.test_client_class = IsolatedClient
    with app.app_context():
        db.create_all()
    return app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(tmp_path)
    with app.app_context():
        yield app
        db.session.remove()


@pytest.fixture
def csrf_app(tmp_path: Path) -> Iterator[Flask]:
    """An app with CSRF protection on, as in production."""
    app = make_app(tmp_path, WTF_CSRF_ENABLED=True)
    with app.app_context():
        yield app
        db.session.remove()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask):
    return app.test_cli_runner()


@pytest.fixture
def make_user(app: Flask) -> Callable[..., User]:
    counter = {"n": 0}

    def factory(email: str | None = None, role: Role = Role.candidate, **settings) -> User:
        counter["n"] += 1
        user = create_user(email or f"user{counter['n']}@example.com", PASSWORD, role=role)
        for key, value in settings.items():
            setattr(user, key, value)
        db.session.commit()
        return user

    return factory


@pytest.fixture
def make_question(app: Flask) -> Callable[..., Question]:
    counter = {"n": 0}

    def factory(text: str | None = None, tags: tuple[str, ...] = (), **kwargs) -> Question:
        counter["n"] += 1
        question = add_question(text or f"What is question number {counter['n']}?",
                                source=kwargs.pop("source", Source.content), tags=tags, **kwargs)
        db.session.commit()
        return question

    return factory


@pytest.fixture
def login(client: FlaskClient) -> Callable[[User], FlaskClient]:
    def do_login(user: User, target: FlaskClient | None = None) -> FlaskClient:
        c = target or client
        response = c.post("/login", data={"email": user.email, "password": PASSWORD})
        assert response.status_code == 302, response.get_data(as_text=True)
        return c

    return do_login


def csrf_token_from(html: str) -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html) or re.search(
        r'value="([^"]+)"[^>]*name="csrf_token"', html)
    assert match, "no csrf token in page"
    return match.group(1)
