"""Small things on a phone (360 px, a touch screen), in English and Chinese: the menu button's
label fits inside it; the drill shows no keyboard-shortcut hints (a touch screen has no keys to
press), while a desktop still does; the reminder banner offers "Start the drill" everywhere but on
the drill itself. Screenshots: test-artifacts/phone-details-<page>-<lang>.png."""
from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

import pytest

from tests.support.live import LiveServer, screenshot, sign_in

pytestmark = pytest.mark.browser

REPO_CONTENT = Path(__file__).resolve().parents[2] / "content"
PASSWORD = "a long enough passphrase"
PHONE = {"width": 360, "height": 780}

# Whether every piece of the element's text lies inside its border box.
_TEXT_INSIDE = """el => {
    const box = el.getBoundingClientRect(), range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    return {fits: text.left >= box.left - 0.5 && text.right <= box.right + 0.5 && text.top >= box.top - 0.5
                  && text.bottom <= box.bottom + 0.5 && el.scrollWidth <= el.clientWidth + 1,
            text: [text.left, text.right, text.top, text.bottom], box: [box.left, box.right, box.top, box.bottom]};
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    root = tmp_path_factory.mktemp("phone-details")
    shutil.copytree(REPO_CONTENT, root / "content")
    s = LiveServer(root, content_dir=root / "content")
    s.start()
    yield s
    s.stop()


def _reminded_today(server: LiveServer, email: str) -> None:
    """Today's in-app reminder for ``email``, as the reminder sweep leaves it (the account is in UTC)."""
    now = datetime.now(timezone.utc)  # the server process runs on the real clock
    with closing(sqlite3.connect(server.root / "live.sqlite3")) as db, db:
        [(user_id,)] = db.execute("SELECT id FROM users WHERE email = ?", (email,)).fetchall()
        db.execute("INSERT INTO notifications (user_id, kind, local_date, due_count, message, created_at) "
                   "VALUES (?, 'daily_review', ?, 1, 'cards to review', ?)",
                   (user_id, now.date().isoformat(), now.replace(tzinfo=None).isoformat(sep=" ")))


def _studying(browser, server: LiveServer, email: str, lang: str, **context_options):
    """A signed-in page in ``lang`` for ``email``, who studies the NCCL questions and was reminded today."""
    server.prep("users", "create", email, "--password", PASSWORD)
    _reminded_today(server, email)
    context = browser.new_context(timezone_id="UTC", locale="en-US", **context_options)
    page = context.new_page()
    page.set_default_timeout(20000)
    sign_in(page, server, email, PASSWORD, lang)
    page.goto(server.url + "/questions?tag=NCCL")
    page.click("form[action$='/questions/study-tag'] button")
    page.wait_for_selector(".flash")
    return context, page


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_a_phone_the_menu_fits_the_drill_has_no_key_hints_and_no_start_button(server, browser, lang):
    context, page = _studying(browser, server, f"phone-{lang}@example.com", lang, viewport=PHONE, has_touch=True,
                              is_mobile=True)
    try:
        assert page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
        page.goto(server.url + "/dashboard")
        page.wait_for_load_state("load")
        screenshot(page, f"phone-details-dashboard-{lang}")
        toggle = page.locator("#nav-toggle")
        assert toggle.is_visible()
        label = toggle.evaluate(_TEXT_INSIDE)
        assert label["fits"], f"the menu label spills out of its button: {label}"
        banner = page.locator("#reminder-banner")
        assert banner.is_visible() and banner.locator("a[href='/drill']").is_visible()

        page.goto(server.url + "/drill")
        page.wait_for_selector("#question-text")
        screenshot(page, f"phone-details-drill-{lang}")
        assert page.locator("#reminder-banner").is_visible()  # the count and "Dismiss" stay
        assert page.locator("#reminder-banner a[href='/drill']").count() == 0
        assert not page.locator("#shortcuts-hint").is_visible()
        assert not page.locator("#show-answer kbd").is_visible()
        page.click("#show-answer")
        page.wait_for_selector("#rate-form", state="visible")
        assert page.locator("#rate-form .rating").first.is_visible()
        assert not any(k.is_visible() for k in page.locator("#rate-form kbd").all())
        screenshot(page, f"phone-details-drill-answer-{lang}")
    finally:
        context.close()


def test_a_desktop_keeps_the_key_hints(server, browser):
    context, page = _studying(browser, server, "desk@example.com", "en", viewport={"width": 1280, "height": 900})
    try:
        page.goto(server.url + "/drill")
        page.wait_for_selector("#question-text")
        assert page.locator("#shortcuts-hint").is_visible() and page.locator("#show-answer kbd").is_visible()
        assert page.locator("#reminder-banner").is_visible()
        assert page.locator("#reminder-banner a[href='/drill']").count() == 0
    finally:
        context.close()
