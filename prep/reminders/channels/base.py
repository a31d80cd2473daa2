"""What a reminder channel is: the one interface every channel module implements.

A channel has a ``name`` (stored in ``reminder_channels`` and ``reminder_log``), a ``label``,
its settings fields (the on/off box named after the channel, and any others it needs) and a
``kind``:

- ``push``: delivered outside the database by the sweep, under a claim (email, webhook). The
  sweep claims one ``reminder_log`` row per (user, local day, channel) before delivering, records
  each attempt, retries a failure with back-off and takes back a claim whose process died
  (:mod:`prep.reminders.sweep`); the channel only turns a :class:`ReminderMessage` into what it
  sends (:meth:`Channel.render`) and sends it (:meth:`Channel.deliver`).
- ``stored``: written in the claim's own transaction (the in-app notification), so it is
  exactly once by the database's unique constraints.
- ``feed``: read by the user's own client (the calendar feed); the sweep leaves it alone.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from wtforms import BooleanField

from ..sweep_rules import ReminderMessage

Kind = Literal["push", "stored", "feed"]


@dataclass(frozen=True)
class Outcome:
    """What became of one delivery: sent, or the error and whether to try again later."""

    ok: bool
    error: str | None = None
    #: False when trying again cannot help (a refused address, a redirect): failed for the day.
    retry: bool = True


SENT = Outcome(ok=True)


@dataclass(frozen=True)
class DeliveryContext:
    """What the app hands the channels for one sweep: its configuration, the mail transport and
    composer, and the app's links (built under ``PREP_BASE_URL``)."""

    config: Mapping[str, Any]
    mail_transport: Any = None
    compose: Callable[[ReminderMessage], Any] | None = None
    drill_url: str = ""


class Channel:
    """A reminder channel; subclasses set the class attributes and override what they need."""

    name: ClassVar[str]
    label: ClassVar[Any]  # a lazily translated string: the settings box
    noun: ClassVar[Any]   # a lazily translated string: the channel named in the reminder log
    kind: ClassVar[Kind] = "push"
    #: Whether the channel is on for a user who never saved a choice for it.
    default_on: ClassVar[bool] = False
    #: Whether the channel needs a destination of its own (a URL) before it can be on.
    needs_destination: ClassVar[bool] = False

    # --- settings ------------------------------------------------------------------------------

    def fields(self) -> dict[str, Any]:
        """The channel's form fields (unbound): its on/off box, named after the channel, first."""
        return {self.name: BooleanField(self.label)}

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(self.fields())

    def is_enabled(self, row: Any | None) -> bool:
        """Whether the user's settings (a ``ReminderChannel`` row, or None) turn the channel on.
        The sweep's SQL (:mod:`prep.reminders.sweep_query`) asks the same of the rows."""
        enabled = self.default_on if row is None else bool(row.enabled)
        return enabled and (not self.needs_destination or bool(row is not None and row.destination))

    def show(self, form: Any, row: Any | None) -> None:
        """Fill the channel's fields from its stored settings."""
        form[self.name].data = self.default_on if row is None else bool(row.enabled)

    def validate(self, form: Any, config: Mapping[str, Any]) -> bool:
        """Check the channel's own fields, adding messages next to them; True when they hold."""
        return True

    def apply(self, form: Any, row: Any) -> None:
        """Store the validated fields on ``row`` (a ``ReminderChannel``)."""
        row.enabled = bool(form[self.name].data)

    # --- delivering (push channels) -------------------------------------------------------------

    @property
    def transport(self) -> str:
        """What carries the channel's messages, as each attempt records it."""
        return self.name

    def bind(self, context: DeliveryContext) -> Channel:
        """This channel set up for one sweep (its transport, links, network rules)."""
        return self

    def destination_for(self, email: str, stored: str | None) -> str:
        """Where the user's reminder goes: the stored destination (or the account's address)."""
        return stored or ""

    def render(self, message: ReminderMessage) -> Any:
        """What is sent for ``message``; raising skips this user (their data cannot be used)."""
        return message

    def deliver(self, rendered: Any, destination: str) -> Outcome:
        """Send ``rendered`` to ``destination``; expected failures come back as an :class:`Outcome`."""
        raise NotImplementedError(f"the {self.name} channel is not delivered by the sweep")
