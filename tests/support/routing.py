"""Building an app once per test costs little, except for one thing: Werkzeug compiles a URL
builder for every rule of every new app, from a Python syntax tree (two per rule, about 90 % of
``create_app``'s time). Tests build thousands of apps with the same rules, so the builders are
kept here, keyed by everything the generated code is made of; a rule's builder takes the rule as
its first argument and reads its converters at call time, so one compiled function serves every
rule with the same text, trace, defaults and converter types.

Applied by ``tests/conftest.py`` for the test processes only; the app itself is not patched.
"""
from __future__ import annotations

from typing import Any

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


def keep_compiled_builders() -> None:
    """Patch Werkzeug's rule compilation to reuse builders (idempotent)."""
    Rule._compile_builder = _compile_builder  # type: ignore[method-assign]
