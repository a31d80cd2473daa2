"""Throw-away benchmark databases: a SQLite file in the work directory, or a
``prep_bench_<random>`` database on the local PostgreSQL server (dropped afterwards)."""
from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from psycopg import sql

PG_ADMIN_URL = os.environ.get("PREP_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def _sqlalchemy_url(admin_url: str, name: str) -> str:
    base, _, _ = admin_url.rpartition("/")
    return f"{base.replace('postgresql://', 'postgresql+psycopg://', 1)}/{name}"


@contextmanager
def throwaway_database(kind: str, workdir: Path, label: str) -> Iterator[str]:
    """Yield a SQLAlchemy URL for an empty database of ``kind``; remove it afterwards."""
    if kind == "sqlite":
        path = workdir / f"{label}.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        yield f"sqlite:///{path}"
        return
    name = f"prep_bench_{secrets.token_hex(4)}_{label}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield _sqlalchemy_url(PG_ADMIN_URL, name)
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def postgres_version() -> str | None:
    try:
        with psycopg.connect(PG_ADMIN_URL, connect_timeout=3) as conn:
            return str(conn.execute("SHOW server_version").fetchone()[0])
    except psycopg.Error:
        return None
