"""Mail transports, for every feature that sends mail (reminders, registration, password
reset): SMTP from a ``PREP_SMTP_URL`` (smtplib), or a file outbox.

``smtp://user:pass@host:587?starttls=1`` (plain SMTP, optionally upgraded with STARTTLS),
``smtps://user:pass@host:465`` (TLS from the start). Optional query: ``timeout`` in seconds.
Without a URL, messages are written as ``.eml`` files to an outbox directory, named so a person
finds theirs (``20261206-094500-register-bar@example.com-1a2b3c.eml``), and a feature whose mail
carries a link a person must follow (sign-up, password reset) also prints it on the console
(:func:`announce_link`).

Text is written so that a person can read the raw file: :func:`set_readable_text` puts UTF-8 text
in 8 bits (no quoted-printable line breaks inside a link, no base64 around Chinese text).
"""
from __future__ import annotations

import copy
import functools
import logging
import re
import secrets
import smtplib
import ssl
from dataclasses import dataclass
from datetime import timezone
from email.message import EmailMessage
from email.utils import getaddresses, parsedate_to_datetime
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from flask import current_app

from . import clock

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 20.0
# RFC 5322: a line is at most 998 octets; a longer one is sent quoted-printable instead.
MAX_RAW_LINE = 998
# What a failed send raises: the SMTP server refused, or the network did.
SEND_ERRORS: tuple[type[BaseException], ...] = (smtplib.SMTPException, OSError)


class SmtpUrlError(ValueError):
    """PREP_SMTP_URL is malformed."""


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    username: str | None = None
    password: str | None = None
    ssl: bool = False        # smtps://
    starttls: bool = False   # smtp://...?starttls=1
    timeout: float = DEFAULT_TIMEOUT


def _flag(query: dict[str, list[str]], name: str) -> bool:
    raw = (query.get(name) or ["0"])[-1].strip().lower()
    if raw in {"1", "true", "yes", "on"}:
        return True
    if raw in {"0", "false", "no", "off", ""}:
        return False
    raise SmtpUrlError(f"PREP_SMTP_URL: {name} must be 1 or 0, got {raw!r}")


def parse_smtp_url(url: str) -> SmtpSettings:
    """Parse ``smtp://`` / ``smtps://`` URLs; user name and password may be percent-encoded."""
    parts = urlsplit(url.strip())
    if parts.scheme not in {"smtp", "smtps"}:
        raise SmtpUrlError(f"PREP_SMTP_URL must start with smtp:// or smtps://, got {parts.scheme!r}")
    if not parts.hostname:
        raise SmtpUrlError("PREP_SMTP_URL has no host")
    query = parse_qs(parts.query, keep_blank_values=True)
    use_ssl = parts.scheme == "smtps"
    starttls = _flag(query, "starttls")
    if use_ssl and starttls:
        raise SmtpUrlError("PREP_SMTP_URL: smtps:// already uses TLS; drop starttls")
    try:
        port = parts.port or (465 if use_ssl else 587 if starttls else 25)
        timeout = float((query.get("timeout") or [DEFAULT_TIMEOUT])[-1])
    except ValueError as err:
        raise SmtpUrlError(f"PREP_SMTP_URL: {err}") from None
    return SmtpSettings(host=parts.hostname, port=port,
                        username=unquote(parts.username) if parts.username else None,
                        password=unquote(parts.password) if parts.password else None,
                        ssl=use_ssl, starttls=starttls, timeout=timeout)


class Transport(Protocol):
    name: str

    def send(self, message: EmailMessage) -> None:
        """Deliver the message or raise one of :data:`SEND_ERRORS`."""


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The TLS settings, made for the first message that uses TLS and kept for the process: making
    them reads the system's certificate store, which costs more than sending a short message."""
    return ssl.create_default_context()


