"""What a new app compiles, kept for the next app of the test process.

The suite builds an app per test (thousands), and two things each new app compiles again dominate
its cost:

- Werkzeug compiles a URL builder for every rule, from a Python syntax tree (two per rule, about
  90 % of ``create_app``'s time). The builders are kept, keyed by everything the generated code
  is made of; a rule's builder takes the rule as its first argument and reads its converters at
  call time, so one compiled function serves every rule with the same text, trace, defaults and
  converter types.
- Jinja compiles each template the app renders (tens of milliseconds for a page). Jinja's own
  bytecode cache, one in memory for the process, keys the compiled code by template name and a
  checksum of its source, so an edited template is compiled again.

Applied by ``tests/conftest.py`` for the test processes only; the app itself is not patched.
"""
from __future__ import annotations

from typing import Any

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
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


templates = _MemoryBytecodeCache()
_create_jinja_environment = Flask.create_jinja_environment


def _jinja_environment(self: Flask):
    env = _create_jinja_environment(self)
    env.bytecode_cache = templates
    return env


def keep_compiled_code() -> None:
    """Patch Werkzeug's rule compilation and Flask's Jinja environment to reuse what they compile
    (idempotent)."""
    Rule._compile_builder = _compile_builder  # type: ignore[method-assign]
    Flask.create_jinja_environment = _jinja_environment  # type: ignore[method-assign]
