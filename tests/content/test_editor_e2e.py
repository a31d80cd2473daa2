"""Instructor editor in a real browser: write → live preview (highlighted code, KaTeX math) →
save → a candidate's drill shows the new explanation."""
from __future__ import annotations

import pytest

from tests.support.browser import INSTRUCTOR_PASSWORD as PASSWORD
from tests.support.live import register, screenshot

pytestmark = pytest.mark.browser



DRAFT = """---
title: Warp divergence
skills: [CUDA]
questions:
  - What is warp divergence and why does it cost time?
key_points:
  - A warp's threads that branch apart run each path in turn
  - The cost is about the sum of both sides
  - Branch on warp-uniform values to avoid it
---
## The idea

Threads of a warp that take different branches run one path after the other.
The cost of a branch is roughly $t = t_{if} + t_{else}$ when both sides are taken.

```cpp
if (threadIdx.x % 2) { a(); } else { b(); }
```
"""


@pytest.fixture
def server(instructor_server):
    return instructor_server


def test_write_preview_save_then_drill(server, page, browser):
    page.goto(server.url + "/login")
    page.fill("#email", "teach@example.com")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.goto(server.url + "/explanations/new?area=gpu")
    page.fill("#area", "gpu")
    page.fill("#text", DRAFT)
    # Live preview: highlighted code and math typeset by KaTeX in the browser.
    page.wait_for_selector("#preview .highlight")
    page.wait_for_selector("#preview .katex")
    screenshot(page, "editor-preview")
    page.click("button[name=save]")
    page.wait_for_selector("text=Saved. The explanation is live for candidates.")
    # Saved to the database (any host serves it), not into this host's folder; its history shows who.
    assert not (server.root / "content" / "gpu" / "warp-divergence.md").exists()
    assert "teach@example.com" in page.locator(".history").inner_text()

    # A candidate studies the question and sees the explanation on the answer side.
    candidate = browser.new_context()
    cpage = candidate.new_page()
    register(cpage, server, email="cand2@example.com")
    cpage.fill("#q", "warp divergence")
    cpage.click("form.search-row button")  # the bank's own search, not the header box
    cpage.click("text=Add to study")
    cpage.goto(server.url + "/drill")
    assert "warp divergence" in cpage.locator("#question-text").inner_text()
    cpage.keyboard.press("Space")
    cpage.wait_for_selector("#answer .explanation-body .highlight")
    cpage.wait_for_selector("#answer .katex")
    assert "Warp divergence" in cpage.locator("#answer").inner_text()
    candidate.close()


def test_an_unclosed_math_block_is_a_warning_beside_the_text(server, page):
    """Typing an unclosed $$ shows a warning with its line next to the textarea
    (the live preview); closing it takes the warning away."""
    page.goto(server.url + "/login")
    page.fill("#email", "teach@example.com")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.goto(server.url + "/explanations/new?area=gpu", wait_until="load")
    page.fill("#area", "gpu")
    page.fill("#text", DRAFT + "\n$$\nt = t_{if}\n")
    warning = page.locator("#warning-list li")
    page.locator("#warning-list li", has_text="math block").wait_for()  # the template's own warning went first
    assert warning.all_inner_texts() == ["Line 20: this $$ math block is never closed: add a closing $$, "
                                         "or the formula shows as plain text"]
    assert page.locator("#problem-list").count() == 0  # a warning, not a problem: Save still works
    # Beside the text: the warning box sits right under the textarea, in the same column.
    text_box, warn_box = page.locator("#text").bounding_box(), page.locator("#warning-list").bounding_box()
    assert abs(warn_box["x"] - text_box["x"]) < 40 and 0 <= warn_box["y"] - (text_box["y"] + text_box["height"]) < 80
    screenshot(page, "editor-unclosed-math-warning")
    page.fill("#text", DRAFT + "\n$$\nt = t_{if}\n$$\n")
    page.wait_for_selector("#warning-list", state="detached")


CHINESE_DRAFT = """---
title: 环形 AllReduce 的两个阶段
slug: ring-allreduce
questions:
  - 环形 AllReduce 的两个阶段各做什么？
lang: zh
---
先 reduce-scatter，再 all-gather。
"""


def test_the_slug_line_fixes_a_taken_slug_and_missing_key_points_warn(server, page):
    """The new page shows a slug line; a Chinese page over a slug already used says so at that
    line, the instructor edits it, and saving with no key points warns (live, then after saving)."""
    page.goto(server.url + "/login")
    page.fill("#email", "teach@example.com")
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    page.goto(server.url + "/explanations/new?area=collectives", wait_until="load")
    assert page.input_value("#text").splitlines()[2] == "slug: new-explanation"
    page.fill("#text", CHINESE_DRAFT)
    problem = page.locator("#problem-list li")
    problem.first.wait_for()
    assert problem.all_inner_texts()[0].startswith("Line 3: slug 'ring-allreduce' is already used by ")
    page.fill("#text", CHINESE_DRAFT.replace("slug: ring-allreduce", "slug: ring-allreduce-phases"))
    page.wait_for_selector("#problem-list", state="detached")
    warning = page.locator("#warning-list li")
    warning.first.wait_for()
    assert warning.all_inner_texts() == ["Line 1: no key_points: add 3 to 6 short points a full answer must cover "
                                         "(the drill's checklist to grade an answer by)"]
    page.click("button[name=save]")
    page.wait_for_selector("text=Saved. The explanation is live for candidates.")
    assert "Check line 1: no key_points" in page.locator("main").inner_text()
    assert "/explanations/ring-allreduce-phases" in page.url
