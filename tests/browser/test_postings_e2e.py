"""End to end: register → import a seed posting (upload) → "Study this posting" → its questions
are in the drill queue. Uses a shipped sample posting when ../shared/seeds is absent."""
from __future__ import annotations

from pathlib import Path

import pytest

from prep.questions.normalize import normalize_question
from tests.browser.conftest import register, screenshot

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
SEED = REPO.parent / "shared" / "seeds" / "000_97fc3cec54768f54.txt"
SAMPLE = REPO / "prep" / "postings" / "samples" / "01_yunfan_llm_comm_zh.txt"


def test_import_posting_and_study_it(live_server, page):
    posting_file = SEED if SEED.is_file() else SAMPLE
    register(page, live_server)

    page.click("nav >> text=Postings")
    page.wait_for_selector("#no-postings")
    page.click("#import-posting")
    page.set_input_files("#file", str(posting_file))
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#posting-title")
    assert "Imported" in page.locator(".flash").inner_text()

    questions = page.locator("a.posting-question").all_inner_texts()
    assert len(questions) >= 3
    if posting_file == SEED:
        assert page.locator("#posting-company").inner_text() == "百度"
        assert questions[0] == "请解释NCCL中AllReduce的Ring算法原理"
        assert page.locator(".chip.skill", has_text="NCCL").count() == 1
        assert page.locator(".no-explanation").count() == 0
    assert page.locator(".explanations a[href^='/explanations/']").count() >= 1
    screenshot(page, "posting")

    page.click("text=Study this posting")
    page.wait_for_selector(".flash-success")
    assert f"Added {len(questions)} questions from this posting to your study." in \
        page.locator(".flash-success").inner_text()

    page.goto(live_server.url + "/dashboard")
    assert page.locator("[data-stat=new]").inner_text() == str(len(questions))
    page.click("#start-drill")
    page.wait_for_selector("#question-text")
    shown = normalize_question(page.locator("#question-text").inner_text())
    assert shown in {normalize_question(q) for q in questions}
    assert page.js_errors == []
