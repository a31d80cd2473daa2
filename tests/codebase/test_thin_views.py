"""Views stay thin: no view function in a feature's ``routes.py`` is longer than
:data:`MAX_VIEW_LINES` lines. Logic belongs in the feature's service or domain modules and its
forms; a view parses input, calls them, commits, and redirects or renders."""
from __future__ import annotations

import ast
from pathlib import Path

PREP = Path(__file__).resolve().parents[2] / "prep"
MAX_VIEW_LINES = 40


def _is_route(decorator: ast.expr) -> bool:
    """``@bp.route(...)``, ``@bp.get(...)``, ``@bp.post(...)`` and the like."""
    call = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(call, ast.Attribute) and call.attr in {"route", "get", "post", "put", "patch", "delete"}


def view_lengths() -> dict[str, int]:
    """Every view function of ``prep/*/routes.py``: "feature/routes.py:name" -> its length in lines
    (from ``def`` to its last line, decorators not counted)."""
    out = {}
    for path in sorted(PREP.glob("*/routes.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(map(_is_route, node.decorator_list)):
                out[f"{path.parent.name}/routes.py:{node.name}"] = node.end_lineno - node.lineno + 1
    return out


def test_the_measure_finds_the_views():
    lengths = view_lengths()
    assert "drill/routes.py:drill" in lengths and "postings/routes.py:show" in lengths
    assert len(lengths) > 50


def test_no_view_function_is_long():
    long = {name: n for name, n in view_lengths().items() if n > MAX_VIEW_LINES}
    assert not long, (f"view functions over {MAX_VIEW_LINES} lines (move the logic into the feature's "
                      f"service, domain or forms): " + ", ".join(f"{k} ({v})" for k, v in sorted(long.items())))
