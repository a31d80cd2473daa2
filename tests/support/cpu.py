"""CPU time, not wall-clock time, for cost assertions: a busy machine (other tests, other
people's work on the same cores) slows the wall clock but not the CPU time a call needs."""
from __future__ import annotations

import time
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
