"""A phone at 360 px, in English and Chinese.

On the main pages (dashboard, drill, posting, bank, explanation, stats, settings, search, my study):
the header is at most 64 px tall with the links folded into a menu button (<button aria-expanded>)
that opens and closes them; nothing is wider than the screen; the drill's four rating buttons are on
screen, at least 44 px tall and pinned to the bottom while a long answer scrolls; a table wider than
the screen scrolls inside its wrapper, which shows a shadow and a "scroll" hint. And Chinese
emphasis is never italic. The menu button's label fits inside it; the drill shows no keyboard-shortcut
hints on a touch screen (a desktop still does); the reminder banner offers "Start the drill"
everywhere but on the drill itself. Screenshots: test-artifacts/phone-<page>-<lang>.png.
"""
from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

import pytest

from tests.support.live import LiveServer, screenshot, sign_in
from tests.support.postings import POSTING

pytestmark = pytest.mark.browser

REPO_CONTENT = Path(__file__).resolve().parents[2] / "content"
CANDIDATE = "phone@example.com"
PASSWORD = "a long enough passphrase"
PHONE = {"width": 360, "height": 780}

# The outermost elements sticking out on the right (what makes a phone page scroll sideways).
_WIDE = """() => {
    const limit = document.documentElement.clientWidth + 1, out = [];
    for (const el of document.body.querySelectorAll("*")) {
        if (el.getBoundingClientRect().right <= limit) continue;
        // Inside a scrolling wrapper is fine, unless positioned out of it (its containing block is outside).
        if (el.closest(".table-wrap") && !el.matches(".table-wrap") && getComputedStyle(el).position !== "absolute") continue;
        if (el.parentElement && el.parentElement.getBoundingClientRect().right > limit
            && el.parentElement !== document.body) continue;
        out.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
                 (typeof el.className === "string" && el.className ? "." + el.className.split(" ").join(".") : ""));
        if (out.length >= 5) break;
    }
    return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    root = tmp_path_factory.mktemp("phone")
    shutil.copytree(REPO_CONTENT, root / "content")
    s = LiveServer(root, content_dir=root / "content")
    s.start()
    s.prep("users", "create", CANDIDATE, "--password", PASSWORD)
    yield s
    s.stop()


def _page(browser):
    context = browser.new_context(viewport=PHONE, timezone_id="Asia/Shanghai", locale="en-US", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20000)
    page.js_errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))  # type: ignore[attr-defined]
    return context, page


def _login(page, server: LiveServer, lang: str) -> None:
    sign_in(page, server, CANDIDATE, PASSWORD, lang)


def _check_layout(page, name: str, problems: list[str]) -> None:
    page.wait_for_load_state("load")
    screenshot(page, f"phone-{name}")
    header = page.locator("header.site-header").bounding_box()
    if header["height"] > 64:
        problems.append(f"{name}: the header is {header['height']:.0f}px tall")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        problems.append(f"{name}: the page is {width}px wide: {page.evaluate(_WIDE)}")
    toggle = page.locator("#nav-toggle")
    if not toggle.is_visible() or toggle.get_attribute("aria-expanded") != "false":
        problems.append(f"{name}: no closed menu button in the header")
    if page.locator("#nav-menu-links").is_visible():
        problems.append(f"{name}: the header links show before the menu is opened")
    search = page.locator("header #site-search").bounding_box()
    if not search or search["x"] < 0 or search["x"] + search["width"] > PHONE["width"]:
        problems.append(f"{name}: the header search box is off screen")


def _check_tables(page, name: str, problems: list[str]) -> int:
    """Every table sits in a wrapper that scrolls; one that does shows a cue. Returns how many scroll."""
    tables = page.evaluate("""() => [...document.querySelectorAll("main table")]
        .filter(t => !t.closest("dialog") && t.getClientRects().length)
        .map(t => {
            const w = t.closest(".table-wrap, .explanation-body");
            if (!w) return {wrapped: false};
            const scrolls = w.scrollWidth > w.clientWidth + 1;
            return {wrapped: true, scrolls, overflow: getComputedStyle(w).overflowX,
                    cue: w.matches(".table-wrap") ? getComputedStyle(w).backgroundImage : "n/a",
                    hint: w.matches(".table-wrap") ? getComputedStyle(w, "::before").content : "n/a"};
        })""")
    scrolling = 0
    for i, t in enumerate(tables):
        if not t["wrapped"]:
            problems.append(f"{name}: table {i} has no scrolling wrapper")
            continue
        if t["overflow"] not in ("auto", "scroll"):
            problems.append(f"{name}: table {i}'s wrapper does not scroll ({t['overflow']})")
        if t["scrolls"] and t["cue"] != "n/a":
            scrolling += 1
            if "gradient" not in t["cue"] or t["hint"] in ("none", "normal", '""'):
                problems.append(f"{name}: table {i} scrolls with no visible cue ({t['cue'][:40]}, {t['hint']})")
    return scrolling


def _check_menu(page, name: str, problems: list[str]) -> None:
    toggle = page.locator("#nav-toggle")
    toggle.click()
    links = page.locator("#nav-menu-links")
    if toggle.get_attribute("aria-expanded") != "true" or not links.is_visible():
        problems.append(f"{name}: the menu button does not open the links")
    else:
        for box in [a.bounding_box() for a in links.locator("a, button").all()]:
            if box["height"] < 44 or box["x"] < 0 or box["x"] + box["width"] > PHONE["width"]:
                problems.append(f"{name}: a menu entry is {box['height']:.0f}px tall or off screen")
                break
        screenshot(page, f"phone-{name}-menu-open")
    page.keyboard.press("Escape")
    if toggle.get_attribute("aria-expanded") != "false" or links.is_visible():
        problems.append(f"{name}: Escape does not close the menu")


def _check_rating_bar(page, name: str, problems: list[str]) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(100)
    for i, box in enumerate(b.bounding_box() for b in page.locator("#rate-form .rating").all()):
        if box["height"] < 44 or box["width"] < 44:
            problems.append(f"{name}: rating button {i + 1} is {box['width']:.0f}x{box['height']:.0f}px")
        if box["x"] < 0 or box["x"] + box["width"] > PHONE["width"] or box["y"] < 0 \
                or box["y"] + box["height"] > PHONE["height"]:
            problems.append(f"{name}: rating button {i + 1} is not fully on screen: {box}")
        elif box["y"] < PHONE["height"] / 2:
            problems.append(f"{name}: rating button {i + 1} is in the top half, out of thumb reach: {box}")
    if page.locator("#rate-form .rating").count() != 4:
        problems.append(f"{name}: {page.locator('#rate-form .rating').count()} rating buttons")
    if page.evaluate("getComputedStyle(document.getElementById('rate-form')).position") != "sticky":
        problems.append(f"{name}: the rating bar is not sticky")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_phone_layout_of_the_main_pages(server, browser, lang):
    problems: list[str] = []
    context, page = _page(browser)
    try:
        _login(page, server, lang)
        page.goto(server.url + "/questions?tag=NCCL")
        if page.locator("form[action$='/questions/study-tag'] button").count():
            page.click("form[action$='/questions/study-tag'] button")
            page.wait_for_selector(".flash")
        page.goto(server.url + "/postings/new")
        page.fill("#text", POSTING)
        page.click("#import-form button[type=submit]")
        page.wait_for_selector("#review-form, #posting-title")
        if page.locator("#review-form").count():
            page.click("#review-save")
            page.wait_for_selector("#posting-title")
        posting = page.url

        page.goto(server.url + "/dashboard")
        _check_layout(page, f"dashboard-{lang}", problems)
        _check_menu(page, f"dashboard-{lang}", problems)

        page.goto(server.url + "/drill")
        page.wait_for_selector("#question-text")
        page.wait_for_load_state("load")
        _check_layout(page, f"drill-{lang}", problems)
        page.click("#show-answer")
        page.wait_for_selector("#rate-form", state="visible")
        _check_layout(page, f"drill-answer-{lang}", problems)
        _check_rating_bar(page, f"drill-answer-{lang}", problems)
        page.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
        _check_rating_bar(page, f"drill-answer-scrolled-{lang}", problems)

        scrolling = 0
        for path, label in ((posting, "posting"), ("/questions", "bank"), ("/explanations/ring-allreduce", "explanation"),
                            ("/stats", "stats"), ("/settings", "settings"), ("/search?q=ring", "search"),
                            ("/cards", "my-study"), ("/postings", "postings")):
            page.goto(path if path.startswith("http") else server.url + path)
            if label == "stats":
                page.evaluate("document.querySelectorAll('main details').forEach(d => d.open = true)")
                page.wait_for_timeout(300)  # app.js re-checks the wrappers on resize; ask it now
                page.evaluate("window.prepFocusableScrollers && window.prepFocusableScrollers(document)")
            _check_layout(page, f"{label}-{lang}", problems)
            scrolling += _check_tables(page, f"{label}-{lang}", problems)
        if not scrolling:  # every table fit: make one wider than the phone (a longer row), then look for the cue
            page.evaluate("""() => { document.querySelector("main .table-wrap table").style.minWidth = "640px";
                                     window.prepFocusableScrollers(document); }""")
            scrolling = _check_tables(page, f"wide-table-{lang}", problems)
            screenshot(page, f"phone-wide-table-{lang}")
        assert scrolling >= 1, "no table scrolls inside its wrapper, not even a widened one"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        context.close()
    assert not problems, "\n".join(problems)
    assert page.js_errors == []


def test_chinese_emphasis_is_never_italic(server, browser):
    context, page = _page(browser)
    try:
        _login(page, server, "zh")
        page.goto(server.url + "/explanations/ring-allreduce")
        page.wait_for_load_state("load")
        styles = page.evaluate("""() => [...document.querySelectorAll(".explanation-body em")].map(em => ({
            lang: em.closest("[lang]").getAttribute("lang"), text: em.textContent,
            style: getComputedStyle(em).fontStyle, weight: Number(getComputedStyle(em).fontWeight)}))""")
        chinese = [s for s in styles if s["lang"].startswith("zh")]
        assert chinese, styles  # the Chinese text has emphasis: 覆盖, 所有 rank 上同时, …
        assert all(s["style"] == "normal" and s["weight"] >= 600 for s in chinese), chinese
        # English emphasis on the same page keeps its italics.
        page.evaluate("""() => { const p = document.createElement("p"); p.lang = "en";
            p.innerHTML = "<em id='en-em'>really</em>"; document.querySelector(".explanation-body").append(p); }""")
        assert page.evaluate("getComputedStyle(document.getElementById('en-em')).fontStyle") == "italic"
        screenshot(page, "phone-explanation-emphasis-zh")
    finally:
        context.close()


@pytest.mark.parametrize("javascript", [True, False])
def test_the_header_menu_on_a_desktop_and_without_javascript(server, browser, javascript):
    """Without JavaScript the menu is a <details>: its summary opens it on a phone, and on a wide
    screen the links show without it. With JavaScript a wide screen shows the links and no button."""
    for viewport in (PHONE, {"width": 1280, "height": 900}):
        context = browser.new_context(viewport=viewport, java_script_enabled=javascript, locale="en-US")
        page = context.new_page()
        page.set_default_timeout(20000)
        try:
            page.goto(server.url + "/login")
            page.fill("#email", CANDIDATE)
            page.fill("#password", PASSWORD)
            page.click("form.stack button[type=submit]")
            page.wait_for_url("**/dashboard")
            page.wait_for_load_state("load")
            links = page.locator("#nav-menu-links")
            toggle = page.locator("#nav-toggle" if javascript else "#nav-menu > summary")
            if viewport is PHONE:
                assert page.locator("header.site-header").bounding_box()["height"] <= 64
                assert toggle.is_visible() and not links.is_visible()
                toggle.click()
                assert links.is_visible()
                page.locator("#nav-menu-links a[href='/stats']").click()
                page.wait_for_url("**/stats")
            else:
                assert links.is_visible() and not toggle.is_visible()
                screenshot(page, f"desktop-header-{'js' if javascript else 'nojs'}")
                page.locator("#nav-menu-links a[href='/stats']").click()
                page.wait_for_url("**/stats")
        finally:
            context.close()


# Whether every piece of the element's text lies inside its border box.
_TEXT_INSIDE = """el => {
    const box = el.getBoundingClientRect(), range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    return {fits: text.left >= box.left - 0.5 && text.right <= box.right + 0.5 && text.top >= box.top - 0.5
                  && text.bottom <= box.bottom + 0.5 && el.scrollWidth <= el.clientWidth + 1,
            text: [text.left, text.right, text.top, text.bottom], box: [box.left, box.right, box.top, box.bottom]};
}"""


def _reminded_today(server: LiveServer, email: str) -> None:
    """Today's in-app reminder for ``email``, as the reminder sweep leaves it (the account is in UTC)."""
    now = datetime.now(timezone.utc)  # the server process runs on the real clock
    with closing(sqlite3.connect(server.root / "live.sqlite3")) as db, db:
        [(user_id,)] = db.execute("SELECT id FROM users WHERE email = ?", (email,)).fetchall()
        db.execute("INSERT INTO notifications (user_id, kind, local_date, due_count, message, created_at) "
                   "VALUES (?, 'daily_review', ?, 1, 'cards to review', ?)",
                   (user_id, now.date().isoformat(), now.replace(tzinfo=None).isoformat(sep=" ")))


