"""Interview plans: what one costs per interview size, and what pages cost while plans are made
in the background.

```
.venv/bin/python -m bench.plans                  # both parts, SQLite, Markdown on stdout
.venv/bin/python -m bench.plans --db postgresql --json out.json
```

1. **Plan cost**: CPU seconds of the pure planner (:func:`prep.interview.planner.make_plan`) for
   interviews x questions x days, unseen cards, the default 20 minutes and 0.90 target; and of
   the whole plan job (:func:`prep.interview.jobs.make_and_store`: read, plan, store) for the
   largest size the app plans (the three nearest interviews).
2. **Pages while plans are made**: one candidate with eight postings of 200 questions (the
   hostile size; dates up to a year out); a background thread makes that candidate's plan again
   and again (the ``thread`` runner's work) while the main thread requests the trivial page
   (``/healthz``), ``/plan``, ``/dashboard`` and a posting in turn through the app's test client.
   Latency p50/p99 and CPU per request (the requesting thread's), each against ``/healthz`` in
   the same run, and the statements a page issues that write (must be 0).
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import event

from prep.interview import plans
from prep.interview.planner import make_plan

SIZES = [(1, 30, 30), (1, 200, 30), (1, 200, 180), (1, 200, 365), (3, 200, 180), (3, 200, 365)]
NOW = datetime(2026, 12, 6, 9, tzinfo=timezone.utc)


def plan_cost(interviews: int, questions: int, days: int) -> float:
    """CPU seconds of one plan over unseen cards (each interview its own questions)."""
    cards = [plans.PlanCard(i) for i in range(interviews * questions)]
    dated = [plans.Interview(k, (NOW + timedelta(days=days - 20 * k)).date(),
                             tuple(range(k * questions, (k + 1) * questions))) for k in range(interviews)]
    started = time.process_time()
    make_plan(cards, dated, plans.PlanSettings(), NOW)
    return round(time.process_time() - started, 3)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def pages_while_planning(kind: str, requests: int) -> dict[str, Any]:
    """Latency and CPU of pages for a candidate whose plan a background thread keeps making."""
    from bench.databases import throwaway_database
    from prep import create_app
    from prep.accounts.service import create_user
    from prep.extensions import db
    from prep.interview import jobs, service
    from prep.postings.models import Posting, PostingQuestion
    from prep.questions.models import Source
    from prep.questions.service import add_question

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="prep-bench-plans-") as tmp, \
            throwaway_database(kind, Path(tmp), "plans") as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "INSTANCE_PATH": str(Path(tmp) / "instance"),
                          "SECRET_KEY": "bench", "CONTENT_DIR": str(Path(tmp) / "content"),
                          "SCHEDULER_ENABLED": False, "TESTING": True, "WTF_CSRF_ENABLED": False,
                          "PLAN_RUNNER": "deferred"})
        with app.app_context():
            db.create_all()
            user = create_user("bench@example.com", "correct horse battery staple")
            db.session.flush()
            today = date.today()
            for k in range(8):
                ids = [add_question(f"Bench question {k}-{i}: what does step {i} of part {k} do?",
                                    source=Source.content, owner_id=user.id).id for i in range(200)]
                posting = Posting(user_id=user.id, company="Acme", title=f"role {k}", raw_text="x",
                                  content_hash=f"bench-{k}", interview_date=today + timedelta(days=365 - 40 * k))
                db.session.add(posting)
                db.session.flush()
                db.session.add_all(PostingQuestion(posting_id=posting.id, question_id=q, position=i, text=None)
                                   for i, q in enumerate(ids))
            db.session.commit()
            user_id, posting_id = user.id, posting.id
            service.request_plan(user_id, datetime.now(timezone.utc))
            db.session.commit()
            started = time.process_time()
            assert jobs.run_deferred(app) == 1
            out["plan_job_cpu_s"] = round(time.process_time() - started, 3)
            db.session.remove()

        stop = threading.Event()
        made = [0]

        def replan() -> None:
            while not stop.is_set():
                with app.app_context():
                    service.request_plan(user_id, datetime.now(timezone.utc))
                    db.session.commit()
                    db.session.remove()
                made[0] += jobs.run_deferred(app)

        writes = [0]

        def count_writes(conn, cursor, statement, *args) -> None:  # noqa: ANN001
            if threading.current_thread() is threading.main_thread() and statement.lstrip().split(" ", 1)[0].upper() \
                    in {"INSERT", "UPDATE", "DELETE"}:
                writes[0] += 1

        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", count_writes)
        client = app.test_client()
        login = client.post("/login", data={"email": "bench@example.com", "password": "correct horse battery staple"})
        assert login.status_code == 302, login.status_code
        worker = threading.Thread(target=replan, daemon=True)
        worker.start()
        urls = {"floor": "/healthz", "plan": "/plan", "dashboard": "/dashboard", "posting": f"/postings/{posting_id}"}
        timings: dict[str, list[float]] = {name: [] for name in urls}
        cpu: dict[str, list[float]] = {name: [] for name in urls}
        writes[0] = 0
        for _ in range(requests):
            for name, url in urls.items():
                t0, c0 = time.perf_counter(), time.thread_time()
                response = client.get(url)
                cpu[name].append(time.thread_time() - c0)
                timings[name].append(time.perf_counter() - t0)
                assert response.status_code == 200, (url, response.status_code)
        stop.set()
        worker.join()
        floor_cpu = statistics.fmean(cpu["floor"])
        for name in urls:
            out[f"{name}_p50_ms"] = round(_percentile(timings[name], 0.5) * 1000, 1)
            out[f"{name}_p99_ms"] = round(_percentile(timings[name], 0.99) * 1000, 1)
            out[f"{name}_cpu_ms"] = round(statistics.fmean(cpu[name]) * 1000, 1)
            out[f"{name}_cpu_over_floor_ms"] = round((statistics.fmean(cpu[name]) - floor_cpu) * 1000, 1)
        out["plans_made_meanwhile"] = made[0]
        out["page_writes"] = writes[0]
        with app.app_context():
            db.engine.dispose()
    return out


def measure(kind: str = "sqlite", requests: int = 40) -> dict[str, Any]:
    return {"plan_cost_cpu_s": {f"{i}x{q}x{d}": plan_cost(i, q, d) for i, q, d in SIZES},
            "pages": pages_while_planning(kind, requests)}


def markdown(figures: dict[str, Any]) -> str:
    rows = ["| interviews x questions x days | plan CPU s |", "|---|---|"]
    rows += [f"| {size} | {cost} |" for size, cost in figures["plan_cost_cpu_s"].items()]
    pages = figures["pages"]
    rows += ["", f"Plan job for 8 postings x 200 questions (the nearest 3 planned): {pages['plan_job_cpu_s']} s CPU; "
             f"{pages['plans_made_meanwhile']} plans made in the background during the page run; "
             f"{pages['page_writes']} writes by pages.", "",
             "| page | p50 ms | p99 ms | CPU ms | CPU over /healthz ms |", "|---|---|---|---|---|"]
    for name in ("floor", "plan", "dashboard", "posting"):
        rows.append(f"| {name} | {pages[f'{name}_p50_ms']} | {pages[f'{name}_p99_ms']} | {pages[f'{name}_cpu_ms']} "
                    f"| {pages[f'{name}_cpu_over_floor_ms']} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.plans", description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--requests", type=int, default=40, help="requests per page")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    figures = measure(args.db, args.requests)
    print(markdown(figures))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
