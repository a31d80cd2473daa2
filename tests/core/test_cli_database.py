"""A command run before `prep init` (or against a database that cannot be opened) prints one line
saying what to do, never a traceback."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _prep(tmp_path: Path, url: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PREP_DATABASE_URL": url, "PYTHONPATH": str(ROOT), "PREP_SCHEDULER": "0"}
    return subprocess.run([sys.executable, "-m", "prep", *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("args", [("content", "coverage"), ("users", "create", "a@example.com", "--password", "correct horse battery staple")])
def test_before_init_a_command_says_to_run_init(tmp_path: Path, args: tuple[str, ...]) -> None:
    result = _prep(tmp_path, f"sqlite:///{tmp_path / 'fresh.db'}", *args)
    assert result.returncode != 0
    assert "run `prep init` first" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_database_that_cannot_be_opened_is_named(tmp_path: Path) -> None:
    result = _prep(tmp_path, f"sqlite:///{tmp_path / 'missing-dir' / 'x.db'}", "content", "coverage")
    assert result.returncode != 0
    assert "cannot open the database" in result.stderr and "Traceback" not in result.stderr
