"""``prep backup``: a consistent copy of the database while the app keeps running.

SQLite: the online backup API copies page by page under the database's own locking, so
writers may go on; the copy is written beside the target and renamed into place at the end.
PostgreSQL: use ``pg_dump`` (see :func:`pg_dump_hint`).
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url


class BackupError(RuntimeError):
    """The backup could not be made (the message says why)."""


def sqlite_path(url: str) -> Path | None:
    """The database file of a SQLite URL (None for other databases or in-memory ones)."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return Path(u.database).resolve()


def backup_sqlite(source: Path, target: Path, pages_per_step: int = 256) -> int:
    """Copy ``source`` to ``target`` with the online backup API; returns the size in bytes."""
    target = target.resolve()
    if target == source.resolve():
        raise BackupError("the backup path is the live database itself")
    if not source.exists():
        raise BackupError(f"no database at {source}")
    if target.is_dir():
        raise BackupError(f"{target} is a directory; give a file name")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(partial)
    try:
        src.backup(dst, pages=pages_per_step)
        dst.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file
        (ok,) = dst.execute("PRAGMA integrity_check").fetchone()
        if ok != "ok":
            raise BackupError(f"the copy failed its integrity check: {ok}")
    finally:
        dst.close()
        src.close()
    os.replace(partial, target)
    return target.stat().st_size


def pg_dump_hint(url: str, target: str) -> str:
    u = make_url(url)
    parts = ["pg_dump", "--format=custom", f"--file={target}"]
    if u.host:
        parts.append(f"--host={u.host}")
    if u.port:
        parts.append(f"--port={u.port}")
    if u.username:
        parts.append(f"--username={u.username}")
    parts.append(u.database or "")
    return ("prep backup copies SQLite databases only. For PostgreSQL, run pg_dump (it takes a consistent "
            "snapshot while the app runs; the password comes from PGPASSWORD or ~/.pgpass):\n  " + " ".join(parts))
