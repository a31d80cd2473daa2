"""Interview mode through the app's own code path, on SQLite and PostgreSQL.

:mod:`bench.interview` runs the pure planner against the simulated learner. This runs the same
learner through what a candidate's browser drives: an account (with the parameters prep's
optimiser fitted to the learner's history), a posting with an interview date and its questions,
interview mode's settings saved through :func:`prep.interview.service.save_settings` (which plans
and stores the bookings with the ORM), then each day a drill session: the plan made again on the
day's first request (:func:`service.refresh_if_stale`), cards taken from the drill's queue
(:func:`prep.drill.queue_queries.next_card`, which reads the bookings) and rated with
:func:`prep.drill.rating.rate` until the queue is empty, each rating followed by interview mode's
reaction to it (:func:`service.after_rating`, the plan made again at the session's end, or when
the day's budget is used). The learner's 28-day history goes through the drill too,
so seconds per answer, the calibration and the answers per new card come from stored review logs.

Only interview mode runs here: ``plain`` and ``cram`` do not use the bookings, and come from the
pure simulation (the same learner and seed) in the table.

```
.venv/bin/python -m bench.interview_db --db sqlite --db postgresql --json bench/results/interview_db.json
.venv/bin/python -m bench.interview_db --db sqlite --profiles strong --horizons 7 --sizes 60
```
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time as clock
from dataclasses import asdict, dataclass
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from statistics import fmean

import fsrs
from sqlalchemy import select

from bench.databases import throwaway_database
from bench.interview import failed_verdicts
from prep import create_app
from prep.accounts.service import create_user
from prep.drill import queue_queries, rating, scheduling
from prep.drill.cards import add_to_study
from prep.drill.models import Card
from prep.drill.planned import bookings
from prep.extensions import db
from prep.interview import jobs, service, simulate
from prep.postings.models import Posting, PostingQuestion
from prep.questions.models import Source
from prep.questions.service import add_question

START = date(2026, 3, 2)


@dataclass(frozen=True)
class DbCell:
    database: str
    profile: str
    horizon: int
    questions: int
    recalled: float          # the learner's share recalled on the day (interview questions)
    reviews: int             # answers to interview questions
    other_reviews: int       # answers to the history's questions (plain FSRS, due in the period)
    peak_minutes: float      # most minutes in one day, all answers
    peak_interview_minutes: float  # most minutes in one day on interview questions
    predicted: float         # the first plan's predicted recall on the day
    on_track: bool
    minutes_needed: float | None
    bookings_first_day: int  # bookings stored by the first plan


class _Learner:
    def __init__(self, profile: str, seed: str) -> None:
        self.learner = simulate.PROFILES[profile]
        self.truth = simulate._truth(self.learner)
        self.rng = random.Random(seed)
        self.memory: dict[int, fsrs.Card] = {}

    def answer(self, card_id: int, now: datetime) -> tuple[int, int]:
        """(rating, duration ms) of the learner answering this card at ``now``."""
        truth = self.memory.get(card_id)
        if truth is None:
            rating = self.rng.choices((1, 2, 3, 4), weights=self.learner.first_rating_weights)[0]
            truth = fsrs.Card(card_id=card_id)
        else:
            recalled = self.rng.random() < self.truth.get_card_retrievability(truth, now)
            rating = self.rng.choices((2, 3, 4), weights=self.learner.pass_rating_weights)[0] if recalled else 1
        self.memory[card_id], _ = self.truth.review_card(truth, scheduling.RATINGS[rating], now)
        return rating, self.rng.randint(6000, 45000) + (15000 if rating == 1 else 0)

    def recall(self, card_id: int, at: datetime) -> float:
        truth = self.memory.get(card_id)
        return self.truth.get_card_retrievability(truth, at) if truth is not None else 0.0


def _session(user, learner: _Learner, start: datetime, watched: set[int]) -> tuple[float, float, int, int]:
    """Drill until the queue is empty, each rating followed by interview mode's reaction to it
    (``service.after_rating``, called by the rating: the plan made again at the session's end or when the day's budget
    is used up); (minutes, minutes on watched cards, answers on watched, others)."""
    t = start
    minutes = watched_minutes = 0.0
    answers = others = 0
    for _ in range(5000):
        card = queue_queries.next_card(user, t)
        if card is None:
            break
        t = max(t, card.due) if card.state.value in ("learning", "relearning") else t
        grade, duration = learner.answer(card.id, t)
        rating.rate(user, rating.Answer(card.id, card.version, grade, duration), t)  # after_rating runs with it
        db.session.commit()
        t += timedelta(milliseconds=duration)
        minutes += duration / 60000
        if card.id in watched:
            watched_minutes += duration / 60000
            answers += 1
        else:
            others += 1
    return minutes, watched_minutes, answers, others


def run_cell(database: str, profile: str, horizon: int, questions: int, *, target: float = 0.9,
             budget: int = 20, seed: int = 1, new_per_day: int = 20) -> DbCell:
    """One cell; needs an app context on an empty schema (a new account per cell)."""
    label = f"{profile}-{horizon}-{questions}-{seed}"
    learner = _Learner(profile, f"db-{label}")
    fitted = simulate.fitted_settings(profile, START, seed)
    user = create_user(f"{label.replace(' ', '-')}@example.com", "a long password 123")
    user.timezone, user.day_start_hour, user.reviews_per_day, user.new_per_day = "UTC", 4, 9999, 5
    user.fsrs_parameters = json.dumps(list(fitted.parameters)) if fitted.parameters else None
    history_q = [add_question(f"History question {i} of {label}?", source=Source.content, owner_id=user.id).id
                 for i in range(simulate.HISTORY_QUESTIONS)]
    db.session.commit()
    add_to_study(user, history_q, datetime.combine(START - timedelta(days=simulate.HISTORY_DAYS + 1),
                                                          time(12), tzinfo=timezone.utc))
    db.session.commit()
    for day in range(-simulate.HISTORY_DAYS, 0):
        _session(user, learner, datetime.combine(START + timedelta(days=day), time(simulate.SESSION_HOUR),
                                                 tzinfo=timezone.utc), set())
    # The app's default new-card limit: the plan holds the asked questions it introduces later
    # (they are not ordinary new cards), so interview mode alone decides when they come.
    user.new_per_day = new_per_day
    asked = [add_question(f"Interview question {i} of {label}?", source=Source.content, owner_id=user.id).id
             for i in range(questions)]
    interview_day = START + timedelta(days=horizon)
    posting = Posting(user_id=user.id, company="Acme", title=label, raw_text="x", content_hash=f"h-{label}",
                      interview_date=interview_day)
    db.session.add(posting)
    db.session.flush()
    db.session.add_all(PostingQuestion(posting_id=posting.id, question_id=q, position=i, text=None)
                       for i, q in enumerate(asked))
    db.session.commit()
    first_at = datetime.combine(START, time(simulate.SESSION_HOUR - 1), tzinfo=timezone.utc)
    service.save_settings(user, enabled=True, target=target, budget_minutes=budget, now=first_at)
    db.session.commit()
    found = service.plan_for(user, first_at)
    forecast = found.forecast(posting.id)
    shortfall = found.plan.shortfall
    first_bookings = len(bookings(user.id, START))
    per_day: list[float] = []
    per_day_interview: list[float] = []
    answers = others = 0
    for day in range(horizon):
        now = datetime.combine(START + timedelta(days=day), time(simulate.SESSION_HOUR), tzinfo=timezone.utc)
        jobs.make_and_store(user.id, now)  # the day's first plan, as the sweep makes it (commits)
        watched = set(db.session.scalars(select(Card.id).where(Card.user_id == user.id,
                                                                 Card.question_id.in_(asked))))
        minutes, on_interview, n, other = _session(user, learner, now, watched)  # plans as the ratings do
        per_day.append(minutes)
        per_day_interview.append(on_interview)
        answers += n
        others += other
    at = datetime.combine(interview_day, time(simulate.INTERVIEW_HOUR), tzinfo=timezone.utc)
    cards = dict(db.session.execute(select(Card.question_id, Card.id).where(Card.user_id == user.id)).all())
    recalled = fmean(learner.recall(cards[q], at) if q in cards else 0.0 for q in asked)
    return DbCell(database=database, profile=profile, horizon=horizon, questions=questions,
                  recalled=round(recalled, 3), reviews=answers, other_reviews=others,
                  peak_minutes=round(max(per_day, default=0.0), 1),
                  peak_interview_minutes=round(max(per_day_interview, default=0.0), 1),
                  predicted=round(forecast.recall_on_day, 3), on_track=shortfall is None,
                  minutes_needed=shortfall.minutes_needed if shortfall else None,
                  bookings_first_day=first_bookings)


def run(database: str, profiles, horizons, sizes, *, target: float, budget: int, new_per_day: int = 20) -> list[DbCell]:
    with tempfile.TemporaryDirectory() as tmp, throwaway_database(database, Path(tmp), "interview") as url:
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "INSTANCE_PATH": str(Path(tmp) / "instance"),
                          "SECRET_KEY": "bench", "CONTENT_DIR": str(Path(tmp) / "content"),
                          "SCHEDULER_ENABLED": False, "TESTING": True,
                          "PLAN_RUNNER": "inline"})
        with app.app_context():
            db.create_all()
            cells = [run_cell(database, p, h, n, target=target, budget=budget, new_per_day=new_per_day)
                     for p in profiles for h in horizons for n in sizes]
            db.session.remove()
            db.engine.dispose()
        return cells


def table(cells: list[DbCell], pure: dict[tuple, dict[str, simulate.Cell]], target: float) -> str:
    rows = ["| database | learner | days | questions | plain (pure): recalled / reviews | cram (pure): recalled / "
            "reviews | interview (app path): recalled / reviews / other reviews / peak min (interview only) "
            "| plan said on day 0 | verdict |", "|---|---|---|---|---|---|---|---|---|"]
    for c in cells:
        strategies = pure.get((c.profile, c.horizon, c.questions), {})
        plain, cram = strategies.get("plain"), strategies.get("cram")
        said = (f"on track ({c.predicted:.3f})" if c.on_track else
                f"short: best {c.predicted:.3f}, needs "
                + (f"{c.minutes_needed:g} min/day" if c.minutes_needed else "more days"))
        if c.on_track:
            verdict = ("target met" if c.recalled >= target - 0.03 else "MISSED target") + (
                "" if cram is None or c.reviews <= cram.reviews else ", MORE reviews than cram")
        else:
            off = c.recalled - c.predicted
            verdict = "shortfall matches" if abs(off) <= 0.03 else f"shortfall off by {off:+.3f}"
        rows.append(f"| {c.database} | {c.profile} | {c.horizon} | {c.questions} | "
                    f"{plain.recalled:.3f} / {plain.reviews} | {cram.recalled:.3f} / {cram.reviews} | "
                    f"{c.recalled:.3f} / {c.reviews} / {c.other_reviews} / {c.peak_minutes:g} "
                    f"({c.peak_interview_minutes:g}) | {said} | {verdict} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Interview mode through the app's code path.")
    parser.add_argument("--db", action="append", choices=["sqlite", "postgresql"], default=None)
    parser.add_argument("--profiles", nargs="*", default=list(simulate.PROFILES))
    parser.add_argument("--horizons", nargs="*", type=int, default=[7, 14, 30])
    parser.add_argument("--sizes", nargs="*", type=int, default=[60, 200])
    parser.add_argument("--target", type=float, default=0.9)
    parser.add_argument("--budget", type=int, default=20)
    parser.add_argument("--new-per-day", type=int, default=20,
                        help="the candidate's new-card limit during the interview period (default: the app's 20)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a verdict fails (target missed, more reviews than cram, "
                             "or a shortfall more than 0.03 off what the learner recalls)")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)
    started = clock.monotonic()
    cells: list[DbCell] = []
    for database in args.db or ["sqlite"]:
        cells += run(database, args.profiles, args.horizons, args.sizes, target=args.target, budget=args.budget,
                     new_per_day=args.new_per_day)
    pure: dict[tuple, dict[str, simulate.Cell]] = {}
    for p in args.profiles:
        for h in args.horizons:
            for n in args.sizes:
                pure[(p, h, n)] = {s: simulate.run_cell(p, h, n, s, target=args.target,
                                                        budget_minutes=args.budget) for s in ("plain", "cram")}
    text = table(cells, pure, args.target)
    sys.stdout.write(text + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps({"target": args.target, "budget_minutes": args.budget,
                                               "cells": [asdict(c) for c in cells]}, indent=1), encoding="utf-8")
    sys.stderr.write(f"{len(cells)} cells in {clock.monotonic() - started:.0f} s\n")
    failed = failed_verdicts(text)
    sys.stderr.write(f"{failed} verdicts failed\n")
    return 1 if args.strict and failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
