"""Regenerate the README screenshots: the real app (``prep serve`` over a seeded SQLite database,
as the browser tests run it) driven by headless Chromium through Playwright.

    PYTHONPATH=$PWD .venv/bin/python scripts/screenshots.py [--out docs/screenshots]

One candidate brings a posting (in Chinese and English), studies it and a bank tag, sets the
interview ten days out and rates a few cards; then each page is shot in English and in Chinese:
the dashboard, the drill's answer side (1280 px wide, and on a 360 px phone),
the posting page and the study plan. Only the visible window is shot (not the whole page), so
each PNG stays small; the script prints every file with its size and fails on one over
``MAX_BYTES``. Needs Chromium (``PREP_CHROMIUM``, default /usr/bin/chromium) and playwright.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.live import CHROMIUM, CHROMIUM_ARGS, LiveServer, sign_in  # noqa: E402 (after the path)

CANDIDATE = "candidate@example.com"
PASSWORD = "a long enough passphrase"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 780}
MAX_BYTES = 150_000
POSTING = """Acme GPU 公司
GPU 通信库工程师 (Communication Library Engineer)
职位详情
负责 NCCL 与 RDMA 通信优化，熟悉 CUDA。
面试指南
- 请解释Ring AllReduce的两个阶段
- RDMA与TCP/IP相比有何优势？
- How does PFC prevent packet loss in RoCE networks?
- Why does NCCL use a tree algorithm for small messages?
"""


def _context(browser, viewport: dict, *, phone: bool = False):
    context = browser.new_context(viewport=viewport, timezone_id="Asia/Shanghai", locale="en-US",
                                  has_touch=phone, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(30000)
    return context, page


def _login(page, server: LiveServer, lang: str) -> None:
    sign_in(page, server, CANDIDATE, PASSWORD, lang)


def _seed(page, server: LiveServer) -> str:
    """Bring the posting, study it and the NCCL tag, set the interview date, rate three cards;
    returns the posting page's URL."""
    page.goto(server.url + "/questions?tag=NCCL")
    if page.locator("form[action$='/questions/study-tag'] button").count():
        page.click("form[action$='/questions/study-tag'] button")
        page.wait_for_selector(".flash")
    page.goto(server.url + "/postings/new")
    page.fill("#text", POSTING)
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#review-form, #posting-title")
    if page.locator("#review-form").count():
        page.click("#review-save")
        page.wait_for_selector("#posting-title")
    posting = page.url.split("#")[0]
    if page.locator("#study-posting button[type=submit]").count():
        page.click("#study-posting button[type=submit]")
        page.wait_for_selector(".flash")
    if page.locator("#interview_date").count():
        day = page.evaluate("new Date(Date.now() + 10 * 864e5).toLocaleDateString('en-CA')")
        page.fill("#interview_date", day)
        page.click("#readiness form button[type=submit]")
        page.wait_for_load_state("load")
    page.goto(server.url + "/drill")
    page.wait_for_load_state("load")
    for rating in ("3", "4", "3"):
        if not page.locator("#show-answer").count():
            break
        question = page.locator("#question-text").inner_text()
        page.keyboard.press("Space")
        page.wait_for_selector("#answer", state="visible")
        page.keyboard.press(rating)
        page.wait_for_function(
            "q => { const h = document.getElementById('question-text'); return !h || h.innerText !== q; }",
            arg=question)
    return posting


def _shoot(page, out: Path, name: str) -> Path:
    page.wait_for_load_state("load")
    page.evaluate("window.scrollTo(0, 0)")
    path = out / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def _drill(page, server: LiveServer, out: Path, name: str) -> list[Path]:
    page.goto(server.url + "/drill")
    page.wait_for_load_state("load")
    if page.locator("#show-answer").count():
        page.click("#show-answer")
        page.wait_for_selector("#rate-form", state="visible")
    return [_shoot(page, out, name)]


def take(out: Path, browser=None) -> list[Path]:
    """Serve a seeded app and shoot it into ``out``; ``browser``: a Playwright Chromium already
    running (the browser tests' fixture), else one is launched."""
    if browser is None:
        from playwright.sync_api import sync_playwright  # a test extra: imported only when shooting

        with sync_playwright() as p:
            launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                return take(out, launched)
            finally:
                launched.close()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="prep-shots-") as tmp:
        root = Path(tmp)
        shutil.copytree(ROOT / "content", root / "content")
        server = LiveServer(root, content_dir=root / "content")
        server.start()
        try:
            server.prep("users", "create", CANDIDATE, "--password", PASSWORD)
            return _shoot_all(browser, server, out)
        finally:
            server.stop()


def _shoot_all(browser, server: LiveServer, out: Path) -> list[Path]:
    shots: list[Path] = []
    context, page = _context(browser, DESKTOP)
    _login(page, server, "en")
    posting = _seed(page, server)
    context.close()
    for lang in ("en", "zh"):
        context, page = _context(browser, DESKTOP)
        _login(page, server, lang)
        page.goto(server.url + "/dashboard")
        shots.append(_shoot(page, out, f"dashboard-{lang}"))
        shots += _drill(page, server, out, f"drill-{lang}")
        page.goto(posting)
        shots.append(_shoot(page, out, f"posting-{lang}"))
        page.goto(server.url + "/plan")
        shots.append(_shoot(page, out, f"plan-{lang}"))
        context.close()
        context, page = _context(browser, PHONE, phone=True)
        _login(page, server, lang)
        shots += _drill(page, server, out, f"phone-drill-{lang}")
        context.close()
    return shots


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"no Chromium at {CHROMIUM}; set PREP_CHROMIUM", file=sys.stderr)
        return 2
    too_big = []
    for path in take(args.out):
        size = path.stat().st_size
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}  {size / 1000:.0f} kB")
        if size > MAX_BYTES:
            too_big.append(path.name)
    if too_big:
        print(f"over {MAX_BYTES // 1000} kB: {', '.join(too_big)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
