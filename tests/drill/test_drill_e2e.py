"""End to end: register → add questions → drill three cards with the keyboard → dashboard changes."""
from __future__ import annotations

import re

import pytest

from tests.support.live import register, screenshot

pytestmark = pytest.mark.browser

QUESTIONS = [
    "What are the two phases of ring AllReduce?",
    "RDMA与TCP/IP相比有何优势？",
    "What does a completion queue hold in RDMA verbs?",
]


def test_register_add_drill_with_keyboard(live_server, page):
    register(page, live_server)
    # The browser's time zone was picked up at registration.
    page.goto(live_server.url + "/settings")
    assert page.locator("#timezone").input_value() == "Asia/Shanghai"

    page.goto(live_server.url + "/questions")
    for text in QUESTIONS:
        page.fill("#text", text)
        page.click("section.add-question button[type=submit]")
        page.wait_for_selector("text=Question added to your study.")

    page.goto(live_server.url + "/dashboard")
    assert page.locator("[data-stat=new]").inner_text() == "3"
    assert page.locator("[data-stat=reviewed]").inner_text() == "0"

    page.click("#start-drill")
    page.wait_for_selector("#question-text")
    page.wait_for_load_state("load")  # the drill's keys work once its script has run
    screenshot(page, "drill-question")
    seen = []
    for expected_key in ("3", "3", "4"):
        question = page.locator("#question-text").inner_text()
        seen.append(question)
        assert page.locator("#answer").is_hidden()
        page.keyboard.press("Space")
        page.wait_for_selector("#answer", state="visible")
        assert page.locator("#rate-form").is_visible()
        if len(seen) == 1:
            screenshot(page, "drill-answer")
        url_before = page.url
        page.keyboard.press(expected_key)
        # No full reload: the page swaps its main content in place.
        page.wait_for_function(
            "q => { const h = document.getElementById('question-text'); return h && h.innerText !== q; }",
            arg=question)
        assert page.url.startswith(url_before.split("?")[0])
    assert sorted(seen) == sorted(QUESTIONS)
    # Ratings go to the server in the background (static/js/drill_prefetch.js): wait until all are in.
    page.wait_for_function("() => { const d = document.getElementById('drill'); return !d || d.dataset.pending === '0'; }")

    page.goto(live_server.url + "/dashboard")
    assert page.locator("[data-stat=reviewed]").inner_text() == "3"
    assert page.locator("[data-stat=new]").inner_text() == "0"
    assert re.match(r"1 day", page.locator("[data-stat=streak]").inner_text())
    screenshot(page, "dashboard")
    assert page.js_errors == []


def test_drill_works_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    register(page, live_server, email="nojs@example.com")
    page.fill("#text", QUESTIONS[0])
    page.click("section.add-question button[type=submit]")
    page.goto(live_server.url + "/drill")
    page.click("#show-answer")
    page.wait_for_selector("#rate-form")
    page.click("button.rating-good")
    page.goto(live_server.url + "/dashboard")
    assert page.locator("[data-stat=reviewed]").inner_text() == "1"
    context.close()
