"""The app under test: an app on a throw-away SQLite database (or PostgreSQL), a client that isolates
requests as production does, a CLI runner, and user and question factories."""
from __future__ import annotations

import atexit
import contextvars
import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from prep import create_app
from prep.accounts.models import Role, User
from prep.accounts.service import create_user
from prep.extensions import db
from prep.questions.models import Question, Source
from prep.questions.service import add_question

PASSWORD = "correct horse battery staple"


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
        "PLAN_RUNNER": "inline",  # plans made right after the commit (tests of the plan job defer them)
    }
    config.update(overrides)
    copied = _copy_schema(config["SQLALCHEMY_DATABASE_URI"])
    app = create_app(config)
    app.test_client_class = IsolatedClient
    if not copied:
        with app.app_context():
            db.create_all()
    return app


_SCHEMA: list[Path] = []


def _schema_file() -> Path:
    """An empty SQLite database with the schema, built once per test process (``create_all``)."""
    if not _SCHEMA:
        folder = Path(tempfile.mkdtemp(prefix="prep-schema-"))
        atexit.register(shutil.rmtree, folder, True)
        path = folder / "schema.sqlite3"
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}",
                          "INSTANCE_PATH": str(folder / "instance"), "SECRET_KEY": "schema",
                          "CONTENT_DIR": str(folder / "content"), "SCHEDULER_ENABLED": False})
        with app.app_context():
            db.create_all()
            db.engine.dispose()  # the last connection checkpoints the WAL into the file
        _SCHEMA.append(path)
    return _SCHEMA[0]


def _copy_schema(uri: str) -> bool:
    """A new SQLite file database starts as a copy of the schema file (a file copy, not ``create_all``)."""
    if not uri.startswith("sqlite:///") or uri == "sqlite:///:memory:":
        return False
    target = Path(uri.removeprefix("sqlite:///"))
    if target.exists() or not target.parent.is_dir():
        return False
    shutil.copyfile(_schema_file(), target)
    return True


DEFAULT_PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def _postgres_server_url() -> str | None:
    """The PostgreSQL server to test against: PREP_TEST_POSTGRES_URL, else a local one if it answers."""
    url = os.environ.get("PREP_TEST_POSTGRES_URL")
    if url:
        return url
    try:
        import psycopg

        with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test", connect_timeout=3):
            return DEFAULT_PG_SERVER
    except Exception:
        return None


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throw-away PostgreSQL database for this test session, with the schema created."""
    server = _postgres_server_url()
    if server is None:
        pytest.skip("no PostgreSQL server (set PREP_TEST_POSTGRES_URL or run one on 127.0.0.1:5432)")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"prep_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(server).set(database=name).render_as_string(hide_password=False)
    yield url
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request, tmp_path: Path) -> str:
    """Each database test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    return request.getfixturevalue("postgres_url")


def _empty_all_tables() -> None:
    """Empty the session's PostgreSQL database for the next test: one round trip of DELETEs (children
    first) and of sequences set back to their start, a few milliseconds where TRUNCATE takes a
    fraction of a second (``setval``, not ``ALTER SEQUENCE … RESTART``: DDL, ten times slower)."""
    if db.engine.dialect.name != "postgresql":
        return  # each SQLite test has a file of its own
    deletes = [f'DELETE FROM "{table.name}"' for table in reversed(db.metadata.sorted_tables)]
    sequences = db.session.execute(text(
        "SELECT sequencename, start_value FROM pg_sequences WHERE schemaname = 'public'")).all()
    calls = [f"setval('public.\"{name}\"', {int(start)}, false)" for name, start in sequences]
    restarts = [f"SELECT {', '.join(calls)}"] if calls else []
    db.session.remove()
    connection = db.engine.raw_connection()
    try:
        connection.cursor().execute("; ".join(deletes + restarts))
        connection.commit()
    finally:
        connection.close()


def app_on(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    """An app on ``database_url`` inside its app context, with every table empty before and after (each
    SQLite test has a new file; the PostgreSQL database is shared by the session's tests)."""
    app = make_app(tmp_path, SQLALCHEMY_DATABASE_URI=database_url)
    with app.app_context():
        _empty_all_tables()
        yield app
        db.session.remove()
        _empty_all_tables()
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    yield from app_on(tmp_path, database_url)


@pytest.fixture
def csrf_app(app: Flask) -> Flask:
    """The app with CSRF protection on, as in production."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app


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
