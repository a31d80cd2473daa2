"""An Anki package (.apkg) of a user's studied questions, explanations on the back (genanki).

Note ids (guids) come from the question text, so re-importing a newer export into Anki updates
the same notes instead of duplicating them. Scheduling is not carried over: Anki starts them new.
"""
from __future__ import annotations

import hashlib
import html
import io
import logging
import re
import warnings
from collections.abc import Iterable
from datetime import datetime

import genanki
from sqlalchemy import select

from ..accounts.models import User
from ..content.models import Explanation, live
from ..drill.models import Card
from ..extensions import db
from .anki_html import for_anki

log = logging.getLogger(__name__)

MODEL_ID = 1_719_402_611  # fixed forever: Anki identifies the note type by it
MODEL = genanki.Model(
    MODEL_ID,
    "prep interview question",
    fields=[{"name": "Question"}, {"name": "Explanation"}, {"name": "Note"}],
    templates=[{
        "name": "Question → explanation",
        "qfmt": '<div class="question">{{Question}}</div>',
        "afmt": '{{FrontSide}}<hr id="answer"><div class="explanation">{{Explanation}}</div>'
                '{{#Note}}<div class="note"><b>My note</b><br>{{Note}}</div>{{/Note}}',
    }],
    css=(".card { font-family: system-ui, sans-serif; font-size: 18px; text-align: left; }"
         ".question { font-size: 1.2em; font-weight: 600; }"
         ".explanation pre { background: #f6f8fa; padding: .6em; overflow-x: auto; }"
         ".key-points { border: 1px solid #ccc; border-radius: 6px; padding: .5em .5em .5em 1.8em; }"
         ".note { margin-top: 1em; border-top: 1px solid #ccc; padding-top: .5em; }"),
)
_TAG = re.compile(r"\s+")


def deck_id_for(user: User) -> int:
    """A stable deck id per user (Anki needs a positive 63-bit int)."""
    return int.from_bytes(hashlib.sha256(f"prep-deck:{user.id}".encode()).digest()[:7], "big") + 1


def _explanations(cards: Iterable[Card]) -> dict[str, dict[str, Explanation]]:
    slugs = {link.slug for c in cards for link in c.question.accepted_links[:3]}
    by_slug: dict[str, dict[str, Explanation]] = {}
    if slugs:
        for e in db.session.scalars(select(Explanation).where(Explanation.slug.in_(slugs), live())):
            by_slug.setdefault(e.slug, {})[e.lang] = e
    return by_slug


def _back(card: Card, by_slug: dict[str, dict[str, Explanation]], lang: str, base_url: str) -> str:
    parts = []
    for link in card.question.accepted_links[:3]:
        versions = by_slug.get(link.slug)
        if versions:
            e = versions.get(lang) or versions.get(card.question.lang) or next(iter(versions.values()))
            points = "".join(f"<li>{html.escape(p)}</li>" for p in e.key_points or [])
            checklist = f'<ul class="key-points">{points}</ul>' if points else ""
            parts.append(f'<h2 lang="{e.lang}">{html.escape(e.title)}</h2><div lang="{e.lang}">{checklist}'
                         f"{for_anki(e.html, base_url)}</div>")
    return "<hr>".join(parts) if parts else "<p><i>No explanation yet.</i></p>"


def build_apkg(user: User, now: datetime, deck_name: str | None = None, *, lang: str = "en",
               base_url: str = "http://127.0.0.1:5000") -> bytes:
    """The .apkg bytes of every card ``user`` studies (suspended ones too, tagged so), each
    explanation in ``lang`` where it exists, links absolute under ``base_url``."""
    cards = list(db.session.scalars(select(Card).where(Card.user_id == user.id).order_by(Card.added_at, Card.id)))
    by_slug = _explanations(cards)
    deck = genanki.Deck(deck_id_for(user), deck_name or "prep interview questions")
    for card in cards:
        q = card.question
        tags = [_TAG.sub("_", t.name) for t in q.tags]
        if card.suspended:
            tags.append("prep_suspended")
        note_html = html.escape(card.note).replace("\n", "<br>") if card.note else ""
        deck.add_note(genanki.Note(model=MODEL, fields=[html.escape(q.text), _back(card, by_slug, lang, base_url), note_html],
                                   guid=genanki.guid_for("prep", q.norm), tags=tags))
    buf = io.BytesIO()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        genanki.Package(deck).write_to_file(buf, timestamp=now.timestamp())
    for w in caught:
        log.warning("genanki: %s", w.message)
    return buf.getvalue()
