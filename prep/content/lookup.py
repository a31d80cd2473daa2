"""Find the explanations linked to a question, in the reader's language when one exists."""
from __future__ import annotations

import functools
from typing import Any

from flask import current_app
from sqlalchemy import Select, bindparam, select

from ..extensions import db
from ..questions.models import Question
from .models import Explanation, live


class Linked:
    """An explanation as linked to one question: the row's attributes, plus ``suggested`` (an
    automatic link under ``LINK_MIN_SCORE``: shown as a suggestion, not as the answer)."""

    def __init__(self, explanation: Any, suggested: bool) -> None:
        self.explanation, self.suggested = explanation, suggested

    def __getattr__(self, name: str) -> Any:
        return getattr(self.explanation, name)


def explanations_for(question: Question, user: Any = None, limit: int = 3, *,
                     lang: str | None = None, min_score: float | None = None) -> list[Linked]:
    """The accepted linked explanations, best first, one per slug, preferring ``lang`` (the
    caller passes the UI locale; without it, the user's setting, then the question's language).
    A slug without that language comes in the other one: the template says so. Those that answer
    the question come first; weak automatic links (under ``min_score``, by default the config's
    ``LINK_MIN_SCORE``) follow, marked ``suggested``."""
    if min_score is None:
        min_score = current_app.config["LINK_MIN_SCORE"]
    links = sorted(question.accepted_links[:limit], key=lambda link: not link.is_confident(min_score))
    if not links:
        return []
    suggested = {link.slug: not link.is_confident(min_score) for link in links}
    rows = db.session.scalars(select(Explanation).where(Explanation.slug.in_(list(suggested)), live())).all()
    want = lang or getattr(user, "language", None) or question.lang or "en"
    by_slug: dict[str, Explanation] = {}
    for row in rows:
        current = by_slug.get(row.slug)
        if current is None or (row.lang == want and current.lang != want):
            by_slug[row.slug] = row
    return [Linked(by_slug[link.slug], suggested[link.slug]) for link in links if link.slug in by_slug]


# What the drill's answer side shows of an explanation (not its source, Markdown or table of contents).
_ANSWER_COLUMNS = (Explanation.id, Explanation.slug, Explanation.lang, Explanation.title, Explanation.html,
                   Explanation.key_points)


@functools.cache
def _answers_statement() -> Select:
    """The live explanations with the ``slugs`` (bound), built once."""
    return select(*_ANSWER_COLUMNS).where(Explanation.slug.in_(bindparam("slugs", expanding=True)), live())


def explanations_for_many(questions: list[Any], *, lang: str,
                          min_score: float | None = None) -> dict[int, list[Linked]]:
    """:func:`explanations_for` for several questions at once (anything with ``id`` and
    ``accepted_links``): one query for all their explanations, reading only the columns of
    :data:`_ANSWER_COLUMNS` (rows, not ORM objects).
    Question id -> its list, as :func:`explanations_for` gives it."""
    if min_score is None:
        min_score = current_app.config["LINK_MIN_SCORE"]
    chosen = {q.id: sorted(q.accepted_links[:3], key=lambda link: not link.is_confident(min_score))
              for q in questions}
    slugs = {link.slug for links in chosen.values() for link in links}
    # On the session's connection: plain rows, without the ORM's statement and row layer (the
    # drill page and the card batch call this in GET requests, with nothing pending to flush).
    rows = db.session.connection().execute(_answers_statement(), {"slugs": sorted(slugs)}).all() if slugs else []
    by_slug: dict[str, Any] = {}
    for row in rows:
        current = by_slug.get(row.slug)
        if current is None or (row.lang == lang and current.lang != lang):
            by_slug[row.slug] = row
    return {qid: [Linked(by_slug[link.slug], not link.is_confident(min_score)) for link in links if link.slug in by_slug]
            for qid, links in chosen.items()}
