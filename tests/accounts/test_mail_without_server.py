"""Signing up and resetting a password on a server with no mail server (PREP_SMTP_URL unset): the
mails, written to the outbox, read as they are (UTF-8 text, the link whole on its own line) in
English and Chinese, under a name that says what and for whom; the console prints each link; the
"check your inbox" page says where to look, only then. With a mail server the same 8-bit mail goes
out (quoted-printable to a server that takes only 7-bit mail)."""
from __future__ import annotations

import re
import smtplib
import time
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from tests.support.app import PASSWORD

NOTE = 'id="no-mail-server"'
HELLO = {"en": "Hello,", "zh": "你好："}
LINK_LINE = re.compile(r"^(http://\S+)\r?$", re.M)


def _outbox(app) -> list[Path]:
    return sorted((Path(app.instance_path) / "outbox").glob("*.eml"))


def _raw_link(raw: str, path: str) -> str:
    """The link as a person copies it from the raw file: a line that is the whole link."""
    [link] = [m for m in LINK_LINE.findall(raw) if path in m]
    return link


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_registration_mail_reads_raw_and_the_console_prints_its_link(app, client, caplog, lang):
    client.post("/language", data={"lang": lang})
    with caplog.at_level("INFO", logger="prep.mail"):
        page = client.post("/register", data={"email": "New@Example.com"}).get_data(as_text=True)
    assert NOTE in page and "prep serve" in page
    [path] = _outbox(app)
    assert re.fullmatch(r"\d{8}-\d{6}-register-new@example\.com-[0-9a-f]{6}\.eml", path.name)
    raw = path.read_bytes().decode("utf-8")  # no base64, no =E4=BD=A0: the text as it is
    assert re.search(r"^Content-Transfer-Encoding: (7bit|8bit)\r?$", raw, re.M)
    body = raw.replace("\r\n", "\n").split("\n\n", 1)[1]
    assert HELLO[lang] in body and "=\n" not in body  # no quoted-printable soft line breaks
    link = _raw_link(raw, "/register/confirm/")
    printed = re.findall(r"No mail server is set: open this link to confirm new@example\.com: (\S+)$", caplog.text,
                         re.M)
    assert printed == [link]
    parsed = message_from_bytes(path.read_bytes(), policy=policy.default)
    assert link in parsed.get_body(("plain",)).get_content()
    target = link.split("127.0.0.1:5000", 1)[1]
    assert client.post(target, data={"password": PASSWORD, "confirm": PASSWORD}).status_code == 302


def test_a_known_address_gets_the_same_page_and_the_console_says_so(app, client, make_user, caplog):
    make_user("known@example.com")
    with caplog.at_level("INFO", logger="prep.mail"):
        page = client.post("/register", data={"email": "known@example.com"}).get_data(as_text=True)
    assert NOTE in page
    assert re.search(r"No mail server is set: known@example\.com already has an account .*: http://\S+/login$",
                     caplog.text, re.M)
    [path] = _outbox(app)
    assert "-register-known@example.com-" in path.name
    assert "you already have an account" in path.read_bytes().decode("utf-8")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_reset_mail_reads_raw_and_the_console_prints_its_link(app, client, make_user, caplog, lang):
    user = make_user("reset@example.com", language=lang)
    with caplog.at_level("INFO", logger="prep.mail"):
        page = client.post("/password/forgot", data={"email": user.email}, follow_redirects=True)
    assert "prep serve" in page.get_data(as_text=True)
    [path] = _outbox(app)
    assert re.fullmatch(r"\d{8}-\d{6}-password-reset-reset@example\.com-[0-9a-f]{6}\.eml", path.name)
    raw = path.read_bytes().decode("utf-8")
    assert {"en": "Hello ", "zh": "你好"}[lang] in raw
    link = _raw_link(raw, "/password/reset/")
    assert re.findall(r"choose a new password for reset@example\.com: (\S+)$", caplog.text, re.M) == [link]
    target = link.split("127.0.0.1:5000", 1)[1]
    assert client.post(target, data={"password": "a brand new passphrase 42",
                                     "confirm": "a brand new passphrase 42"}).status_code == 302


def _wait(smtp, n: int) -> None:
    deadline = time.monotonic() + 30
    while len(smtp.messages) < n and time.monotonic() < deadline:
        time.sleep(0.05)  # the mail is sent from another thread to a real SMTP server: poll


def test_with_a_mail_server_nothing_is_printed_and_the_page_says_nothing_of_consoles(app, client, smtp, caplog):
    client.post("/language", data={"lang": "zh"})
    with caplog.at_level("INFO", logger="prep.mail"):
        page = client.post("/register", data={"email": "new@example.com"}).get_data(as_text=True)
    assert NOTE not in page and "prep serve" not in page
    _wait(smtp, 1)
    assert "No mail server" not in caplog.text and not _outbox(app)
    [(_, message)] = smtp.messages
    assert message["Content-Transfer-Encoding"] == "8bit"
    assert HELLO["zh"] in message.get_body(("plain",)).get_content()


def test_a_server_that_takes_only_7bit_mail_gets_quoted_printable(app, client, smtp, monkeypatch):
    has_extn = smtplib.SMTP.has_extn
    monkeypatch.setattr(smtplib.SMTP, "has_extn", lambda self, name: name.lower() != "8bitmime"
                        and has_extn(self, name))
    client.post("/language", data={"lang": "zh"})
    client.post("/register", data={"email": "new@example.com"})
    _wait(smtp, 1)
    [(_, message)] = smtp.messages
    assert message["Content-Transfer-Encoding"] == "quoted-printable"
    body = message.get_body(("plain",)).get_content()
    assert HELLO["zh"] in body and re.search(r"^http://\S+/register/confirm/\S+\r?$", body, re.M)
