"""Browser fixtures: the real app served by `prep serve` (waitress) on 127.0.0.1, and headless
Debian Chromium driven by Playwright. Skipped when Chromium or Playwright is missing."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("PREP_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, root: Path, content_dir: Path | None = None, env: dict[str, str] | None = None):
        self.root = root
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "PREP_INSTANCE_DIR": str(root / "instance"),
                    "PREP_DATABASE_URL": f"sqlite:///{root / 'live.sqlite3'}",
                    "PREP_SECRET_KEY": "live-test-secret", "PREP_SCHEDULER": "0",
                    "PREP_BASE_URL": f"http://127.0.0.1:{self.port}"}
        if content_dir is not None:
            self.env["PREP_CONTENT_DIR"] = str(content_dir)
        self.env.update(env or {})
        self.proc: subprocess.Popen | None = None

    def prep(self, *args: str, input: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "prep", *args], env=self.env, cwd=self.root,
                              capture_output=True, text=True, input=input, timeout=300, check=True)

    def start(self) -> None:
        self.prep("init")
        self.log = open(self.root / "server.log", "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "prep", "serve", "--port", str(self.port)],
                                     env=self.env, cwd=self.root, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/login", timeout=2)
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError((self.root / "server.log").read_text())
                time.sleep(0.2)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if getattr(self, "log", None):
            self.log.close()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path)
    server.start()
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


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def _registration_link(outbox: Path, email: str) -> str:
    import email as email_lib
    import re
    from email import policy

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for path in sorted(outbox.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns, reverse=True):
            message = email_lib.message_from_bytes(path.read_bytes(), policy=policy.default)
            found = re.search(r"http\S+/register/confirm/\S+", message.get_body(("plain",)).get_content())
            if found and message["To"].addresses[0].addr_spec == email.lower():
                return found.group(0)
        time.sleep(0.2)
    raise AssertionError(f"no registration link for {email} in {outbox}")


def register(page, server: LiveServer, email: str = "cand@example.com",
             password: str = "a long enough passphrase") -> None:
    page.goto(server.url + "/register")
    page.fill("#email", email)
    page.fill("#password", password)
    page.fill("#confirm", password)
    page.click("button[type=submit]")
    page.wait_for_selector("text=Check your inbox")
    # The mailed link makes the account (issue 16 item 7): follow it from the server's outbox.
    link = _registration_link(server.root / "instance" / "outbox", email)
    page.goto(link)
    page.click("#confirm-registration button[type=submit]")
    page.wait_for_url("**/postings/new")  # the first screen: bring a posting, a report or a role
    page.goto(server.url + "/questions")
