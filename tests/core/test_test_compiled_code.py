"""The test processes reuse what apps compile (tests/support/compiled.py): every rule of the app
builds the same URLs with kept URL builders as with fresh ones, and a kept template is compiled
again when its source changes."""
from __future__ import annotations

from pathlib import Path

from werkzeug.routing import IntegerConverter

from tests.support import compiled as routing
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


def test_templates_compile_once_per_process_and_again_when_edited(tmp_path: Path) -> None:
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "t.html").write_text("one {{ 1 + 1 }}")
    first, second = make_app(tmp_path / "a"), make_app(tmp_path / "b")
    for app in (first, second):
        app.jinja_loader.searchpath.insert(0, str(folder))
    before = len(routing.templates.entries)
    with first.app_context():
        assert first.jinja_env.get_template("t.html").render() == "one 2"
    assert len(routing.templates.entries) == before + 1
    with second.app_context():
        cached = second.jinja_env.get_template("t.html")
        assert cached.render() == "one 2"
    assert len(routing.templates.entries) == before + 1  # the second app used the first's code
    (folder / "t.html").write_text("two {{ 2 + 2 }}")
    third = make_app(tmp_path / "c")
    third.jinja_loader.searchpath.insert(0, str(folder))
    with third.app_context():
        assert third.jinja_env.get_template("t.html").render() == "two 4"
