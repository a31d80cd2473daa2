"""The reminder email, composed fast: each template is rendered once per language and shape
(the plural forms of the counts, how many questions, a streak or none) with placeholder tokens,
then each email fills in its user's values and is written as RFC 5322 bytes directly (headers
pre-encoded, parts quoted-printable), without the ``email`` package's policy machinery.

:func:`compose_reference` is the original composer (``email.message.EmailMessage``); the tests
compare the two. An address the fast path cannot write plainly (non-ASCII) falls back to it.
"""
from __future__ import annotations

import base64
import binascii
import re
import uuid
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid, parseaddr
from typing import Any

from flask import current_app, render_template
from flask_babel import force_locale, get_translations, ngettext
from markupsafe import escape

from .. import clock
from .sweep_rules import InterviewLine, ReminderMessage

_TOKEN = re.compile("\x1a([a-z0-9_]+)\x1a")
_FIELDS = ("due", "learning", "reviews", "new", "streak")


class _Slot(int):
    """A count that selects plural forms by its value but renders as its placeholder token."""

    def __new__(cls, value: int, name: str) -> "_Slot":
        slot = super().__new__(cls, value)
        slot.token = f"\x1a{name}\x1a"
        return slot

    def __str__(self) -> str:
        return self.token

    def __html__(self) -> str:
        return self.token


def _split(text: str) -> tuple[str | tuple[str], ...]:
    """Literal text and (field name,) markers, alternating."""
    out: list[str | tuple[str]] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        out.append(text[pos:m.start()])
        out.append((m.group(1),))
        pos = m.end()
    out.append(text[pos:])
    return tuple(out)


def _fill(parts: tuple[str | tuple[str], ...], values: dict[str, str]) -> str:
    return "".join(p if isinstance(p, str) else values[p[0]] for p in parts)


def _qp(text: str) -> bytes:
    if not text.endswith("\n"):
        text += "\n"  # as EmailMessage.set_content does
    return binascii.b2a_qp(text.encode("utf-8"), istext=True).replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def encode_header_text(text: str) -> str:
    """RFC 2047 B-encoded words (UTF-8) for non-ASCII text, folded; ASCII text as it is."""
    if text.isascii():
        return text
    words: list[str] = []
    chunk = ""
    for ch in text:
        if len((chunk + ch).encode("utf-8")) > 45:
            words.append(chunk)
            chunk = ""
        chunk += ch
    words.append(chunk)
    return "\r\n ".join(f"=?utf-8?b?{base64.b64encode(w.encode('utf-8')).decode('ascii')}?=" for w in words)


@dataclass(frozen=True)
class _Prepared:
    subject: tuple[str | tuple[str], ...]
    text: tuple[str | tuple[str], ...]
    html: tuple[str | tuple[str], ...]


def _plural_key(n: int) -> int:
    plural = getattr(get_translations(), "plural", None)
    return int(plural(n)) if plural is not None else int(n != 1)


def _interview_fields(iv: InterviewLine) -> dict[str, Any]:
    """What the templates say of one interview (``days`` a count, the others text)."""
    return {"name": iv.name, "days": iv.days_left, "date": iv.day.isoformat(), "pct": iv.percent,
            "target": iv.target_percent}


def _interviews(lines: tuple[InterviewLine, ...], tokens: bool) -> list[dict[str, Any]]:
    """The templates' interview lines: the values, or (``tokens``) placeholders to fill per email
    (:func:`_interview_values`)."""
    if not tokens:
        return [{**_interview_fields(iv), "shape": iv.shape} for iv in lines]
    return [{**{field: f"\x1aiv{k}_{field}\x1a" for field in _interview_fields(iv)},
             "days": _Slot(iv.days_left, f"iv{k}_days"), "shape": iv.shape} for k, iv in enumerate(lines)]


def _interview_values(lines: tuple[InterviewLine, ...]) -> dict[str, str]:
    """The placeholders' values of :func:`_interviews`' lines."""
    return {f"iv{k}_{field}": str(value) for k, iv in enumerate(lines) for field, value in _interview_fields(iv).items()}


def _prepared(language: str, mail: ReminderMessage) -> _Prepared:
    user = mail.user
    with force_locale(language):
        key = (language, _plural_key(user.due_count), _plural_key(mail.streak), bool(mail.streak),
               bool(user.learning or user.reviews or user.new), len(mail.top_questions),
               tuple((_plural_key(iv.days_left), iv.shape) for iv in mail.interviews))
    cache: dict[Any, _Prepared] = current_app.extensions.setdefault("prep_reminder_prepared", {})
    found = cache.get(key)
    if found is not None:
        return found
    counts = {"due": user.due_count, "learning": user.learning, "reviews": user.reviews, "new": user.new,
              "streak": mail.streak}
    slots = {name: _Slot(value, name) for name, value in counts.items()}
    context = {**slots, "name": "\x1aname\x1a", "questions": [f"\x1aq{k}\x1a" for k in range(len(mail.top_questions))],
               "drill_url": "\x1adrill_url\x1a", "settings_url": "\x1asettings_url\x1a",
               "unsubscribe_url": "\x1aunsubscribe_url\x1a", "local_date": user.local_date,
               "interviews": _interviews(mail.interviews, tokens=True), "plan_url": "\x1aplan_url\x1a"}
    with current_app.test_request_context("/", base_url=current_app.config["BASE_URL"]), force_locale(language):
        subject = ngettext("%(num)s card to review today", "%(num)s cards to review today", slots["due"])
        prepared = _Prepared(subject=_split(str(subject)),
                             text=_split(render_template("reminders/email.txt", **context)),
                             html=_split(render_template("reminders/email.html", **context)))
    cache[key] = prepared
    return prepared


