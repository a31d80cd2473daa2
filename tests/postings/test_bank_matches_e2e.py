"""One question, one card, in a real browser: a 面经 whose questions reword or translate bank
questions shows them as matches on the review page (English at 1280 px, Chinese on a 360 px
phone, where the matches and the cards read in Chinese), and an instructor's explanation that
lists a candidate's question shows on that candidate's posting as a checked link."""
from __future__ import annotations

import re

import pytest

from tests.support.browser import INSTRUCTOR_PASSWORD
from tests.support.live import register, screenshot, sign_in

pytestmark = pytest.mark.browser

#: An import reads the whole bank and builds the linker on a cold server: slow on a loaded machine.
SLOW_MS = 120_000
ZH_PASSWORD = "a long enough passphrase"
REPORT = """某厂 AI Infra 一面面经
1. 介绍一下 ZeRO 的三个 stage 分别切分了什么
2. 怎么判断分布式训练作业的瓶颈是不是在通信上？
3. Megatron 的序列并行跟上下文并行区别在哪？
4. 如何设计一个多租户 GPU 集群的配额系统？
"""
NEW_QUESTION = "如何设计一个多租户 GPU 集群的配额系统？"
EXPLANATION = f"""---
title: GPU quota for a multi-tenant cluster
skills: [Kubernetes]
questions:
  - {NEW_QUESTION}
---
## Quotas

Give each tenant a guaranteed share and a borrowing limit, and queue jobs that do not fit.
"""
_HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def server(instructor_server):
    return instructor_server


def _review(page, server) -> None:
    page.set_default_timeout(SLOW_MS)
    page.goto(server.url + "/postings/new")
    page.fill("#text", REPORT)
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#review-form")


def test_matches_then_an_instructors_answer_lands_checked(server, page, browser):
    register(page, server)
    _review(page, server)
    matches = page.locator(".review-match")
    assert matches.count() == 3
    assert page.locator("#review-matches").count() == 1
    rows = page.locator(".review-row")
    new_row = next(i for i in range(rows.count()) if "配额" in rows.nth(i).locator("textarea").input_value())
    assert rows.nth(new_row).locator(".review-match").count() == 0
    screenshot(page, "review-matches")
    page.click("#review-save")
    page.wait_for_selector("#posting-title")
    flash = page.locator(".flash").inner_text()
    assert "3 already in the bank" in flash, flash
    posting_url = page.url
    asked = page.locator(".posting-questions li", has=page.locator("a.posting-question", has_text="配额"))
    assert asked.locator(".explanations a", has_text="GPU quota").count() == 0

    # An instructor writes an explanation that lists the candidate's question word for word.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    teacher = context.new_page()
    teacher.set_default_timeout(SLOW_MS)
    sign_in(teacher, server, "teach@example.com", INSTRUCTOR_PASSWORD)
    teacher.goto(server.url + "/explanations/new?area=llm-systems")
    teacher.fill("#area", "llm-systems")
    teacher.fill("#text", EXPLANATION)
    teacher.click("button[name=save]")
    teacher.wait_for_selector("text=Saved. The explanation is live for candidates.")
    context.close()

    page.goto(posting_url)
    asked = page.locator(".posting-questions li", has=page.locator("a.posting-question", has_text="配额"))
    link = asked.locator(".explanations a", has_text="GPU quota")
    assert link.count() == 1
    assert asked.locator(".suggested").count() == 0  # checked, not "suggested, not checked"
    page.goto(server.url + "/questions?q=" + "多租户")
    assert page.locator(f"text={NEW_QUESTION}").count() == 1  # the bank lists it once
    assert page.js_errors == []


def test_a_chinese_reader_on_a_phone_sees_chinese_wordings(server, browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="zh-CN",
                                  timezone_id="Asia/Shanghai", is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(SLOW_MS)
    server.prep("users", "create", "zh@example.com", "--password", ZH_PASSWORD)
    sign_in(page, server, "zh@example.com", ZH_PASSWORD, lang="zh")
    _review(page, server)
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    matches = page.locator(".review-match")
    assert matches.count() == 3
    for i in range(3):
        assert _HAN.search(matches.nth(i).locator("q").inner_text()), matches.nth(i).inner_text()
    assert "What is the difference" not in page.content()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360 + 1  # nothing wider than the phone
    screenshot(page, "review-matches-zh")
    page.click("#review-save")
    page.wait_for_selector("#posting-title")
    if page.locator("#with_likely").count():
        page.uncheck("#with_likely")
    page.click("#study-posting button[type=submit]")
    page.wait_for_selector(".flash-success")
    page.goto(server.url + "/cards")
    cards = page.locator("table a[href^='/cards/']").all_inner_texts()
    assert len(cards) == 4, cards
    assert all(_HAN.search(text) for text in cards), cards  # every wording in Chinese
    assert errors == []
    context.close()
