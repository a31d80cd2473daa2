"""The time zones a user may choose: IANA names from the system's database, without the
aliases that are not places (``localtime``, ``Factory``, ``posixrules``, the ``posix/`` and
``right/`` trees). Every zone stored on an account passes :func:`is_user_zone`; code that reads a
stored zone goes through :func:`user_zone`, which falls back to UTC for anything else.

Pure module: no Flask, no database.
"""
from __future__ import annotations

from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

_NOT_PLACES = {"localtime", "Factory", "posixrules", "posix", "right"}


@lru_cache(maxsize=1)
def user_zones() -> frozenset[str]:
    return frozenset(z for z in available_timezones()
                     if z not in _NOT_PLACES and not z.startswith(("posix/", "right/")))


def is_user_zone(name: object) -> bool:
    return isinstance(name, str) and len(name) <= 64 and name in user_zones()


def user_zone(name: object) -> ZoneInfo:
    """The zone of a stored name, or UTC when the name is not one a user may choose."""
    return _zone(name) if is_user_zone(name) else _zone("UTC")  # type: ignore[arg-type]


@lru_cache(maxsize=None)  # bounded by the zones in user_zones()
def _zone(name: str) -> ZoneInfo:
    # ZoneInfo's own strong cache keeps only the 8 most recent zones: a sweep over more zones
    # than that would re-read the zone files for every user.
    return ZoneInfo(name)


#: The day start a stored hour outside 0..23 is read as (the accounts' default).
DEFAULT_DAY_START_HOUR = 4


def user_day_start(hour: object) -> int:
    """A stored day-start hour, or the default when it is not a whole hour of the day (only a
    row written past the settings form and the import holds one)."""
    return hour if isinstance(hour, int) and not isinstance(hour, bool) and 0 <= hour <= 23 \
        else DEFAULT_DAY_START_HOUR
