"""The reminder channels, registered in one place.

Each channel is one module with one :class:`~.base.Channel`; the settings form, the settings
page, the sweep's SQL and its delivery loop read this registry and nothing channel-specific.
Adding a channel is a module, its tests and one line below (CONTRIBUTING.md walks it).
"""
from __future__ import annotations

from .base import SENT, Channel, DeliveryContext, Outcome
from . import calendar_feed, email, in_app, webhook

#: name -> channel, in the order the settings page shows them.
CHANNELS: dict[str, Channel] = {channel.name: channel for channel in (
    email.CHANNEL,
    in_app.CHANNEL,
    webhook.CHANNEL,
    calendar_feed.CHANNEL,
)}

__all__ = ["CHANNELS", "SENT", "Channel", "DeliveryContext", "Outcome", "swept", "pushed"]


def swept() -> list[Channel]:
    """The channels the sweep claims for (push and stored), in registry order."""
    return [c for c in CHANNELS.values() if c.kind != "feed"]


def pushed() -> list[Channel]:
    """The channels the sweep delivers after claiming."""
    return [c for c in CHANNELS.values() if c.kind == "push"]


def bound(context: DeliveryContext) -> dict[str, Channel]:
    """Every push channel set up for one sweep, by name."""
    return {c.name: c.bind(context) for c in pushed()}
