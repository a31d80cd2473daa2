"""Grading yourself against an explanation's key points: the rating the ticks suggest, and the
record of the ticks kept with the review log.

The rule: every point ticked → Good, and Easy when that took no longer than
:data:`QUICK_MS_PER_POINT` per point from the card being shown; most of them (more than half)
→ Hard; half or fewer → Again. The candidate confirms the suggestion (or picks another rating).

Pure module: no Flask, no database.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4

#: "All within a quick time": at most this long per key point, from the card shown to the last tick.
QUICK_MS_PER_POINT = 10_000
#: The most key points a page has (prep.content.front_matter.MAX_KEY_POINTS).
MAX_POINTS = 6


def quick_ms(total: int) -> int:
    """How soon (ms after the card was shown) ticking all ``total`` points counts as quick."""
    return QUICK_MS_PER_POINT * max(total, 0)


def suggest_rating(ticked: int, total: int, elapsed_ms: int | None = None) -> int | None:
    """The rating ``ticked`` of ``total`` key points suggest (1–4), or None without key points.

    ``elapsed_ms``: time from the card being shown to the last tick; None (unknown) never
    counts as quick."""
    if total <= 0:
        return None
    ticked = max(0, min(ticked, total))
    if ticked == total:
        quick = elapsed_ms is not None and 0 <= elapsed_ms <= quick_ms(total)
        return EASY if quick else GOOD
    if 2 * ticked > total:
        return HARD
    return AGAIN


@dataclass(frozen=True)
class Suggestions:
    """The rule as a table the drill's script looks up (so the rule lives here only):
    ``slow[k]`` / ``quick[k]`` is the rating for ``k`` ticks, ``quick_ms`` the quick limit."""

    slow: list[int]
    quick: list[int]
    quick_ms: int


def suggestion_table(total: int) -> Suggestions:
    """:func:`suggest_rating` for every tick count 0..``total``, slow and quick."""
    slow = [suggest_rating(k, total) or AGAIN for k in range(total + 1)]
    quick = [suggest_rating(k, total, 0) or AGAIN for k in range(total + 1)]
    return Suggestions(slow=slow, quick=quick, quick_ms=quick_ms(total))


def ticks_record(slug: str, lang: str, total: int, ticked: Iterable[int]) -> dict | None:
    """What the review log keeps: which of the ``total`` points of explanation ``slug``/``lang``
    were ticked (indices, sorted, out-of-range ones dropped); None when there were no points."""
    if total <= 0:
        return None
    indices = sorted({i for i in ticked if isinstance(i, int) and 0 <= i < min(total, MAX_POINTS)})
    return {"slug": slug, "lang": lang, "total": total, "ticked": indices}
