"""The app as a real server, and clients for it: ``prep serve`` (waitress) in a separate process
on 127.0.0.1 (:class:`LiveServer`), a cookie-keeping HTTP client (:class:`Browser`), the soak
test's load generator, and the pieces the Chromium tests share (register, screenshots, axe-core).

The waits here poll another process (a server starting, a mail it writes): they sleep between
looks because the other process runs on its own wall clock, which the ``clock`` fixture cannot move."""
from __future__ import annotations

import atexit
import fcntl
import hashlib
import http.cookiejar
import json
import os
import random
import re
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import closing
from pathlib import Path

from . import forked
from .warm import SHARED_FOLDER  # set by tests/conftest.py for the run's workers
from .app import PASSWORD

CHROMIUM = os.environ.get("PREP_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"


_INITIALISED: dict[tuple, Path] = {}  # what `prep init` made, per kind of server (LiveServer._initialise)
REPO_CONTENT = Path(__file__).resolve().parents[2] / "content"


def shared_folder() -> Path:
    """A folder the workers of this test run share (made and removed by ``tests/conftest.py``); in a
    process started some other way, one of its own."""
    folder = os.environ.get(SHARED_FOLDER)
    if not folder:
        folder = tempfile.mkdtemp(prefix="prep-tests-")
        atexit.register(shutil.rmtree, folder, True)
        os.environ[SHARED_FOLDER] = folder
    return Path(folder)


def _sqlite_copy(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite database (its WAL included), with the backup API."""
    with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)


def _tree_digest(root: Path) -> str:
    """A digest of every file under ``root``: its path inside ``root`` and its bytes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return "tree:" + digest.hexdigest()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    def __init__(self, root: Path, content_dir: Path | None = None, env: dict[str, str] | None = None):
        self.root = root
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "PREP_INSTANCE_DIR": str(root / "instance"),
                    "PREP_DATABASE_URL": f"sqlite:///{root / 'live.sqlite3'}",
                    "PREP_SECRET_KEY": "live-test-secret", "PREP_SCHEDULER": "0",
                    "PREP_BASE_URL": f"http://127.0.0.1:{self.port}"}
        if content_dir is not None:
            self.env["PREP_CONTENT_DIR"] = str(content_dir)
        self.env.update(env or {})
        self.proc: forked.Process | None = None

    def prep(self, *args: str, input: str | None = None) -> subprocess.CompletedProcess:
        """``prep args`` with this server's settings, as a process of its own (forked: :mod:`.forked`)."""
        return forked.run(list(args), self.env, self.root, input=input, timeout=300)

    def start(self) -> None:
        self._initialise()
        log = self.root / "server.log"
        self.proc = forked.Process(["serve", "--port", str(self.port)], self.env, self.root, log, log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/login", timeout=2)
                return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError((self.root / "server.log").read_text())
                time.sleep(0.05)  # the server process starts on its own time
        raise RuntimeError("server did not start")

    def _initialise(self) -> None:
        """``prep init``, once per test run for each kind of server: the content sync of the whole
        content folder takes seconds, so the database it made is copied for the next server that
        would make the same one (same content and settings, SQLite in its root), in this process
        and in the run's other workers (:func:`shared_folder`)."""
        key = self._init_key()
        database = self.root / "live.sqlite3"
        if key is None or database.exists():
            self.prep("init")
            return
        if key not in _INITIALISED:
            name = hashlib.sha256(repr(key).encode()).hexdigest()[:24]
            cached = shared_folder() / f"init-{name}.sqlite3"
            with open(cached.with_suffix(".lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # another worker may be making the same database
                if not cached.exists():
                    self.prep("init")
                    partial = cached.with_suffix(".partial")
                    _sqlite_copy(database, partial)
                    partial.replace(cached)
                    _INITIALISED[key] = cached
                    return
            _INITIALISED[key] = cached
        _sqlite_copy(_INITIALISED[key], database)

    def _init_key(self) -> tuple | None:
        """What ``prep init`` depends on: the settings that differ from this process's, with the
        content folder (the repository's when none is set) named by what it holds (two copies of one
        tree make the same database: explanations are stored by their path inside the folder)."""
        if self.env.get("PREP_DATABASE_URL") != f"sqlite:///{self.root / 'live.sqlite3'}":
            return None
        own = {"PREP_INSTANCE_DIR", "PREP_DATABASE_URL", "PREP_BASE_URL"}
        settings = {k: v for k, v in self.env.items() if k not in own and os.environ.get(k) != v}
        settings["PREP_CONTENT_DIR"] = _tree_digest(Path(self.env.get("PREP_CONTENT_DIR") or REPO_CONTENT))
        return tuple(sorted(settings.items()))

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    from playwright.sync_api import Error as PlaywrightError

    try:
        page.screenshot(path=str(path), full_page=True)
    except PlaywrightError:  # Chromium under load now and then answers "Unable to capture screenshot"
        page.wait_for_timeout(500)  # (the picture is an artifact for people, not what a test asserts)
        page.screenshot(path=str(path), full_page=True)
    return path


def registration_link(outbox: Path, email: str) -> str:
    import email as email_lib
    import re
    from email import policy

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # the server process writes the mail on its own time
        for path in sorted(outbox.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns, reverse=True):
            message = email_lib.message_from_bytes(path.read_bytes(), policy=policy.default)
            found = re.search(r"http\S+/register/confirm/\S+", message.get_body(("plain",)).get_content())
            if found and message["To"].addresses[0].addr_spec == email.lower():
                return found.group(0)
        time.sleep(0.05)
    raise AssertionError(f"no registration link for {email} in {outbox}")


def register(page, server: LiveServer, email: str = "cand@example.com",
             password: str = "a long enough passphrase") -> None:
    page.goto(server.url + "/register")
    page.fill("#email", email)
    page.click("#register-form button[type=submit]")
    page.wait_for_selector("text=Check your inbox")
    # The mailed link's page sets the password and makes the account: follow it from the server's outbox.
    link = registration_link(server.root / "instance" / "outbox", email)
    page.goto(link)
    page.fill("#password", password)
    page.fill("#confirm", password)
    page.click("#confirm-registration button[type=submit]")
    page.wait_for_url("**/postings/new")  # the first screen: bring a posting, a report or a role
    page.goto(server.url + "/questions")


def review_document(page, server: LiveServer, text: str, *, report: bool = False) -> None:
    """Paste ``text`` as a posting (``report``: an interview report) and wait for the review checklist."""
    page.goto(server.url + "/postings/new" + ("?kind=report" if report else ""))
    page.fill("#text", text)
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#review-form")


def import_document(page, server: LiveServer, text: str, *, report: bool = False) -> str:
    """Paste ``text`` as a posting (``report``: an interview report), save the review checklist
    as it stands and return the posting page's address."""
    review_document(page, server, text, report=report)
    page.click("#review-save")
    page.wait_for_selector("#posting-title")
    return page.url.split("#")[0]


class Browser:
    """A tiny HTTP client with cookies that reads CSRF tokens from pages, like a browser."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as r:
            return r.read().decode()

    def post(self, path: str, data: dict) -> int:
        body = urllib.parse.urlencode(data).encode()
        req = urllib.request.Request(self.base + path, data=body, method="POST")
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status
        except urllib.error.HTTPError as err:
            self.last_error = err.read().decode(errors="replace")
            return err.code

    @staticmethod
    def token(html: str) -> str:
        return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)

    def login(self, email: str) -> None:
        token = self.token(self.get("/login"))
        status = self.post("/login", {"email": email, "password": PASSWORD, "csrf_token": token})
        assert status == 200, re.findall(r"<p>([^<]+)</p>", getattr(self, "last_error", ""))


def sign_in(page, server: "LiveServer", email: str, password: str, lang: str | None = None) -> None:
    """Sign in through the login form in a Playwright page and wait for the dashboard; with
    ``lang``, switch the interface to that language."""
    page.goto(server.url + "/login")
    page.fill("#email", email)
    page.fill("#password", password)
    page.click("form.stack button[type=submit]")
    page.wait_for_url("**/dashboard")
    if lang is not None:
        page.click(f".language-switcher button[value={lang}]")
        page.wait_for_selector(f"html[lang={'zh-CN' if lang == 'zh' else 'en'}]")


_CARD = re.compile(r'name="card_id"[^>]*value="(\d+)".*?name="version"[^>]*value="(\d+)"', re.S)


def run_clients(base: str, emails: list[str], seconds: float) -> dict:
    """The load generator (runs in its own process): one thread per candidate."""
    acked: list[tuple[int, int]] = []
    statuses: dict[str, int] = {}
    errors: list[str] = []
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def candidate(index: int, email: str) -> None:
        rng = random.Random(index)
        browser = Browser(base)
        try:
            browser.login(email)
            while time.monotonic() < deadline:
                page = browser.get("/drill")
                match = _CARD.search(page)
                if match is None:  # nothing due right now
                    break
                card_id, version = int(match.group(1)), int(match.group(2))
                # Mostly Again/Hard, so cards stay in (re)learning and come back within the run.
                rating = rng.choices([1, 2, 3, 4], weights=[4, 3, 2, 1])[0]
                status = browser.post("/drill/rate", {"csrf_token": browser.token(page), "card_id": card_id,
                                                      "version": version, "rating": rating})
                with lock:
                    statuses[str(status)] = statuses.get(str(status), 0) + 1
                    if 200 <= status < 300:
                        acked.append((card_id, version))
        except Exception as exc:  # noqa: BLE001 - reported to the test
            with lock:
                errors.append(f"{email}: {exc!r}")

    threads = [threading.Thread(target=candidate, args=(i, e)) for i, e in enumerate(emails)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 120)
    return {"acked": acked, "statuses": statuses, "errors": errors}


def axe_violations(page, name: str) -> list[dict]:
    """Run axe-core on the page; returns the serious and critical violations (all are saved)."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => ({target: n.target, summary: n.failureSummary}))}));
    }""")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-{name}.json").write_text(json.dumps(result, indent=2, ensure_ascii=False),
                                                encoding="utf-8")
    return [v for v in result if v["impact"] in ("serious", "critical")]
