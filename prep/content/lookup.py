"""Find the explanations linked to a question, in the reader's language when one exists."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..questions.models import Question
from .models import Explanation, live


def explanations_for(question: Question, user: Any = None, limit: int = 3, *,
                     lang: str | None = None) -> list[Explanation]:
    """The accepted linked explanations, best first, one per slug, preferring ``lang`` (the
    caller passes the UI locale; without it, the user's setting, then the question's language).
    A slug without that language comes in the other one: the template says so."""
    slugs = [link.slug for link in question.accepted_links][:limit]
    if not slugs:
        return []
    rows = db.session.scalars(select(Explanation).where(Explanation.slug.in_(slugs), live())).all()
    want = lang or getattr(user, "language", None) or question.lang or "en"
    by_slug: dict[str, Explanation] = {}
    for row in rows:
        current = by_slug.get(row.slug)
        if current is None or (row.lang == want and current.lang != want):
            by_slug[row.slug] = row
    return [by_slug[s] for s in slugs if s in by_slug]
