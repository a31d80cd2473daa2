"""Interview mode's evaluation through the app's own code path (bench.interview_db): the planner,
the bookings stored with the ORM, the drill's queue reading them and its ratings, the plan made
again on each new study day and after each session, on SQLite and PostgreSQL (a reduced cell)."""
from __future__ import annotations

from bench import interview_db
from prep.extensions import db


def test_a_small_interview_through_the_drill_reaches_its_target(app) -> None:
    cell = interview_db.run_cell(db.engine.dialect.name, "strong", 7, 20)
    assert cell.bookings_first_day > 0 and cell.reviews > 0
    assert cell.on_track and cell.predicted >= 0.9
    assert cell.recalled >= 0.9 - 0.03
    # every interview question was introduced by the plan (new cards are off after the history)
    assert cell.reviews >= 2 * 20
