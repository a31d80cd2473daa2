"""XSS in a real browser: payloads stored through the UI (own questions, a card note, a pasted
posting, searches) are opened in Chromium; any alert/confirm/prompt the page raises is recorded and
fails the test. tests/web/test_xss.py checks the same corpus in the served HTML with a parser."""
from __future__ import annotations

import re

import pytest

from tests.support.live import register
from tests.support.xss_payloads import PAYLOADS

pytestmark = pytest.mark.browser

# One question text can hold many payloads; keep each store under the field limits.
CHUNK = 6


def _chunks(items: list[str], size: int) -> list[str]:
    return [" ".join(items[i:i + size]) for i in range(0, len(items), size)]


def test_stored_and_reflected_payloads_never_run(live_server, page):
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:
        dialogs.append(f"{page.url}: {dialog.type} {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    register(page, live_server)
    # The listener works: a dialog the page does raise is recorded.
    page.evaluate("() => alert('probe')")
    assert len(dialogs) == 1 and dialogs[0].endswith("alert probe")
    dialogs.clear()

    # Own questions (stored, shown in the bank, the drill, the card page and the card list).
    for text in _chunks(PAYLOADS, CHUNK):
        page.goto(live_server.url + "/questions")
        page.fill("#text", "Why " + text + "?")
        page.fill("#tags", "xss")
        page.click(".add-question button[type=submit]")
        page.wait_for_load_state()

    page.goto(live_server.url + "/cards")
    card_links = page.locator("a[href^='/cards/']").evaluate_all("els => els.map(e => e.getAttribute('href'))")
    card_urls = sorted({href for href in card_links if re.fullmatch(r"/cards/\d+", href)})
    assert card_urls, "the own questions became cards"

    # A note holding every payload on the first card.
    page.goto(live_server.url + card_urls[0])
    page.fill("textarea#note", "\n".join(PAYLOADS))
    page.click("#note-section button[type=submit]")
    page.wait_for_load_state()

    # A pasted posting holding every payload, one per line.
    page.goto(live_server.url + "/postings/new")
    page.fill("#text", "Acme GPU\nEngineer\n职位详情\n" + "\n".join(PAYLOADS) + "\n面试指南\n- " +
              "\n- ".join(PAYLOADS[:5]))
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#review-form")  # the checklist holds every payload too
    page.mouse.move(200, 200)
    page.keyboard.press("Tab")
    page.click("#review-save")
    page.wait_for_selector("#posting-title")
    posting_url = page.url

    visited = ["/questions", "/questions?tag=xss", "/cards", "/drill", "/dashboard", "/postings",
               posting_url, *card_urls]
    visited += [f"/questions?q={p}" for p in PAYLOADS[:8]]
    visited += [f"/search?q={p}" for p in PAYLOADS[:8]]
    for url in visited:
        page.goto(url if url.startswith("http") else live_server.url + url)
        page.wait_for_load_state()
        # Hover and focus everything once: event-handler payloads need a user gesture.
        page.mouse.move(200, 200)
        page.keyboard.press("Tab")
    page.goto(live_server.url + "/drill")
    if page.locator("#show-answer").count():
        page.click("#show-answer")
    assert dialogs == []
    assert page.js_errors == []
