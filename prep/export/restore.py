"""Import a JSON export (see docs/export-schema.md): cards and their full review history.

Everything is checked first and every problem reported together; only a clean file changes
anything, inside the caller's one transaction. Questions are matched by normalised text (a
public question, or one of the user's own); a missing one becomes the user's own question.
Cards for questions the user already studies are left as they are and counted as skipped, so
importing the same file twice changes nothing the second time.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from ..accounts.models import User
from ..drill.models import Card, CardState, ReviewLog
from ..extensions import db
from ..questions.card_merge import merge_duplicate_cards
from ..questions import service as questions_service
from ..questions.models import Question, Source
from ..questions.normalize import guess_lang, normalize_question
from ..questions.service import get_or_create_tags
from .dump import SETTINGS
from .file_checks import (MAX_QUESTION_TAG_CHARS, MAX_QUESTION_TAGS, MIN_QUESTION_CHARS, SNAPSHOT_KEYS, FileChecker,
                          ImportProblem, parse)

__all__ = ["ImportProblem", "ImportReport", "import_export", "parse"]  # a restore: parse, then import_export


@dataclass
class ImportReport:
    """What a restore added, and the cards it skipped (already studied)."""

    cards_added: int = 0
    reviews_added: int = 0
    questions_created: int = 0
    skipped: list[str] = field(default_factory=list)  # question texts already in the user's study
    settings_restored: bool = False


def _snapshot(snap: dict[str, Any]) -> dict[str, Any]:
    return {key: snap[key] for key in SNAPSHOT_KEYS if key in snap}


def _t(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _find_question(user: User, text: str, own_first: bool) -> Question | None:
    norm = normalize_question(text)
    rows = db.session.scalars(select(Question).where(
        Question.norm == norm, Question.visible_to(user.id))).all()
    if not rows:
        return None
    rows = sorted(rows, key=lambda q: ((q.owner_id is None) == own_first, q.id))
    return rows[0]


def _new_question_problems(check: FileChecker, where: str, q: dict[str, Any]) -> None:
    """A question the import creates is the user's own: held to the question form's limits."""
    if len(q["text"].strip()) < MIN_QUESTION_CHARS:
        check.fail(f"{where}.question.text",
                   _("a new question needs at least %(num)s characters", num=MIN_QUESTION_CHARS))
    tags = [t.strip() for t in q.get("tags", []) if t.strip()]
    if len(tags) > MAX_QUESTION_TAGS or any(len(t) > MAX_QUESTION_TAG_CHARS for t in tags):
        check.fail(f"{where}.question.tags",
                   _("a new question takes at most %(tags)s tags of at most %(chars)s characters",
                     tags=MAX_QUESTION_TAGS, chars=MAX_QUESTION_TAG_CHARS))


def import_export(user: User, data: dict[str, Any], *, restore_settings: bool = True) -> ImportReport:
    """Add the cards and reviews of a parsed export (see :func:`parse`) to ``user``; flushes only.

    First every card's question is looked up (no write): questions the file would create are
    held to the question form's limits and to the user's own-question limit, and
    :class:`ImportProblem` is raised before anything is added."""
    report = ImportReport()
    check = FileChecker(None)  # question limits only: no time to bound
    found: dict[str, Question | None] = {}
    own = int(db.session.scalar(select(func.count(Question.id)).where(Question.owner_id == user.id)) or 0)
    for i, c in enumerate(data["cards"]):
        q = c["question"]
        norm = normalize_question(q["text"])
        if norm in found:
            continue
        found[norm] = _find_question(user, q["text"], bool(q.get("own")))
        if found[norm] is None:
            _new_question_problems(check, f"cards[{i}]", q)
            own += 1
            if own > questions_service.MAX_OWN_QUESTIONS:
                check.fail(f"cards[{i}].question", _("would be your own question number %(num)s; you may have at most "
                                                     "%(max)s own questions", num=f"{own:,}",
                                                     max=f"{questions_service.MAX_OWN_QUESTIONS:,}"))
                break
    if check.problems:
        raise ImportProblem(check.problems)
    studied = set(db.session.scalars(select(Card.question_id).where(Card.user_id == user.id)))
    settings = (data.get("user") or {}).get("settings")
    if restore_settings and isinstance(settings, dict):
        for key in SETTINGS:
            if key in settings:
                setattr(user, key, settings[key])
        if "fsrs_parameters" in settings:
            params = settings["fsrs_parameters"]
            user.fsrs_parameters = json.dumps(params) if params is not None else None
        report.settings_restored = True
    pending: list[tuple[Card, list[dict[str, Any]]]] = []
    for c in data["cards"]:
        q = c["question"]
        norm = normalize_question(q["text"])
        question = found[norm]
        if question is None:
            text = q["text"].strip()
            lang = q.get("lang") if q.get("lang") in ("en", "zh") else guess_lang(text)
            question = Question(text=text, norm=norm, lang=lang, source=Source.user, owner_id=user.id)
            question.tags = get_or_create_tags(q.get("tags", []))
            db.session.add(question)
            db.session.flush()
            found[norm] = question
            report.questions_created += 1
        if question.id in studied:
            report.skipped.append(q["text"])
            continue
        studied.add(question.id)
        card = Card(user_id=user.id, question_id=question.id, state=CardState(c["state"]), step=c.get("step"),
                    stability=c.get("stability"), difficulty=c.get("difficulty"), due=_t(c["due"]),
                    last_review=_t(c.get("last_review")), reps=c["reps"], lapses=c["lapses"], version=c["version"],
                    suspended=c["suspended"], buried_until=_t(c.get("buried_until")), note=c.get("note", ""),
                    added_at=_t(c["added_at"]))
        db.session.add(card)
        pending.append((card, c.get("reviews", [])))
    db.session.flush()
    for card, reviews in pending:
        db.session.add_all(ReviewLog(
            card_id=card.id, user_id=user.id, card_version=r["card_version"], rating=r["rating"],
            reviewed_at=_t(r["reviewed_at"]), duration_ms=r["duration_ms"], state_before=r["state_before"],
            state_after=r["state_after"], kind=r.get("kind", "review"), card_before=_snapshot(r["card_before"]),
            key_points_ticked=r.get("key_points"))
            for r in reviews)
        report.cards_added += 1
        report.reviews_added += len(reviews)
    db.session.flush()
    # A restored card on a translation of a studied question: one card per group, every review kept.
    merged = merge_duplicate_cards(db.session.connection(), user.id) if pending else 0
    if merged:
        report.cards_added -= merged
        db.session.expire_all()
    return report
