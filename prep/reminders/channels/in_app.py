"""The in-app channel: a notification row and the banner on every page. Stored with the claim
(:mod:`prep.reminders.sweep_claim` writes the notification in the claim's transaction), so it
is exactly once by the ``notifications`` unique constraint; nothing is delivered later."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l

from .base import Channel

#: The name the claim writes notifications for.
NAME = "in_app"


class InAppChannel(Channel):
    name = NAME
    label = _l("In the app (a banner and your notifications)")
    noun = _l("in-app")
    kind = "stored"
    default_on = True


CHANNEL = InAppChannel()