def _static_headers(domain: str) -> tuple[str, str]:
    """The From line (encoded once by the email package) and the envelope sender, per app."""
    cache: dict[Any, tuple[str, str]] = current_app.extensions.setdefault("prep_reminder_from", {})
    mail_from = current_app.config["MAIL_FROM"]
    found = cache.get(mail_from)
    if found is None:
        probe = EmailMessage()
        probe["From"] = mail_from
        line = probe.as_bytes(policy=policy.SMTP).split(b"\r\n\r\n", 1)[0].decode("ascii")
        found = (line, parseaddr(mail_from)[1])
        cache[mail_from] = found
    return found


class RawMessage:
    """A composed message as bytes; headers read (and the rest of ``EmailMessage``'s API) by
    parsing it on demand, which only tests and the file outbox do."""

    def __init__(self, data: bytes, sender: str, recipient: str) -> None:
        self.data = data
        self.sender = sender
        self.recipient = recipient
        self._parsed: EmailMessage | None = None

    def as_bytes(self, *args: Any, **kwargs: Any) -> bytes:
        return self.data

    def parsed(self) -> EmailMessage:
        if self._parsed is None:
            self._parsed = message_from_bytes(self.data, policy=policy.default)  # type: ignore[assignment]
        return self._parsed  # type: ignore[return-value]

    def __getitem__(self, name: str) -> Any:
        return self.parsed()[name]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.parsed(), name)


def compose(mail: ReminderMessage) -> RawMessage | EmailMessage:
    """The multipart (text + HTML) reminder email with RFC 8058 one-click unsubscribe headers."""
    from .service import external_url, mail_domain, unsubscribe_url  # service imports this module

    user = mail.user
    if not user.email.isascii() or any(c in user.email for c in "\r\n<>,\"") or mail.top_questions is None:
        return compose_reference(mail)
    domain = mail_domain()
    urls: dict[str, str] = current_app.extensions.setdefault("prep_reminder_urls", {})
    base = current_app.config["BASE_URL"]
    if urls.get("base") != base:
        urls.clear()
        urls.update(base=base, drill_url=external_url("drill.drill"),
                    settings_url=external_url("reminders.settings"), plan_url=external_url("interview.plan"))
    prepared = _prepared(user.language or "en", mail)
    values = {"name": user.display_name or user.email.split("@")[0], "drill_url": urls["drill_url"],
              "settings_url": urls["settings_url"], "unsubscribe_url": unsubscribe_url(user.user_id),
              "due": str(user.due_count), "learning": str(user.learning), "reviews": str(user.reviews),
              "new": str(user.new), "streak": str(mail.streak), "plan_url": urls["plan_url"]}
    for k, q in enumerate(mail.top_questions):
        values[f"q{k}"] = q
    values.update(_interview_values(mail.interviews))
    html_values = {k: str(escape(v)) for k, v in values.items()}
    from_line, sender = _static_headers(domain)
    boundary = f"=_prep_{uuid.uuid4().hex}"
    head = "\r\n".join((
        from_line, f"To: {user.email}", f"Date: {format_datetime(clock.now())}",
        f"Message-ID: {mail.message_id or make_msgid(domain=domain)}",
        f"List-Unsubscribe: <{values['unsubscribe_url']}>", "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
        f"List-Id: prep daily review <reminders.{domain}>", "Auto-Submitted: auto-generated",
        f"Subject: {encode_header_text(_fill(prepared.subject, values))}", "MIME-Version: 1.0",
        f'Content-Type: multipart/alternative; boundary="{boundary}"', "", ""))
    part = 'Content-Type: text/{0}; charset="utf-8"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n'
    data = b"".join((
        head.encode("ascii"), f"--{boundary}\r\n".encode(), part.format("plain").encode(),
        _qp(_fill(prepared.text, values)), f"\r\n--{boundary}\r\n".encode(), part.format("html").encode(),
        _qp(_fill(prepared.html, html_values)), f"\r\n--{boundary}--\r\n".encode()))
    return RawMessage(data, sender, user.email)


def compose_reference(mail: ReminderMessage) -> EmailMessage:
    """The original composer: ``EmailMessage`` and both templates rendered for each email."""
    from .service import external_url, mail_domain, unsubscribe_url  # service imports this module

    user = mail.user
    context = {
        "name": user.display_name or user.email.split("@")[0],
        "due": user.due_count, "learning": user.learning, "reviews": user.reviews, "new": user.new,
        "questions": mail.top_questions, "streak": mail.streak,
        "drill_url": external_url("drill.drill"),
        "settings_url": external_url("reminders.settings"),
        "unsubscribe_url": unsubscribe_url(user.user_id),
        "local_date": user.local_date,
        "interviews": _interviews(mail.interviews, tokens=False), "plan_url": external_url("interview.plan"),
    }
    message = EmailMessage()
    message["From"] = current_app.config["MAIL_FROM"]
    message["To"] = user.email
    message["Date"] = format_datetime(clock.now())
    message["Message-ID"] = mail.message_id or make_msgid(domain=mail_domain())
    message["List-Unsubscribe"] = f"<{context['unsubscribe_url']}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["List-Id"] = f"prep daily review <reminders.{mail_domain()}>"
    message["Auto-Submitted"] = "auto-generated"
    # Templates (and the app's context processors) expect a request: render in one at BASE_URL,
    # in the recipient's language (not the sweeping request's: the CLI and scheduler have none).
    with current_app.test_request_context("/", base_url=current_app.config["BASE_URL"]), \
            force_locale(user.language or "en"):
        message["Subject"] = ngettext("%(num)s card to review today", "%(num)s cards to review today",
                                      user.due_count)
        message.set_content(render_template("reminders/email.txt", **context))
        message.add_alternative(render_template("reminders/email.html", **context), subtype="html")
    return message