def _studying(browser, server: LiveServer, email: str, lang: str, **context_options):
    """A signed-in page in ``lang`` for ``email``, who studies the NCCL questions and was reminded today."""
    server.prep("users", "create", email, "--password", PASSWORD)
    _reminded_today(server, email)
    context = browser.new_context(timezone_id="UTC", locale="en-US", **context_options)
    page = context.new_page()
    page.set_default_timeout(20000)
    sign_in(page, server, email, PASSWORD, lang)
    page.goto(server.url + "/questions?tag=NCCL")
    page.click("form[action$='/questions/study-tag'] button")
    page.wait_for_selector(".flash")
    return context, page


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_a_phone_the_menu_fits_the_drill_has_no_key_hints_and_no_start_button(server, browser, lang):
    context, page = _studying(browser, server, f"phone-{lang}@example.com", lang, viewport=PHONE, has_touch=True,
                              is_mobile=True)
    try:
        assert page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
        page.goto(server.url + "/dashboard")
        page.wait_for_load_state("load")
        screenshot(page, f"phone-details-dashboard-{lang}")
        toggle = page.locator("#nav-toggle")
        assert toggle.is_visible()
        label = toggle.evaluate(_TEXT_INSIDE)
        assert label["fits"], f"the menu label spills out of its button: {label}"
        banner = page.locator("#reminder-banner")
        assert banner.is_visible() and banner.locator("a[href='/drill']").is_visible()

        page.goto(server.url + "/drill")
        page.wait_for_selector("#question-text")
        screenshot(page, f"phone-details-drill-{lang}")
        assert page.locator("#reminder-banner").is_visible()  # the count and "Dismiss" stay
        assert page.locator("#reminder-banner a[href='/drill']").count() == 0
        assert not page.locator("#shortcuts-hint").is_visible()
        assert not page.locator("#show-answer kbd").is_visible()
        page.click("#show-answer")
        page.wait_for_selector("#rate-form", state="visible")
        assert page.locator("#rate-form .rating").first.is_visible()
        assert not any(k.is_visible() for k in page.locator("#rate-form kbd").all())
        screenshot(page, f"phone-details-drill-answer-{lang}")
    finally:
        context.close()


def test_a_desktop_keeps_the_key_hints(server, browser):
    context, page = _studying(browser, server, "desk@example.com", "en", viewport={"width": 1280, "height": 900})
    try:
        page.goto(server.url + "/drill")
        page.wait_for_selector("#question-text")
        assert page.locator("#shortcuts-hint").is_visible() and page.locator("#show-answer kbd").is_visible()
        assert page.locator("#reminder-banner").is_visible()
        assert page.locator("#reminder-banner a[href='/drill']").count() == 0
    finally:
        context.close()
