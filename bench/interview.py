"""Interview mode against simulated learners: the table of docs/interview-mode.md.

```
.venv/bin/python -m bench.interview                 # the whole table, Markdown on stdout
.venv/bin/python -m bench.interview --json out.json # and every cell as JSON
.venv/bin/python -m bench.interview --profiles strong --horizons 7 --sizes 60
.venv/bin/python -m bench.interview --seeds 1,2,3   # every cell over three seeds: mean and spread
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


def seeds_table(by_seed: dict[int, list[simulate.Cell]], target: float) -> str:
    """Interview mode over several seeds: per cell the mean (min..max) of what the learner recalled
    and of what the day-0 plan said, the verdict error (recalled - said), the last plan's error (the
    day before the interview), the busiest day's minutes and how many seeds fail the check (on the
    day-0 verdict)."""
    rows = ["| learner | days | questions | recalled: mean (min..max) | day-0 plan said: mean (min..max) "
            "| on track | error: mean (min..max) | last plan's error | answers: interview / cram "
            "| busiest day, min: mean (max) | seeds failed |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    keys: dict[tuple, dict[int, dict[str, simulate.Cell]]] = {}
    for seed, cells in by_seed.items():
        for cell in cells:
            keys.setdefault((cell.profile, cell.horizon, cell.questions), {}).setdefault(seed, {})[cell.strategy] = cell
    per_profile: dict[str, list[float]] = {}
    failed_by_profile: dict[str, int] = {}
    per_profile_late: dict[str, list[float]] = {}
    for (profile, horizon, questions), seeds in keys.items():
        modes = [s["interview"] for s in seeds.values() if "interview" in s]
        if not modes:
            continue
        errors = [m.recalled - m.predicted for m in modes]
        late = [m.recalled - (m.last_predicted if m.last_predicted is not None else m.predicted) for m in modes]
        per_profile_late.setdefault(profile, []).extend(late)
        failed = sum(_fails(s["interview"], s.get("cram"), target) for s in seeds.values() if "interview" in s)
        crams = [s["cram"].reviews for s in seeds.values() if "cram" in s]
        per_profile.setdefault(profile, []).extend(errors)
        failed_by_profile[profile] = failed_by_profile.get(profile, 0) + failed

        def spread(values: list[float], sign: str = "") -> str:
            return f"{sum(values) / len(values):{sign}.3f} ({min(values):{sign}.3f}..{max(values):{sign}.3f})"
        cram = f"{sum(crams) / len(crams):.0f}" if crams else "-"
        rows.append(f"| {profile} | {horizon} | {questions} | {spread([m.recalled for m in modes])} "
                    f"| {spread([m.predicted for m in modes])} | {sum(bool(m.on_track) for m in modes)}/{len(modes)} "
                    f"| {spread(errors, '+')} | {spread(late, '+')} | {sum(m.reviews for m in modes) / len(modes):.0f} / {cram} "
                    f"| {sum(m.peak_minutes for m in modes) / len(modes):.1f} ({max(m.peak_minutes for m in modes):g}) "
                    f"| {failed}/{len(modes)} |")
    rows.append("")
    rows.append("| learner | cells x seeds | mean abs error | worst error | error over 0.03 "
                "| last plan: mean abs error, over 0.03 | check failed |")
    rows.append("|---|---|---|---|---|---|---|")
    for profile, errors in per_profile.items():
        late = per_profile_late[profile]
        rows.append(f"| {profile} | {len(errors)} | {sum(map(abs, errors)) / len(errors):.3f} "
                    f"| {max(errors, key=abs):+.3f} | {sum(abs(e) > 0.03 for e in errors)} "
                    f"| {sum(map(abs, late)) / len(late):.3f}, {sum(abs(e) > 0.03 for e in late)} "
                    f"| {failed_by_profile[profile]} |")
    return "\n".join(rows)


def _fails(mode: simulate.Cell, cram: simulate.Cell | None, target: float) -> bool:
    """The interview check on one cell: the target reached (within 0.03) with no more
    answers than cram when the day-0 plan was on track, else recalled within 0.03 of what it said."""
    if mode.on_track:
        return mode.recalled < target - 0.03 or (cram is not None and mode.reviews > cram.reviews)
    return abs(mode.recalled - mode.predicted) > 0.03


def needed_table(cells: list[simulate.Cell], seed: int, target: float,
                 fill: bool = False) -> tuple[str, list[simulate.Cell]]:
    """Interview mode run again with the minutes a day its first plan said would reach the target."""
    rows = ["| learner | days | questions | minutes asked | recalled | answers | most minutes in a day |",
            "|---|---|---|---|---|---|---|"]
    again = []
    for cell in cells:
        if cell.strategy != "interview" or cell.on_track or not cell.minutes_needed:
            continue
        rerun = simulate.run_cell(cell.profile, cell.horizon, cell.questions, "interview", seed=seed, target=target,
                                  budget_minutes=cell.minutes_needed, fill=fill)
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
    parser.add_argument("--seeds", help="comma-separated seeds (e.g. 1,2,3): every cell once per seed, "
                                        "then a table of each cell's mean and spread")
    parser.add_argument("--strategies", nargs="*", default=list(simulate.STRATEGIES))
    parser.add_argument("--target", type=float, default=0.9)
    parser.add_argument("--budget", type=float, default=20.0, help="minutes a day")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a verdict fails (target missed, more reviews than cram, "
                             "or a shortfall more than 0.03 off what the learner recalls)")
    parser.add_argument("--json", metavar="PATH", help="also write every cell as JSON here")
    parser.add_argument("--fill", action="store_true",
                        help="interview mode: when a session's bookings are done with minutes left, plan again "
                             "and go on with what it books for the same day, as the app does (default: each day "
                             "is the session-start plan's bookings, as in the tables of docs/interview-mode.md)")
    parser.add_argument("--check-needed", action="store_true",
                        help="run interview mode again with the minutes a day each shortfall asked for")
    args = parser.parse_args(argv)
    started = time.monotonic()
    if args.seeds:
        return _main_seeds(args, [int(s) for s in args.seeds.split(",") if s.strip()], started)
    cells = simulate.run_table(strategies=tuple(args.strategies), profiles=tuple(args.profiles), horizons=tuple(args.horizons),
                               sizes=tuple(args.sizes), seed=args.seed, target=args.target,
                               budget_minutes=args.budget, fill=args.fill)
    text = table(cells, args.target)
    sys.stdout.write(text + "\n")
    again: list[simulate.Cell] = []
    if args.check_needed:
        needed, again = needed_table(cells, args.seed, args.target, args.fill)
        sys.stdout.write("\n" + needed + "\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"target": args.target, "budget_minutes": args.budget, "seed": args.seed,
                       "cells": [asdict(c) for c in cells], "with_minutes_needed": [asdict(c) for c in again]},
                      out, indent=1)
    sys.stderr.write(f"{len(cells)} cells in {time.monotonic() - started:.0f} s\n")
    failed = failed_verdicts(text)
    sys.stderr.write(f"{failed} verdicts failed\n")
    return 1 if args.strict and failed else 0


def _main_seeds(args: argparse.Namespace, seeds: list[int], started: float) -> int:
    by_seed = {seed: simulate.run_table(strategies=tuple(args.strategies), profiles=tuple(args.profiles),
                                        horizons=tuple(args.horizons), sizes=tuple(args.sizes), seed=seed,
                                        target=args.target, budget_minutes=args.budget, fill=args.fill)
               for seed in seeds}
    sys.stdout.write(seeds_table(by_seed, args.target) + "\n")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"target": args.target, "budget_minutes": args.budget, "seeds": seeds,
                       "cells": {str(seed): [asdict(c) for c in cells] for seed, cells in by_seed.items()}},
                      out, indent=1)
    failed = sum(_fails(c, next((x for x in cells if x.strategy == "cram" and (x.profile, x.horizon, x.questions)
                                  == (c.profile, c.horizon, c.questions)), None), args.target)
                 for cells in by_seed.values() for c in cells if c.strategy == "interview")
    sys.stderr.write(f"{sum(map(len, by_seed.values()))} cells in {time.monotonic() - started:.0f} s\n"
                     f"{failed} verdicts failed\n")
    return 1 if args.strict and failed else 0


def failed_verdicts(text: str) -> int:
    """Rows of a table whose verdict fails the interview check."""
    return sum(("MISSED" in row or "MORE reviews" in row or "off by" in row) for row in text.splitlines())


if __name__ == "__main__":
    raise SystemExit(main())
