"""End to end, in English and in Chinese: a candidate imports two interview reports of one
company under two of its names (字节 and ByteDance), finds the company on /companies, reads its
questions most asked first, finds it from the header search under either name, and studies the
top 5, which adds five cards."""
from __future__ import annotations

import pytest

from tests.support.live import axe_violations, register, review_document, screenshot

pytestmark = pytest.mark.browser

FIRST = """字节 AI Infra 一面面经
一面
1. 请解释 Ring AllReduce 的两个阶段？
2. RDMA 与 TCP 相比有何优势？
3. NCCL 如何选择 ring 和 tree 算法？
4. 如何用 CUDA 实现一个 reduce kernel？
"""

SECOND = """ByteDance LLM serving interview
Round 1
1. 请解释 Ring AllReduce 的两个阶段？
2. What is a KV cache and why does it grow with the context?
3. How does PagedAttention avoid memory fragmentation?
4. RDMA 与 TCP 相比有何优势？
"""

TEXT = {
    "en": {"companies": "Companies", "study": "Study the top questions", "added": "Added 5 of the top 5 questions",
           "name": "ByteDance", "summary": "Questions from 2 interview reports"},
    "zh": {"companies": "公司", "study": "学习排名靠前的题目", "added": "已将前 5 道题中的 5 道加入学习",
           "name": "字节跳动", "summary": "题目来自 2 篇面经"},
}


def _import(page, server, text: str, company: str) -> None:
    review_document(page, server, text, report=True)
    page.fill("#company", company)  # the review checklist's company stays editable
    page.click("#review-save")
    page.wait_for_selector("#posting-title")
    assert page.locator("#posting-company a[href='/companies/bytedance']").count() == 1


def _search(page, words: str) -> None:
    box = page.locator("header #site-search")
    box.fill(words)
    box.press("Enter")
    page.wait_for_url("**/search?q=*")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_company_page_ranks_questions_and_studies_the_top_five(live_server, browser, lang):
    words = TEXT[lang]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US", bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(60000)  # the import runs the extractor: slow on a busy machine
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        register(page, live_server, email=f"companies-{lang}@example.com")
        if lang == "zh":
            page.click(".language-switcher button[value=zh]")
            page.wait_for_selector("html[lang=zh-CN]")
        _import(page, live_server, FIRST, "字节")
        _import(page, live_server, SECOND, "ByteDance")

        page.get_by_role("navigation").get_by_role("link", name=words["companies"], exact=True).first.click()
        row = page.locator("#companies tr[data-company=bytedance]")
        assert row.locator("td").nth(1).inner_text() == "2"  # two reports, one company
        row.get_by_role("link").click()
        page.wait_for_selector("#ranked-questions")
        assert page.locator("#company-name").inner_text() == words["name"]
        assert words["summary"] in page.locator("#company-summary").inner_text()
        ranked = page.locator("#ranked-questions > li")
        assert ranked.count() == 6
        assert [ranked.nth(i).get_attribute("data-reports") for i in range(3)] == ["2", "2", "1"]
        top_two = {ranked.nth(i).locator("a").first.inner_text() for i in range(2)}
        # asked in both reports (each shown as the bank's wording of it, in the reader's language if it has one)
        assert sorted("RDMA" in text for text in top_two) == [False, True]
        assert any("AllReduce" in text for text in top_two)
        assert page.locator("#ranked-questions [data-state=not-studying]").count() == 6
        page.set_viewport_size({"width": 360, "height": 800})  # a phone: nothing scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        screenshot(page, f"company-{lang}-360")
        page.set_viewport_size({"width": 1280, "height": 900})
        screenshot(page, f"company-{lang}")
        serious = axe_violations(page, f"company-{lang}")
        assert not serious, serious

        for name in ("字节", "ByteDance"):
            _search(page, name)
            hit = page.locator("#search-companies li[data-company=bytedance]")
            assert hit.count() == 1 and "2" in hit.inner_text()
        page.locator("#search-companies a[href='/companies/bytedance']").click()
        page.wait_for_selector("#study-top")

        page.fill("#n", "5")
        page.get_by_role("button", name=words["study"]).click()
        page.wait_for_selector(f"text={words['added']}")
        assert page.locator("#ranked-questions [data-state=new]").count() == 5
        assert page.locator("#ranked-questions [data-state=not-studying]").count() == 1

        page.fill("#n", "51")
        page.evaluate("document.querySelector('#n').removeAttribute('max')")  # past the browser's own check
        page.get_by_role("button", name=words["study"]).click()
        page.wait_for_selector("#n-error")
        assert page.locator("#ranked-questions [data-state=new]").count() == 5  # nothing changed
    finally:
        context.close()
    assert errors == []
