"""Benchmark data, made through the app's own models and scheduling code.

Rows are bulk-inserted with SQLAlchemy Core ``executemany`` (the ORM would take an hour for
a million review logs), but every row is shaped as the app shapes it: review histories are
played through :mod:`prep.drill.scheduling` (py-fsrs, fuzz on) at real times: each user
introduces 5-20 new cards a day, reviews each a little after it falls due, and stops at now,
so states, steps, stabilities, versions, ``card_before`` snapshots and due dates are the ones
real ratings would leave (some cards overdue, most due in the future).
"""
from __future__ import annotations

import random
import textwrap
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from flask import Flask
from sqlalchemy import insert, select, text

from prep.accounts.models import Role, User
from prep.accounts.passwords import hash_password
from prep.config import REPO_ROOT
from prep.content.sync import current_linker, link_question, sync_tree
from prep.drill import scheduling
from prep.drill.models import Card, CardState, ReviewLog
from prep.extensions import db
from prep.questions.models import Question, Source
from prep.questions.service import add_question

PASSWORD = "bench-password-7f3a9c"  # one argon2 hash, computed once, shared by every user
DRILL_ZONES = ["UTC", "Asia/Shanghai", "Asia/Shanghai", "Asia/Shanghai", "America/Los_Angeles",
               "Europe/Berlin", "Asia/Tokyo", "Asia/Kolkata"]
# Candidate zones for the reminder sweep; those whose local time is past 09:00 now are used.
SWEEP_ZONE_CANDIDATES = [
    "Pacific/Kiritimati", "Pacific/Auckland", "Asia/Tokyo", "Asia/Shanghai", "Asia/Bangkok", "Asia/Kolkata",
    "Asia/Dubai", "Europe/Moscow", "Europe/Berlin", "Europe/London", "UTC", "Atlantic/Azores",
    "America/Sao_Paulo", "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
    "America/Anchorage", "Pacific/Honolulu", "Pacific/Pago_Pago",
]
SKILLS = ["NCCL", "RCCL", "MPI", "UCX", "NVSHMEM", "RDMA", "GPUDirect RDMA", "InfiniBand", "RoCE", "TCP/IP",
          "NVLink", "PCIe", "CUDA", "CUDA Graphs", "Nsight Systems", "C++", "Python", "Linux", "PyTorch",
          "Megatron", "DeepSpeed", "FSDP", "ZeRO", "TP", "PP", "EP", "KV Cache", "Collectives"]
# Rating weights (Again, Hard, Good, Easy): roughly what Anki users' logs show.
RATING_WEIGHTS = (0.12, 0.13, 0.65, 0.10)
CHUNK = 20_000


def bulk_insert(model: Any, rows: list[dict[str, Any]]) -> None:
    """Core ``executemany``. On PostgreSQL a RETURNING makes SQLAlchemy batch the rows into
    multi-row INSERTs ("insertmanyvalues"), several times faster than psycopg's executemany."""
    if not rows:
        return
    stmt = insert(model)
    if db.engine.dialect.name == "postgresql":
        stmt = stmt.returning(*model.__table__.primary_key.columns)
    db.session.execute(stmt, rows)


def bench_app(database_url: str, instance_dir: Path, content_dir: Path | None = None) -> Flask:
    """The real app bound to a benchmark database (scheduler off, a fixed secret)."""
    from prep import create_app

    instance_dir.mkdir(parents=True, exist_ok=True)
    return create_app({
        "SQLALCHEMY_DATABASE_URI": database_url, "INSTANCE_PATH": str(instance_dir),
        "SECRET_KEY": "bench-secret-key", "SCHEDULER_ENABLED": False,
        "CONTENT_DIR": str(content_dir or REPO_ROOT / "content"),
    })


class _Row:
    """A card's scheduling state, as :mod:`prep.drill.scheduling` reads and writes it."""

    __slots__ = ("state", "step", "stability", "difficulty", "due", "last_review", "reps", "lapses")

    def __init__(self, due: datetime) -> None:
        self.state, self.step, self.stability, self.difficulty = CardState.new, 0, None, None
        self.due, self.last_review, self.reps, self.lapses = due, None, 0, 0

    def copy(self) -> _Row:
        other = _Row(self.due)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        return other


