"""Two hosts on one database without PREP_SECRET_KEY: the second refuses to start (`prep serve`)
with a message naming PREP_SECRET_KEY; with the same PREP_SECRET_KEY on both, both start; one
host on its own instance directory needs no configuration."""
from __future__ import annotations

from pathlib import Path

import pytest
import waitress
from click.testing import CliRunner
from flask import Flask

from prep import create_app
from prep.cli import main
from prep.extensions import db
from prep.secret_keys import SecretKeyHost, fingerprint


@pytest.fixture
def shared_db(app: Flask) -> str:
    """The database of the ``app`` fixture (SQLite file or PostgreSQL), schema created."""
    return app.config["SQLALCHEMY_DATABASE_URI"]


def _serve(monkeypatch, tmp_path: Path, name: str, database_url: str, secret: str | None):
    """`prep serve` of a host with its own instance directory (waitress not started)."""
    monkeypatch.setattr(waitress, "serve", lambda *a, **k: None)
    env = {"PREP_DATABASE_URL": database_url, "PREP_INSTANCE_DIR": str(tmp_path / name), "PREP_SCHEDULER": "0",
           "PREP_CONTENT_DIR": str(tmp_path)}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    if secret is None:
        monkeypatch.delenv("PREP_SECRET_KEY", raising=False)
    else:
        monkeypatch.setenv("PREP_SECRET_KEY", secret)
    monkeypatch.setattr("sys.argv", ["prep", "serve"])
    made: list[Flask] = []
    monkeypatch.setattr(main, "create_app", lambda: made.append(create_app()) or made[-1])
    result = CliRunner().invoke(main, ["serve", "--port", "5999"])
    for host_app in made:  # close its connections (PostgreSQL)
        with host_app.app_context():
            db.engine.dispose()
    return result


def test_a_second_host_without_a_key_refuses(monkeypatch, tmp_path: Path, shared_db: str) -> None:
    first = _serve(monkeypatch, tmp_path, "host-a", shared_db, None)
    assert first.exit_code == 0, first.output
    again = _serve(monkeypatch, tmp_path, "host-a", shared_db, None)  # the same host restarting
    assert again.exit_code == 0, again.output
    second = _serve(monkeypatch, tmp_path, "host-b", shared_db, None)
    assert second.exit_code == 1
    assert "PREP_SECRET_KEY" in second.output and "host-a" in second.output
    assert "prep is serving" not in second.output
    db.session.expire_all()
    rows = db.session.query(SecretKeyHost).all()
    key = (tmp_path / "host-a" / "secret_key").read_text().strip()
    assert [r.fingerprint for r in rows] == [fingerprint(key)]  # a hash, never the key
    assert all(key not in r.fingerprint for r in rows)


def test_the_same_key_on_every_host_starts(monkeypatch, tmp_path: Path, shared_db: str) -> None:
    for name in ("host-a", "host-b", "host-c"):
        result = _serve(monkeypatch, tmp_path, name, shared_db, "one-shared-secret")
        assert result.exit_code == 0, result.output
    # A host that then starts without the key, making its own, is refused.
    result = _serve(monkeypatch, tmp_path, "host-d", shared_db, None)
    assert result.exit_code == 1 and "PREP_SECRET_KEY" in result.output


def test_one_host_on_the_default_sqlite_needs_no_key(monkeypatch, tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    database = f"sqlite:///{instance / 'prep.sqlite3'}"
    schema = create_app({"INSTANCE_PATH": str(instance), "SQLALCHEMY_DATABASE_URI": database,
                         "SCHEDULER_ENABLED": False})
    with schema.app_context():
        db.create_all()
        db.engine.dispose()
    for _ in range(2):
        result = _serve(monkeypatch, tmp_path, "instance", database, None)
        assert result.exit_code == 0, result.output
