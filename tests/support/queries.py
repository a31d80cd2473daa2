"""Counting the SQL statements a piece of work runs (so a page's query count can be pinned)."""
from __future__ import annotations

from contextlib import contextmanager

from sqlalchemy import event

from prep.extensions import db


@contextmanager
def count_statements():
    counter = {"n": 0, "statements": []}

    def before(conn, cursor, statement, params, context, executemany):
        if not statement.lstrip().upper().startswith(("BEGIN", "SAVEPOINT", "RELEASE", "PRAGMA")):
            counter["n"] += 1
            counter["statements"].append(" ".join(statement.split())[:90])

    event.listen(db.engine, "before_cursor_execute", before)
    try:
        yield counter
    finally:
        event.remove(db.engine, "before_cursor_execute", before)


@contextmanager
def statement_hook(hook):
    """``hook(conn, cursor, statement, params, context, executemany)`` sees every statement sent
    to the engine while the block runs (it may raise to refuse one)."""
    event.listen(db.engine, "before_cursor_execute", hook)
    try:
        yield hook
    finally:
        event.remove(db.engine, "before_cursor_execute", hook)
