"""The one test clock: ``clock`` freezes every clock (``prep.clock.now``, ``datetime.now``,
``time.time``, so itsdangerous and the session timestamps too) at :data:`FIXED_NOW` with
time-machine, and moves it only when a test says so. Monotonic timers keep running."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest
import time_machine

from prep import clock as prep_clock

FIXED_NOW = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)


class Clock:
    """The frozen clock a test holds: read it with :attr:`now`, move it with :meth:`shift` or
    :meth:`move_to`."""

    def __init__(self, traveller: time_machine.Traveller) -> None:
        self._traveller = traveller

    @property
    def now(self) -> datetime:
        """What ``prep.clock.now()`` returns now."""
        return prep_clock.now()

    def shift(self, delta: timedelta) -> datetime:
        """Move the clock forward (or back) by ``delta``; the new time."""
        self._traveller.shift(delta)
        return self.now

    def move_to(self, when: datetime) -> datetime:
        """Move the clock to ``when`` (UTC-aware); the new time."""
        if when.tzinfo is None:
            raise ValueError("the test clock takes UTC-aware times")
        self._traveller.move_to(when, tick=False)
        return self.now


@pytest.fixture
def clock() -> Iterator[Clock]:
    """Every clock frozen at FIXED_NOW for the test (see :class:`Clock`). Fixtures set up before
    it (listed before it in the test's arguments) still ran on the real clock."""
    with time_machine.travel(FIXED_NOW, tick=False) as traveller:
        yield Clock(traveller)
