"""What a new app compiles, kept for the next app of the test process.

The suite builds an app per test (thousands), and three things each new app compiles again dominate
its cost:

- Werkzeug compiles a URL builder for every rule, from a Python syntax tree (two per rule, about
  90 % of ``create_app``'s time). The builders are kept, keyed by everything the generated code
  is made of; a rule's builder takes the rule as its first argument and reads its converters at
  call time, so one compiled function serves every rule with the same text, trace, defaults and
  converter types.
- Jinja compiles each template the app renders (tens of milliseconds for a page). Jinja's own
  bytecode cache, one in memory for the process, keys the compiled code by template name and a
  checksum of its source, so an edited template is compiled again.
- SQLAlchemy compiles each statement once per engine (its cache belongs to the engine, and its keys
  hold the engine's dialect object), and each test has an engine of its own. The engines share one
  cache here, whose keys hold instead what makes two dialects compile alike: the dialect's class,
  its server's version, its parameter style and its isolation level (SQLite files of one library,
  or one PostgreSQL server, compile the same statement to the same SQL).

Applied by ``tests/conftest.py`` for the test processes only; the app itself is not patched.
"""
from __future__ import annotations

from typing import Any

import flask_sqlalchemy.extension
from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from sqlalchemy.util import LRUCache
from werkzeug.routing.rules import Rule

_original = Rule._compile_builder
_builders: dict[tuple[Any, ...], Any] = {}


def _key(rule: Rule, append_unknown: bool) -> tuple[Any, ...]:
    defaults = rule.defaults or {}
    return (rule.rule, tuple(rule._trace), append_unknown,
            tuple(sorted((str(k), type(v).__name__, repr(v)) for k, v in defaults.items())),
            tuple(sorted((name, type(conv)) for name, conv in rule._converters.items())))


def _compile_builder(self: Rule, append_unknown: bool = True):
    key = _key(self, append_unknown)
    builder = _builders.get(key)
    if builder is None:
        builder = _builders[key] = _original(self, append_unknown)
    return builder


class _MemoryBytecodeCache(BytecodeCache):
    """Compiled templates, for every app of the process (Jinja checks each entry's source checksum)."""

    def __init__(self) -> None:
        self.entries: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.entries.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.entries[bucket.key] = bucket.bytecode_to_string()


templates: BytecodeCache = _MemoryBytecodeCache()
_create_jinja_environment = Flask.create_jinja_environment


def _jinja_environment(self: Flask):
    env = _create_jinja_environment(self)
    env.bytecode_cache = templates
    return env


class _SharedStatements:
    """One compiled-statement cache for every engine of the process (see the module's docstring)."""

    def __init__(self, size: int) -> None:
        self._cache: LRUCache[Any, Any] = LRUCache(size)

    @staticmethod
    def _key(key: tuple[Any, ...]) -> tuple[Any, ...]:
        dialect = key[0]
        alike = (type(dialect), dialect.server_version_info, dialect.paramstyle, dialect.positional,
                 dialect.isolation_level)
        return (alike, *key[1:])

    def get(self, key: tuple[Any, ...], default: Any = None) -> Any:
        return self._cache.get(self._key(key), default)

    def __setitem__(self, key: tuple[Any, ...], value: Any) -> None:
        self._cache[self._key(key)] = value

    def __len__(self) -> int:
        return len(self._cache)


statements = _SharedStatements(20_000)
_make_engine = flask_sqlalchemy.extension.SQLAlchemy._make_engine


def _engine(self: Any, bind_key: str | None, options: dict[str, Any], app: Flask) -> Any:
    engine = _make_engine(self, bind_key, options, app)
    if engine._compiled_cache is not None:  # an engine made without a cache keeps none
        engine._compiled_cache = statements
    return engine


def keep_compiled_code(template_cache: BytecodeCache | None = None) -> None:
    """Patch Werkzeug's rule compilation, Flask's Jinja environment and Flask-SQLAlchemy's engines to
    reuse what they compile (idempotent); ``template_cache``: where compiled templates are kept (the
    process's memory by default; a file cache shared by the run's forked processes in :mod:`.warm`)."""
    global templates
    Rule._compile_builder = _compile_builder  # type: ignore[method-assign]
    if template_cache is not None:
        templates = template_cache
    Flask.create_jinja_environment = _jinja_environment  # type: ignore[method-assign]
    flask_sqlalchemy.extension.SQLAlchemy._make_engine = _engine  # type: ignore[method-assign]
