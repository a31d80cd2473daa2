"""Mail transports, for every feature that sends mail (reminders, registration, password
reset): SMTP from a ``PREP_SMTP_URL`` (smtplib), or a file outbox.

``smtp://user:pass@host:587?starttls=1`` (plain SMTP, optionally upgraded with STARTTLS),
``smtps://user:pass@host:465`` (TLS from the start). Optional query: ``timeout`` in seconds.
Without a URL, messages are written as ``.eml`` files to an outbox directory.
"""
from __future__ import annotations

import logging
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from flask import current_app

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 20.0
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


class SmtpTransport:
    """One SMTP connection per message (reminders are few and spread out)."""

    name = "smtp"

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings

    def send(self, message: EmailMessage) -> None:
        s = self.settings
        context = ssl.create_default_context()
        if s.ssl:
            client: smtplib.SMTP = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=context)
        else:
            client = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        with client:
            client.ehlo()
            if s.starttls:
                client.starttls(context=context)
                client.ehlo()
            if s.username:
                client.login(s.username, s.password or "")
            raw = getattr(message, "data", None)
            if isinstance(raw, bytes):  # a pre-composed message (prep.reminders.compose.RawMessage)
                client.sendmail(message.sender, [message.recipient], raw)  # type: ignore[attr-defined]
            else:
                client.send_message(message)


class OutboxTransport:
    """Writes each message to ``<directory>/<Message-ID>.eml`` instead of sending it."""

    name = "outbox"

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def send(self, message: EmailMessage) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        stem = (message["Message-ID"] or "message").strip("<>").replace("@", "_at_").replace("/", "_")
        path = self.directory / f"{stem}.eml"
        path.write_bytes(message.as_bytes())
        log.info("reminder mail written to %s", path)


def make_transport(smtp_url: str | None, outbox_dir: Path) -> Transport:
    """SMTP when a URL is configured; otherwise the file outbox (and the log says so)."""
    if smtp_url:
        return SmtpTransport(parse_smtp_url(smtp_url))
    log.info("PREP_SMTP_URL is not set: reminder emails go to the outbox %s", outbox_dir)
    return OutboxTransport(outbox_dir)


def app_transport() -> Transport:
    """The transport the running app is configured for: ``SMTP_URL``, else ``<instance>/outbox``."""
    return make_transport(current_app.config.get("SMTP_URL"), Path(current_app.instance_path) / "outbox")
