"""The webhook channel: the daily reminder POSTed as JSON to a URL the user gives, in the shape
their chat bot takes: Slack-style incoming webhooks (``{"text": ...}``), Feishu/Lark bots
(``{"msg_type": "text", "content": {"text": ...}}``), DingTalk bots (``{"msgtype": "text",
"text": {"content": ...}}``) or a generic JSON object with the counts.

Bounded, because the URL is the user's and the request leaves from the server: https only
(plain http only to 127.0.0.1/localhost under ``TESTING``, or when the operator allows private
networks with ``PREP_WEBHOOK_ALLOW_PRIVATE``); every address the host resolves to must be a
public one (no loopback, private, link-local, multicast or reserved address: no requests into the
server's own network) unless the operator allows it; the connection goes to the address that
was checked (a name that resolves elsewhere the second time is not followed); :data:`TIMEOUT`
seconds for the connection and each read; redirects are not followed; at most
:data:`MAX_RESPONSE` bytes of the answer are read.

Exactly once like email: the sweep claims (user, day, ``webhook``) before the POST and records
the answer after it; a process that dies between the two leaves the claim to be taken back
after its lease and POSTed again, with the same ``Idempotency-Key`` header, which a receiver
can use to drop the copy (the at-least-once window email has too).
"""
from __future__ import annotations

import http.client
import ipaddress
import json
import socket
import ssl
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask_babel import force_locale, gettext, lazy_gettext as _l, ngettext
from wtforms import BooleanField, SelectField, StringField
from wtforms.fields.choices import SelectChoice

from ..sweep_rules import ReminderMessage, describe
from .base import SENT, Channel, DeliveryContext, Outcome

NAME = "webhook"
FORMATS = ("slack", "feishu", "dingtalk", "generic")
MAX_URL = 2048
#: Seconds for the connection and for each read of the answer (the whole answer: twice that).
TIMEOUT = 5.0
#: Bytes of the answer read at most (a bot's answer is a few bytes of JSON).
MAX_RESPONSE = 16 * 1024
_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})

Resolver = Callable[[str, int], list[str]]


class WebhookUrlError(ValueError):
    """A webhook URL prep will not POST to; ``message`` is translatable, shown next to the field."""

    def __init__(self, message: Any) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class NetworkRules:
    """Where webhooks may go: public https addresses, plus what the configuration allows."""

    #: The operator's PREP_WEBHOOK_ALLOW_PRIVATE: http, and private or loopback addresses.
    allow_private: bool = False
    #: TESTING: http to the loopback address (a test's local server).
    allow_loopback: bool = False

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> NetworkRules:
        return cls(allow_private=bool(config.get("WEBHOOK_ALLOW_PRIVATE")),
                   allow_loopback=bool(config.get("TESTING")))


@dataclass(frozen=True)
class Target:
    """A checked URL: where to connect (``address``) and what to ask for."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to for TCP (the system resolver)."""
    return sorted({info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)})


def _address_allowed(address: str, rules: NetworkRules) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_global and not ip.is_multicast:
        return True
    return rules.allow_private or (rules.allow_loopback and ip.is_loopback)


def check_url(url: str, rules: NetworkRules, resolver: Resolver = resolve) -> Target:
    """The :class:`Target` of ``url`` when prep may POST there, else :class:`WebhookUrlError`."""
    url = (url or "").strip()
    if len(url) > MAX_URL:
        raise WebhookUrlError(_l("Use a URL of at most 2,048 characters."))
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme not in ("https", "http") or not parts.hostname or any(
            c.isspace() for c in url):
        raise WebhookUrlError(_l("Give a full URL starting with https://."))
    host = parts.hostname.lower()
    loopback_host = host in _LOOPBACK_NAMES or _is_loopback_literal(host)
    if parts.scheme == "http" and not (rules.allow_private or (rules.allow_loopback and loopback_host)):
        raise WebhookUrlError(_l("Use an https:// URL."))
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        addresses = resolver(host, port)
    except (OSError, UnicodeError):
        raise WebhookUrlError(_l("The host of this URL could not be found.")) from None
    if not addresses:
        raise WebhookUrlError(_l("The host of this URL could not be found."))
    if not all(_address_allowed(a, rules) for a in addresses):
        raise WebhookUrlError(_l("This URL leads into a private network; prep does not send there."))
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme=parts.scheme, host=host, port=port, path=path, address=addresses[0])


