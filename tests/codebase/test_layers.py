"""The layer map holds: the import-linter contracts in pyproject.toml are kept, and imports
inside functions (which hide an arrow from a reader) stay the exception."""
from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PREP = ROOT / "prep"

#: Imports inside functions in prep/ (each with a comment saying why), not counting the app
#: factory's (prep/__init__.py wires every feature in) and the migrations'.
MAX_FUNCTION_IMPORTS = 5


def test_import_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    command = str(lint) if lint.exists() else shutil.which("lint-imports")
    assert command, "import-linter is a test dependency: pip install -e '.[test]'"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run([command, "--no-cache"], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]


def function_level_imports() -> list[str]:
    """``path:line: statement`` for each import inside a function in prep/ (migrations and the
    app factory left out)."""
    found = []
    for path in sorted(PREP.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("prep/migrations/") or rel == "prep/__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        seen: set[int] = set()
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno not in seen:
                    seen.add(node.lineno)
                    found.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_few_imports_hide_inside_functions() -> None:
    found = function_level_imports()
    assert len(found) < MAX_FUNCTION_IMPORTS, "\n".join(found)


def test_each_function_level_import_says_why() -> None:
    for entry in function_level_imports():
        rel, line, _ = entry.split(":", 2)
        lines = (ROOT / rel).read_text(encoding="utf-8").splitlines()
        here, above = lines[int(line) - 1], lines[int(line) - 2]
        assert "#" in here or above.strip().startswith("#"), f"{entry}: say why it is not at the top"


def test_migrations_are_self_contained() -> None:
    """A revision file imports only Alembic and SQLAlchemy: it must not change when a feature does."""
    for path in sorted((PREP / "migrations" / "versions").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else ["(relative)"]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in {"alembic", "sqlalchemy"}, f"{path.name}:{node.lineno} imports {name}"