@dataclass
class DrillData:
    users: list[dict[str, Any]] = field(default_factory=list)  # email, id, cards [[id, version], ...]
    questions: int = 0
    cards: int = 0
    review_logs: int = 0
    explanations: int = 0


def _rating(rng: random.Random) -> int:
    return rng.choices((1, 2, 3, 4), RATING_WEIGHTS)[0]


def _simulate(scheduler: Any, start: datetime, now: datetime, cap: int,
              rng: random.Random) -> tuple[list[tuple], _Row]:
    """Play a new card's history from ``start``: each review a little after it fell due, until
    the next one would be after ``now`` (so due dates fall where the ratings put them, some
    overdue) or ``cap`` reviews. Returns the log entries (rating, time, duration, row before,
    state after) and the final row."""
    row = _Row(start)
    t = start
    entries: list[tuple] = []
    while len(entries) < cap and t <= now:
        rating = _rating(rng)
        duration = min(int(rng.lognormvariate(9.2, 0.6)), 600_000)  # ~10 s median thinking time
        before = row.copy()
        outcome = scheduling.review(scheduler, row, rating, t, duration)
        scheduling.apply(row, outcome)
        entries.append((rating, t, duration, before, row.state.value))
        interval = (row.due - t).total_seconds()
        t = row.due + timedelta(seconds=rng.uniform(0, 0.3) * interval + (rng.uniform(0, 3600) if interval > 3600 else 0))
    return entries, row


