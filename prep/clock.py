"""The one clock: every "now" in prep comes from :func:`now`.

Domain functions take ``now`` as an argument; only the edges (views, CLI commands, the
scheduler, column defaults) call :func:`now`. Tests move this clock with the ``clock``
fixture (time-machine), so a frozen test time reaches every layer.
"""
from __future__ import annotations

from datetime import datetime, timezone


def now() -> datetime:
    """The current time, UTC-aware."""
    return datetime.now(timezone.utc)
