"""Migrations: a database made by the first migration, with data in it, upgrades to head with
nothing lost; and the migrated schema matches the models (nothing left to autogenerate)."""
from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade
from sqlalchemy import create_engine, inspect, text

from prep.extensions import db
from tests.support.app import make_app


def _fresh_app(tmp_path: Path, database_url: str):
    app = make_app(tmp_path, SQLALCHEMY_DATABASE_URI=database_url)
    with app.app_context():
        db.drop_all()  # make_app creates everything; start from an empty database instead
        with db.engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    return app


def test_first_migration_with_data_upgrades_to_head(tmp_path, database_url):
    app = _fresh_app(tmp_path, database_url)
    with app.app_context():
        upgrade(revision="0001_core")
        with db.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO users (id, email, display_name, password_hash, role, created_at, session_version,"
                " timezone, day_start_hour, new_per_day, reviews_per_day, desired_retention, learning_steps,"
                " relearning_steps, maximum_interval) VALUES (1, 'old@example.com', '', 'x', 'candidate',"
                " '2026-01-01 00:00:00', 1, 'Asia/Shanghai', 4, 20, 200, 0.9, '1m 10m', '10m', 36500)"))
            conn.execute(text("INSERT INTO questions (id, text, norm, lang, source, created_at) VALUES"
                              " (1, 'What is RDMA?', 'whatisrdma', 'en', 'content', '2026-01-01 00:00:00')"))
            conn.execute(text(
                "INSERT INTO cards (id, user_id, question_id, state, step, due, reps, lapses, version, suspended,"
                " note, added_at) VALUES (1, 1, 1, 'new', 0, '2026-01-01 00:00:00', 0, 0, 0, false, 'kept',"
                " '2026-01-01 00:00:00')"))
        upgrade()
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT email, timezone FROM users")).all() == [
                ("old@example.com", "Asia/Shanghai")]
            assert conn.execute(text("SELECT note FROM cards")).scalar() == "kept"
            assert conn.execute(text("SELECT language FROM users")).scalar() is None
        tables = set(inspect(db.engine).get_table_names())
        assert set(db.metadata.tables) <= tables
        db.session.remove()
        db.engine.dispose()


def test_migrated_schema_matches_the_models(tmp_path, database_url):
    app = _fresh_app(tmp_path, database_url)
    with app.app_context():
        upgrade()
        with db.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, db.metadata)
        assert diff == []
        db.session.remove()
        db.engine.dispose()


def test_init_twice_on_a_new_database_keeps_data(tmp_path):
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    engine = create_engine(url)
    engine.dispose()
    app = _fresh_app(tmp_path, url)
    runner = app.test_cli_runner()
    with app.app_context():
        assert runner.invoke(args=["init"]).exit_code == 0
        assert runner.invoke(args=["users", "create", "k@example.com", "--password", "a good long passphrase"]
                             ).exit_code == 0
        result = runner.invoke(args=["init"])
        assert result.exit_code == 0, result.output
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM users")).scalar() == 1
        db.session.remove()
        db.engine.dispose()
