"""One card per translation group: merge a candidate's cards on wordings of the same question
(the cards table by name, so the questions layer needs no import of prep.drill).

Run whenever two questions are linked as translations (and usable over a whole database, as
``prep`` maintenance would: ``merge_duplicate_cards(connection)``). Written against the tables
(SQLAlchemy Core, a Connection).

The card kept is the one with more reviews (then more repetitions, then the older one). Nothing
is lost: the other card's review logs move to it (renumbered after its own versions, so each
(card, version) stays unique and an open tab's rating of the old version records nothing), its
planned reviews move unless that day is booked already, and its note is appended.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

_meta = sa.MetaData()
_questions = sa.Table("questions", _meta, sa.Column("id", sa.Integer), sa.Column("translation_of", sa.Integer))
_cards = sa.Table("cards", _meta, sa.Column("id", sa.Integer), sa.Column("user_id", sa.Integer),
                  sa.Column("question_id", sa.Integer), sa.Column("reps", sa.Integer),
                  sa.Column("version", sa.Integer), sa.Column("note", sa.Text))
_logs = sa.Table("review_logs", _meta, sa.Column("id", sa.Integer), sa.Column("card_id", sa.Integer),
                 sa.Column("card_version", sa.Integer), sa.Column("reviewed_at", sa.DateTime))
_planned = sa.Table("planned_reviews", _meta, sa.Column("id", sa.Integer), sa.Column("user_id", sa.Integer),
                    sa.Column("card_id", sa.Integer), sa.Column("day", sa.Date))
_question_links = sa.Table("question_explanations", _meta, sa.Column("question_id", sa.Integer))
_question_tags = sa.Table("question_tags", _meta, sa.Column("question_id", sa.Integer))
_asked = sa.Table("posting_questions", _meta, sa.Column("id", sa.Integer), sa.Column("posting_id", sa.Integer),
                  sa.Column("question_id", sa.Integer))


@dataclass(frozen=True)
class CardRow:
    id: int
    reviews: int
    reps: int
    version: int
    note: str


def keeper(cards: list[CardRow]) -> CardRow:
    """The card a merge keeps: more reviews, then more repetitions, then the older (lower id)."""
    return max(cards, key=lambda c: (c.reviews, c.reps, -c.id))


def merge_duplicate_cards(conn: Connection, user_id: int | None = None) -> int:
    """Merge every candidate's (or one candidate's) cards that share a translation group;
    returns how many cards were merged away."""
    reviews = (sa.select(sa.func.count(_logs.c.id)).where(_logs.c.card_id == _cards.c.id)
               .correlate(_cards).scalar_subquery())
    group = sa.func.coalesce(_questions.c.translation_of, _questions.c.id)
    stmt = (sa.select(_cards.c.id, _cards.c.user_id, group.label("grp"), reviews.label("reviews"), _cards.c.reps,
                      _cards.c.version, _cards.c.note)
            .join(_questions, _questions.c.id == _cards.c.question_id).order_by(_cards.c.id))
    if user_id is not None:
        stmt = stmt.where(_cards.c.user_id == user_id)
    by_group: dict[tuple[int, int], list[CardRow]] = defaultdict(list)
    for r in conn.execute(stmt):
        by_group[(r.user_id, r.grp)].append(CardRow(r.id, int(r.reviews or 0), int(r.reps or 0),
                                                    int(r.version or 0), r.note or ""))
    merged = 0
    for (uid, _group), cards in by_group.items():
        if len(cards) > 1:
            merged += _merge(conn, uid, keeper(cards), [c for c in cards if c is not keeper(cards)])
    return merged


def _merge(conn: Connection, user_id: int, kept: CardRow, others: list[CardRow]) -> int:
    version, notes = kept.version, [kept.note] if kept.note else []
    booked = set(conn.scalars(sa.select(_planned.c.day).where(_planned.c.card_id == kept.id)))
    for other in others:
        for log_id in conn.scalars(sa.select(_logs.c.id).where(_logs.c.card_id == other.id)
                                   .order_by(_logs.c.reviewed_at, _logs.c.id)):
            conn.execute(sa.update(_logs).where(_logs.c.id == log_id).values(card_id=kept.id, card_version=version))
            version += 1
        for plan_id, day in conn.execute(sa.select(_planned.c.id, _planned.c.day).where(_planned.c.card_id == other.id)):
            if day in booked:
                conn.execute(sa.delete(_planned).where(_planned.c.id == plan_id))
            else:
                booked.add(day)
                conn.execute(sa.update(_planned).where(_planned.c.id == plan_id).values(card_id=kept.id))
        if other.note and other.note not in notes:
            notes.append(other.note)
        conn.execute(sa.delete(_cards).where(_cards.c.id == other.id))
    conn.execute(sa.update(_cards).where(_cards.c.id == kept.id).values(version=version, note="\n\n".join(notes)))
    return len(others)


def fold_question(conn: Connection, old_id: int, new_id: int, user_id: int) -> int:
    """Make question ``old_id`` (a candidate's private copy) question ``new_id``: the candidate's
    cards and their postings' questions point to ``new_id`` (a posting asking both keeps one),
    duplicate cards are merged as above, and the copy, now unreferenced, is deleted. Returns how
    many cards were merged away."""
    taken = sa.select(_asked.c.posting_id).where(_asked.c.question_id == new_id).scalar_subquery()
    conn.execute(sa.delete(_asked).where(_asked.c.question_id == old_id, _asked.c.posting_id.in_(taken)))
    conn.execute(sa.update(_asked).where(_asked.c.question_id == old_id).values(question_id=new_id))
    conn.execute(sa.update(_cards).where(_cards.c.question_id == old_id).values(question_id=new_id))
    merged = merge_duplicate_cards(conn, user_id)
    conn.execute(sa.update(_questions).where(_questions.c.translation_of == old_id).values(translation_of=None))
    for table in (_question_links, _question_tags):
        conn.execute(sa.delete(table).where(table.c.question_id == old_id))
    conn.execute(sa.delete(_questions).where(_questions.c.id == old_id))
    return merged
