"""The Markdown report: every figure per database, against the issue-7 targets."""
from __future__ import annotations

from typing import Any

# (label, JSON key, comparison, threshold, unit)
TARGETS = [
    ("submit-rating throughput ≥ 50% of the trivial endpoint's", "rating_vs_floor", ">=", 0.5, ""),
    ("p99 next card < 25 ms", "next_p99_ms", "<", 25.0, " ms"),
    ("p99 submit rating < 25 ms", "rating_p99_ms", "<", 25.0, " ms"),
    ("reminder sweep over 100,000 users < 5 s", "sweep_100k_s", "<", 5.0, " s"),
    ("extract + link per posting < 50 ms (1,000 explanations)", "extract_link_ms", "<", 50.0, " ms"),
    ("unchanged-content re-sync < 0.5 s", "resync_s", "<", 0.5, " s"),
    ("editor preview < 100 ms (1,000 explanations)", "editor_preview_ms", "<", 100.0, " ms"),
    ("editor save < 100 ms (1,000 explanations)", "editor_save_ms", "<", 100.0, " ms"),
    # server CPU as multiples of the trivial endpoint's (same run), p99 at half capacity
    ("drill page server CPU ≤ 4× the trivial endpoint's", "next_cpu_x_floor", "<=", 4.0, "×"),
    ("rating server CPU ≤ 2× the trivial endpoint's", "rating_cpu_x_floor", "<=", 2.0, "×"),
    ("card-batch JSON server CPU ≤ 2× the trivial endpoint's", "batch_cpu_x_floor", "<=", 2.0, "×"),
    ("at half capacity: p99 drill page ≤ 50 ms", "loop_next_p99_ms", "<=", 50.0, " ms"),
    ("at half capacity: p99 card-batch JSON ≤ 50 ms", "loop_batch_p99_ms", "<=", 50.0, " ms"),
    ("at half capacity: p99 rating ≤ 50 ms", "loop_rating_p99_ms", "<=", 50.0, " ms"),
    ("posting import ≤ 25 ms median (1,000 explanations)", "extract_link_ms", "<=", 25.0, " ms"),
    ("every rating sent was recorded", "ratings_recorded_ok", ">=", 1.0, ""),
]

RATING_EVERY_S = 8.0  # the capacity line: a drilling user rates one card each 8 s
BATCH_SIZE = 5  # cards per batch JSON request (the prefetching drill's n)


def loop_figures(phases: dict[str, Any]) -> dict[str, Any]:
    """The issue-20 figures from the load client's phases: batch JSON (None when the app has no such
    endpoint), the half-capacity loop's p99s, CPU ratios to the floor, and the capacity line."""
    batch = phases.get("batch") or {}
    loop = phases.get("loop") or {}
    has_batch = bool(batch) and not batch.get("missing") and bool(batch.get("requests"))
    out: dict[str, Any] = {"batch_missing": not has_batch}
    for key in ("rps", "p50_ms", "p95_ms", "p99_ms"):
        out[f"batch_{key}"] = batch.get(key) if has_batch else None
    out["batch_cpu_ms"] = batch.get("server_cpu_ms_per_request") if has_batch else None
    out["loop_target_rps"], out["loop_rps"] = loop.get("target_rps"), loop.get("rps")
    out["loop_send_lag_p99_ms"] = loop.get("send_lag_p99_ms")
    out["loop_client_cpu_ms"] = loop.get("client_cpu_ms_per_request")
    for kind, name in (("next", "next"), ("batch", "batch"), ("rate", "rating")):
        part = loop.get(kind) or {}
        for q in ("p50", "p99"):
            out[f"loop_{name}_{q}_ms"] = part.get(f"{q}_ms") if part.get("requests") else None
    floor = (phases.get("floor") or {}).get("server_cpu_ms_per_request")
    for name, phase in (("next", "next"), ("rating", "rate"), ("batch", "batch")):
        cpu = (phases.get(phase) or {}).get("server_cpu_ms_per_request")
        ok = floor and cpu and (name != "batch" or has_batch)
        out[f"{name}_cpu_x_floor"] = round(cpu / floor, 2) if ok else None
    rating_cpu = (phases.get("rate") or {}).get("server_cpu_ms_per_request")
    next_cpu = (phases.get("next") or {}).get("server_cpu_ms_per_request")
    if rating_cpu and next_cpu:  # no JS: a page after each rating
        out["users_per_core_page"] = int(1000 * RATING_EVERY_S / (rating_cpu + next_cpu))
    if rating_cpu and out["batch_cpu_ms"]:  # prefetching: one batch per BATCH_SIZE ratings
        out["users_per_core_batch"] = int(1000 * RATING_EVERY_S / (rating_cpu + out["batch_cpu_ms"] / BATCH_SIZE))
    return out

