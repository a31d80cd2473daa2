"""The test folders a change touches, for `make test-fast`: the features whose code, templates or
tests differ from the base (default: main's merge base, plus uncommitted changes).

A file of a feature (``prep/<feature>/``, ``templates/<feature>/``, ``tests/<feature>/``) selects
``tests/<feature>``; a change to anything shared (the core modules, ``prep/web``, the base templates,
``static/``, ``tests/support``, the dependencies) selects the whole suite. The codebase rules
(``tests/codebase``) always run: they are quick and every change can break one.

Usage: ``python scripts/touched_tests.py [BASE]`` prints the folders, one per line.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"


def changed_files(base: str) -> list[str]:
    def git(*args: str) -> list[str]:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        return [line for line in out.splitlines() if line]

    since = git("merge-base", base, "HEAD")[0] if base != "HEAD" else "HEAD"
    return sorted(set(git("diff", "--name-only", since) + git("ls-files", "--others", "--exclude-standard")))


def test_folders(paths: list[str]) -> list[str]:
    features = {p.name for p in TESTS.iterdir() if p.is_dir() and p.name not in {"data", "support"}}
    chosen = {"tests/codebase"}
    for path in paths:
        parts = Path(path).parts
        if len(parts) >= 3 and parts[0] in {"prep", "templates", "tests"} and parts[1] in features:
            chosen.add(f"tests/{parts[1]}")
        elif parts[:2] == ("tests", "data"):  # the content fixtures and golden pages, else the corpora
            chosen.add("tests/content" if len(parts) > 2 and parts[2] in {"content", "render"} else "tests/postings")
        elif parts[:1] == ("content",):
            chosen.add("tests/content")
        elif parts[:1] in {("docs",), ("bench",)} or path.endswith(".md") or parts[:2] == ("prep", "translations"):
            pass  # the codebase rules (the architecture page, the catalogs) are always run
        else:  # shared code: everything may depend on it
            return ["tests"]
    return sorted(chosen)


def main(argv: list[str]) -> int:
    base = argv[1] if len(argv) > 1 else "main"
    print("\n".join(test_folders(changed_files(base))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
