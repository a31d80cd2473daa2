"""Shared reports in a real browser, in English and in Chinese: a candidate shares an interview
report (the preview has no names, ids or numbers; they add a line), an instructor publishes it
from the review queue, another candidate finds it in the list and reads it with its questions,
the author withdraws it (after confirming) and it is gone for the other candidate."""
from __future__ import annotations

import pytest

from tests.support.browser import INSTRUCTOR_PASSWORD
from tests.support.live import axe_violations, import_document, register, screenshot, sign_in

pytestmark = pytest.mark.browser

SLOW_MS = 120_000  # an import builds the linker on a cold server: slow on a loaded machine
REPORT = """字节跳动 GPU 通信库工程师 面经
一面（技术面）
面试官王老师人很好，2024年3月15日下午面的。
1. 请解释Ring AllReduce的两个阶段
2. RDMA与TCP/IP相比有何优势？
有问题加我微信：zhang_san88，电话 138 1234 5678，邮箱 zs@example.com。
"""
SECRETS = ("王老师", "zhang_san88", "138 1234 5678", "zs@example.com", "15日")
ADDED = "祝大家都拿到 offer！"
WORDS = {
    "en": {"share_h1": "Share this report with everyone on this instance", "published": "Published",
           "withdrawn": "Withdrawn", "list": "Shared interview reports"},
    "zh": {"share_h1": "把这篇面经分享给本站的所有人", "published": "已发布", "withdrawn": "已撤回",
           "list": "分享的面经"},
}


def _accessible(page, name: str) -> None:
    """No serious or critical axe-core violation, and no sideways scrolling (a phone's width)."""
    serious = axe_violations(page, name)
    assert not serious, [(v["id"], v["nodes"][:3]) for v in serious]
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1, name


def _switch(page, lang: str) -> None:
    if lang != "en":
        page.click(f".language-switcher button[value={lang}]")
        page.wait_for_selector("html[lang=zh-CN]")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_share_approve_read_withdraw(instructor_server, browser, lang):
    server, words = instructor_server, WORDS[lang]
    # bypass_csp: axe-core is injected as an inline script, which the app's CSP forbids.
    contexts = [browser.new_context(viewport=size, locale="en-US", bypass_csp=True) for size in
                ({"width": 1280, "height": 900}, {"width": 1280, "height": 900}, {"width": 360, "height": 780})]
    author, teacher, reader = (c.new_page() for c in contexts)
    for page in (author, teacher, reader):
        page.set_default_timeout(SLOW_MS)
    try:
        # The author shares: the preview is anonymised and editable, nothing is visible yet.
        register(author, server, "author@example.com")
        _switch(author, lang)
        report_url = import_document(author, server, REPORT, report=True)
        author.click("#share-report")
        assert author.locator("h1").inner_text() == words["share_h1"]
        preview = author.locator("#text").input_value()
        assert "2024年3月" in preview and not any(secret in preview for secret in SECRETS), preview
        author.fill("#text", preview + "\n" + ADDED)
        screenshot(author, f"share-preview-{lang}")
        _accessible(author, f"share-preview-{lang}")
        author.click("#share-form button[type=submit]")
        author.wait_for_selector("#share-state[data-status=pending]")

        # An instructor publishes it from the review queue.
        sign_in(teacher, server, "teach@example.com", INSTRUCTOR_PASSWORD, lang=lang)
        teacher.goto(server.url + "/instructor/pending")
        teacher.click("#pending-shares a")
        assert ADDED in teacher.locator("#shared-text").inner_text()
        teacher.click("#review form.inline button[type=submit]")
        teacher.wait_for_selector(f".flash:has-text('{words['published']}')")

        # Another candidate (on a phone) finds it in the list and reads it, anonymised.
        register(reader, server, "reader@example.com")
        _switch(reader, lang)
        reader.goto(server.url + "/postings")
        reader.click("#shared-reports-link")
        assert words["list"] in reader.locator("h1").inner_text()
        _accessible(reader, f"shared-list-{lang}")
        reader.click("#shared-reports a.shared-report")
        shared_url = reader.url
        text = reader.locator("#shared-text").inner_text()
        assert ADDED in text and not any(secret in text for secret in SECRETS)
        assert reader.locator(".shared-question", has_text="Ring AllReduce").count() == 1
        assert reader.locator("#shared-questions .explanations a").count() >= 1  # linked to an explanation
        screenshot(reader, f"shared-read-{lang}")
        _accessible(reader, f"shared-read-{lang}")
        reader.goto(report_url)  # the author's own page is not the reader's: its shared page instead
        assert reader.url == shared_url

        # The author withdraws it, after confirming; it is gone for the reader at once.
        author.goto(report_url)
        author.click("#withdraw-share")
        author.click("#withdraw-share-form button[type=submit]")
        author.wait_for_selector(f".flash:has-text('{words['withdrawn']}')")
        author.wait_for_selector("#share-state[data-status=withdrawn]")
        assert "Ring AllReduce" in author.locator("#posting-questions, .posting-questions").first.inner_text()
        reader.goto(server.url + "/shared")
        assert reader.locator("#no-shared").count() == 1
        assert reader.goto(shared_url).status == 404
    finally:
        for context in contexts:
            context.close()