FIGURES = [
    ("trivial endpoint (floor) throughput", "floor_rps", " req/s"),
    ("next card (GET /drill) throughput", "next_rps", " req/s"),
    ("next card p50 / p95 / p99", ("next_p50_ms", "next_p95_ms", "next_p99_ms"), " ms"),
    ("submit rating (POST /drill/rate) throughput", "rating_rps", " req/s"),
    ("submit rating p50 / p95 / p99", ("rating_p50_ms", "rating_p95_ms", "rating_p99_ms"), " ms"),
    ("floor p50 / p99", ("floor_p50_ms", "floor_p99_ms"), " ms"),
    ("rating_vs_floor", "rating_vs_floor", ""),
    ("server CPU per request: floor / next / rating", ("floor_cpu_ms", "next_cpu_ms", "rating_cpu_ms"), " ms"),
    ("ratings sent / recorded", ("ratings_sent", "ratings_recorded"), ""),
    ("reminder sweep: users due", "sweep_users", ""),
    ("reminder sweep: total seconds (all due users)", "sweep_100k_s", " s"),
    ("reminder sweep: SQL statements", "sweep_queries", ""),
    ("reminder sweep: sweeps run / page size", ("sweeps", "sweep_batch_size"), ""),
    ("reminder sweep: first sweep", "sweep_first_batch_s", " s"),
    ("  of which: find + claim / compose emails / the rest", ("sweep_find_claim_s", "sweep_compose_s",
                                                             "sweep_rest_s"), " s"),
    ("  compose, per email", "sweep_compose_ms_per_email", " ms"),
    ("posting import (extract + merge + link), median / p90", ("extract_link_ms", "extract_link_p90_ms"), " ms"),
    ("  of which: extract only / rank with a built linker", ("extract_ms", "rank_prebuilt_linker_ms"), " ms"),
    ("  linker build over the explanations (cold) / cache check", ("linker_build_ms", "linker_cached_ms"), " ms"),
    ("  import with the linker passed in", "extract_link_cached_linker_ms", " ms"),
    ("  SQL statements per import", "import_queries", ""),
    ("content sync, 1,000 files (full)", "sync_1000_s", " s"),
    ("content re-sync, nothing changed", "resync_s", " s"),
    ("editor preview / save, median", ("editor_preview_ms", "editor_save_ms"), " ms"),
    ("  SQL statements: preview / save", ("editor_preview_queries", "editor_save_queries"), ""),
    ("  re-checking the whole tree once (what a preview cost before)", "editor_tree_recheck_ms", " ms"),
    ("card-batch JSON (GET /drill/batch.json?n=5) throughput", "batch_rps", " req/s"),
    ("card-batch JSON p50 / p95 / p99", ("batch_p50_ms", "batch_p95_ms", "batch_p99_ms"), " ms"),
    ("server CPU per request: card-batch JSON", "batch_cpu_ms", " ms"),
    ("server CPU as multiples of the floor: page / rating / batch JSON",
     ("next_cpu_x_floor", "rating_cpu_x_floor", "batch_cpu_x_floor"), "×"),
    ("half-capacity loop: request rate scheduled / achieved", ("loop_target_rps", "loop_rps"), " req/s"),
    ("half-capacity loop p50: page / batch JSON / rating", ("loop_next_p50_ms", "loop_batch_p50_ms",
                                                           "loop_rating_p50_ms"), " ms"),
    ("half-capacity loop p99: page / batch JSON / rating", ("loop_next_p99_ms", "loop_batch_p99_ms",
                                                           "loop_rating_p99_ms"), " ms"),
    ("half-capacity loop: the load client's send lag p99 (in the p99s above) / its CPU per request",
     ("loop_send_lag_p99_ms", "loop_client_cpu_ms"), " ms"),
    ("capacity: drilling users per core (a rating each 8 s): with a page per card / with batch JSON",
     ("users_per_core_page", "users_per_core_batch"), ""),
    ("peak RSS of a server worker", "worker_rss_mb", " MB"),
    ("server", "server_mode", ""),
]


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:,.3f}".rstrip("0").rstrip(".") if abs(value) < 10 else f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _met(value: Any, op: str, threshold: float) -> str:
    if value is None:
        return "not measured"
    ok = {">=": value >= threshold, "<=": value <= threshold}.get(op, value < threshold)
    return "**met**" if ok else "**not met**"


