"""Accessibility and the two UI languages in a real browser.

axe-core (vendored in tests/support/vendor/, tests only) runs on the dashboard, the drill (question
and answer side), a posting, an explanation, the instructor's editor and the settings page, in English and
Chinese, at 1280 px and at a 360 px phone width; any serious or critical violation fails. Every page
is saved as a screenshot (test-artifacts/<page>-<lang>-<width>.png) and must not scroll sideways.
Also: the footer switcher turns the drill and dashboard into Chinese, and the drill's keyboard
shortcuts dialog and live-region announcements work.
"""
from __future__ import annotations

import email
import email.policy
import shutil
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.support.live import LiveServer, axe_violations, register, screenshot, sign_in
from tests.support.postings import POSTING

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[1] / "support" / "vendor" / "axe.min.js"
REPO_CONTENT = Path(__file__).resolve().parents[2] / "content"
INSTRUCTOR = "teach@example.com"
CANDIDATE = "cand@example.com"
PASSWORD = "a long enough passphrase"
WIDTHS = {"1280": {"width": 1280, "height": 900}, "360": {"width": 360, "height": 780}}
SWITCH = {"en": "English", "zh": "中文"}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    root = tmp_path_factory.mktemp("a11y")
    shutil.copytree(REPO_CONTENT, root / "content")
    s = LiveServer(root, content_dir=root / "content")
    s.start()
    s.prep("users", "create", INSTRUCTOR, "--role", "instructor", "--password", PASSWORD)
    s.prep("users", "create", CANDIDATE, "--password", PASSWORD)
    yield s
    s.stop()


def _context(browser, width: str):
    # bypass_csp: the app's CSP (rightly) forbids inline scripts, and add_script_tag injects one.
    return browser.new_context(viewport=WIDTHS[width], timezone_id="Asia/Shanghai", locale="en-US",
                               bypass_csp=True)


def _login(page, server: LiveServer, email: str) -> None:
    sign_in(page, server, email, PASSWORD)


def _switch_language(page, lang: str) -> None:
    page.click(f".language-switcher button[value={lang}]")
    page.wait_for_selector(f"html[lang={'zh-CN' if lang == 'zh' else 'en'}]")


def _study_some_questions(page, server: LiveServer) -> None:
    """Give the candidate cards: every bank question tagged NCCL (from the content pack)."""
    page.goto(server.url + "/questions?tag=NCCL")
    if page.locator("form[action$='/questions/study-tag'] button").count():
        page.click("form[action$='/questions/study-tag'] button")
        page.wait_for_selector(".flash")


def _check(page, name: str, width: str, problems: list[str]) -> None:
    page.wait_for_load_state("load")
    screenshot(page, name)
    for v in axe_violations(page, name):
        problems.append(f"{name}: {v['impact']} {v['id']} ({v['help']}): "
                        + "; ".join(str(n["target"]) for n in v["nodes"][:5]))
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    if overflow > 1:
        culprits = page.evaluate(_WIDE_ELEMENTS)
        problems.append(f"{name}: the page scrolls sideways by {overflow}px at {width}px: {culprits}")


# The outermost elements sticking out on the right (what makes a phone page scroll sideways).
_WIDE_ELEMENTS = """() => {
    const limit = document.documentElement.clientWidth + 1, out = [];
    for (const el of document.body.querySelectorAll("*")) {
        if (el.getBoundingClientRect().right <= limit) continue;
        if (el.parentElement && el.parentElement.getBoundingClientRect().right > limit
            && el.parentElement !== document.body) continue;
        out.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
                 (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : ""));
        if (out.length >= 5) break;
    }
    return out;
}"""


@pytest.mark.parametrize("width", list(WIDTHS))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_axe_on_the_main_pages(server, browser, lang, width):
    problems: list[str] = []
    context = _context(browser, width)
    page = context.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        _login(page, server, CANDIDATE)
        _switch_language(page, lang)
        _study_some_questions(page, server)
        suffix = f"{lang}-{width}"

        page.goto(server.url + "/dashboard")
        _check(page, f"dashboard-{suffix}", width, problems)

        page.goto(server.url + "/drill")
        page.wait_for_selector("#question-text")
        page.wait_for_load_state("load")  # the drill's keys work once its script has run
        _check(page, f"drill-{suffix}", width, problems)
        page.keyboard.press("Space")
        page.wait_for_selector("#rate-form", state="visible")
        _check(page, f"drill-answer-{suffix}", width, problems)

        page.goto(server.url + "/explanations/ring-allreduce")
        _check(page, f"explanation-{suffix}", width, problems)

        page.goto(server.url + "/settings")
        _check(page, f"settings-{suffix}", width, problems)

        page.goto(server.url + "/postings/new")
        page.fill("#text", POSTING)
        page.click("#import-form button[type=submit]")
        page.wait_for_selector("#review-form, #posting-title")
        if page.locator("#review-form").count():  # the first time; then it is already imported
            _check(page, f"review-{suffix}", width, problems)
            page.click("#review-save")
            page.wait_for_selector("#posting-title")
        _check(page, f"posting-{suffix}", width, problems)

        page.goto(server.url + "/questions")
        _check(page, f"questions-{suffix}", width, problems)

        # The editor, as an instructor.
        context.clear_cookies()
        _login(page, server, INSTRUCTOR)
        _switch_language(page, lang)
        page.goto(server.url + "/explanations/new?area=collectives")
        page.wait_for_selector("#preview h2, #preview p")
        _check(page, f"editor-{suffix}", width, problems)
    finally:
        context.close()
    assert not problems, "\n".join(problems)
    assert errors == []


