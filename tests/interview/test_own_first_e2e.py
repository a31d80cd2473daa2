"""End to end, own questions first: a candidate pastes an interview report (面经), studies it with
its likely questions and sets the interview date; the first drill session then shows the report's
questions before any likely one — in English at 1280 px and in Chinese on a 360 px phone."""
from __future__ import annotations

import pytest

from tests.support.live import import_document, register

pytestmark = pytest.mark.browser

# Four questions on four different explanations: a report question sharing an explanation with
# another is its sibling, buried until tomorrow once the other is rated, so it could not come first.
REPORT = """Acme AI 通信工程师 一面面经
面试问题
1. 讲一下你在上一份工作里做过的 NCCL 通信优化项目
2. 你们训练集群的 RoCE 网络出现过哪些丢包问题，怎么排查的
3. 介绍一下你写过的 AllReduce 带宽测试工具
4. GPUDirect RDMA 的数据路径是怎样的，和经过主机内存相比省了什么
"""


def _first_session(page, server, answers: int) -> list[str]:
    """The question of each distinct card the first drill session shows, in order (Good to each)."""
    page.goto(server.url + "/drill")
    seen: list[str] = []
    for _ in range(answers):
        if page.locator("#drill.done").count():
            break
        page.wait_for_selector("#rate-form", state="attached")
        page.wait_for_load_state("load")
        question = page.locator("#question-text").inner_text().strip()
        shown_at = page.evaluate("(document.getElementById('card_id') || {}).value + '/' + "
                                 "(document.getElementById('version') || {}).value")
        if question not in seen:
            seen.append(question)
        page.keyboard.press("Space")
        page.wait_for_selector("#answer", state="visible")
        page.keyboard.press("3")
        # The next card, or this one again at its next step (a learning card can come straight back).
        page.wait_for_function(
            "s => { const c = document.getElementById('card_id'), v = document.getElementById('version');"
            " return !c || !v || c.value + '/' + v.value !== s || !!document.querySelector('#drill.done'); }",
            arg=shown_at)
    return seen


@pytest.mark.parametrize(("lang", "width"), [("en", 1280), ("zh", 360)])
def test_the_first_session_starts_with_the_reports_questions(live_server, browser, lang, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, timezone_id="Asia/Shanghai",
                                  locale="en-US")
    page = context.new_page()
    page.set_default_timeout(90000)  # a loaded machine: the import and the plan take a while
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    register(page, live_server, email=f"own-{lang}@example.com")
    if lang == "zh":
        page.click(".language-switcher button[value=zh]")
        page.wait_for_load_state("load")
    import_document(page, live_server, REPORT, report=True)
    asked = [t.strip() for t in page.locator("a.posting-question").all_inner_texts()]
    likely = [t.strip() for t in page.locator("a.likely-question").all_inner_texts()]
    assert len(asked) == 4 and likely, (asked, likely)
    assert page.locator("#with_likely").is_checked()  # the likely questions come along by default
    page.click("#study-posting button[type=submit]")
    page.wait_for_selector(".flash-success")
    page.fill("#interview_date", page.evaluate("new Date(Date.now() + 10 * 864e5).toLocaleDateString('en-CA')"))
    page.click("#readiness form button[type=submit]")
    page.wait_for_selector("#on-the-day:not([data-pending])")  # the plan is made in the background

    # The drill shows each card's question in the reader's language (the posting lists the bank's
    # wording): the studied cards' wordings, as the card list shows them, name the likely ones too.
    page.goto(live_server.url + "/cards")
    studied = [t.strip() for t in page.locator("table.list tbody tr td:first-child a").all_inner_texts()]
    assert set(asked) <= set(studied), (asked, studied)
    likely = likely + [q for q in studied if q not in asked]

    shown = _first_session(page, live_server, 12)
    kinds = ["asked" if q in asked else "likely" if q in likely else "other" for q in shown]
    assert kinds and kinds[0] == "asked", list(zip(shown, kinds))
    assert "other" not in kinds, list(zip(shown, kinds))
    first_likely = kinds.index("likely") if "likely" in kinds else len(kinds)
    assert "asked" not in kinds[first_likely:], list(zip(shown, kinds))  # no report question after a likely one
    if first_likely < len(kinds):  # a likely question today: every report question came before it
        assert set(asked) <= set(shown[:first_likely]), list(zip(shown, kinds))
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"the drill scrolls sideways by {overflow}px at {width}px"
    assert errors == []
    context.close()
