"""Parsers on the DoS corpus: the CPU time of every parser on every hostile input
(tests/data/hostile/cases.yaml), the worst case, and its ratio to a trivial call (extracting a
normal, seed-sized posting) timed in the same run."""
from __future__ import annotations

import statistics
from typing import Any

from prep.postings.extract import extract_posting

NORMAL_POSTING = """Acme GPU Labs
Collective Communication Engineer
Requirements
- NCCL, RDMA and CUDA.
Interview questions
1. How does ring all-reduce work?
2. 说说RDMA和TCP的区别
"""


def measure_parsers() -> dict[str, Any]:
    from tests.support.cpu import least_cpu_seconds as cpu_seconds
    from tests.support.hostile import CASES, REFUSALS, parsers

    floor = statistics.median(cpu_seconds(lambda: extract_posting(NORMAL_POSTING), refusals=REFUSALS)
                              for _ in range(30))
    worst = (0.0, "", "")
    over_budget = 0
    timings = []
    errors: list[str] = []
    for case in CASES:
        for label, fn in parsers(case["kind"], case["text"]).items():
            def guarded(fn=fn, label=label, name=case["name"]) -> None:
                try:
                    fn()
                except REFUSALS:
                    pass
                except Exception as err:  # noqa: BLE001 - a crash is a finding to report, not a reason to stop
                    errors.append(f"{label} on {name}: {type(err).__name__}")
            spent = cpu_seconds(guarded)
            timings.append(spent)
            if spent > 1.0:
                over_budget += 1
            if spent > worst[0]:
                worst = (spent, case["name"], label)
    return {
        "parser_cases": len(CASES),
        "parser_calls": len(timings),
        "parser_worst_s": round(worst[0], 3),
        "parser_worst_case": f"{worst[2]} on {worst[1]}",
        "parser_median_ms": round(statistics.median(timings) * 1000, 2),
        "parser_over_budget": over_budget,
        "parser_errors": errors,
        "parser_floor_ms": round(floor * 1000, 3),
        "parser_worst_vs_floor": round(worst[0] / floor, 1) if floor else None,
    }