def _is_loopback_literal(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


# --- the message -----------------------------------------------------------------------------

def message_text(message: ReminderMessage, drill_url: str) -> str:
    """The reminder as plain text, in the app's current locale."""
    user = message.user
    if user.learning or user.reviews or user.new:
        lines = [ngettext("You have %(num)s card to review today (%(learning)s learning, %(reviews)s review, "
                          "%(new)s new).",
                          "You have %(num)s cards to review today (%(learning)s learning, %(reviews)s review, "
                          "%(new)s new).", user.due_count, learning=user.learning, reviews=user.reviews,
                          new=user.new)]
    else:
        lines = [ngettext("You have %(num)s card to review today.", "You have %(num)s cards to review today.",
                          user.due_count)]
    if message.top_questions:
        lines += [gettext("Up first:"), *[f"- {q}" for q in message.top_questions]]
    if drill_url:
        lines.append(f"{gettext('Start the drill')}: {drill_url}")
    return "\n".join(lines)


def payload(style: str, text: str, message: ReminderMessage, drill_url: str) -> dict[str, Any]:
    """The JSON body for one ``style`` of :data:`FORMATS`."""
    if style == "feishu":
        return {"msg_type": "text", "content": {"text": text}}
    if style == "dingtalk":
        return {"msgtype": "text", "text": {"content": text}}
    if style == "generic":
        user = message.user
        return {"text": text, "date": user.local_date.isoformat(), "due": user.due_count,
                "learning": user.learning, "reviews": user.reviews, "new": user.new,
                "questions": list(message.top_questions), "url": drill_url}
    return {"text": text}


@dataclass(frozen=True)
class WebhookRequest:
    """A rendered reminder: the JSON body and the key that is the same on every attempt."""

    body: bytes
    idempotency_key: str


# --- the request -------------------------------------------------------------------------------

class _PinnedHTTPConnection(http.client.HTTPConnection):
    """HTTP to the checked address (the Host header still names the URL's host)."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to the checked address, the certificate checked against the URL's host."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self._address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post(target: Target, request: WebhookRequest, timeout: float | None = None) -> Outcome:
    """POST ``request`` to ``target``: sent on a 2xx answer whose body reports no error."""
    timeout = TIMEOUT if timeout is None else timeout
    kind = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    conn = kind(target, timeout)
    deadline = time.monotonic() + 2 * timeout
    try:
        conn.request("POST", target.path, body=request.body, headers={
            "Content-Type": "application/json; charset=utf-8", "User-Agent": "prep-reminders",
            "Idempotency-Key": request.idempotency_key})
        response = conn.getresponse()
        body = b""
        while len(body) < MAX_RESPONSE and time.monotonic() < deadline:
            chunk = response.read(min(4096, MAX_RESPONSE - len(body)))
            if not chunk:
                break
            body += chunk
        status, location = response.status, response.getheader("Location")
    except (OSError, http.client.HTTPException) as err:
        return Outcome(ok=False, error=describe(err))
    finally:
        conn.close()
    if 300 <= status < 400:
        return Outcome(ok=False, error=f"HTTP {status}: redirect to {location or '?'} not followed", retry=False)
    if not 200 <= status < 300:
        retry = status in (408, 429) or status >= 500
        return Outcome(ok=False, error=f"HTTP {status}: {_snippet(body)}", retry=retry)
    refused = _bot_error(body)
    if refused:
        return Outcome(ok=False, error=f"HTTP {status}, the bot answered: {refused}")
    return SENT


def _snippet(body: bytes) -> str:
    return body[:200].decode("utf-8", "replace").strip()


def _bot_error(body: bytes) -> str | None:
    """Feishu and DingTalk answer 200 with an error code in the JSON; the code and message."""
    try:
        data = json.loads(body) if body.strip().startswith(b"{") else None
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    for key in ("code", "errcode", "StatusCode"):
        code = data.get(key)
        if isinstance(code, int) and code != 0:
            return f"{key} {code} {data.get('msg') or data.get('errmsg') or data.get('StatusMessage') or ''}".strip()
    return None


# --- the channel ---------------------------------------------------------------------------------

class WebhookChannel(Channel):
    name = NAME
    label = _l("By webhook (a Slack, Feishu or DingTalk bot, or any JSON endpoint)")
    noun = _l("webhook")
    needs_destination = True

    def __init__(self, rules: NetworkRules | None = None, drill_url: str = "",
                 resolver: Resolver = resolve) -> None:
        self.rules = rules or NetworkRules()
        self.drill_url = drill_url
        self.resolver = resolver

    def fields(self) -> dict[str, Any]:
        return {
            self.name: BooleanField(self.label),
            "webhook_url": StringField(_l("Webhook URL"), description=_l(
                "The bot's incoming-webhook address, starting with https://.")),
            "webhook_format": SelectField(_l("Message format"), choices=[
                SelectChoice("slack", _l("Slack-style (Slack, Mattermost, Rocket.Chat)")),
                SelectChoice("feishu", _l("Feishu / Lark bot")), SelectChoice("dingtalk", _l("DingTalk bot")),
                SelectChoice("generic", _l("Generic JSON (text and counts)"))], default="slack"),
        }

    def show(self, form: Any, row: Any | None) -> None:
        form[self.name].data = bool(row is not None and row.enabled)
        form["webhook_url"].data = (row.destination if row is not None else None) or ""
        form["webhook_format"].data = ((row.options or {}).get("format") if row is not None else None) or "slack"

    def validate(self, form: Any, config: Mapping[str, Any]) -> bool:
        url = (form["webhook_url"].data or "").strip()
        if not url:
            if form[self.name].data:
                form["webhook_url"].errors.append(_l("Give the webhook's URL, or untick the webhook."))
                return False
            return True
        try:
            check_url(url, NetworkRules.from_config(config), self.resolver)
        except WebhookUrlError as err:
            form["webhook_url"].errors.append(err.message)
            return False
        return True

    def apply(self, form: Any, row: Any) -> None:
        row.enabled = bool(form[self.name].data)
        row.destination = (form["webhook_url"].data or "").strip() or None
        style = form["webhook_format"].data
        row.options = {"format": style if style in FORMATS else "slack"}

    def bind(self, context: DeliveryContext) -> Channel:
        return WebhookChannel(NetworkRules.from_config(context.config), context.drill_url, self.resolver)

    def render(self, message: ReminderMessage) -> WebhookRequest:
        user = message.user
        with force_locale(user.language or "en"):
            text = message_text(message, self.drill_url)
        style = (user.options or {}).get("format") or "slack"
        body = json.dumps(payload(style, text, message, self.drill_url), ensure_ascii=False).encode("utf-8")
        return WebhookRequest(body=body, idempotency_key=f"prep-reminder-{user.user_id}-{user.local_date.isoformat()}")

    def deliver(self, rendered: WebhookRequest, destination: str) -> Outcome:
        try:
            target = check_url(destination, self.rules, self.resolver)
        except WebhookUrlError as err:
            with force_locale("en"):  # recorded like the other delivery errors, in English
                return Outcome(ok=False, error=f"refused: {err.message}", retry=False)
        return post(target, rendered)


CHANNEL = WebhookChannel()
