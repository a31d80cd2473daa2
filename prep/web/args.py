"""Whole-number query arguments, bounded so that no URL can send an out-of-range number to the database."""
from __future__ import annotations

import re

from flask import request

#: The largest id a URL or form may name (an ``Integer`` column).
MAX_ID = 2**31 - 1
#: The last page number a list accepts (beyond it, the last page's emptiness is shown).
MAX_PAGE = 100_000

_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,12}")


def int_arg(name: str, default: int | None = None, *, lo: int = 0, hi: int = MAX_ID) -> int | None:
    """A whole-number query argument within [lo, hi]; ``default`` when absent, malformed or out
    of range (so ``?page=99999999999999999999`` cannot reach the database)."""
    raw = request.args.get(name, "")
    # ASCII digits only: str.isdigit() also takes '²', which int() refuses.
    if not _WHOLE_NUMBER.fullmatch(raw):
        return default
    value = int(raw)
    return value if lo <= value <= hi else default


def page_arg() -> int:
    """The ``page`` query argument: 1 to :data:`MAX_PAGE`."""
    return int_arg("page", 1, lo=1, hi=MAX_PAGE) or 1
