"""End to end: register → import a seed posting (upload) → "Study this posting" → its questions
are in the drill queue (the seed posting of tests/data/seeds)."""
from __future__ import annotations

import pytest

from prep.questions.matcher import default_matcher
from prep.questions.normalize import normalize_question
from tests.support.data import SEEDS
from tests.support.live import register, screenshot

pytestmark = pytest.mark.browser

SEED = SEEDS / "000_97fc3cec54768f54.txt"


def test_import_posting_and_study_it(live_server, page):
    register(page, live_server)

    page.click("nav >> text=Postings")
    page.wait_for_selector("#no-postings")
    page.click("#import-posting")
    page.set_input_files("#file", str(SEED))
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#review-form")  # the checklist: nothing stored yet
    page.click("#review-save")
    page.wait_for_selector("#posting-title")
    assert "Imported" in page.locator(".flash").inner_text()

    questions = page.locator("a.posting-question").all_inner_texts()
    assert len(questions) >= 3
    assert page.locator("#posting-company").inner_text() == "百度"
    assert questions[0] == "请解释NCCL中AllReduce的Ring算法原理"
    assert page.locator(".chip.skill", has_text="NCCL").count() == 1
    assert page.locator(".no-explanation").count() == 0
    assert page.locator(".explanations a[href^='/explanations/']").count() >= 1
    screenshot(page, "posting")

    if page.locator("#with_likely").count():
        page.uncheck("#with_likely")  # only the posting's own questions here
    page.click("#study-posting button[type=submit]")
    page.wait_for_selector(".flash-success")
    assert f"Added {len(questions)} questions from this posting to your study." in \
        page.locator(".flash-success").inner_text()

    page.goto(live_server.url + "/dashboard")
    assert page.locator("[data-stat=new]").inner_text() == str(len(questions))
    page.click("#start-drill")
    page.wait_for_selector("#question-text")
    shown = page.locator("#question-text").inner_text()
    # one of the posting's questions, worded in the reader's language (English here) when the bank has it so
    matcher = default_matcher()
    assert any(normalize_question(shown) == normalize_question(q) or matcher.same(shown, q) for q in questions), shown
    assert page.js_errors == []


REPORT = """腾讯 机器学习平台 AI Infra 一面面经
楼主双非硕，记录一下，攒人品
一面 60min
1. 自我介绍
2. 讲一下NCCL的ring allreduce每一步在干什么
3. 说说RDMA的RC和UD有什么区别
4. 问了CUDA stream之间怎么同步
5. 手撕：实现一个LRU缓存
6. 反问：组里做什么
已oc
"""

LINKEDIN = """Orbital AI
GPU Communication Engineer · Remote
About the job
Orbital AI trains large models across thousands of GPUs. You will own the collective
communication layer: NCCL tuning, RDMA networking and CUDA kernels for communication.
Requirements
- Production experience with NCCL, RDMA (InfiniBand or RoCE) and CUDA.
- Strong C++.
Why join us?
Equity, and hard problems.
"""


def _paste_and_review(page, server, text: str) -> None:
    page.goto(server.url + "/postings/new")
    page.fill("#text", text)
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#review-form")


def test_review_a_report_and_a_posting_without_questions_then_study_likely(live_server, page):
    register(page, live_server)

    # An interview report: the checklist shows its questions; untick one, fix one, add one.
    _paste_and_review(page, live_server, REPORT)
    assert page.locator("#doc_kind").input_value() == "report"
    assert page.locator("#company").input_value() == "腾讯"
    rows = page.locator(".review-row")
    texts = [rows.nth(i).locator("textarea").input_value() for i in range(rows.count())]
    assert not any("自我介绍" in t or "反问" in t or "已oc" in t for t in texts), texts
    lru = next(i for i, t in enumerate(texts) if "LRU" in t)
    assert rows.nth(lru).locator("select").input_value() == "coding"
    rows.nth(lru).locator(".review-keep input[type=checkbox]").uncheck()
    rdma = next(i for i, t in enumerate(texts) if "RDMA" in t)
    rows.nth(rdma).locator("textarea").fill("RDMA的RC、UC、UD三种传输服务有什么区别？")
    page.fill("#new_question", "GPUDirect RDMA 是怎么绕过主机内存的？")
    page.click("#review-add-button")
    page.wait_for_selector(".review-row.added")
    screenshot(page, "review-report")
    page.click("#review-save")
    page.wait_for_selector("#posting-title")
    assert page.locator("#posting-kind").inner_text() in ("Interview report", "面经")
    asked = page.locator("a.posting-question").all_inner_texts()
    assert "RDMA的RC、UC、UD三种传输服务有什么区别？" in asked
    assert "GPUDirect RDMA 是怎么绕过主机内存的？" in asked
    assert not any("LRU" in q for q in asked)

    # A LinkedIn-style posting with no questions: an empty checklist that says what happens next.
    _paste_and_review(page, live_server, LINKEDIN)
    assert page.locator("#review-empty").count() == 1
    assert page.locator("#company").input_value() == "Orbital AI"
    assert page.locator(".review-row").count() == 0  # "Why join us?" is not a question
    page.click("#review-save")
    page.wait_for_selector("#posting-title")
    likely = page.locator("a.likely-question").all_inner_texts()
    assert len(likely) >= 8
    assert page.locator(".likely-questions a[href^='/explanations/']").count() == len(likely)
    assert page.locator("#with_likely").is_checked()
    page.click("#study-posting button[type=submit]")
    page.wait_for_selector(".flash-success")
    assert f"Added {len(likely)} questions" in page.locator(".flash-success").inner_text()
    assert page.locator("#readiness").count() == 1
    screenshot(page, "posting-likely")
    page.goto(live_server.url + "/dashboard")
    assert int(page.locator("[data-stat=new]").inner_text()) == len(likely)
    assert page.js_errors == []
