"""Search on the database: the questions a user can see and the explanations, in a fixed number
of queries whatever the data (explanations, questions, their links, the page's bodies, the
page's cards). No Flask: the view passes the user's id and language.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, case, or_, select

from ..content.models import Explanation, live
from ..database import like_pattern
from ..drill.cards import cards_for
from ..drill.models import CardState
from ..extensions import db
from ..questions.models import Question, QuestionExplanation
from . import matching
from .plaintext import plain_text

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


def _matching_questions(user_id: int, terms: list[str], language: str) -> tuple[list[matching.QuestionHit], bool]:
    # The database narrows by substring; words and phrases are then matched here.
    rows = db.session.execute(
        select(Question.id, Question.text, Question.lang, Question.owner_id, Question.group_of().label("grp"))
        .where(visible_questions(user_id), *[_contains(Question.text, t) for t in _narrowing(terms)])
        .order_by(Question.id).limit(3 * MAX_QUESTIONS)).all()
    rows = _one_wording_each([r for r in rows if matching.matches(r.text, terms)], language)
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


def _one_wording_each(rows: list, language: str) -> list:
    """One matching wording of each question (translations are one question): the one in the
    reader's language when it matched, else the first; in id order."""
    best: dict[int, Any] = {}
    for r in rows:
        kept = best.get(r.grp)
        if kept is None or (kept.lang != language and r.lang == language):
            best[r.grp] = r
    return sorted(best.values(), key=lambda r: r.id)


def _narrowing(terms: list[str]) -> list[str]:
    """What the database can test by substring: a phrase's words (its whitespace may differ)."""
    return [word for term in terms for word in term.split()]


#: The plain text of explanations, by (id, revision, content hash): each revision's HTML is stored
#: with it, so the same key is the same HTML (an unrelated change to the row, such as its path or
#: conflict flag, keeps the text cached).
_TEXT: dict[tuple, str] = {}
_TEXT_LIMIT = 4096


def _texts(ids: list[int]) -> dict[int, str]:
    """The plain text of the explanations ``ids``, reading the HTML only of changed ones."""
    rows = db.session.execute(select(Explanation.id, Explanation.revision, Explanation.content_hash)
                              .where(Explanation.id.in_(ids))).all() if ids else []
    keys = {r.id: (r.id, r.revision, r.content_hash) for r in rows}
    missing = [i for i, key in keys.items() if key not in _TEXT]
    if rows:  # always asked (for none when all are known): the same statements whatever the cache
        if len(_TEXT) + len(missing) > _TEXT_LIMIT:
            _TEXT.clear()
        for row in db.session.execute(select(Explanation.id, Explanation.html).where(Explanation.id.in_(missing))):
            _TEXT[keys[row.id]] = plain_text(row.html or "")
    return {i: _TEXT.get(key, "") for i, key in keys.items()}


def _explanations(terms: list[str], linked_slugs: set[str]) -> tuple[list[matching.ExplanationRow], dict[int, str]]:
    """Every explanation that matches (in its title or the text a reader sees), and every one a
    matching question links to (by slug); with the plain text of the ones that match."""
    narrow = _narrowing(terms)
    candidate = and_(*[or_(_contains(Explanation.title, t), _contains(Explanation.body_md, t)) for t in narrow])
    condition = or_(candidate, Explanation.slug.in_(sorted(linked_slugs))) if linked_slugs else candidate
    rows = db.session.execute(
        select(Explanation.id, Explanation.slug, Explanation.lang, Explanation.title,
               case((candidate, 1), else_=0).label("candidate"))
        .where(condition, live()).order_by(Explanation.id)).all()
    texts = _texts([r.id for r in rows if r.candidate])
    out: list[matching.ExplanationRow] = []
    bodies: dict[int, str] = {}
    for r in rows:
        body = texts.get(r.id, "")
        matched = bool(r.candidate) and matching.matches(f"{r.title}\n{body}", terms)
        if matched:
            bodies[r.id] = body
        out.append(matching.ExplanationRow(id=r.id, slug=r.slug, lang=r.lang, title=r.title, matched=matched,
                                           title_hits=matching.count_matching(r.title, terms)))
    return out, bodies


def search(user_id: int, query: str, *, language: str = "en", page: int = 1) -> Results:
    """Search ``query`` for ``user_id``; results grouped by explanation, one page of groups."""
    terms = matching.parse_terms(query)
    if not terms:
        return Results(terms, matching.Page([], 1, 1, 0, 0, 0), {}, {}, False)
    questions, truncated = _matching_questions(user_id, terms, language)
    explanations, bodies = _explanations(terms, {s for q in questions for s in q.slugs})
    groups = matching.group_results(explanations, questions, language)
    shown, page, pages = matching.paginate(groups, page)
    result_page = matching.Page(
        groups=shown, page=page, pages=pages, total_groups=len(groups),
        total_explanations=sum(1 for g in groups if g.explanation is not None),
        total_questions=len(questions))
    question_ids = [q.id for g in shown for q in g.questions]
    cards: dict[int, CardInfo] = {}
    if question_ids:
        for question_id, card in cards_for(user_id, question_ids).items():  # a translation's card too
            cards[question_id] = CardInfo(card.id, card.state, card.suspended, card.due)
    body_hits = [g.explanation.id for g in shown
                 if g.explanation is not None and g.explanation.matched
                 and g.explanation.title_hits < len(terms)]
    snippets = {explanation_id: matching.snippet(bodies[explanation_id], terms) for explanation_id in body_hits}
    return Results(terms, result_page, cards, snippets, truncated)
