"""The rating that ticked key points suggest (prep.drill.self_grading, pure) and the record of
the ticks kept with a review."""
from __future__ import annotations

import pytest

from prep.drill.self_grading import (AGAIN, EASY, GOOD, HARD, QUICK_MS_PER_POINT, quick_ms, suggest_rating,
                                     suggestion_table, ticks_record)


@pytest.mark.parametrize(("ticked", "total", "expected"), [
    (3, 3, GOOD), (2, 3, HARD), (1, 3, AGAIN), (0, 3, AGAIN),
    (4, 4, GOOD), (3, 4, HARD), (2, 4, AGAIN),   # half is not most
    (6, 6, GOOD), (4, 6, HARD), (3, 6, AGAIN), (5, 5, GOOD), (3, 5, HARD), (2, 5, AGAIN),
])
def test_all_most_few(ticked: int, total: int, expected: int) -> None:
    assert suggest_rating(ticked, total) == expected


def test_all_quickly_is_easy_and_the_limit_grows_with_the_points() -> None:
    assert quick_ms(4) == 4 * QUICK_MS_PER_POINT
    assert suggest_rating(4, 4, elapsed_ms=quick_ms(4)) == EASY
    assert suggest_rating(4, 4, elapsed_ms=quick_ms(4) + 1) == GOOD
    assert suggest_rating(4, 4, elapsed_ms=None) == GOOD       # unknown time is never quick
    assert suggest_rating(4, 4, elapsed_ms=-5) == GOOD         # a clock that went back is not quick
    assert suggest_rating(3, 4, elapsed_ms=0) == HARD          # quick but not all: no bonus


def test_no_points_no_suggestion_and_counts_are_clamped() -> None:
    assert suggest_rating(0, 0) is None
    assert suggest_rating(9, 3) == GOOD and suggest_rating(-1, 3) == AGAIN


def test_the_table_the_page_carries_is_the_rule() -> None:
    for total in range(1, 7):
        table = suggestion_table(total)
        assert table.slow == [suggest_rating(k, total) for k in range(total + 1)]
        assert table.quick == [suggest_rating(k, total, 0) for k in range(total + 1)]
        assert table.quick_ms == quick_ms(total)
    assert suggestion_table(3).slow == [AGAIN, AGAIN, HARD, GOOD]
    assert suggestion_table(3).quick == [AGAIN, AGAIN, HARD, EASY]


def test_ticks_record_keeps_valid_distinct_indices_in_order() -> None:
    assert ticks_record("ring-allreduce", "en", 4, [3, 0, 3, 7, -1]) == {
        "slug": "ring-allreduce", "lang": "en", "total": 4, "ticked": [0, 3]}
    assert ticks_record("x", "zh", 3, []) == {"slug": "x", "lang": "zh", "total": 3, "ticked": []}
    assert ticks_record("x", "en", 0, [0]) is None