class SmtpTransport:
    """One SMTP connection per message (reminders are few and spread out)."""

    name = "smtp"

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings

    def send(self, message: EmailMessage) -> None:
        s = self.settings
        if s.ssl:
            client: smtplib.SMTP = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=_tls_context())
        else:
            client = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        with client:
            client.ehlo()
            if s.starttls:
                client.starttls(context=_tls_context())
                client.ehlo()
            if s.username:
                client.login(s.username, s.password or "")
            raw = getattr(message, "data", None)
            if isinstance(raw, bytes):  # a pre-composed message (prep.reminders.compose.RawMessage)
                client.sendmail(message.sender, [message.recipient], raw)  # type: ignore[attr-defined]
            elif not _has_8bit_parts(message):
                client.send_message(message)
            elif client.has_extn("8bitmime"):
                client.send_message(message, mail_options=["BODY=8BITMIME"])
            else:  # a server that only takes 7-bit mail (rare today): the same text, quoted-printable
                client.send_message(_quoted_printable(message))


def set_readable_text(message: EmailMessage, text: str) -> None:
    """``text`` as the message's body, UTF-8 in 7 or 8 bits as it is (readable in the raw file,
    a link whole on its line); quoted-printable only when a line is too long for SMTP."""
    if not text.endswith("\n"):
        text += "\n"
    too_long = max((len(line.encode("utf-8")) for line in text.splitlines()), default=0) > MAX_RAW_LINE
    cte = "quoted-printable" if too_long else "7bit" if text.isascii() else "8bit"
    message.set_content(text, charset="utf-8", cte=cte)


def _has_8bit_parts(message: EmailMessage) -> bool:
    return any(str(part.get("Content-Transfer-Encoding", "")).lower() == "8bit" for part in message.walk())


def _quoted_printable(message: EmailMessage) -> EmailMessage:
    """A copy of a single-part text message with its 8-bit body quoted-printable."""
    converted = copy.deepcopy(message)
    converted.set_content(message.get_content(), subtype=message.get_content_subtype(), charset="utf-8",
                          cte="quoted-printable")
    return converted


_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9@._+-]+")


def outbox_name(message: EmailMessage) -> str:
    """``<UTC date and time>-<kind>-<recipient>-<random>.eml``: the kind is what the Message-ID's
    domain says after ``prep.`` (``register``, ``password-reset``), ``reminder`` for a mail with a
    List-Id, else ``mail``."""
    try:
        sent = parsedate_to_datetime(str(message["Date"])).astimezone(timezone.utc)
    except (TypeError, ValueError):
        sent = clock.now()
    domain = str(message["Message-ID"] or "").strip("<> ").rpartition("@")[2]
    kind = domain[len("prep."):] if domain.startswith("prep.") else "reminder" if message["List-Id"] else "mail"
    recipients = getaddresses([str(message["To"] or "")])
    to = recipients[0][1] if recipients else ""
    parts = [sent.strftime("%Y%m%d-%H%M%S"), kind, to, secrets.token_hex(3)]
    return "-".join(_UNSAFE_IN_NAME.sub("_", part)[:80] for part in parts if part) + ".eml"


class OutboxTransport:
    """Writes each message to ``<directory>/<outbox_name>`` instead of sending it."""

    name = "outbox"

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def send(self, message: EmailMessage) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / outbox_name(message)
        path.write_bytes(message.as_bytes())
        log.info("mail written to %s", path)


def make_transport(smtp_url: str | None, outbox_dir: Path) -> Transport:
    """SMTP when a URL is configured; otherwise the file outbox (and the log says so)."""
    if smtp_url:
        return SmtpTransport(parse_smtp_url(smtp_url))
    log.info("PREP_SMTP_URL is not set: mails are written to the outbox %s", outbox_dir)
    return OutboxTransport(outbox_dir)


def has_mail_server() -> bool:
    """Whether the running app sends mail (``SMTP_URL``) or writes it to the outbox."""
    return bool(current_app.config.get("SMTP_URL"))


def announce_link(sentence: str, link: str) -> None:
    """On the server's console, for a mail that went to the outbox: what to do, and the link on the
    end of the line (``No mail server is set: open this link to confirm bar@example.com: http…``)."""
    log.warning("No mail server is set: %s: %s", sentence, link)


def app_transport() -> Transport:
    """The transport the running app is configured for: ``SMTP_URL``, else ``<instance>/outbox``."""
    return make_transport(current_app.config.get("SMTP_URL"), Path(current_app.instance_path) / "outbox")
