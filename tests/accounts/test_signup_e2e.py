"""Signing up on a laptop: a fresh instance served by ``prep serve`` with no mail server. In Chromium,
a person registers, finds the link where the "check your inbox" page says (the server's console, or
the raw ``.eml`` file in the instance's outbox, in English and in Chinese), follows it, chooses a
password and lands on the first screen."""
from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.live import LiveServer, screenshot

pytestmark = pytest.mark.browser

PASSWORD = "a long enough passphrase"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[LiveServer]:
    s = LiveServer(tmp_path_factory.mktemp("signup"))
    s.env.pop("PREP_SMTP_URL", None)  # no mail server: the laptop case
    s.start()
    yield s
    s.stop()


def _poll(find, what: str) -> str:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:  # the server process writes on its own time
        found = find()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"no {what}")


def _new_page(browser, lang: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id="Asia/Shanghai",
                                  locale="zh-CN" if lang == "zh" else "en-US")
    page = context.new_page()
    page.set_default_timeout(20000)
    return context, page


def _register(page, server: LiveServer, email: str, lang: str) -> None:
    page.goto(server.url + "/register")
    page.click(f".language-switcher button[value={lang}]")
    page.wait_for_selector(f"html[lang={'zh-CN' if lang == 'zh' else 'en'}]")
    page.fill("#email", email)
    page.click("#register-form button[type=submit]")
    note = page.locator("#no-mail-server")
    note.wait_for()
    assert "prep serve" in note.inner_text() and "outbox" in note.inner_text()


def _choose_password(page, link: str) -> None:
    page.goto(link)
    page.fill("#password", PASSWORD)
    page.fill("#confirm", PASSWORD)
    page.click("#confirm-registration button[type=submit]")
    page.wait_for_url("**/postings/new")  # logged in, on the first screen


def test_register_with_the_link_from_the_server_console(browser, server):
    context, page = _new_page(browser, "en")
    _register(page, server, "laptop@example.com", "en")
    screenshot(page, "signup-no-mail-server-en")
    console = server.root / "server.log"
    pattern = re.compile(r"No mail server is set: open this link to confirm laptop@example\.com: (http\S+)$", re.M)
    link = _poll(lambda: (m := pattern.search(console.read_text())) and m.group(1), "link on the console")
    _choose_password(page, link)
    context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_register_with_the_link_from_the_raw_mail_file(browser, server, lang):
    email = f"raw-{lang}@example.com"
    context, page = _new_page(browser, lang)
    _register(page, server, email, lang)
    outbox = server.root / "instance" / "outbox"
    path = Path(_poll(lambda: next((str(p) for p in outbox.glob(f"*-register-{email}-*.eml")), None),
                      f"mail file for {email}"))
    raw = path.read_bytes().decode("utf-8")  # read as it is, with no MIME decoding
    assert {"en": "To finish creating your prep account", "zh": "要完成创建你的 prep 账号"}[lang] in raw
    [link] = re.findall(r"^(http://\S+/register/confirm/\S+?)\r?$", raw, re.M)  # whole, on its own line
    _choose_password(page, link)
    assert page.locator("html").get_attribute("lang") == ("zh-CN" if lang == "zh" else "en")
    context.close()
