"""The queue's notes on screen, at 1280 px and 360 px, in English and Chinese: a buried card is counted
("1 card buried until tomorrow — show them today") and the button brings it back; a posting with
no questions says so and links to pasting the interview report."""
from __future__ import annotations

import pytest

from tests.support.live import register, screenshot

pytestmark = pytest.mark.browser

EMPTY_HEADING = """Senior GPU Engineer
Acme AI

Responsibilities
- Optimise CUDA kernels for training
- Work with NCCL and RDMA collectives

Requirements
- 5 years of C++ and CUDA

Interview questions we often ask
"""
TEXT = {
    "en": {"buried": "1 card buried until tomorrow", "back": "buried card is back", "report": "Paste an interview report"},
    "zh": {"buried": "1 张卡片搁置到明天", "back": "搁置的卡片已回到今天的队列", "report": "粘贴面经"},
}


def _fits(page, selector: str, width: int) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, (selector, box)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [1280, 360])
def test_buried_cards_are_counted_and_a_posting_without_questions_says_what_next(live_server, page, width, lang):
    page.set_viewport_size({"width": width, "height": 800})
    register(page, live_server)
    if lang == "zh":
        page.click("form.language-switcher button[value=zh]")
        page.wait_for_load_state("load")
    text = TEXT[lang]
    for question in ("What are the two phases of ring AllReduce?", "What does a completion queue hold in RDMA?"):
        page.goto(live_server.url + "/questions")
        page.fill("#text", question)
        page.click("section.add-question button[type=submit]")
        page.wait_for_selector(".flash-success")

    page.goto(live_server.url + "/drill")
    page.wait_for_load_state("load")
    page.click("form[action$='/bury'] button")
    page.wait_for_selector(".queue-buried")
    assert text["buried"] in page.locator(".queue-buried").inner_text()
    _fits(page, ".queue-buried button", width)
    screenshot(page, f"drill-buried-{width}-{lang}")
    page.goto(live_server.url + "/dashboard")
    assert page.locator("[data-stat=buried]").inner_text() == "1"
    page.click(".queue-buried button")
    page.wait_for_selector(".flash-success")
    assert text["back"] in page.locator(".flash-success").inner_text()
    page.goto(live_server.url + "/dashboard")
    assert page.locator("[data-stat=buried]").inner_text() == "0" and page.locator(".queue-buried").count() == 0

    page.goto(live_server.url + "/postings/new")
    page.fill("#text", EMPTY_HEADING)
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#review-form")
    page.click("#review-save")
    page.wait_for_selector("#no-questions")
    _fits(page, "#paste-report", width)
    screenshot(page, f"posting-no-questions-{width}-{lang}")
    page.click("#paste-report")
    page.wait_for_selector("#report-intro")
    assert page.locator("h1").inner_text() == text["report"]
    assert page.js_errors == []
