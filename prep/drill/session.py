"""A drill session's cards: the card the drill page shows and the next cards of today's queue
in one batch (the prefetching page), read as plain values with their questions' wordings, tags
and accepted links.

:func:`next_cards` lists the cards :func:`prep.drill.queue_queries.next_card` would show one after
another (learning due now, reviews within the limit, bookings, new cards within the limit,
learn-ahead), stopping before a card that a rating of an earlier one would bury as its sibling:
the page asks again once that rating is in. The reads run on the session's connection as plain
Core results, with statements built once (the ORM's row handling cost as much as the queries
on these pages). Recording a rating is :mod:`.rating`. Nothing here commits.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Select, bindparam, or_, select

from ..accounts.models import User
from ..extensions import db
from ..questions.models import LinkOrigin, Question, QuestionExplanation, Tag, question_tags
from . import queue, queue_queries
from .cards import CardNotFound
from .models import Card, CardState

MAX_BATCH = 50


def _read(statement: Select, params: dict) -> Any:
    """Run a read of plain columns on the session's connection (same transaction): a Core result,
    without the ORM's statement and row handling, which cost as much as the batch's queries. No
    autoflush: the batch and the page read these in GET requests, with nothing pending."""
    return db.session.connection().execute(statement, params)


@functools.cache
def _pick_statement(pick: queue.Pick, rows: bool = False) -> Select:
    """The ids (``rows``: the cards with their questions, :func:`_card_of`'s columns)
    :func:`queue_queries.next_card` would look at for ``pick``, in its order, leaving out ``seen``;
    built once, bound per call: ``uid``, ``now``, ``ahead``, ``day_start``,
    ``day_end``, ``study_date``, ``seen`` (a list) and ``want`` (the limit)."""
    where, order = queue_queries.pick_where(pick)
    statement = _with_questions() if rows else select(Card.id)
    return (statement.where(*where, Card.id.not_in(bindparam("seen", expanding=True)))
            .order_by(*order).limit(bindparam("want")))


def _cap(pick: queue.Pick, b: queue.Budget) -> int:
    """How many cards of this kind today's limits still allow (unlimited kinds: MAX_BATCH)."""
    if pick is queue.Pick.review:
        return b.reviews_left
    if pick is queue.Pick.new:
        return b.new_left
    return MAX_BATCH


def next_card_ids(user: User, now: datetime, n: int, done: queue.DoneToday | None = None) -> list[int]:
    """Up to ``n`` card ids in the order the drill would show them (before sibling burying)."""
    return [row[0] for row in _picked(user, now, n, done, rows=False)]


def _picked(user: User, now: datetime, n: int, done: queue.DoneToday | None, rows: bool) -> list[Any]:
    """:func:`next_card_ids`' rows (``rows``: with the cards' and questions' columns)."""
    n = max(1, min(int(n), MAX_BATCH))
    day = queue_queries.study_day(user, now)
    b = queue.budget(queue_queries.limits(user), done if done is not None else queue_queries.done_today(user, day))
    params = {"uid": user.id, "now": now, "ahead": now + queue.LEARN_AHEAD, "day_start": day.start,
              "day_end": day.end, "study_date": day.day}
    found: list[Any] = []
    for pick in queue.with_planned(queue.pick_order(b)):
        want = min(n - len(found), _cap(pick, b))
        if want <= 0:
            continue
        found.extend(_read(_pick_statement(pick, rows), {**params, "seen": [r[0] for r in found], "want": want}))
        if len(found) >= n:
            break
    return found


@dataclass(frozen=True)
class Link:
    """An accepted explanation link of a batch card's question (the fields
    :func:`prep.content.lookup.explanations_for_many` reads)."""

    slug: str
    score: float
    origin: LinkOrigin

    def is_confident(self, min_score: float) -> bool:  # as QuestionExplanation.is_confident
        return self.origin is not LinkOrigin.auto or self.score >= min_score


@dataclass(frozen=True)
class TagName:
    name: str


@dataclass
class ShownQuestion:
    id: int
    text: str
    lang: str
    translation_of: int | None
    tags: tuple[TagName, ...] = ()
    accepted_links: list[Link] = field(default_factory=list)


@dataclass
class ShownCard:
    """A card as the drill shows it, as plain values (its scheduling fields are :func:`.memory.memory_of`'s)."""

    id: int
    version: int
    state: CardState
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None
    reps: int
    lapses: int
    note: str
    question: ShownQuestion

    @property
    def question_id(self) -> int:
        return self.question.id


_CARD_COLUMNS = (Card.id, Card.version, Card.state, Card.step, Card.stability, Card.difficulty, Card.due,
                 Card.last_review, Card.reps, Card.lapses, Card.note)


_QUESTION_COLUMNS = (Question.id, Question.text, Question.lang, Question.translation_of)


def _with_questions() -> Select:
    """Cards with their questions, :func:`_card_of`'s columns (the picks and one card add the rest)."""
    return select(*_CARD_COLUMNS, *_QUESTION_COLUMNS).join(Question, Question.id == Card.question_id)


@functools.cache
def _links_statement() -> Select:
    qe = QuestionExplanation
    return select(qe.question_id, qe.slug, qe.score, qe.origin).where(
        qe.question_id.in_(bindparam("qids", expanding=True)), qe.rejected.is_(False)).order_by(qe.score.desc(), qe.id)


@functools.cache
def _tags_statement() -> Select:
    return select(question_tags.c.question_id, Tag.name).join(Tag, Tag.id == question_tags.c.tag_id).where(
        question_tags.c.question_id.in_(bindparam("qids", expanding=True))).order_by(Tag.name)


def _card_of(row: Any) -> ShownCard:
    """A :class:`ShownCard` of a row of :data:`_CARD_COLUMNS` and :data:`_QUESTION_COLUMNS`."""
    return ShownCard(*row[:11], question=ShownQuestion(*row[11:]))


def _add_links_and_tags(cards: list[ShownCard]) -> None:
    """Fill in the questions' accepted links (best first) and tags: two statements."""
    questions = {c.question.id: c.question for c in cards}
    qids = sorted(questions)
    for qid, slug, score, origin in _read(_links_statement(), {"qids": qids}):
        questions[qid].accepted_links.append(Link(slug, score, origin))
    tags: dict[int, list[TagName]] = {}
    for qid, name in _read(_tags_statement(), {"qids": qids}):
        tags.setdefault(qid, []).append(TagName(name))
    for qid, names in tags.items():
        questions[qid].tags = tuple(names)


@functools.cache
def _first_statement(pick: queue.Pick) -> Select:
    """The first card of one kind with its question, as :func:`queue_queries.next_card` picks it (bound
    as its statements are), built once."""
    where, order = queue_queries.pick_where(pick)
    return _with_questions().where(*where).order_by(*order).limit(1)


@functools.cache
def _own_card_statement() -> Select:
    return _with_questions().where(Card.id == bindparam("cid"), Card.user_id == bindparam("uid"))


def _complete(row: Any) -> ShownCard | None:
    if row is None:
        return None
    card = _card_of(row)
    _add_links_and_tags([card])
    return card


def next_card(user: User, now: datetime, done: queue.DoneToday | None = None) -> ShownCard | None:
    """:func:`queue_queries.next_card` as plain values (the drill page): the same picks, each
    reading the card with its question, then the question's links and tags; no ORM objects."""
    params, picks = queue_queries.pick_queries(user, now, done)
    for pick in picks:
        row = _read(_first_statement(pick), params).first()
        if row is not None:
            return _complete(row)
    return None


def own_card(user: User, card_id: int) -> ShownCard:
    """The user's card as plain values, with its question, links and tags; raises
    :class:`.cards.CardNotFound` for a card that is not the user's."""
    card = _complete(_read(_own_card_statement(), {"cid": card_id, "uid": user.id}).first())
    if card is None:
        raise CardNotFound(card_id)
    return card


def next_cards(user: User, now: datetime, n: int = 5, done: queue.DoneToday | None = None) -> list[ShownCard]:
    """The next cards, each with its question, tags and accepted links (plain values: the picks
    read the cards with their questions, then two statements), cut before the first card sharing
    an explanation with an earlier one in the same language (rating the earlier one would bury it)."""
    picked = [_card_of(row) for row in _picked(user, now, n, done, rows=True)]
    if not picked:
        return []
    _add_links_and_tags(picked)
    cards: list[ShownCard] = []
    seen: set[tuple[str, str]] = set()
    for card in picked:
        keys = {(link.slug, card.question.lang) for link in card.question.accepted_links}
        if keys & seen:
            break
        seen |= keys
        cards.append(card)
    return cards


@functools.cache
def _group_statement() -> Select:
    """Every wording of the translation groups rooted at ``roots`` (bound), by id."""
    roots = bindparam("roots", expanding=True)
    return select(Question.id, Question.text, Question.lang, Question.translation_of).where(
        or_(Question.id.in_(roots), Question.translation_of.in_(roots))).order_by(Question.id)


def wordings(questions: list[ShownQuestion], lang: str | None) -> dict[int, tuple[str, str]]:
    """Question id -> (language, text) of the wording to show someone reading ``lang``, as
    :meth:`Question.wording` picks it (this one, else the group's first in that language, root
    first), with one query for all the questions not in ``lang`` (none when all are)."""
    shown = {q.id: (q.lang, q.text) for q in questions}
    other = [q for q in questions if lang and q.lang != lang]
    if not other:
        return shown
    roots = sorted({q.translation_of or q.id for q in other})
    rows = _read(_group_statement(), {"roots": roots}).all()
    for q in other:
        root = q.translation_of or q.id
        group = [r for r in rows if r.id == root] + [r for r in rows if r.translation_of == root]
        match = next((r for r in group if r.lang == lang), None)
        if match is not None:
            shown[q.id] = (match.lang, match.text)
    return shown


class Wording(NamedTuple):
    lang: str
    text: str


def wording_of(question: Any, lang: str | None) -> Wording:
    """The wording of one question (a :class:`Question` or :class:`ShownQuestion`) to show
    someone reading ``lang``, as :meth:`Question.wording` picks it, with :func:`wordings`' one
    query instead of loading the translation group's objects (none when it is in ``lang``)."""
    return Wording(*wordings([question], lang)[question.id])
