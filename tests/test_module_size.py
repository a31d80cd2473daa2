"""No module in prep/ over 400 lines (issue 22): a reader takes in a module at once, and a
module that grows past this is split by concern. Migrations included; any ``.py`` under prep/."""
from __future__ import annotations

from pathlib import Path

MAX_LINES = 400
PREP = Path(__file__).resolve().parent.parent / "prep"


def oversized(root: Path = PREP, limit: int = MAX_LINES) -> list[tuple[str, int]]:
    """``(path relative to the repository, line count)`` of every module under ``root`` over ``limit``."""
    out = []
    for path in sorted(root.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            out.append((path.relative_to(root.parent).as_posix(), lines))
    return out


def test_no_module_in_prep_is_over_400_lines() -> None:
    found = oversized()
    assert not found, f"modules over {MAX_LINES} lines (split them by concern): " + ", ".join(
        f"{path} ({lines})" for path, lines in found)


def test_the_check_names_every_oversized_module(tmp_path: Path) -> None:
    package = tmp_path / "prep"
    (package / "migrations" / "versions").mkdir(parents=True)
    (package / "small.py").write_text("x = 1\n" * MAX_LINES, encoding="utf-8")
    (package / "big.py").write_text("x = 1\n" * (MAX_LINES + 1), encoding="utf-8")
    (package / "migrations" / "versions" / "0001_big.py").write_text("x = 1\n" * 900, encoding="utf-8")
    assert oversized(package) == [("prep/big.py", 401), ("prep/migrations/versions/0001_big.py", 900)]
