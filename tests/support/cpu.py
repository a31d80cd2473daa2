"""CPU time, not wall-clock time, for cost assertions: a busy machine (other tests, other
people's work on the same cores) slows the wall clock but not the CPU time a call needs."""
from __future__ import annotations

import time
from functools import lru_cache
from collections.abc import Callable
from typing import Any


def least_cpu_seconds(fn: Callable[[], Any], runs: int = 1, *,
                      refusals: tuple[type[BaseException], ...] = ()) -> float:
    """The least CPU time (this process's) of ``runs`` calls of ``fn``: the least is the run a busy
    machine disturbed least. A call that raises one of ``refusals`` (a parser's own refusal of
    an input) counts as done."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        try:
            fn()
        except refusals:
            pass
        best = min(best, time.process_time() - start)
    return best


#: CPU milliseconds one extraction of :data:`bench.parsers.NORMAL_POSTING` took on the machine the
#: CPU budgets were written for (``parser_floor_ms`` of the committed ``bench/results/report.json``).
REFERENCE_FLOOR_MS = 0.335


@lru_cache(maxsize=1)
def slowness() -> float:
    """How many times slower than the budgets' machine this one extracts a short posting (at least
    1). The same machine can run five times slower on another day: a budget that catches quadratic
    work (minutes) must not fail a linear parser because of that."""
    from bench.parsers import NORMAL_POSTING
    from prep.postings.extract import extract_posting

    extract_posting(NORMAL_POSTING)  # (the one-off costs: the taxonomy, the skill matcher's patterns)
    runs = sorted(least_cpu_seconds(lambda: extract_posting(NORMAL_POSTING)) for _ in range(15))
    return max(1.0, 1000 * runs[len(runs) // 2] / REFERENCE_FLOOR_MS)


def budget(seconds: float) -> float:
    """A CPU budget written for the reference machine, on this one."""
    return seconds * slowness()
