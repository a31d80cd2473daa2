"""The README screenshots come from scripts/screenshots.py: the script runs over a
seeded app and writes every PNG the README shows, each small; the README names only files that exist."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser


def _script():
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "scripts" / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _readme_images() -> set[str]:
    return set(re.findall(r"\(docs/screenshots/([\w.-]+\.png)\)", (ROOT / "README.md").read_text(encoding="utf-8")))


def test_the_readme_shows_committed_small_screenshots() -> None:
    names = _readme_images()
    assert len(names) >= 5
    for name in names:
        path = ROOT / "docs" / "screenshots" / name
        assert path.exists(), name
        assert path.stat().st_size < _script().MAX_BYTES, name


def test_the_script_makes_every_screenshot_in_both_languages(browser, tmp_path) -> None:
    shots = _script().take(tmp_path, browser)
    names = {p.name for p in shots}
    for page in ("dashboard", "drill", "posting", "plan", "phone-drill"):
        assert {f"{page}-en.png", f"{page}-zh.png"} <= names, names
    assert _readme_images() <= names
    for path in shots:
        assert 10_000 < path.stat().st_size < _script().MAX_BYTES, path.name
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
