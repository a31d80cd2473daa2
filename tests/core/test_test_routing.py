"""The test processes reuse Werkzeug's compiled URL builders between apps (tests/support/routing.py):
every rule of the app builds the same URLs with the kept builders as with freshly compiled ones."""
from __future__ import annotations

from pathlib import Path

from werkzeug.routing import IntegerConverter

from tests.support import routing
from tests.support.app import make_app


def _sample(rule) -> dict[str, object]:
    return {name: 7 if isinstance(conv, IntegerConverter) else "a b/é"
            for name, conv in rule._converters.items()}


def _urls(app) -> list[tuple[str, object, object]]:
    adapter = app.url_map.bind("prep.test")
    out = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: (r.endpoint, r.rule)):
        values = _sample(rule)
        out.append((rule.rule, rule.build(dict(values, extra="1 2")), rule.build(values, append_unknown=False)))
        out.append((rule.rule, adapter.build(rule.endpoint, values, force_external=True), None))
    return out


def test_kept_builders_build_what_fresh_ones_do(tmp_path: Path, monkeypatch) -> None:
    kept = _urls(make_app(tmp_path / "a"))
    assert routing._builders, "the kept builders are in use"
    monkeypatch.setattr(routing.Rule, "_compile_builder", routing._original)
    fresh = _urls(make_app(tmp_path / "b"))
    assert len(kept) > 100
    assert kept == fresh
