"""End to end: type in the header search box on a 1280 px and a 360 px viewport (English and
Chinese queries over the real content), see results grouped by explanation with card states;
axe-core finds no serious violation on the results page, which does not scroll sideways."""
from __future__ import annotations

import pytest

from tests.support.live import axe_violations, register, screenshot

pytestmark = pytest.mark.browser


def _search_from_header(page, text: str) -> None:
    box = page.get_by_role("search").first.get_by_label("Search questions and explanations")
    box.click()
    box.fill(text)
    box.press("Enter")
    page.wait_for_url("**/search?q=*")
    page.wait_for_load_state("load")


@pytest.mark.parametrize("width", [1280, 360])
def test_header_search_shows_grouped_results(live_server, browser, width):
    # bypass_csp: axe is injected as an inline script, which the app's CSP (rightly) forbids.
    context = browser.new_context(viewport={"width": width, "height": 800}, timezone_id="Asia/Shanghai",
                                  locale="en-US", bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        register(page, live_server, email=f"search{width}@example.com")
        page.fill("#text", "How does a ring allreduce overlap with compute?")
        page.click("section.add-question button[type=submit]")
        page.wait_for_selector("text=Question added to your study.")

        page.goto(live_server.url + "/dashboard")
        header_box = page.locator("header #site-search")
        assert header_box.is_visible()
        box = header_box.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width  # fits the viewport
        header_box.focus()
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"

        _search_from_header(page, "ring allreduce")
        groups = page.locator(".search-group")
        assert groups.count() >= 1
        assert "ring allreduce" in groups.first.locator("h2").inner_text().lower()
        assert page.locator(".search-results mark").count() > 0
        # The candidate's own question is listed with its card state and a link to the card.
        mine = page.locator(".search-group li", has_text="overlap with compute")
        assert mine.locator("[data-state=new]").count() == 1 and mine.locator("a[href^='/cards/']").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"search-en-{width}")
        serious = axe_violations(page, f"search-en-{width}")
        assert not serious, serious

        _search_from_header(page, "环形")
        assert "环形" in page.locator(".search-group h2").first.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"search-zh-{width}")

        _search_from_header(page, "no such words anywhere")
        assert page.get_by_text("Nothing matches").is_visible()
        assert page.locator("main a[href='/questions']").count() == 1
    finally:
        context.close()
    assert errors == []
