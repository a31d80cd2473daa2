"""The email channel: the reminder as a multipart message (:mod:`prep.reminders.compose`) through
the app's mail transport (:mod:`prep.mail`: SMTP or the file outbox), to the account's address.

Every attempt of one reminder carries the same Message-ID, so a receiving server can drop the
copy sent again when a process died after the server took the message but before the sweep
recorded it (the one window no database can close)."""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

from ...mail import SEND_ERRORS, Transport
from ..sweep_rules import describe
from .base import SENT, Channel, DeliveryContext, Outcome


class EmailChannel(Channel):
    name = "email"
    label = _l("By email")
    noun = _l("email")
    default_on = True

    def __init__(self, mail_transport: Transport | None = None, compose: Any = None) -> None:
        self.mail_transport = mail_transport
        self.compose = compose

    @property
    def transport(self) -> str:
        return self.mail_transport.name if self.mail_transport is not None else self.name

    def bind(self, context: DeliveryContext) -> Channel:
        return EmailChannel(context.mail_transport, context.compose)

    def destination_for(self, email: str, stored: str | None) -> str:
        return email

    def render(self, message: Any) -> Any:
        return self.compose(message)

    def deliver(self, rendered: Any, destination: str) -> Outcome:
        try:
            self.mail_transport.send(rendered)
        except SEND_ERRORS as err:
            return Outcome(ok=False, error=describe(err))
        return SENT


CHANNEL = EmailChannel()