def _reset_sequences() -> None:
    if db.engine.dialect.name != "postgresql":
        return
    for table in ("users", "questions", "cards", "review_logs"):
        db.session.execute(text(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE((SELECT max(id) FROM {table}), 1))"))


def analyze() -> None:
    """Planner statistics, as a live database would have them (autovacuum / ANALYZE)."""
    db.session.commit()
    if db.engine.dialect.name == "postgresql":
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM ANALYZE"))
    else:
        with db.engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")


def _public_questions(target: int, rng: random.Random) -> list[int]:
    """The shipped content's questions, topped up with posting-style questions to ``target``."""
    ids = list(db.session.scalars(select(Question.id).where(Question.owner_id.is_(None)).order_by(Question.id)))
    linker = current_linker()
    topics = ["AllReduce", "NCCL", "RDMA", "RoCE", "NVLink", "PCIe", "CUDA Graphs", "KV Cache", "ZeRO",
              "流水线并行", "张量并行", "拥塞控制", "GPUDirect", "InfiniBand", "Nsight Systems", "内存泄漏"]
    n = 0
    while len(ids) < target:
        n += 1
        topic = rng.choice(topics)
        phrasing = rng.choice([
            f"请解释{topic}的工作原理及常见的性能瓶颈（第{n}题）",
            f"How would you debug a slow {topic} setup in production? (variant {n})",
            f"在大规模训练中如何优化{topic}相关的通信开销？（{n}）",
            f"What trade-offs does {topic} make, and when would you avoid it? ({n})",
        ])
        question = add_question(phrasing, source=Source.posting, tags=rng.sample(SKILLS, 2))
        link_question(question, linker)
        ids.append(question.id)
    db.session.commit()
    return ids[:target]


def generate_drill(app: Flask, users: int, cards_per_user: int, review_logs: int, now: datetime,
                   seed: int = 7, progress: Any = print) -> DrillData:
    """The drill database: content, ``users`` candidates with ``cards_per_user`` cards each,
    and ``review_logs`` reviews spread over their cards."""
    rng = random.Random(seed)
    random.seed(seed)  # py-fsrs fuzz draws from the random module
    data = DrillData()
    with app.app_context():
        db.create_all()
        report = sync_tree(app.config["CONTENT_DIR"])
        db.session.commit()
        data.explanations = len(report.added)
        question_ids = _public_questions(cards_per_user, rng)
        data.questions = len(question_ids)
        password_hash = hash_password(PASSWORD)
        user_rows = []
        for i in range(1, users + 1):
            user_rows.append({
                "id": i, "email": f"user{i:06d}@bench.example.com", "display_name": f"Bench User {i}",
                "password_hash": password_hash, "role": Role.candidate,
                "created_at": now - timedelta(days=rng.uniform(30, 400)), "session_version": 1,
                "timezone": rng.choice(DRILL_ZONES), "day_start_hour": 4, "new_per_day": 20,
                "reviews_per_day": 200, "desired_retention": 0.9, "learning_steps": "1m 10m",
                "relearning_steps": "10m", "maximum_interval": 36500, "fsrs_parameters": None,
            })
        bulk_insert(User, user_rows)
        db.session.commit()
        scheduler = scheduling.make_scheduler(scheduling.SchedulerSettings())
        per_user = [review_logs // users + (1 if i < review_logs % users else 0) for i in range(users)]
        card_id = log_id = 0
        cards: list[dict[str, Any]] = []
        logs: list[dict[str, Any]] = []

        def flush() -> None:
            bulk_insert(Card, cards)
            bulk_insert(ReviewLog, logs)
            db.session.commit()
            cards.clear()
            logs.clear()

        for u, user in enumerate(user_rows):
            qids = question_ids[:]
            rng.shuffle(qids)
            budget = per_user[u]
            per_day = rng.uniform(5, 20)  # new cards this user introduces a day
            start = now - timedelta(days=cards_per_user / per_day)
            mine = []
            for index, qid in enumerate(qids):
                card_id += 1
                suspended = rng.random() < 0.01
                buried = now + timedelta(hours=rng.uniform(1, 20)) if rng.random() < 0.005 else None
                if budget <= 0:  # a new card, never reviewed
                    added = now - timedelta(days=rng.uniform(0, 60), seconds=index)
                    cards.append({"id": card_id, "user_id": user["id"], "question_id": qid, "state": CardState.new,
                                  "step": 0, "stability": None, "difficulty": None, "due": added,
                                  "last_review": None, "reps": 0, "lapses": 0, "version": 0, "suspended": suspended,
                                  "buried_until": buried, "note": "", "added_at": added})
                    mine.append([card_id, 0])
                    continue
                first = start + timedelta(days=index / per_day, hours=rng.uniform(0, 3))
                entries, final = _simulate(scheduler, first, now, budget, rng)
                budget -= len(entries)
                if not entries:  # introduced "after now": stays new
                    budget = 0
                    added = now - timedelta(days=rng.uniform(0, 2), seconds=index)
                    cards.append({"id": card_id, "user_id": user["id"], "question_id": qid, "state": CardState.new,
                                  "step": 0, "stability": None, "difficulty": None, "due": added,
                                  "last_review": None, "reps": 0, "lapses": 0, "version": 0, "suspended": suspended,
                                  "buried_until": buried, "note": "", "added_at": added})
                    mine.append([card_id, 0])
                    continue
                added = first - timedelta(minutes=rng.uniform(1, 600))
                for version, (rating, at, duration, before, state_after) in enumerate(entries):
                    log_id += 1
                    snap_row = before.copy()
                    if version == 0:
                        snap_row.due = added
                    logs.append({"id": log_id, "card_id": card_id, "user_id": user["id"], "card_version": version,
                                 "rating": rating, "reviewed_at": at, "duration_ms": duration,
                                 "state_before": before.state.value, "state_after": state_after,
                                 "kind": "review", "card_before": scheduling.snapshot(snap_row)})
                row = final
                cards.append({"id": card_id, "user_id": user["id"], "question_id": qid, "state": row.state,
                              "step": row.step, "stability": row.stability, "difficulty": row.difficulty,
                              "due": row.due, "last_review": row.last_review, "reps": row.reps,
                              "lapses": row.lapses, "version": len(entries), "suspended": suspended,
                              "buried_until": buried, "note": "", "added_at": added})
                mine.append([card_id, len(entries)])
            data.users.append({"id": user["id"], "email": user["email"], "cards": mine})
            if len(cards) + len(logs) >= CHUNK:
                flush()
            if (u + 1) % max(1, users // 10) == 0:
                progress(f"  drill data: {u + 1}/{users} users, {card_id} cards, {log_id} review logs")
        flush()
        data.cards, data.review_logs = card_id, log_id
        _reset_sequences()
        analyze()
    return data


def sweep_zones(now: datetime) -> list[str]:
    """Zones whose local time is between 09:05 and 23:30 now (a default 09:00 reminder is due)."""
    out = []
    for zone in SWEEP_ZONE_CANDIDATES:
        local = now.astimezone(ZoneInfo(zone))
        if 9 * 60 + 5 <= local.hour * 60 + local.minute <= 23 * 60 + 30:
            out.append(zone)
    return out


def generate_sweep(app: Flask, users: int, now: datetime, seed: int = 11, progress: Any = print) -> dict[str, Any]:
    """``users`` candidates whose reminder is due now, each with a few due cards and a short history."""
    from prep.reminders.models import ReminderSettings

    rng = random.Random(seed)
    zones = sweep_zones(now)
    with app.app_context():
        db.create_all()
        qids = [add_question(f"Sweep benchmark question {i}: explain ring AllReduce step {i}", source=Source.content).id
                for i in range(10)]
        db.session.commit()
        password_hash = hash_password(PASSWORD)
        card_id = log_id = 0
        batch: dict[str, list[dict[str, Any]]] = {"users": [], "settings": [], "cards": [], "logs": []}

        def flush() -> None:
            bulk_insert(User, batch["users"])
            bulk_insert(ReminderSettings, batch["settings"])
            bulk_insert(Card, batch["cards"])
            bulk_insert(ReviewLog, batch["logs"])
            db.session.commit()
            for rows in batch.values():
                rows.clear()

        for uid in range(1, users + 1):
            batch["users"].append({
                "id": uid, "email": f"sweep{uid:06d}@bench.example.com", "display_name": "",
                "password_hash": password_hash, "role": Role.candidate, "created_at": now - timedelta(days=90),
                "session_version": 1, "timezone": rng.choice(zones), "day_start_hour": 4})
            if rng.random() < 0.2:  # most users keep the defaults and have no settings row
                batch["settings"].append({"user_id": uid, "enabled": True,
                                          "remind_minute": rng.choice([0, 7 * 60, 8 * 60 + 30, 9 * 60]),
                                          "updated_at": now - timedelta(days=3)})
            for k, (state, due) in enumerate([(CardState.review, now - timedelta(hours=rng.uniform(1, 48))),
                                              (CardState.review, now + timedelta(days=rng.uniform(1, 20))),
                                              (CardState.new, now - timedelta(days=5))]):
                card_id += 1
                reviewed = state is CardState.review
                last = due - timedelta(days=3) if reviewed else None
                batch["cards"].append({
                    "id": card_id, "user_id": uid, "question_id": qids[(uid + k) % len(qids)], "state": state,
                    "step": None if reviewed else 0, "stability": 3.2 if reviewed else None,
                    "difficulty": 5.1 if reviewed else None, "due": due, "last_review": last,
                    "reps": 2 if reviewed else 0, "lapses": 0, "version": 2 if reviewed else 0, "suspended": False,
                    "buried_until": None, "note": "", "added_at": now - timedelta(days=30)})
                if reviewed:
                    for version in range(2):
                        log_id += 1
                        at = last - timedelta(days=2 * (1 - version))
                        batch["logs"].append({
                            "id": log_id, "card_id": card_id, "user_id": uid, "card_version": version,
                            "rating": 3, "reviewed_at": at, "duration_ms": 8000,
                            "state_before": "new" if version == 0 else "learning",
                            "state_after": "learning" if version == 0 else "review", "kind": "review",
                            "card_before": {"state": "new" if version == 0 else "learning", "step": 0,
                                            "stability": None if version == 0 else 2.3,
                                            "difficulty": None if version == 0 else 5.0,
                                            "due": at.isoformat(), "last_review": None, "reps": version,
                                            "lapses": 0}})
            if len(batch["users"]) >= 5000:
                flush()
                progress(f"  sweep data: {uid}/{users} users")
        if batch["users"]:
            flush()
        for table in ("users", "cards", "review_logs"):
            if db.engine.dialect.name == "postgresql":
                db.session.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                        f"(SELECT max(id) FROM {table}))"))
        analyze()
    return {"users": users, "cards": card_id, "review_logs": log_id, "zones": zones}


# --- content and postings ----------------------------------------------------------------------

AREAS = ["collectives", "networking", "gpu", "performance", "parallelism"]
TOPICS = ["AllReduce", "AllGather", "ReduceScatter", "AlltoAll", "RDMA verbs", "RoCE", "InfiniBand", "NVLink",
          "PCIe", "GPUDirect", "CUDA streams", "CUDA Graphs", "NCCL tuning", "KV cache", "ZeRO", "FSDP",
          "pipeline parallelism", "tensor parallelism", "expert parallelism", "congestion control",
          "memory hierarchy", "kernel fusion", "Nsight Systems", "perf", "Valgrind"]
ZH_TOPICS = ["集合通信", "拥塞控制", "带宽利用率", "流水线并行", "张量并行", "显存优化", "通信瓶颈", "内存泄漏"]


def explanation_slugs(count: int) -> list[str]:
    return [f"gen-{AREAS[i % len(AREAS)]}-{i:04d}" for i in range(count)]


def write_content_tree(root: Path, count: int, seed: int = 3) -> list[Path]:
    """``count`` explanation files in the issue-4 format, ~6 KB each like the starter pack,
    using every Markdown feature the renderer supports; all pass ``prep content check``."""
    rng = random.Random(seed)
    slugs = explanation_slugs(count)
    paths = []
    for i, slug in enumerate(slugs):
        area = AREAS[i % len(AREAS)]
        topic, other = rng.sample(TOPICS, 2)
        zh = rng.choice(ZH_TOPICS)
        skills = rng.sample(SKILLS, 3)
        related = rng.sample([s for s in slugs if s != slug], 2) if count > 2 else []
        questions = [f"How does {topic} work, and what limits it at scale? (#{i})",
                     f"请解释{topic}与{zh}的关系（第{i}题）",
                     f"When would you pick {topic} over {other}? (#{i})"]
        front = "\n".join([
            "---", f"title: {topic} in depth {i}", f"slug: {slug}",
            f"tags: [{topic}, {other}, {zh}]", f"skills: [{', '.join(skills)}]", "questions:",
            *[f"  - \"{q}\"" for q in questions], f"difficulty: {1 + i % 5}", "lang: en",
            f"related: [{', '.join(related)}]", "---", ""])
        link = f"[[{related[0]}]]" if related else ""
        paragraph = (f"{topic} moves data between ranks; its cost follows the alpha-beta model, "
                     f"$T = \\alpha + \\beta n$, so small messages pay latency and large ones bandwidth. "
                     f"In {zh} terms the same trade-off appears when {other} shares the link. ")
        sections = []
        for s in range(4):
            sections.append(textwrap.dedent(f"""\
                ## Part {s + 1}: {topic} and {other}

                {paragraph * 3}See {link} for the neighbouring idea.[^{s + 1}]

                ### Details {s + 1}

                | Case | Latency | Bandwidth |
                |------|---------|-----------|
                | small | high share | low share |
                | large | low share | ~~wasted~~ used |

                ```python
                def cost(n, alpha={s + 1}e-6, beta=1 / 25e9):
                    return alpha + beta * n
                ```

                $$T_{{ring}} = 2(N-1)\\alpha + 2\\frac{{N-1}}{{N}} n \\beta$$

                !!! note "Interview tip {s + 1}"
                    Say the formula first, then the measurement that confirms it.

                """))
        notes = "\n".join(f"[^{s + 1}]: Footnote {s + 1} on {topic}." for s in range(4))
        path = root / area / f"{slug}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(front + "\n".join(sections) + notes + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def posting_texts(count: int, seed: int = 5) -> list[str]:
    """Job-board pages like the shipped samples (Chinese and English), each with new questions."""
    from prep.postings.service import SAMPLES_DIR

    samples = [p.read_text(encoding="utf-8") for p in sorted(SAMPLES_DIR.glob("*.txt"))]
    rng = random.Random(seed)
    out = []
    for i in range(count):
        base = samples[i % len(samples)]
        topic, other = rng.sample(TOPICS, 2)
        extra = "\n".join([
            f"- 请解释{topic}在千卡集群中的扩展瓶颈（{i}）",
            f"- How would you measure {other} bandwidth utilisation on 8 GPUs? ({i})",
            f"- {rng.choice(ZH_TOPICS)}问题如何定位与优化？（{i}）",
        ])
        out.append(base.replace("面试指南\n", f"面试指南\n{extra}\n", 1) if "面试指南\n" in base
                   else base + f"\nInterview questions\n{extra}\n")
    return out
