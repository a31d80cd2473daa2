"""End to end, interview mode: import a posting, study it, set its interview date 10 days out,
see the plan (and its shortfall on a tight budget), study ahead of the plan from the drill's done
screen, drill some cards, and see the predicted recall on the interview day rise; the plan page
at phone width, in both languages, with no serious axe violation."""
from __future__ import annotations

import pytest

from tests.support.live import axe_violations, register, screenshot

pytestmark = pytest.mark.browser

POSTING = """Acme AI
ML Infrastructure Engineer
Responsibilities
- Build and run the training cluster.
Interview questions
- What are the two phases of ring AllReduce?
- What does a completion queue hold in RDMA verbs?
- How does PFC prevent packet loss in RoCE networks?
- What does ECMP hash on to pick a path?
- Why does NCCL use a tree algorithm for small messages?
- What is the difference between data and tensor parallelism?
"""


def _predicted(page, url: str) -> float:
    """The posting's predicted recall on the day, once the plan made in the background is in."""
    for _ in range(60):
        page.goto(url)
        if page.locator("#on-the-day:not([data-pending])").count():
            return float(page.locator("#on-the-day .predicted-on-day").get_attribute("data-value"))
        page.wait_for_timeout(500)  # the plan is being made in another thread of the server
    raise AssertionError("the plan was not made within 30 s")


def _posting_with_interview(page, server, days: int) -> str:
    """Import POSTING, study its questions and give it an interview ``days`` out on the browser's
    own calendar (the account's zone came from it); returns the posting page's address."""
    page.goto(server.url + "/postings/new")
    page.fill("#text", POSTING)
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#review-form")
    page.click("#review-save")
    page.wait_for_selector("#posting-title")
    posting_url = page.url.split("#")[0]
    if page.locator("#with_likely").count():
        page.uncheck("#with_likely")
    page.click("#study-posting button[type=submit]")
    page.wait_for_selector(".flash-success")
    page.fill("#interview_date", page.evaluate(f"new Date(Date.now() + {days} * 864e5).toLocaleDateString('en-CA')"))
    page.click("#readiness form button[type=submit]")
    page.wait_for_selector("#on-the-day")
    return posting_url


def test_plan_drill_and_recall_on_the_day_rises(live_server, page):
    register(page, live_server)
    posting_url = _posting_with_interview(page, live_server, 10)
    questions = page.locator("a.posting-question").count()
    assert questions >= 4 and page.locator(".question-recall").count() == questions

    # A tight budget: the plan says plainly what it cannot do.
    page.goto(live_server.url + "/plan")
    page.fill("#budget", "1")
    page.click("#plan-settings button[type=submit]")
    page.wait_for_selector("#shortfall")
    assert "cannot reach" in page.locator("#shortfall").inner_text()
    # Ten days to the interview and the interview day; before the study day starts (04:00 local)
    # the candidate is still in yesterday's study day, which is one more day of the plan.
    before_day_start = page.evaluate("new Date().getHours() < 4")
    assert page.locator("#plan-calendar tbody tr").count() == (12 if before_day_start else 11)
    before = _predicted(page, posting_url)

    # One minute a day books nothing today: the questions wait for their days, and the drill
    # offers to study some of them ahead of the plan.
    page.goto(live_server.url + "/drill")
    page.wait_for_selector("#study-ahead")
    assert "All done for now" in page.locator("#question-text").inner_text()
    page.click("#study-ahead button[type=submit]")
    page.wait_for_selector(".flash-success")
    assert "added to today's study, ahead of the plan" in page.locator(".flash-success").inner_text()
    page.wait_for_selector("#rate-form", state="attached")
    page.wait_for_load_state("load")  # the drill's keys work once its script has run
    for _ in range(3):
        question = page.locator("#question-text").inner_text()
        page.keyboard.press("Space")
        page.wait_for_selector("#answer", state="visible")
        page.keyboard.press("4")  # Easy: the card leaves learning today
        page.wait_for_function(
            "q => { const h = document.getElementById('question-text'); return !h || h.innerText !== q; }",
            arg=question)

    after = _predicted(page, posting_url)
    assert after > before, (before, after)
    page.goto(live_server.url + "/dashboard")
    assert "predicted recall on the day" in page.locator(".interviews").inner_text()
    assert page.js_errors == []


def test_plan_page_at_phone_width_in_both_languages(live_server, browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, timezone_id="Asia/Shanghai",
                                  locale="en-US", bypass_csp=True)  # axe is injected inline
    page = context.new_page()
    register(page, live_server, email="phone@example.com")
    _posting_with_interview(page, live_server, 14)
    problems = []
    for lang, heading in (("zh", "面试计划"), ("en", "Interview plan")):
        page.goto(live_server.url + "/plan")
        page.click(f".language-switcher button[value={lang}]")
        page.wait_for_load_state("load")
        page.goto(live_server.url + "/plan")
        page.wait_for_load_state("load")
        assert heading in page.locator("h1").inner_text()
        screenshot(page, f"plan-360-{lang}")
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if overflow > 1:
            problems.append(f"{lang}: the plan scrolls sideways by {overflow}px at 360px")
        problems += [f"{lang}: {v['impact']} {v['id']}" for v in axe_violations(page, f"plan-{lang}")]
    assert problems == []
    context.close()


def test_the_drill_stops_booking_when_the_days_minutes_are_used(live_server, page):
    """Interview mode's budget in the prefetching drill: the rating that uses up the day's minutes
    (the page's clock moved four minutes on while the answer was shown) says the plan moved the
    rest of today's interview reviews (the page drops the cards it kept and asks for today's queue
    again), and the rating is recorded."""
    register(page, live_server, email="budget@example.com")
    _posting_with_interview(page, live_server, 4)
    page.goto(live_server.url + "/plan")
    page.fill("#budget", "3")
    page.click("#plan-settings button[type=submit]")
    page.wait_for_selector("#plan-calendar")

    page.goto(live_server.url + "/drill")
    page.wait_for_selector("#question-text")
    page.wait_for_load_state("load")
    page.wait_for_function("() => Number(document.getElementById('drill').dataset.queued || 0) >= 1")
    page.evaluate("() => { const real = Date.now; window.__ahead = 0; Date.now = () => real() + window.__ahead; }")
    page.keyboard.press("Space")
    page.wait_for_selector("#answer", state="visible")
    page.evaluate("() => { window.__ahead = 4 * 60 * 1000; }")  # four minutes on this card
    page.keyboard.press("3")
    page.wait_for_function("() => document.getElementById('sync-status').innerText.includes('study time')")
    status = page.locator("#sync-status").inner_text()
    assert "the plan moved today's other interview reviews to the coming days" in status
    page.wait_for_function("() => document.getElementById('drill').dataset.pending === '0'")
    assert page.js_errors == []
