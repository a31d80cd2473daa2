"""Reading pages as a browser would: the CSRF token of a form, a textarea's text, the link a
registration mailed."""
from __future__ import annotations

import html
import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient


def csrf_token_from(html: str) -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html) or re.search(
        r'value="([^"]+)"[^>]*name="csrf_token"', html)
    assert match, "no csrf token in page"
    return match.group(1)


def textarea_value(page: str, name: str) -> str:
    """The text a browser puts in textarea ``name`` (entities decoded, the first newline dropped)."""
    match = re.search(rf'<textarea[^>]*name="{re.escape(name)}"[^>]*>(.*?)</textarea>', page, re.S)
    assert match, f"no textarea {name!r} in page"
    text = html.unescape(match.group(1))
    return text[2:] if text.startswith("\r\n") else text[1:] if text.startswith("\n") else text


def confirm_registration(app: Flask, client: FlaskClient, email: str, password: str | None = None, *,
                         headers: dict[str, str] | None = None, **fields: str):
    """Follow the link of the newest registration mail sent to ``email`` with ``client`` and send
    its page: the password (default the tests' ``PASSWORD``) twice and ``fields`` (display_name,
    timezone, or a different ``confirm``), with ``headers``. Registering creates the account only then (see prep.accounts.registration); the
    response."""
    from tests.support.app import PASSWORD
    import email as email_lib
    from email import policy

    outbox = Path(app.instance_path) / "outbox"
    for path in sorted(outbox.glob("*.eml"), key=lambda p: p.stat().st_mtime_ns, reverse=True):
        message = email_lib.message_from_bytes(path.read_bytes(), policy=policy.default)
        if message["To"].addresses[0].addr_spec != email.strip().lower():
            continue
        found = re.search(r"https?://[^/\s]+(/register/confirm/\S+)", message.get_body(("plain",)).get_content())
        if found:
            password = PASSWORD if password is None else password
            return client.post(found.group(1), data={"password": password, "confirm": password, **fields},
                               headers=headers)
    raise AssertionError(f"no registration link was mailed to {email}")
