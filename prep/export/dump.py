"""Build a user's export: JSON (schema in docs/export-schema.md) and CSV (cards.csv + reviews.csv in a zip).

Everything is read for one user only; the caller passes that user. Two queries for the data
(cards with their questions, then reviews), whatever the number of cards.
"""
from __future__ import annotations

import csv
import io
import json
import zipfile
from collections import defaultdict
from datetime import datetime
from typing import Any

from sqlalchemy import select

from ..accounts.models import User
from ..drill.models import Card, ReviewLog
from ..drill import scheduling
from ..drill.scheduling import RATING_NAMES
from ..extensions import db

FORMAT = "prep-export"
VERSION = 1
SETTINGS = ("timezone", "day_start_hour", "new_per_day", "reviews_per_day", "desired_retention",
            "learning_steps", "relearning_steps", "maximum_interval")
CARD_CSV_FIELDS = ("card_id", "question", "lang", "tags", "own_question", "note", "state", "step", "stability",
                   "difficulty", "due", "last_review", "reps", "lapses", "version", "suspended", "buried_until",
                   "added_at")
REVIEW_CSV_FIELDS = ("review_id", "card_id", "question", "reviewed_at", "rating", "rating_name", "duration_ms",
                     "state_before", "state_after", "kind", "card_version", "key_points_of",
                     "key_points_ticked", "key_points_total")


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def user_settings(user: User) -> dict[str, Any]:
    out: dict[str, Any] = {key: getattr(user, key) for key in SETTINGS}
    # The parameters the scheduler uses: stored ones it cannot use (a row written past the
    # optimiser) are exported as null, the defaults it falls back to.
    params = scheduling.stored_parameters(user.fsrs_parameters)
    out["fsrs_parameters"] = list(params) if params is not None else None
    return out


def _cards(user: User) -> list[Card]:
    return list(db.session.scalars(select(Card).where(Card.user_id == user.id).order_by(Card.added_at, Card.id)))


def _reviews(user: User) -> dict[int, list[ReviewLog]]:
    by_card: dict[int, list[ReviewLog]] = defaultdict(list)
    for log in db.session.scalars(select(ReviewLog).where(ReviewLog.user_id == user.id)
                                  .order_by(ReviewLog.reviewed_at, ReviewLog.id)):
        by_card[log.card_id].append(log)
    return by_card


def card_record(card: Card, reviews: list[ReviewLog]) -> dict[str, Any]:
    q = card.question
    return {
        "question": {"text": q.text, "lang": q.lang, "tags": [t.name for t in q.tags], "own": q.owner_id is not None},
        "note": card.note,
        "state": card.state.value,
        "step": card.step,
        "stability": card.stability,
        "difficulty": card.difficulty,
        "due": _iso(card.due),
        "last_review": _iso(card.last_review),
        "reps": card.reps,
        "lapses": card.lapses,
        "version": card.version,
        "suspended": card.suspended,
        "buried_until": _iso(card.buried_until),
        "added_at": _iso(card.added_at),
        "reviews": [review_record(r) for r in reviews],
    }


def review_record(log: ReviewLog) -> dict[str, Any]:
    return {
        "card_version": log.card_version,
        "rating": log.rating,
        "reviewed_at": _iso(log.reviewed_at),
        "duration_ms": log.duration_ms,
        "state_before": log.state_before,
        "state_after": log.state_after,
        "kind": log.kind,
        "card_before": log.card_before,
        # The key points ticked for this rating: {"slug", "lang", "total", "ticked": [indices]} or null.
        "key_points": log.key_points_ticked,
    }


def _ticks_cells(ticks: dict | None) -> dict[str, Any]:
    """The review's key-point ticks as CSV cells: the explanation (slug.lang), the ticked
    points numbered from 1 (``1; 3``) and how many there were; empty without key points."""
    if not ticks:
        return {"key_points_of": "", "key_points_ticked": "", "key_points_total": ""}
    return {"key_points_of": f"{ticks.get('slug', '')}.{ticks.get('lang', '')}",
            "key_points_ticked": "; ".join(str(i + 1) for i in ticks.get("ticked", [])),
            "key_points_total": ticks.get("total", "")}


def build_export(user: User, now: datetime) -> dict[str, Any]:
    """The whole export of ``user`` as JSON-ready data."""
    reviews = _reviews(user)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": now.isoformat(),
        "user": {"email": user.email, "display_name": user.display_name, "settings": user_settings(user)},
        "cards": [card_record(c, reviews.get(c.id, [])) for c in _cards(user)],
    }


def export_json(user: User, now: datetime) -> bytes:
    return json.dumps(build_export(user, now), ensure_ascii=False, indent=1).encode("utf-8")


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def inert_cell(value: Any) -> Any:
    """A text cell a spreadsheet will not run: one starting with =, +, -, @, tab or CR (a formula
    such as =HYPERLINK(...) planted in a shared question) gets a leading apostrophe. Numbers are
    left as they are."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _csv(rows: list[dict[str, Any]], fields: tuple[str, ...]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: inert_cell(value) for key, value in row.items()} for row in rows)
    return buf.getvalue()


def export_csv_zip(user: User, now: datetime) -> bytes:
    """A zip with cards.csv and reviews.csv (UTF-8 with BOM, so spreadsheets read Chinese right)."""
    cards = _cards(user)
    reviews = _reviews(user)
    card_rows, review_rows = [], []
    for c in cards:
        q = c.question
        card_rows.append({
            "card_id": c.id, "question": q.text, "lang": q.lang, "tags": "; ".join(t.name for t in q.tags),
            "own_question": int(q.owner_id is not None), "note": c.note, "state": c.state.value, "step": c.step,
            "stability": c.stability, "difficulty": c.difficulty, "due": _iso(c.due),
            "last_review": _iso(c.last_review), "reps": c.reps, "lapses": c.lapses, "version": c.version,
            "suspended": int(c.suspended), "buried_until": _iso(c.buried_until), "added_at": _iso(c.added_at)})
        for r in reviews.get(c.id, []):
            review_rows.append({
                "review_id": r.id, "card_id": c.id, "question": q.text, "reviewed_at": _iso(r.reviewed_at),
                "rating": r.rating, "rating_name": RATING_NAMES.get(r.rating, ""), "duration_ms": r.duration_ms,
                "state_before": r.state_before, "state_after": r.state_after, "kind": r.kind,
                "card_version": r.card_version, **_ticks_cells(r.key_points_ticked)})
    review_rows.sort(key=lambda r: (r["reviewed_at"], r["review_id"]))
    buf = io.BytesIO()
    stamp = now.timetuple()[:6]
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in (("cards.csv", _csv(card_rows, CARD_CSV_FIELDS)),
                           ("reviews.csv", _csv(review_rows, REVIEW_CSV_FIELDS))):
            zf.writestr(zipfile.ZipInfo(name, date_time=stamp), "\ufeff" + text, compress_type=zipfile.ZIP_DEFLATED)
    return buf.getvalue()
