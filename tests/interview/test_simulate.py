"""Interview mode against the simulated learner (prep.interview.simulate) on small deterministic cases."""
from __future__ import annotations

import pytest

from prep.interview import simulate


@pytest.mark.parametrize("profile", ["as modelled", "strong"])
def test_interview_mode_reaches_its_target_with_fewer_reviews_than_cram(profile: str) -> None:
    mode = simulate.run_cell(profile, 7, 60, "interview")
    cram = simulate.run_cell(profile, 7, 60, "cram")
    assert mode.on_track and mode.predicted >= 0.9
    assert mode.recalled >= 0.9 - 0.03
    assert mode.reviews <= cram.reviews
    assert mode.last_predicted is not None and mode.last_predicted >= 0.9 - 0.03  # the day before: still on track


def test_the_shortfall_message_matches_what_the_learner_recalls() -> None:
    mode = simulate.run_cell("as modelled", 7, 200, "interview")
    assert not mode.on_track and mode.minutes_needed is not None and mode.minutes_needed > 20
    assert mode.recalled == pytest.approx(mode.predicted, abs=0.03)
    assert f"{mode.predicted:.0%}" in mode.message


def test_cells_are_deterministic() -> None:
    assert simulate.run_cell("strong", 7, 60, "plain") == simulate.run_cell("strong", 7, 60, "plain")


def _cell(strategy: str, seed_recalled: float, *, predicted: float | None = None, on_track: bool | None = None,
          reviews: int = 100, last: float | None = None) -> simulate.Cell:
    return simulate.Cell(profile="fast forgetter", horizon=7, questions=60, strategy=strategy,
                         recalled=seed_recalled, reviews=reviews, peak_minutes=20.0, predicted=predicted,
                         on_track=on_track, last_predicted=last)


def test_the_seeds_table_gives_each_cells_mean_spread_and_failures() -> None:
    from bench import interview as bench_interview

    by_seed = {
        1: [_cell("interview", 0.80, predicted=0.81, on_track=False, last=0.80), _cell("cram", 0.9, reviews=300)],
        2: [_cell("interview", 0.70, predicted=0.80, on_track=False, last=0.74), _cell("cram", 0.9, reviews=300)],
        3: [_cell("interview", 0.86, predicted=0.91, on_track=True, reviews=400, last=0.87),
            _cell("cram", 0.9, reviews=300)],
    }
    text = bench_interview.seeds_table(by_seed, 0.9)
    row = next(line for line in text.splitlines() if line.startswith("| fast forgetter | 7 | 60 |"))
    assert "0.787 (0.700..0.860)" in row          # recalled: mean (min..max)
    assert "1/3" in row                           # on track in one seed
    assert "-0.053 (-0.100..-0.010)" in row       # recalled - said
    assert "-0.017 (-0.040..+0.000)" in row       # recalled - what the last plan said
    assert row.endswith("| 2/3 |")               # seed 2 off by 0.10; seed 3 on track, more answers than cram
    summary = next(line for line in text.splitlines() if line.startswith("| fast forgetter | 3 |"))
    assert "| 0.053 | -0.100 | 2 | 0.017, 1 | 2 |" in summary


def test_the_fill_goes_on_with_what_the_plan_books_when_the_drill_runs_out() -> None:
    """As the app does (``service.after_rating``): the session's bookings done with minutes left,
    the plan made again books more of the same day, up to the budget."""
    plain = simulate.run_cell("as modelled", 7, 200, "interview")
    filled = simulate.run_cell("as modelled", 7, 200, "interview", fill=True)
    assert filled.predicted == plain.predicted  # the day-0 plan is the same
    assert filled.reviews > plain.reviews
    assert filled.peak_minutes <= 20 + 3  # the budget stop: no card started once the day's minutes are used
