"""Rules of the codebase that a grep can check: one clock in prep/, and tests
that share code through tests/support/ only, never by importing one another (item 6)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PREP = ROOT / "prep"
TESTS = ROOT / "tests"

#: Ways to read the wall clock. Monotonic timers (time.monotonic, perf_counter) measure durations
#: and are allowed; thread_time/process_time measure CPU.
STRAY_CLOCK = re.compile(r"\b(?:datetime\.(?:now|utcnow|today)|date\.today|time\.(?:time|time_ns|localtime|gmtime))\s*\("
                         r"|\bfrom\s+time\s+import\s+[^\n]*\btime\b")


def _python_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def test_prep_reads_the_time_only_through_prep_clock():
    """Every "now" comes from prep.clock.now(): a stray clock would not follow the test clock
    (an export filename carried the real date during a frozen-clock test)."""
    stray = []
    for path in _python_files(PREP):
        if path == PREP / "clock.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if STRAY_CLOCK.search(line.split("#", 1)[0]):
                stray.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert stray == [], "read the time with prep.clock.now() instead:\n" + "\n".join(stray)


def test_prep_reads_the_clock_when_called():
    """``from .. import clock`` and ``clock.now()`` at call time: a name bound at import
    (``from ..clock import now``) is not the clock a test replaces (the export and optimise
    routes once bound one, and a frozen-clock test downloaded a file named with the real date)."""
    bound = []
    for path in _python_files(PREP):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "clock":
                names = ", ".join(alias.name for alias in node.names)
                bound.append(f"{path.relative_to(ROOT)}:{node.lineno}: from {'.' * node.level}{node.module} import {names}")
    assert bound == [], "import the module (from .. import clock) and call clock.now():\n" + "\n".join(bound)


def test_the_stray_clock_pattern_finds_what_it_should():
    for line in ("now = datetime.now(timezone.utc)", "datetime.utcnow()", "date.today()", "int(time.time())",
                 "from time import time", "datetime.now().astimezone()"):
        assert STRAY_CLOCK.search(line), line
    for line in ("clock.now()", "time.monotonic()", "time.perf_counter()", "time.process_time()",
                 "datetime.fromisoformat(text)"):
        assert not STRAY_CLOCK.search(line), line


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) for each import in ``path``, relative imports written with their dots."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            found.append((node.lineno, module))
            if node.level and not node.module:  # from . import test_x
                found += [(node.lineno, "." + alias.name) for alias in node.names]
    return found


def _is_test_module(module: str) -> bool:
    """A module holding tests (or a conftest): tests.drill.test_x, tests.drill.conftest, .test_x, test_x."""
    last = module.rsplit(".", 1)[-1]
    if last.startswith("test_") or last == "conftest":
        return True
    return module.startswith("tests.") and not (module == "tests.support" or module.startswith("tests.support."))


def test_no_test_module_imports_another():
    """Shared fixtures and helpers live in tests/support/; a test module (or a support module)
    that imports another test module runs its tests twice and ties the two together."""
    crossing = []
    for path in _python_files(TESTS):
        rel = path.relative_to(ROOT)
        for number, module in _imported_modules(path):
            if _is_test_module(module):
                crossing.append(f"{rel}:{number}: imports {module}")
        # Code run in a subprocess names modules inside strings.
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bfrom tests\.(?!support\b)\w+|\bimport tests\.(?!support\b)\w+", line) and \
                    not line.lstrip().startswith(("from ", "import ")):
                crossing.append(f"{rel}:{number}: names a test module in code: {line.strip()}")
    assert crossing == [], "move what is shared into tests/support/:\n" + "\n".join(crossing)


def test_the_cross_import_check_finds_what_it_should():
    for module in ("tests.stats.test_stats", "tests.conftest", "tests.drill.conftest", ".test_queries", "test_export",
                   "tests.web.test_a11y_e2e", "tests.hostile"):
        assert _is_test_module(module), module
    for module in ("tests.support", "tests.support.app", "prep.drill.service", "pytest"):
        assert not _is_test_module(module), module
