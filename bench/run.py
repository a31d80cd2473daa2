"""``python -m bench.run [--scale S] [--db sqlite|postgresql|both]``: generate, serve, drive, report.

For each database: a drill database (users x cards, review logs) served by the real
``prep serve`` and driven by :mod:`bench.load` in another process; a second database with the
reminder sweep's users; a third with 1,000 generated explanations for sync and posting import.
Writes ``bench/results/report.json`` and ``bench/results/report.md``.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import func, select

from prep.drill.models import ReviewLog
from prep.extensions import db

from . import editor, generate, offline, plans, report
from .databases import postgres_version, throwaway_database
from .server import Server, serve_supports_workers

RESULTS = Path(__file__).resolve().parent / "results"
CLIENTS = 8


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def machine_info(scale: float, dataset: str) -> dict[str, Any]:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    mem_kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                  if line.startswith("MemTotal"))
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gb": round(mem_kb / 1024 / 1024, 1),
            "python": platform.python_version(), "sqlite": sqlite3.sqlite_version, "postgres": postgres_version(),
            "os": platform.platform(), "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "scale": scale, "dataset": dataset}


def _review_count(app: Any) -> int:
    with app.app_context():
        n = db.session.scalar(select(func.count(ReviewLog.id))) or 0
        db.session.remove()
        return n


def drill_figures(kind: str, work: Path, args: argparse.Namespace, workers: int | None) -> dict[str, Any]:
    users = max(CLIENTS, round(2000 * args.scale))
    logs = round(1_000_000 * args.scale)
    out: dict[str, Any] = {}
    with throwaway_database(kind, work, "drill") as url:
        app = generate.bench_app(url, work / f"{kind}-instance")
        started = time.perf_counter()
        data = generate.generate_drill(app, users, 300, logs, datetime.now(timezone.utc),
                                       progress=lambda m: log(m))
        out["generate_s"] = round(time.perf_counter() - started, 1)
        out.update({"users": users, "cards": data.cards, "review_logs": data.review_logs,
                    "questions": data.questions})
        log(f"{kind}: drill data ready in {out['generate_s']} s: {data.cards} cards, {data.review_logs} logs")
        with app.app_context():
            db.engine.dispose()
        before = _review_count(app)
        server = Server(url, work / f"{kind}-instance", threads=args.threads, workers=workers,
                        log_path=work / f"{kind}-server.log")
        server.start()
        try:
            rng = random.Random(3)
            chosen = rng.sample(data.users, CLIENTS)
            phases = [
                {"name": "warmup", "kind": "next", "seconds": min(3.0, args.seconds), "max_requests": 2000},
                {"name": "floor", "kind": "floor", "path": server.floor_path, "seconds": args.seconds,
                 "max_requests": args.max_requests},
                {"name": "next", "kind": "next", "seconds": args.seconds, "max_requests": args.max_requests},
                {"name": "batch", "kind": "batch", "seconds": args.seconds, "max_requests": args.max_requests},
                {"name": "rate", "kind": "rate", "seconds": args.seconds, "max_requests": args.max_requests},
                {"name": "loop", "kind": "loop", "fraction": 0.5, "seconds": args.seconds,
                 "max_requests": args.max_requests},
            ]
            spec = {"url": server.url, "password": generate.PASSWORD, "clients": CLIENTS,
                    "users": chosen, "phases": phases, "server_pids": server.worker_pids()}
            log(f"{kind}: driving {server.url} ({server.mode}) with {CLIENTS} clients, floor {server.floor_path}")
            proc = subprocess.run([sys.executable, "-m", "bench.load"], input=json.dumps(spec), text=True,
                                  capture_output=True, cwd=Path(__file__).resolve().parent.parent,
                                  timeout=6 * args.seconds + 600)
            if proc.returncode != 0:
                raise RuntimeError(f"load client failed: {proc.stderr[-3000:]}")
            load = json.loads(proc.stdout)
            out["worker_rss_mb"] = server.peak_rss_mb()
            out["server_mode"] = server.mode
            out["floor_path"] = server.floor_path
        finally:
            server.stop()
        after = _review_count(app)
        p = load["phases"]
        out.update({
            "floor_rps": p["floor"]["rps"], "floor_p50_ms": p["floor"]["p50_ms"], "floor_p99_ms": p["floor"]["p99_ms"],
            "next_rps": p["next"]["rps"], "next_p50_ms": p["next"]["p50_ms"], "next_p95_ms": p["next"]["p95_ms"],
            "next_p99_ms": p["next"]["p99_ms"],
            "rating_rps": p["rate"]["rps"], "rating_p50_ms": p["rate"]["p50_ms"],
            "rating_p95_ms": p["rate"]["p95_ms"], "rating_p99_ms": p["rate"]["p99_ms"],
            "floor_cpu_ms": p["floor"]["server_cpu_ms_per_request"],
            "next_cpu_ms": p["next"]["server_cpu_ms_per_request"],
            "rating_cpu_ms": p["rate"]["server_cpu_ms_per_request"],
            "ratings_sent": load["ratings_sent"], "ratings_recorded": after - before,
            "http_errors": sum(ph["errors"] for ph in p.values()),
            "error_samples": [e for ph in p.values() for e in ph["error_samples"]][:5],
            "load_phases": p,
        })
        out["rating_vs_floor"] = (round(out["rating_rps"] / out["floor_rps"], 3)
                                  if out["rating_rps"] and out["floor_rps"] else None)
        out.update(report.loop_figures(p))
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    return out


def sweep_figures(kind: str, work: Path, args: argparse.Namespace) -> dict[str, Any]:
    users = max(100, round(100_000 * args.scale))
    with throwaway_database(kind, work, "sweep") as url:
        app = generate.bench_app(url, work / f"{kind}-sweep-instance")
        now = datetime.now(timezone.utc)
        started = time.perf_counter()
        info = generate.generate_sweep(app, users, now, progress=lambda m: log(m))
        log(f"{kind}: sweep data ready in {time.perf_counter() - started:.0f} s ({users} users, zones {info['zones']})")
        try:
            out = offline.measure_sweep(app, now, users)
        except Exception as err:  # the sweep is a colleague's work in progress: report, don't abort
            log(f"{kind}: sweep failed: {type(err).__name__}: {err}")
            out = {"sweep_100k_s": None, "sweep_queries": None, "sweep_error": f"{type(err).__name__}: {err}"[:500]}
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    return out


def content_figures(kind: str, work: Path, args: argparse.Namespace) -> dict[str, Any]:
    with throwaway_database(kind, work, "content") as url:
        app = generate.bench_app(url, work / f"{kind}-content-instance")
        try:
            out = offline.measure_content_and_postings(app, work / f"{kind}-content", args.explanations,
                                                       args.postings)
            out.update(editor.measure_editor(app, work / f"{kind}-content"))
        except Exception as err:
            log(f"{kind}: content/postings failed: {type(err).__name__}: {err}")
            out = {"content_error": f"{type(err).__name__}: {err}"[:500]}
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    return out


def notes_for(results: dict[str, Any], args: argparse.Namespace) -> list[str]:
    notes = [
        f"Load: {CLIENTS} client threads in one separate process (keep-alive HTTP/1.1, one logged-in user "
        "each, CSRF on: tokens read from the pages like a browser), sharing the 2 cores with the server; "
        f"each phase {args.seconds:g} s or {args.max_requests} requests. `next` = GET /drill (full page); "
        "`rate` = POST /drill/rate over the user's own cards at their current versions (302 not followed); "
        "`batch` = GET /drill/batch.json?n=5 (null when the app answers 404: no such endpoint yet). "
        "The half-capacity loop: page, batch JSON (when it exists) and rating in turn, started on a fixed "
        "schedule (open loop) at 0.5 x the capacity the closed-loop phases measured (sum of 1/rps per loop); "
        "latency counts from each request's scheduled start, so queueing behind a late one is included.",
        "The reminder sweep figure is the time to remind every due user: `prep.reminders.service.sweep` run "
        "back to back (the app's composer, a null mail transport) until a sweep claims nothing.",
        "Posting import = `prep.postings.service.import_posting` as the import route calls it (the "
        "process's cached linker, rebuilt only when explanations change), median over the generated postings, "
        "against 1,000 synced explanations.",
        "The reminder sweep pages through every due user in one sweep; `find + claim` is the part that does "
        "not grow with email composition (templates prepared once per language and kind, fields filled in).",
    ]
    for name in ("sqlite", "postgresql"):
        r = results.get(name, {})
        if r.get("floor_path") == "/static/css/app.css":
            notes.append(f"{name}: no /healthz in this app: the floor is GET /static/css/app.css.")
        for key in ("sweep_error", "content_error"):
            if r.get(key):
                notes.append(f"{name}: {key.replace('_', ' ')}: {r[key]}")
        notes += _sweep_targets(name, r)
        if r.get("http_errors"):
            notes.append(f"{name}: {r['http_errors']} HTTP errors, e.g. {r.get('error_samples')}")
        if r.get("sweep_capped"):
            notes.append(f"{name}: the sweep loop was stopped after {r.get('sweep_measured_s')} s "
                         f"({r.get('sweep_reminded')} of {r.get('sweep_users')} users reminded); "
                         f"sweep_100k_s is extrapolated from that rate (and so are sweep_queries' totals: "
                         f"{r.get('sweep_queries')} were counted).")
    return notes


SWEEP_FIND_CLAIM_TARGET_S = 1.0  # per 10,000 due users
SWEEP_COMPOSE_TARGET_MS = 0.3  # per email


def _sweep_targets(name: str, r: dict[str, Any]) -> list[str]:
    """find + claim per 10,000 users and compose per email against the targets (met / not met)."""
    out = []
    users, find_claim = r.get("sweep_users"), r.get("sweep_find_claim_s")
    if users and find_claim is not None:
        per = find_claim * 10_000 / users
        out.append(f"{name}: sweep find + claim {per:.2f} s per 10,000 users (target <= "
                   f"{SWEEP_FIND_CLAIM_TARGET_S:g} s: {'met' if per <= SWEEP_FIND_CLAIM_TARGET_S else 'not met'}).")
    compose = r.get("sweep_compose_ms_per_email")
    if compose is not None:
        out.append(f"{name}: sweep compose {compose:.3f} ms per email (target <= {SWEEP_COMPOSE_TARGET_MS:g} ms: "
                   f"{'met' if compose <= SWEEP_COMPOSE_TARGET_MS else 'not met'}).")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="1.0 = 2,000 users x 300 cards, 1M review logs, "
                        "100k sweep users; 0.05 for a quick run")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per load phase (default 20, 6 below "
                        "scale 0.5)")
    parser.add_argument("--max-requests", type=int, default=60_000, help="request cap per load phase")
    parser.add_argument("--threads", type=int, default=None, help="threads per server process (waitress, or each "
                        "gunicorn worker); default: prep serve's (8 with waitress, 2 per gunicorn worker)")
    parser.add_argument("--workers", default="auto", help="gunicorn workers: 'auto' (the core count when "
                        "`prep serve --workers` exists, else threaded waitress), 0 for waitress, or N")
    parser.add_argument("--explanations", type=int, default=1000)
    parser.add_argument("--postings", type=int, default=15)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--only", default="drill,sweep,content,parsers,plans", help="comma-separated parts to run")
    args = parser.parse_args(argv)
    if args.seconds is None:
        args.seconds = 20.0 if args.scale >= 0.5 else 6.0
    if args.workers == "auto":
        workers = os.cpu_count() if serve_supports_workers() else None
    else:
        workers = int(args.workers) or None
    parts = set(args.only.split(","))
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    users = max(CLIENTS, round(2000 * args.scale))
    dataset = (f"{users:,} users x 300 cards, {round(1_000_000 * args.scale):,} review logs; "
               f"{max(100, round(100_000 * args.scale)):,} sweep users; {args.explanations:,} explanations")
    args.out.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    json_path = args.out / "report.json"
    if "parsers" in parts:
        from .parsers import measure_parsers

        log("parsers on the DoS corpus")
        results["parsers"] = measure_parsers()
        log("parsers: " + ", ".join(f"{k}={v}" for k, v in results["parsers"].items()))
    with tempfile.TemporaryDirectory(prefix="prep-bench-") as tmp:
        work = Path(tmp)
        for kind in kinds:
            figures: dict[str, Any] = {}
            results[kind] = figures
            if "drill" in parts:
                figures.update(drill_figures(kind, work, args, workers))
            if "sweep" in parts:
                figures.update(sweep_figures(kind, work, args))
            if "content" in parts:
                figures.update(content_figures(kind, work, args))
            if "plans" in parts:
                log(f"{kind}: interview plans (cost per size; pages while plans are made)")
                figures["plans"] = plans.measure(kind)
            log(f"{kind}: " + ", ".join(f"{k}={figures.get(k)}" for k in (
                "rating_vs_floor", "next_p99_ms", "rating_p99_ms", "sweep_100k_s", "extract_link_ms",
                "sync_1000_s", "resync_s", "worker_rss_mb")))
            results["machine"] = machine_info(args.scale, dataset)
            json_path.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    text = report.render(results, notes_for(results, args))
    for kind in kinds:
        if "plans" in results.get(kind, {}):
            text += f"\n## Interview plans ({kind})\n\n" + plans.markdown(results[kind]["plans"]) + "\n"
    (args.out / "report.md").write_text(text, encoding="utf-8")
    log(f"wrote {json_path} and {args.out / 'report.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
