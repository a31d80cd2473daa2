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


def test_the_shortfall_message_matches_what_the_learner_recalls() -> None:
    mode = simulate.run_cell("fast forgetter", 7, 60, "interview")
    assert not mode.on_track and mode.minutes_needed is not None and mode.minutes_needed > 20
    assert mode.recalled == pytest.approx(mode.predicted, abs=0.03)
    assert f"{mode.predicted:.0%}" in mode.message


def test_cells_are_deterministic() -> None:
    assert simulate.run_cell("strong", 7, 60, "plain") == simulate.run_cell("strong", 7, 60, "plain")
