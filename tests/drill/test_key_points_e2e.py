"""The key-point checklist in a real browser, in English and Chinese: ticked by keyboard (Space
ticks, Tab moves on), the suggested rating follows the rule (3 of 4 → Hard, all at once → Easy,
all after a minute → Good), Enter confirms it, and the review log and the JSON export hold the
ticks. At a 360 px phone width the checklist shows and the full explanation is collapsed.
axe-core finds no serious or critical violation on the answer side (ticks and suggestion shown).

The content is the fixture pack tests/data/content/good (every page has key points); the page's
clock is fixed with Playwright's clock, so "quick" does not depend on the machine's speed."""
from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tests.support.live import LiveServer, axe_violations, screenshot

pytestmark = pytest.mark.browser

PACK = Path(__file__).resolve().parents[1] / "data" / "content" / "good"
PASSWORD = "a long enough passphrase"
QUESTION = {"en": "How does ring AllReduce work, step by step?", "zh": "环形AllReduce分为哪两个阶段？"}
RATING = {"en": {"2": "Hard", "3": "Good", "4": "Easy"}, "zh": {"2": "困难", "3": "良好", "4": "简单"}}
LOCALE = {"en": "en-US", "zh": "zh-CN"}
T0 = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    root = tmp_path_factory.mktemp("keypoints")
    shutil.copytree(PACK, root / "content")
    s = LiveServer(root, content_dir=root / "content")
    s.start()
    yield s
    s.stop()


