"""The prefetching drill: the next cards of today's queue in one batch, and ratings recorded
exactly once (issue 20 item 1, issue 21 item 8).

:func:`next_cards` lists the cards :func:`prep.drill.service.next_card` would show one after
another (learning due now, reviews within the limit, bookings, new cards within the limit,
learn-ahead), stopping before a card that a rating of an earlier one would bury as its sibling:
the page asks again once that rating is in. :func:`rate_once` wraps :func:`service.rate` and says
what happened to a rating: ``recorded``, ``duplicate`` (this very request was recorded before: a
retry, or Back and resubmit) or ``conflict`` (the card moved on: rated in another tab). A rating
request is named by its ``request_id``: the nonce of the no-JS form's signed token
(:func:`make_token`), or the id the prefetching page gives each rating. Nothing here commits.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ..accounts.models import User
from ..extensions import db
from ..questions.models import Question
from . import planned, queue, service
from .models import Card, CardState, ReviewLog

MAX_BATCH = 50
TOKEN_SALT = "prep.drill.rate-once"


def _pick_statement(user: User, pick: queue.Pick, now: datetime, day: queue.StudyDay):
    """The ids :func:`service.next_card` would look at for ``pick``, in its order."""
    base = select(Card.id).where(Card.user_id == user.id, Card.suspended.is_(False),
                                 (Card.buried_until.is_(None)) | (Card.buried_until <= now))
    learning = Card.state.in_([CardState.learning, CardState.relearning])
    if pick is queue.Pick.learning:
        return base.where(learning, Card.due <= now).order_by(Card.due, Card.id)
    if pick is queue.Pick.review:
        return base.where(Card.state == CardState.review, Card.due < day.end,
                          planned.not_held(day.day)).order_by(Card.due, Card.id)
    if pick is queue.Pick.new:
        return base.where(Card.state == CardState.new).order_by(Card.added_at, Card.id)
    if pick is queue.Pick.planned:
        return base.where(planned.booked_today(user.id, day)).order_by(Card.due, Card.id)
    return base.where(learning, Card.due <= now + queue.LEARN_AHEAD).order_by(Card.due, Card.id)


def _cap(pick: queue.Pick, b: queue.Budget) -> int:
    """How many cards of this kind today's limits still allow (unlimited kinds: MAX_BATCH)."""
    if pick is queue.Pick.review:
        return b.reviews_left
    if pick is queue.Pick.new:
        return b.new_left
    return MAX_BATCH


def next_card_ids(user: User, now: datetime, n: int, done: queue.DoneToday | None = None) -> list[int]:
    """Up to ``n`` card ids in the order the drill would show them (before sibling burying)."""
    n = max(1, min(int(n), MAX_BATCH))
    day = service.study_day(user, now)
    b = queue.budget(service.limits(user), done if done is not None else service.done_today(user, day))
    ids: list[int] = []
    for pick in queue.with_planned(queue.pick_order(b)):
        want = min(n - len(ids), _cap(pick, b))
        if want <= 0:
            continue
        stmt = _pick_statement(user, pick, now, day)
        if ids:
            stmt = stmt.where(Card.id.not_in(ids))
        ids.extend(db.session.scalars(stmt.limit(want)))
        if len(ids) >= n:
            break
    return ids


def next_cards(user: User, now: datetime, n: int = 5, done: queue.DoneToday | None = None) -> list[Card]:
    """The next cards, each with its question, tags and links loaded (one query for the cards,
    one each for links and tags), cut before the first card sharing an explanation with an earlier
    one in the same language (rating the earlier one would bury it)."""
    ids = next_card_ids(user, now, n, done)
    if not ids:
        return []
    rows = db.session.scalars(select(Card).where(Card.id.in_(ids)).options(
        selectinload(Card.question).selectinload(Question.links))).unique().all()
    by_id = {c.id: c for c in rows}
    cards: list[Card] = []
    seen: set[tuple[str, str]] = set()
    for card_id in ids:
        card = by_id.get(card_id)
        if card is None:
            continue
        keys = {(link.slug, card.question.lang) for link in card.question.accepted_links}
        if keys & seen:
            break
        seen |= keys
        cards.append(card)
    return cards


# --- exactly once -------------------------------------------------------------------------

RECORDED, DUPLICATE, CONFLICT = "recorded", "duplicate", "conflict"


@dataclass(frozen=True)
class Rated:
    status: str
    buried: list[int] = field(default_factory=list)
    review: ReviewLog | None = None


def _buried(log: ReviewLog | None) -> list[int]:
    ids = (log.card_before or {}).get(service.BURIED_SIBLINGS, []) if log is not None else []
    return [i for i in ids if isinstance(i, int)]


def rate_once(user: User, card_id: int, version: int, rating: int, now: datetime, duration_ms: int | None = None,
              key_points: dict | None = None, request_id: str | None = None) -> Rated:
    """Rate the card as shown at ``version``; raises :class:`service.CardNotFound` for a card
    that is not the user's."""
    result = service.rate(user, card_id, version, rating, now, duration_ms, key_points=key_points,
                          request_id=request_id)
    if result.recorded:
        return Rated(RECORDED, _buried(result.review), result.review)
    log = db.session.scalar(select(ReviewLog).where(ReviewLog.card_id == card_id, ReviewLog.user_id == user.id,
                                                    ReviewLog.card_version == version))
    if log is not None and request_id and log.request_id == request_id:
        return Rated(DUPLICATE, _buried(log), log)
    return Rated(CONFLICT)


def make_token(secret: str, user_id: int, card_id: int, version: int) -> str:
    """A signed one-time token for the no-JS rating form, bound to user, card and version."""
    nonce = secrets.token_urlsafe(12)
    return str(URLSafeSerializer(secret, salt=TOKEN_SALT).dumps([user_id, card_id, version, nonce]))


def read_token(secret: str, token: str, user_id: int, card_id: int, version: int) -> str | None:
    """The token's nonce when it is ours and bound to this user, card and version; else None."""
    try:
        data = URLSafeSerializer(secret, salt=TOKEN_SALT).loads(token)
    except BadSignature:
        return None
    if not (isinstance(data, list) and len(data) == 4 and data[:3] == [user_id, card_id, version]
            and isinstance(data[3], str) and 0 < len(data[3]) <= 64):
        return None
    return data[3]
