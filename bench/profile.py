"""Profile the drill requests in-process: ``python -m bench.profile [--db sqlite|postgresql] [--scale S]``.

Generates a drill database like :mod:`bench.run`, logs one user in through Flask's test client
(CSRF on), then for GET /healthz (the floor), GET /drill, the card-batch JSON and POST /drill/rate
prints the SQL statements of one request
and a pyinstrument profile of many (``pip install pyinstrument``). Text goes to
``bench/results/profile-<db>.txt``.
"""
from __future__ import annotations

import argparse
import re
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import event

from prep.extensions import db

from . import generate
from .databases import throwaway_database
from .load import CSRF_RE

RESULTS = Path(__file__).resolve().parent / "results"


def _token(html: bytes) -> str:
    match = CSRF_RE.search(html.decode("utf-8", "replace"))
    assert match, "no CSRF token"
    return match.group(1) or match.group(2)


def profile(kind: str, scale: float, requests: int) -> str:
    from pyinstrument import Profiler

    out: list[str] = []
    with tempfile.TemporaryDirectory(prefix="prep-profile-") as tmp, \
            throwaway_database(kind, Path(tmp), "profile") as url:
        app = generate.bench_app(url, Path(tmp) / "instance")
        users = max(8, round(2000 * scale))
        data = generate.generate_drill(app, users, 300, round(1_000_000 * scale), datetime.now(timezone.utc),
                                       progress=lambda m: None)
        with app.app_context():
            engine = db.engine
        user = data.users[0]
        client = app.test_client()
        page = client.get("/login").data
        response = client.post("/login", data={"csrf_token": _token(page), "email": user["email"],
                                                "password": generate.PASSWORD})
        assert response.status_code == 302, response.status_code
        csrf = _token(client.get("/drill").data)
        cards = user["cards"]
        position = 0

        def rate() -> Any:
            nonlocal position
            card = cards[position % len(cards)]
            position += 1
            r = client.post("/drill/rate", data={"csrf_token": csrf, "card_id": card[0], "version": card[1],
                                                 "rating": 3, "duration_ms": 5000})
            assert r.status_code == 302, r.status_code
            card[1] += 1
            return r

        # The floor first: each request's "ms each" reads against it.
        requests_by_name = {"GET /healthz": lambda: client.get("/healthz"), "GET /drill": lambda: client.get("/drill"),
                            "GET /drill/batch.json?n=5": lambda: client.get("/drill/batch.json?n=5"),
                            "POST /drill/rate": rate}
        for name, call in requests_by_name.items():
            statements: list[str] = []

            def record(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
                statements.append(re.sub(r"\s+", " ", statement)[:160])

            call()  # warm
            event.listen(engine, "before_cursor_execute", record)
            call()
            event.remove(engine, "before_cursor_execute", record)
            out.append(f"## {name}: {len(statements)} SQL statements in one request")
            out.extend(f"  {i + 1:2d}. {s}" for i, s in enumerate(statements))
            profiler = Profiler(interval=0.0005)
            started = time.perf_counter()
            profiler.start()
            for _ in range(requests):
                call()
            profiler.stop()
            elapsed = time.perf_counter() - started
            out.append(f"## {name}: {requests} requests in-process, {1000 * elapsed / requests:.2f} ms each")
            out.append(profiler.output_text(unicode=True, color=False, show_all=False))
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    return "\n".join(out)


def profile_content(kind: str, explanations: int) -> str:
    """pyinstrument profiles of a full content sync, an unchanged re-sync, a linker build and
    one posting import, over ``explanations`` generated files."""
    from pyinstrument import Profiler

    from prep.content.sync import current_linker, sync_tree
    from prep.postings.service import import_posting

    out: list[str] = []
    with tempfile.TemporaryDirectory(prefix="prep-profile-") as tmp, \
            throwaway_database(kind, Path(tmp), "profile") as url:
        root = Path(tmp) / "content"
        generate.write_content_tree(root, explanations)
        app = generate.bench_app(url, Path(tmp) / "instance")
        with app.app_context():
            db.create_all()
            steps = [("full sync", lambda: (sync_tree(root), db.session.commit())),
                     ("unchanged re-sync", lambda: (sync_tree(root), db.session.commit())),
                     ("linker build", current_linker),
                     ("posting import", lambda: (import_posting(None, generate.posting_texts(1)[0],
                                                                datetime.now(timezone.utc)), db.session.commit()))]
            for name, step in steps:
                profiler = Profiler(interval=0.001)
                started = time.perf_counter()
                profiler.start()
                step()
                profiler.stop()
                out.append(f"## {name} ({explanations} explanations): {time.perf_counter() - started:.3f} s")
                out.append(profiler.output_text(unicode=True, color=False))
            statements: list[str] = []

            def record(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
                statements.append(re.sub(r"\s+", " ", statement)[:160])

            texts = generate.posting_texts(6, seed=7)
            event.listen(db.engine, "before_cursor_execute", record)
            import_posting(None, texts[0], datetime.now(timezone.utc))
            db.session.commit()
            event.remove(db.engine, "before_cursor_execute", record)
            out.append(f"## posting import: {len(statements)} SQL statements in one import")
            out.extend(f"  {i + 1:2d}. {s}" for i, s in enumerate(statements))
            profiler = Profiler(interval=0.0005)
            started = time.perf_counter()
            profiler.start()
            for text in texts[1:]:
                import_posting(None, text, datetime.now(timezone.utc))
                db.session.commit()
            profiler.stop()
            out.append(f"## posting import: {len(texts) - 1} imports, "
                       f"{1000 * (time.perf_counter() - started) / (len(texts) - 1):.1f} ms each")
            out.append(profiler.output_text(unicode=True, color=False))
            db.session.remove()
            db.engine.dispose()
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.profile")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--scale", type=float, default=0.05)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--part", choices=["drill", "content"], default="drill")
    parser.add_argument("--explanations", type=int, default=300)
    args = parser.parse_args()
    if args.part == "drill":
        text = profile(args.db, args.scale, args.requests)
    else:
        text = profile_content(args.db, args.explanations)
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"profile-{args.part}-{args.db}.txt"
    path.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