def _candidate_at_the_answer(browser, server: LiveServer, email: str, lang: str, viewport: dict):
    """A new candidate studying the ring AllReduce question, on its answer side (page loaded)."""
    server.prep("users", "create", email, "--password", PASSWORD)
    context = browser.new_context(viewport=viewport, locale=LOCALE[lang], timezone_id="Asia/Shanghai",
                                  bypass_csp=True)  # axe is injected as a script tag
    page = context.new_page()
    page.set_default_timeout(20000)
    page.js_errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    page.goto(server.url + "/login")
    page.fill("#email", email)
    page.fill("#password", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url("**/dashboard")
    _study(page, server, QUESTION[lang])
    page.clock.set_fixed_time(T0)  # Date.now() stands still; timers keep running
    page.goto(server.url + "/drill")
    page.wait_for_selector("#question-text")
    page.wait_for_load_state("load")  # the drill's keys work once its script has run
    page.keyboard.press("Space")
    page.wait_for_selector("#key-points", state="visible")
    return context, page


def _study(page, server: LiveServer, text: str) -> None:
    """Add the bank question (linked to ring-allreduce by the sync) to the candidate's study."""
    with sqlite3.connect(server.root / "live.sqlite3") as conn:
        (question_id,) = conn.execute("SELECT id FROM questions WHERE text = ?", (text,)).fetchone()
    page.goto(f"{server.url}/questions/{question_id}")
    page.click(f"form[action*='/questions/{question_id}/study'] button")
    page.wait_for_selector(".flash")


def _suggested(page) -> str | None:
    return page.evaluate("() => { const b = document.querySelector('button.rating.suggested');"
                         " return b ? b.dataset.key : null; }")


def _review_logs(server: LiveServer, email: str) -> list[tuple[int, dict | None]]:
    with sqlite3.connect(server.root / "live.sqlite3") as conn:
        rows = conn.execute("SELECT r.rating, r.key_points_ticked FROM review_logs r JOIN users u ON u.id = r.user_id"
                            " WHERE u.email = ? ORDER BY r.id", (email,)).fetchall()
    return [(rating, json.loads(ticks) if ticks else None) for rating, ticks in rows]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tick_by_keyboard_see_the_suggestion_confirm_with_enter(server, browser, lang):
    email = f"keys-{lang}@example.com"
    context, page = _candidate_at_the_answer(browser, server, email, lang, {"width": 1280, "height": 900})
    try:
        boxes = page.locator("input.key-point")
        assert boxes.count() == 4
        assert page.evaluate("document.activeElement.id") == "key-point-0"  # the checklist comes first
        assert _suggested(page) is None and page.locator("#key-point-suggestion").is_hidden()
        page.keyboard.press("Space")
        for _ in range(2):
            page.keyboard.press("Tab")
            page.keyboard.press("Space")
        assert [boxes.nth(i).is_checked() for i in range(4)] == [True, True, True, False]
        assert _suggested(page) == "2"  # most (3 of 4) → Hard
        status = page.locator("#key-point-suggestion")
        assert status.is_visible() and RATING[lang]["2"] in status.inner_text()
        assert page.locator("button.rating.suggested").get_attribute("aria-describedby") == "key-point-suggestion"

        page.keyboard.press("Tab")
        page.keyboard.press("Space")
        assert _suggested(page) == "4"  # all, and no time has passed on the page's clock → Easy
        screenshot(page, f"key-points-suggested-{lang}-1280")
        problems = axe_violations(page, f"key-points-answer-{lang}-1280")
        assert problems == [], problems

        page.keyboard.press("Space")  # untick the last one, a minute later tick it again
        page.clock.set_fixed_time(T0 + timedelta(minutes=1))
        page.keyboard.press("Space")
        assert _suggested(page) == "3" and RATING[lang]["3"] in status.inner_text()  # all, not quickly → Good

        page.keyboard.press("Enter")  # confirms the suggestion; the card comes back (learn ahead), unrevealed
        page.wait_for_function("() => { const d = document.getElementById('drill');"
                               " return !d || d.dataset.revealed !== '1'; }")
        slug_lang = "zh" if lang == "zh" else "en"
        assert _review_logs(server, email) == [
            (3, {"slug": "ring-allreduce", "lang": slug_lang, "total": 4, "ticked": [0, 1, 2, 3]})]
        export = page.request.get(server.url + "/export/prep-export.json").json()
        (card,) = export["cards"]
        assert card["reviews"][0]["key_points"]["ticked"] == [0, 1, 2, 3]
        assert page.js_errors == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_a_phone_the_checklist_shows_and_the_explanation_is_collapsed(server, browser, lang):
    email = f"phone-{lang}@example.com"
    context, page = _candidate_at_the_answer(browser, server, email, lang, {"width": 360, "height": 780})
    try:
        assert page.locator("#key-points").is_visible()
        assert all(page.locator("input.key-point").nth(i).is_visible() for i in range(4))
        details = page.locator("#explanation-details")
        assert details.is_visible() and not details.evaluate("d => d.open")
        assert page.locator(".explanation-body").is_hidden()
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1
        page.locator("label[for=key-point-1]").click()  # a tap on the label ticks the point
        assert page.locator("#key-point-1").is_checked() and _suggested(page) == "1"  # 1 of 4 → Again
        screenshot(page, f"key-points-phone-{lang}-360")
        problems = axe_violations(page, f"key-points-phone-{lang}-360")
        assert problems == [], problems
        page.locator("#explanation-details > summary").click()
        assert page.locator(".explanation-body").first.is_visible()
        assert page.js_errors == []
    finally:
        context.close()


def test_without_javascript_the_ticks_go_with_the_rating(server, browser):
    server.prep("users", "create", "nojs@example.com", "--password", PASSWORD)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(server.url + "/login")
        page.fill("#email", "nojs@example.com")
        page.fill("#password", PASSWORD)
        page.click("form.stack button[type=submit]")
        _study(page, server, QUESTION["en"])
        page.goto(server.url + "/drill")
        page.click("#show-answer")
        assert page.locator("#explanation-details").evaluate("d => d.open")  # open without the script
        page.check("#key-point-0")
        page.check("#key-point-2")
        page.click("button.rating-hard")
        page.wait_for_load_state("load")
        assert _review_logs(server, "nojs@example.com") == [
            (2, {"slug": "ring-allreduce", "lang": "en", "total": 4, "ticked": [0, 2]})]
    finally:
        context.close()
