"""Interview mode against simulated learners (issue 17): the table of docs/interview-mode.md.

```
.venv/bin/python -m bench.interview                 # the whole table, Markdown on stdout
.venv/bin/python -m bench.interview --json out.json # and every cell as JSON
.venv/bin/python -m bench.interview --profiles strong --horizons 7 --sizes 60
```
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict

from prep.interview import simulate


def table(cells: list[simulate.Cell], target: float) -> str:
    """The cells as a Markdown table, one row per profile x horizon x size."""
    rows = ["| learner | days | questions | plain: recalled / reviews / peak min | cram: recalled / reviews / peak min "
            "| interview: recalled / reviews / peak min | plan said on day 0 | verdict |",
            "|---|---|---|---|---|---|---|---|"]
    by_key: dict[tuple, dict[str, simulate.Cell]] = {}
    for cell in cells:
        by_key.setdefault((cell.profile, cell.horizon, cell.questions), {})[cell.strategy] = cell
    for (profile, horizon, questions), strategies in by_key.items():
        def show(name: str) -> str:
            c = strategies.get(name)
            return f"{c.recalled:.3f} / {c.reviews} / {c.peak_minutes:g}" if c else "-"
        mode = strategies.get("interview")
        said = verdict = "-"
        if mode is not None:
            said = (f"on track ({mode.predicted:.3f})" if mode.on_track else
                    f"short: best {mode.predicted:.3f}, needs "
                    + (f"{mode.minutes_needed:g} min/day" if mode.minutes_needed else "more days"))
            cram = strategies.get("cram")
            if mode.on_track:
                reached = mode.recalled >= target - 0.03
                fewer = cram is None or mode.reviews <= cram.reviews
                verdict = ("target met" if reached else "MISSED target") + ("" if fewer else ", MORE reviews than cram")
            else:
                verdict = ("shortfall matches" if abs(mode.recalled - mode.predicted) <= 0.03
                           else f"shortfall off by {mode.recalled - mode.predicted:+.3f}")
        rows.append(f"| {profile} | {horizon} | {questions} | {show('plain')} | {show('cram')} | {show('interview')} "
                    f"| {said} | {verdict} |")
    return "\n".join(rows)


def needed_table(cells: list[simulate.Cell], seed: int, target: float) -> tuple[str, list[simulate.Cell]]:
    """Interview mode run again with the minutes a day its first plan said would reach the target."""
    rows = ["| learner | days | questions | minutes asked | recalled | answers | most minutes in a day |",
            "|---|---|---|---|---|---|---|"]
    again = []
    for cell in cells:
        if cell.strategy != "interview" or cell.on_track or not cell.minutes_needed:
            continue
        rerun = simulate.run_cell(cell.profile, cell.horizon, cell.questions, "interview", seed=seed, target=target,
                                  budget_minutes=cell.minutes_needed)
        again.append(rerun)
        rows.append(f"| {cell.profile} | {cell.horizon} | {cell.questions} | {cell.minutes_needed:g} | "
                    f"{rerun.recalled:.3f} | {rerun.reviews} | {rerun.peak_minutes:g} |")
    return "\n".join(rows), again


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run interview mode against simulated learners.")
    parser.add_argument("--profiles", nargs="*", default=list(simulate.PROFILES))
    parser.add_argument("--horizons", nargs="*", type=int, default=[7, 14, 30])
    parser.add_argument("--sizes", nargs="*", type=int, default=[60, 200])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=float, default=0.9)
    parser.add_argument("--budget", type=float, default=20.0, help="minutes a day")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a verdict fails (target missed, more reviews than cram, "
                             "or a shortfall more than 0.03 off what the learner recalls)")
    parser.add_argument("--json", metavar="PATH", help="also write every cell as JSON here")
    parser.add_argument("--check-needed", action="store_true",
                        help="run interview mode again with the minutes a day each shortfall asked for")
    args = parser.parse_args(argv)
    started = time.monotonic()
    cells = simulate.run_table(profiles=tuple(args.profiles), horizons=tuple(args.horizons),
                               sizes=tuple(args.sizes), seed=args.seed, target=args.target,
                               budget_minutes=args.budget)
    text = table(cells, args.target)
    sys.stdout.write(text + "\n")
    again: list[simulate.Cell] = []
    if args.check_needed:
        text, again = needed_table(cells, args.seed, args.target)
        sys.stdout.write("\n" + text + "\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"target": args.target, "budget_minutes": args.budget, "seed": args.seed,
                       "cells": [asdict(c) for c in cells], "with_minutes_needed": [asdict(c) for c in again]},
                      out, indent=1)
    sys.stderr.write(f"{len(cells)} cells in {time.monotonic() - started:.0f} s\n")
    failed = failed_verdicts(text)
    sys.stderr.write(f"{failed} verdicts failed\n")
    return 1 if args.strict and failed else 0


def failed_verdicts(text: str) -> int:
    """Rows of a table whose verdict fails the check of issue 17."""
    return sum(("MISSED" in row or "MORE reviews" in row or "off by" in row) for row in text.splitlines())


if __name__ == "__main__":
    raise SystemExit(main())