def render(report: dict[str, Any], notes: list[str]) -> str:
    dbs = [k for k in ("sqlite", "postgresql") if k in report]
    machine = report.get("machine", {})
    lines = ["# prep benchmark report", "",
             f"Run {machine.get('date', '?')} on {machine.get('cpu', '?')} ({machine.get('cores', '?')} cores, "
             f"{machine.get('memory_gb', '?')} GB), Python {machine.get('python', '?')}, "
             f"SQLite {machine.get('sqlite', '?')}, PostgreSQL {machine.get('postgres', '?')}. "
             f"Scale {machine.get('scale', '?')}: {machine.get('dataset', '')}.", "",
             "Produced by `make bench` (`python -m bench.run`); raw figures in `report.json`.", "",
             "## Targets", "",
             "| target | " + " | ".join(dbs) + " |", "|---|" + "---|" * len(dbs)]
    for name in dbs:  # derived: every rating sent was recorded (1 = yes)
        r = report[name]
        if r.get("ratings_sent") is not None and r.get("ratings_recorded") is not None:
            r.setdefault("ratings_recorded_ok", int(r["ratings_sent"] == r["ratings_recorded"]))
    for label, key, op, threshold, unit in TARGETS:
        cells = []
        for name in dbs:
            value = report[name].get(key)
            if key == "ratings_recorded_ok" and value is not None:
                cells.append(f"{'yes' if value else 'no'} ({_fmt(report[name].get('ratings_sent'))} sent) — "
                             f"{_met(value, op, threshold)}")
            elif value is None and "batch" in key and report[name].get("batch_missing"):
                cells.append("null: GET /drill/batch.json answered 404 (no endpoint in this build)")
            else:
                cells.append(f"{_fmt(value)}{unit if value is not None else ''} — {_met(value, op, threshold)}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "## All figures", "", "| figure | " + " | ".join(dbs) + " |", "|---|" + "---|" * len(dbs)]
    for label, keys, unit in FIGURES:
        cells = []
        for name in dbs:
            if isinstance(keys, tuple):
                cells.append(" / ".join(_fmt(report[name].get(k)) for k in keys) + unit)
            else:
                value = report[name].get(keys)
                cells.append(_fmt(value) + (unit if value is not None else ""))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    parsers = report.get("parsers")
    if parsers:
        lines += ["", "## Parsers on the DoS corpus (tests/data/hostile)", "",
                  f"{parsers['parser_cases']} hostile inputs, {parsers['parser_calls']} parser calls (CPU time). "
                  f"Worst: **{parsers['parser_worst_s']} s** ({parsers['parser_worst_case']}), "
                  f"{parsers['parser_worst_vs_floor']}× the extraction of a normal posting "
                  f"({parsers['parser_floor_ms']} ms); median {parsers['parser_median_ms']} ms; "
                  f"over the 1 s budget: {parsers['parser_over_budget']} — "
                  f"{_met(parsers['parser_worst_s'], '<', 1.0)}. Crashes (an error that is not the "
                  f"parser's own refusal): {', '.join(parsers.get('parser_errors') or []) or 'none'}."]
    if notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"