def test_switching_to_chinese_shows_the_drill_and_dashboard_in_chinese(live_server, page):
    register(page, live_server)
    page.fill("#text", "RDMA与TCP/IP相比有何优势？")
    page.click("section.add-question button[type=submit]")
    page.wait_for_selector("text=Question added to your study.")
    page.goto(live_server.url + "/dashboard")
    assert page.locator("h1").inner_text() == "Today"

    page.click(".language-switcher button[value=zh]")
    page.wait_for_selector("html[lang=zh-CN]")
    assert page.url.endswith("/dashboard")  # back where the switch was made
    assert page.locator("h1").inner_text() == "今天"
    assert "开始练习" in page.locator("#start-drill").inner_text()
    assert page.locator("nav[aria-label='主导航']").is_visible()
    screenshot(page, "switch-dashboard-zh")

    page.click("#start-drill")
    page.wait_for_selector("#question-text")
    page.wait_for_load_state("load")  # the drill's keys work once its script has run
    assert "显示答案" in page.locator("#show-answer").inner_text()
    page.keyboard.press("Space")
    page.wait_for_selector("#rate-form", state="visible")
    names = page.locator(".rating-name").all_inner_texts()
    assert names == ["重来", "困难", "良好", "简单"]
    assert page.locator(".ratings legend").inner_text() == "你掌握得怎么样？"
    screenshot(page, "switch-drill-zh")

    # The account remembers it: the settings page shows 中文 selected.
    page.goto(live_server.url + "/settings")
    assert page.locator("#language").input_value() == "zh"

    # The daily reminder comes in Chinese too: one sweep at noon local tomorrow (past 09:00, the
    # default, and the first reminder time after registering: none comes on the day one registers).
    zone = ZoneInfo(page.locator("#timezone").input_value())
    local = (datetime.now(timezone.utc).astimezone(zone) + timedelta(days=1)).replace(hour=12, minute=0)
    outbox = live_server.root / "instance" / "outbox"
    before = set(outbox.glob("*.eml"))  # the registration link mail is already there
    live_server.prep("remind", "--now", local.isoformat())
    [eml] = set(outbox.glob("*.eml")) - before
    mail = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    assert "待复习" in mail["Subject"]
    html = mail.get_body(preferencelist=("html",)).get_content()
    assert '<html lang="zh-CN">' in html
    text = mail.get_body(preferencelist=("plain",)).get_content()
    assert "待复习" in text
    page.set_content(html)
    assert "待复习" in page.locator("body").inner_text()
    screenshot(page, "reminder-email-zh")

    page.goto(live_server.url + "/settings")
    # And back to English.
    page.click(".language-switcher button[value=en]")
    page.wait_for_selector("html[lang=en]")
    assert page.locator("h1").inner_text() == "Settings"
    assert page.js_errors == []


def test_drill_shortcuts_dialog_and_announcements(live_server, page):
    register(page, live_server, email="keys@example.com")
    for text in ("What are the two phases of ring AllReduce?", "What does a completion queue hold?"):
        page.fill("#text", text)
        page.click("section.add-question button[type=submit]")
        page.wait_for_selector("text=Question added to your study.")
    page.goto(live_server.url + "/drill")
    page.wait_for_selector("#question-text")
    page.wait_for_load_state("load")  # the drill's keys work once its script has run
    dialog = page.locator("#shortcuts-dialog")
    assert not dialog.is_visible()
    assert page.locator("#shortcuts-open").is_visible()

    page.keyboard.press("?")
    dialog.wait_for(state="visible")
    assert "Keyboard shortcuts" in dialog.inner_text() and "Undo the last rating" in dialog.inner_text()
    screenshot(page, "drill-shortcuts-en-1280")
    page.keyboard.press("Space")  # drill keys do nothing behind the modal dialog
    assert page.locator("#answer").is_hidden()
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    page.keyboard.press("?")
    dialog.wait_for(state="visible")
    page.keyboard.press("?")
    dialog.wait_for(state="hidden")

    first = page.locator("#question-text").inner_text()
    page.keyboard.press("Space")
    page.wait_for_selector("#answer", state="visible")
    page.wait_for_function("() => document.getElementById('announcer').textContent.startsWith('Answer shown.')")
    # Focus is on "Good": Enter rates with it, the next card is announced and its heading focused.
    assert page.evaluate("document.activeElement.dataset.key") == "3"
    page.keyboard.press("3")
    page.wait_for_function(
        "q => { const h = document.getElementById('question-text'); return h && h.innerText !== q; }", arg=first)
    page.wait_for_function("() => document.getElementById('announcer').textContent.includes('Next card:')")
    assert page.evaluate("document.activeElement.id") == "question-text"
    assert page.js_errors == []
