"""In a browser (en and zh, with and without JavaScript): the review checklist says where each
question was found, a guess is marked apart; untick the guess, add a missed question in one step
(everything else stays as left), save: the posting has exactly the chosen questions."""
from __future__ import annotations

import pytest

from tests.support.postings import GUESSED
from tests.support.live import axe_violations, register, review_document, screenshot

pytestmark = pytest.mark.browser

REPORT = GUESSED + """Round 2
The interviewer was friendly. Then he asked how NCCL picks between ring and tree, I said it measures both.
"""
GUESS = "Suggest a way to send a large file faster over a lossy link"
MISSED = "How does GPUDirect RDMA bypass host memory?"

SAYS = {
    "en": {"guess": "guessed from the wording (", "narrated": "told in the text: “Then he asked how NCCL picks",
           "list": "a question followed by its answer, under “Round 1”", "added": "added by you", "dup": "This is question 1 in the list already.",
           "empty": "Write the question first, then add it."},
    "zh": {"guess": "根据措辞推测（", "narrated": "原文写道：“Then he asked how NCCL picks",
           "list": "“Round 1”下带答案的问题", "added": "你添加的", "dup": "这已是列表中的第 1 个问题。",
           "empty": "先写下问题，再添加。"},
}


def _texts(page) -> list[str]:
    rows = page.locator(".review-row textarea")
    return [rows.nth(i).input_value() for i in range(rows.count())]


def _review(page, server, lang: str) -> None:
    if lang == "zh":
        page.click(".language-switcher button[value=zh]")
        page.wait_for_selector("html[lang=zh-CN]")
    review_document(page, server, REPORT, report=True)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_origins_untick_a_guess_add_a_missed_one_save(live_server, browser, lang):
    # bypass_csp: axe is injected as an inline script, which the app's CSP (rightly) forbids
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    says = SAYS[lang]
    register(page, live_server, email=f"origins-{lang}@example.com")
    _review(page, live_server, lang)

    texts = _texts(page)
    assert texts.index(GUESS) == 1  # where the document has it, between the listed ones
    guessed = page.locator(".review-row.guessed")
    assert guessed.count() == 1 and guessed.locator("textarea").input_value() == GUESS
    assert says["guess"] in guessed.locator(".review-origin").inner_text()
    assert page.locator(".review-row").first.locator(".review-origin").inner_text() == says["list"]
    assert says["narrated"] in page.locator(".review-origin").all_inner_texts()[-1]
    screenshot(page, f"review-origins-{lang}")

    guessed.locator(".review-keep input[type=checkbox]").uncheck()
    page.fill("#company", "Google")
    page.fill("#new_question", "  ")
    page.click("#review-add-button")  # empty: said next to the field, nothing else changes
    page.wait_for_selector("#new_question-error")
    assert page.locator("#new_question-error").inner_text() == says["empty"]
    assert not page.locator(".review-row.guessed input[type=checkbox]").is_checked()
    assert axe_violations(page, f"review-origins-{lang}") == []  # the origins, the guess, the error
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the origins wrap, nothing scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1
    page.fill("#new_question", texts[0])
    page.click("#review-add-button")
    page.wait_for_selector(f"#new_question-error >> text={says['dup']}")
    page.wait_for_load_state("load")  # the page's script is what makes Enter add: not before it has run
    page.fill("#new_question", MISSED)
    page.press("#new_question", "Enter")  # Enter adds, as the button does
    page.wait_for_selector(f".review-row.added >> text={says['added']}")
    assert page.locator("#new_question-error").count() == 0 and page.locator("#new_question").input_value() == ""
    assert _texts(page)[-1] == MISSED and page.locator(".review-row.added input[type=checkbox]").is_checked()
    assert page.locator("#company").input_value() == "Google"
    assert not page.locator(".review-row.guessed input[type=checkbox]").is_checked()  # still unticked
    checked = page.locator(".review-row")
    chosen = [checked.nth(i).locator("textarea").input_value() for i in range(checked.count())
              if checked.nth(i).locator(".review-keep input[type=checkbox]").is_checked()]
    assert GUESS not in chosen and MISSED in chosen

    page.click("#review-save", timeout=120_000)  # matching each question with the bank takes seconds on a busy machine
    page.wait_for_selector("#posting-title")
    assert sorted(page.locator("a.posting-question").all_inner_texts()) == sorted(chosen)
    assert errors == []
    context.close()


def test_adding_works_without_javascript(live_server, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    register(page, live_server, email="origins-nojs@example.com")
    _review(page, live_server, "en")
    before = _texts(page)
    page.fill("#new_question", MISSED)
    page.click("#review-add-button")
    page.wait_for_selector(".review-row.added")
    assert _texts(page) == [*before, MISSED]
    page.click("#review-save", timeout=120_000)
    page.wait_for_selector("#posting-title")
    assert MISSED in page.locator("a.posting-question").all_inner_texts()
    context.close()
