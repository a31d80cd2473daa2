"""docs/architecture.md's import diagram matches the code: the test regenerates it and compares.

When it fails, run ``python scripts/import_graph.py --write`` and commit the diagram."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _import_graph():
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts" / "import_graph.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_import_diagram_is_up_to_date():
    graph = _import_graph()
    committed = graph.DOC.read_text(encoding="utf-8")
    assert graph.refreshed(committed) == committed, (
        "docs/architecture.md's import diagram is stale: run `python scripts/import_graph.py --write`")


def test_the_diagram_reads_the_imports():
    graph = _import_graph()
    edges = graph.edges()
    features, core = graph.nodes()
    assert {"drill", "postings", "accounts"} <= set(features) and {"clock", "extensions"} <= set(core)
    assert edges.get(("drill", "extensions")) is True  # drill's models import the db at module level
    assert all(source != dest for source, dest in edges)  # a package's own imports are not arrows
    assert graph.BEGIN in graph.DOC.read_text(encoding="utf-8")
