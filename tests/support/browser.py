"""Browser fixtures (registered in tests/conftest.py): the real app served by `prep serve` (waitress) on 127.0.0.1, and headless
Debian Chromium driven by Playwright. Skipped when Chromium or Playwright is missing."""
from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.live import CHROMIUM, CHROMIUM_ARGS, REPO_CONTENT, LiveServer

#: The password of the instructor ``teach@example.com`` on :func:`instructor_server`.
INSTRUCTOR_PASSWORD = "instructor passphrase 1"


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def instructor_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A live server over a copy of the shipped content, with an instructor, teach@example.com
    (password :data:`INSTRUCTOR_PASSWORD`)."""
    content = tmp_path / "content"
    shutil.copytree(REPO_CONTENT, content)
    server = LiveServer(tmp_path, content_dir=content)
    server.start()
    server.prep("users", "create", "teach@example.com", "--role", "instructor", "--password", INSTRUCTOR_PASSWORD)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium when root)")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id="Asia/Shanghai",
                                  locale="en-US")
    pg = context.new_page()
    pg.set_default_timeout(20000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    yield pg
    context.close()
