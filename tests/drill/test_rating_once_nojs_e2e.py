"""Ratings exactly once without JavaScript, in Chromium with scripts off: Back
after a rating (and submitting the old page again, when the browser shows it from its cache)
records nothing and says so; a rating from a
stale tab (the card was rated in another) is answered with a message and the next card. At
1280 px in English and 360 px in Chinese; each check reads the live server's review logs."""
from __future__ import annotations

import pytest

from tests.support.drill_seed import PASSWORD, logs as _logs, seed as _seed
from tests.support.live import sign_in

pytestmark = pytest.mark.browser

CASES = [
    pytest.param("en-US", {"width": 1280, "height": 900}, "This rating was already recorded.",
                 "This card was already rated in another tab.", id="en-1280"),
    pytest.param("zh-CN", {"width": 360, "height": 740}, "这次评分已经记录过了。",
                 "这张卡片已在另一个标签页中评过分。", id="zh-360"),
]


def _context(browser, locale, viewport):
    context = browser.new_context(viewport=viewport, locale=locale, java_script_enabled=False,
                                  timezone_id="Asia/Shanghai")
    context.set_default_timeout(30000)
    return context




def _revealed(page, server) -> str:
    """Open the drill, show the answer (a link without JavaScript); the question shown."""
    page.goto(server.url + "/drill")
    page.click("#show-answer")
    page.wait_for_selector("#rate-form button[name=rating]")
    return page.locator("#question-text").inner_text()


@pytest.mark.parametrize(("locale", "viewport", "recorded", "stale"), CASES)
def test_back_then_resubmit_records_nothing(live_server, browser, locale, viewport, recorded, stale):
    email = f"nojs-back-{locale.lower()}@example.com"
    _seed(live_server, email, 3)
    context = _context(browser, locale, viewport)
    page = context.new_page()
    sign_in(page, live_server, email, PASSWORD)
    first = _revealed(page, live_server)
    page.locator("#rate-form button[name=rating][value='3']").click()
    page.wait_for_load_state("load")
    assert page.locator("#question-text").inner_text() != first
    assert [count for _, count in _logs(live_server, email)] == [1]
    page.go_back()
    page.wait_for_load_state("load")
    if page.locator(".flash").filter(has_text=recorded).count() == 0:
        # The old page as it was (from the back-forward cache): its form and one-time token resubmitted.
        assert page.locator("#question-text").inner_text() == first
        page.locator("#rate-form button[name=rating][value='1']").click()
        page.wait_for_load_state("load")
    # Else the answer page was asked for again: the card has moved on, so it says so and goes on.
    assert page.locator(".flash").filter(has_text=recorded).count() == 1
    assert page.locator("#question-text").inner_text() != first  # the next card, not the same again
    assert [count for _, count in _logs(live_server, email)] == [1]
    context.close()


@pytest.mark.parametrize(("locale", "viewport", "recorded", "stale"), CASES)
def test_a_stale_tab_is_told_and_moves_on(live_server, browser, locale, viewport, recorded, stale):
    email = f"nojs-stale-{locale.lower()}@example.com"
    _seed(live_server, email, 3)
    context = _context(browser, locale, viewport)
    tab_a = context.new_page()
    sign_in(tab_a, live_server, email, PASSWORD)
    tab_b = context.new_page()
    first = _revealed(tab_a, live_server)
    assert _revealed(tab_b, live_server) == first
    tab_a.locator("#rate-form button[name=rating][value='3']").click()
    tab_a.wait_for_load_state("load")
    tab_b.locator("#rate-form button[name=rating][value='2']").click()
    tab_b.wait_for_load_state("load")
    assert tab_b.locator(".flash").filter(has_text=stale).count() == 1
    assert tab_b.locator("#question-text").inner_text() != first
    assert [count for _, count in _logs(live_server, email)] == [1]
    context.close()
