"""Search on the database: the questions a user can see and the explanations, in a fixed number
of queries whatever the data (explanations, questions, their links, the page's bodies, the
page's cards). No Flask: the view passes the user's id and language.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, and_, case, or_, select

from ..content.models import Explanation, live
from ..database import like_pattern
from ..drill.models import Card, CardState
from ..extensions import db
from ..questions.models import Question, QuestionExplanation
from . import matching

# At most this many matching questions are read (the page says when there are more).
MAX_QUESTIONS = 1000


@dataclass(frozen=True)
class CardInfo:
    """The searcher's card for a question, as the results show it."""

    id: int
    state: CardState
    suspended: bool
    due: datetime


@dataclass(frozen=True)
class Results:
    terms: list[str]
    page: matching.Page
    cards: dict[int, CardInfo]        # question id -> the user's card
    snippets: dict[int, str]          # explanation id -> excerpt around a body hit
    truncated: bool                   # more than MAX_QUESTIONS questions matched


def _contains(column, term: str) -> ColumnElement[bool]:
    return column.ilike(like_pattern(term), escape="\\")


def visible_questions(user_id: int) -> ColumnElement[bool]:
    """The bank a user can see: public questions and their own (Question.visible_to)."""
    return Question.visible_to(user_id)


def _matching_questions(user_id: int, terms: list[str]) -> tuple[list[matching.QuestionHit], bool]:
    rows = db.session.execute(
        select(Question.id, Question.text, Question.lang, Question.owner_id)
        .where(visible_questions(user_id), *[_contains(Question.text, t) for t in terms])
        .order_by(Question.id).limit(MAX_QUESTIONS + 1)).all()
    truncated = len(rows) > MAX_QUESTIONS
    rows = rows[:MAX_QUESTIONS]
    slugs: dict[int, list[str]] = {}
    if rows:
        for question_id, slug in db.session.execute(
                select(QuestionExplanation.question_id, QuestionExplanation.slug)
                .where(QuestionExplanation.question_id.in_([r.id for r in rows]),
                       QuestionExplanation.rejected.is_(False))
                .order_by(QuestionExplanation.question_id, QuestionExplanation.score.desc(),
                          QuestionExplanation.id)):
            slugs.setdefault(question_id, []).append(slug)
    hits = [matching.QuestionHit(id=r.id, text=r.text, lang=r.lang, own=r.owner_id is not None,
                                 slugs=tuple(slugs.get(r.id, ()))) for r in rows]
    return hits, truncated


def _explanations(terms: list[str], linked_slugs: set[str]) -> list[matching.ExplanationRow]:
    """Every explanation that matches, and every one a matching question links to (by slug)."""
    matched = and_(*[or_(_contains(Explanation.title, t), _contains(Explanation.body_md, t)) for t in terms])
    title_hits = sum((case((_contains(Explanation.title, t), 1), else_=0) for t in terms[1:]),
                     case((_contains(Explanation.title, terms[0]), 1), else_=0))
    condition = or_(matched, Explanation.slug.in_(sorted(linked_slugs))) if linked_slugs else matched
    rows = db.session.execute(
        select(Explanation.id, Explanation.slug, Explanation.lang, Explanation.title,
               case((matched, 1), else_=0).label("matched"), title_hits.label("title_hits"))
        .where(condition, live()).order_by(Explanation.id)).all()
    return [matching.ExplanationRow(id=r.id, slug=r.slug, lang=r.lang, title=r.title, matched=bool(r.matched),
                                    title_hits=int(r.title_hits)) for r in rows]


def search(user_id: int, query: str, *, language: str = "en", page: int = 1) -> Results:
    """Search ``query`` for ``user_id``; results grouped by explanation, one page of groups."""
    terms = matching.parse_terms(query)
    if not terms:
        return Results(terms, matching.Page([], 1, 1, 0, 0, 0), {}, {}, False)
    questions, truncated = _matching_questions(user_id, terms)
    explanations = _explanations(terms, {s for q in questions for s in q.slugs})
    groups = matching.group_results(explanations, questions, language)
    shown, page, pages = matching.paginate(groups, page)
    result_page = matching.Page(
        groups=shown, page=page, pages=pages, total_groups=len(groups),
        total_explanations=sum(1 for g in groups if g.explanation is not None),
        total_questions=len(questions))
    question_ids = [q.id for g in shown for q in g.questions]
    cards: dict[int, CardInfo] = {}
    if question_ids:
        for row in db.session.execute(select(Card.id, Card.question_id, Card.state, Card.suspended, Card.due)
                                      .where(Card.user_id == user_id, Card.question_id.in_(question_ids))):
            cards[row.question_id] = CardInfo(row.id, row.state, row.suspended, row.due)
    body_hits = [g.explanation.id for g in shown
                 if g.explanation is not None and g.explanation.matched
                 and g.explanation.title_hits < len(terms)]
    snippets: dict[int, str] = {}
    if body_hits:
        for explanation_id, body in db.session.execute(
                select(Explanation.id, Explanation.body_md).where(Explanation.id.in_(body_hits))):
            snippets[explanation_id] = matching.snippet(body, terms)
    return Results(terms, result_page, cards, snippets, truncated)
