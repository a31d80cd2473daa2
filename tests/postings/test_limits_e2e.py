"""The posting's limits in a real browser, in English and Chinese: the paste box states them; a
paste over them is refused next to the box before it is sent (the text stays in the box), and
so is a file over 4 MB; the server, when it is the one refusing (a page without the check), gives
the same words and sends the text back in the box."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.live import LiveServer, screenshot, sign_in

pytestmark = pytest.mark.browser

PASSWORD = "a long enough passphrase"
WORDS = {
    "en": {"limits": "A posting or interview report may be at most 1,000,000 characters of text, and a file at most 4 MB.",
           "too_long": "The posting is too long: 1,000,001 characters (at most 1,000,000).",
           "too_large": "The file is too large: 4.1 MB (at most 4 MB)."},
    "zh": {"limits": "职位或面经的文字最多 1,000,000 个字符，文件最大 4 MB。",
           "too_long": "内容太长：1,000,001 个字符（最多 1,000,000 个）。",
           "too_large": "文件太大：4.1 MB（最大 4 MB）。"},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    s = LiveServer(tmp_path_factory.mktemp("limits"))
    s.start()
    s.prep("users", "create", "limits@example.com", "--password", PASSWORD)
    yield s
    s.stop()


def _fill(page, text_js: str) -> None:
    """Put a long text in the paste box as a paste would (typing a million characters takes minutes)."""
    page.evaluate(f"""() => {{ const box = document.getElementById("text"); box.value = {text_js};
                               box.dispatchEvent(new Event("input", {{bubbles: true}})); }}""")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_limits_are_stated_checked_and_a_refused_paste_stays(server, browser, lang):
    words = WORDS[lang]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(30000)
    try:
        sign_in(page, server, "limits@example.com", PASSWORD, lang)
        page.goto(server.url + "/postings/new")
        assert words["limits"] in page.locator("#text-hint").inner_text()

        # Over the limit in Chinese characters (3 MB of UTF-8): refused before sending, kept in the box.
        _fill(page, '"面".repeat(1000001)')
        page.click("#import-form button[type=submit]")
        error = page.locator("#text-error")
        error.wait_for()
        assert error.inner_text().strip() == words["too_long"]
        assert page.url.endswith("/postings/new")
        assert page.evaluate("document.getElementById('text').value.length") == 1_000_001
        assert page.locator("#text").get_attribute("aria-invalid") == "true"
        screenshot(page, f"posting-too-long-{lang}")

        # Made short enough, it goes: the check lets it through to the review.
        page.evaluate("() => { const b = document.getElementById('text'); b.value = b.value.slice(0, 1000) + "
                      "'\\n面试题\\n1. 如何优化 NCCL 的带宽？'; }")
        page.click("#import-form button[type=submit]")
        page.wait_for_selector("#review-form")

        # A page without the check (an old tab, no JavaScript): the server refuses with the same
        # words and sends the text back in the box.
        page.goto(server.url + "/postings/new")
        _fill(page, '"x".repeat(1000001)')
        page.evaluate("document.getElementById('text').removeAttribute('data-max-chars')")
        page.click("#import-form button[type=submit]")
        page.wait_for_selector("#text-error")
        assert page.locator("#text-error").inner_text().strip() == words["too_long"]
        assert page.evaluate("document.getElementById('text').value.length") == 1_000_001

        # A file over 4 MB: refused before uploading, next to the file field.
        page.goto(server.url + "/postings/new")
        page.set_input_files("#file", files=[{"name": "big.txt", "mimeType": "text/plain",
                                              "buffer": b"a" * 4_100_000}])
        page.click("#import-form button[type=submit]")
        page.locator("#file-error").wait_for()
        assert page.locator("#file-error").inner_text().strip() == words["too_large"]
        assert page.url.endswith("/postings/new")
    finally:
        context.close()
