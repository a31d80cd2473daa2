"""What an explanation page lists under the text: the questions it answers and related explanations."""
from __future__ import annotations

from sqlalchemy import select

from ..extensions import db
from ..questions.models import Question, QuestionExplanation
from .models import Explanation, live

MAX_QUESTIONS = 20
MAX_RELATED = 5


def answered_questions(slug: str, user_id: int | None, lang: str, limit: int = MAX_QUESTIONS) -> list[Question]:
    """The questions linked to ``slug`` that the reader can see (the public bank and their own),
    not rejected; the reader's language first, then the strongest link."""
    rows = db.session.execute(
        select(Question, QuestionExplanation.score)
        .join(QuestionExplanation, QuestionExplanation.question_id == Question.id)
        .where(QuestionExplanation.slug == slug, QuestionExplanation.rejected.is_(False),
               Question.visible_to(user_id or 0))
        .order_by((Question.lang != lang), QuestionExplanation.score.desc(), Question.id)
        .limit(limit)).all()
    seen: set[int] = set()
    return [q for q, _score in rows if not (q.id in seen or seen.add(q.id))]


def related_explanations(explanation: Explanation, lang: str, limit: int = MAX_RELATED) -> list[Explanation]:
    """Up to ``limit`` other explanations: those its front matter names as related, in order, then
    those sharing most skills; one per slug, in the reader's language when it exists."""
    rows = db.session.scalars(select(Explanation).where(Explanation.slug != explanation.slug, live())
                              .order_by(Explanation.id)).all()
    by_slug: dict[str, Explanation] = {}
    for row in rows:
        current = by_slug.get(row.slug)
        if current is None or (row.lang == lang and current.lang != lang):
            by_slug[row.slug] = row
    named = [s for s in dict.fromkeys(explanation.related or []) if s in by_slug]
    skills = {s.casefold() for s in explanation.skills or []}
    shared = sorted(((len(skills & {s.casefold() for s in row.skills or []}), slug)
                     for slug, row in by_slug.items() if slug not in named), key=lambda pair: (-pair[0], pair[1]))
    ordered = named + [slug for count, slug in shared if count > 0]
    return [by_slug[slug] for slug in ordered[:limit]]
