"""An Anki package (.apkg) of a user's studied questions, explanations on the back (genanki).

Note ids (guids) come from the question text, so re-importing a newer export into Anki updates
the same notes instead of duplicating them. Each card carries its FSRS memory state, its due date
and its review history (:mod:`.anki_scheduling`), so Anki with FSRS on goes on where prep left
off when the package is imported with scheduling; its tags name the companies, roles and sections
of the postings that asked it.
"""
from __future__ import annotations

import hashlib
import html
import io
import itertools
import json
import logging
import re
import sqlite3
import tempfile
import warnings
import zipfile
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

import genanki
from sqlalchemy import select

from ..accounts.models import User
from ..content.models import Explanation, live
from ..drill.memory import memory_of
from ..drill.models import Card, ReviewLog
from ..drill.scheduling import make_scheduler, parse_steps, settings_for_user
from ..extensions import db
from ..postings.models import Posting, PostingQuestion
from ..questions.models import Question
from . import anki_scheduling as sched
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
_TAG = re.compile(r"[\s\"]+")
_MAX_TAG = 80


def _tag(name: str, prefix: str = "") -> str:
    """An Anki tag: no spaces or quotes, no hierarchy but the prefix's (``company::…``)."""
    return prefix + _TAG.sub("_", name.strip()).replace("::", ":")[:_MAX_TAG]


def _posting_tags(user: User, cards: list[Card]) -> dict[int, list[str]]:
    """Per question group, the ``company::``, ``role::`` and ``section::`` tags of the postings
    the user can read that ask it (one query)."""
    groups = {c.question.group_id for c in cards}
    tags: dict[int, set[str]] = {}
    if not groups:
        return {}
    rows = db.session.execute(
        select(Question.group_of(), Posting.company, Posting.title, PostingQuestion.section)
        .join(PostingQuestion, PostingQuestion.question_id == Question.id)
        .join(Posting, Posting.id == PostingQuestion.posting_id)
        .where(Posting.readable_by(user.id), Question.group_of().in_(groups)))
    for group, company, title, section in rows:
        found = tags.setdefault(group, set())
        for prefix, value in (("company::", company), ("role::", title), ("section::", section)):
            if value and value.strip():
                found.add(_tag(value, prefix))
    return {group: sorted(found) for group, found in tags.items()}


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
    posting_tags = _posting_tags(user, cards)
    deck = genanki.Deck(deck_id_for(user), deck_name or "prep interview questions")
    guids: dict[str, Card] = {}
    for card in cards:
        q = card.question
        tags = [_tag(t.name) for t in q.tags] + posting_tags.get(q.group_id, [])
        if card.suspended:
            tags.append("prep_suspended")
        note_html = html.escape(card.note).replace("\n", "<br>") if card.note else ""
        guid = genanki.guid_for("prep", q.norm)
        if guid in guids:
            continue  # the same wording twice would be one note in Anki
        guids[guid] = card
        deck.add_note(genanki.Note(model=MODEL, fields=[html.escape(q.text), _back(card, by_slug, lang, base_url), note_html],
                                   guid=guid, tags=tags))
    with tempfile.TemporaryDirectory(prefix="prep-apkg-") as tmp:
        path = Path(tmp) / "collection.anki2"
        conn = sqlite3.connect(path)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                genanki.Package(deck).write_to_db(conn.cursor(), now.timestamp(), itertools.count(int(now.timestamp() * 1000)))
            for w in caught:
                log.warning("genanki: %s", w.message)
            _write_scheduling(conn, user, guids, now)
            conn.commit()
        finally:
            conn.close()
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.write(path, "collection.anki2")
            zf.writestr("media", "{}")
    return buf.getvalue()


def _write_scheduling(conn: sqlite3.Connection, user: User, guids: dict[str, Card], now: datetime) -> None:
    """Put each card's FSRS state and review history into the package's collection and make the
    collection count days in the user's time zone from the first card's study day."""
    cards = list(guids.values())
    calendar = sched.calendar_for(min((c.added_at for c in cards), default=None), now, user.timezone, user.day_start_hour)
    settings = settings_for_user(user)
    parameters = make_scheduler(settings).parameters
    decay = parameters[20] if len(parameters) > 20 else None  # FSRS-6's forgetting-curve decay
    learning, relearning = len(parse_steps(settings.learning_steps)), len(parse_steps(settings.relearning_steps))
    (conf,) = conn.execute("SELECT conf FROM col").fetchone()
    conn.execute("UPDATE col SET crt = ?, conf = ?",
                 (int(calendar.crt.timestamp()), json.dumps({**json.loads(conf), **calendar.col_settings(now)})))
    anki_ids = dict(conn.execute("SELECT n.guid, c.id FROM cards c JOIN notes n ON n.id = c.nid"))
    answers = _answers(user, [c.id for c in cards])
    taken: set[int] = set()
    for position, (guid, card) in enumerate(guids.items(), start=1):
        memory = memory_of(card)
        cols = sched.card_columns(memory, suspended=card.suspended, position=position, calendar=calendar,
                                  learning_steps=learning, relearning_steps=relearning,
                                  desired_retention=settings.desired_retention, decay=decay)
        cid = anki_ids[guid]
        conn.execute("UPDATE cards SET type=?, queue=?, due=?, ivl=?, factor=?, reps=?, lapses=?, left=?, data=? "
                     "WHERE id=?", (cols.type, cols.queue, cols.due, cols.ivl, cols.factor, cols.reps, cols.lapses,
                                    cols.left, cols.data, cid))
        conn.executemany("INSERT INTO revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type) "
                         "VALUES (?, ?, -1, ?, ?, ?, ?, ?, ?)",
                         [(r.id, cid, r.ease, r.ivl, r.last_ivl, r.factor, r.time, r.type)
                          for r in sched.revlog_rows(answers.get(card.id, []), memory, taken)])


def _answers(user: User, card_ids: list[int]) -> dict[int, list[sched.Answer]]:
    """Every review log of these cards, oldest first, per card."""
    found: dict[int, list[sched.Answer]] = {}
    if not card_ids:
        return found
    rows = db.session.execute(
        select(ReviewLog.card_id, ReviewLog.reviewed_at, ReviewLog.rating, ReviewLog.duration_ms,
               ReviewLog.card_before, ReviewLog.kind)
        .where(ReviewLog.user_id == user.id).order_by(ReviewLog.reviewed_at, ReviewLog.id))
    wanted = set(card_ids)
    for card_id, at, rating, duration, before, kind in rows:
        if card_id in wanted:
            try:
                memory = sched.memory_from_snapshot(before)
            except (KeyError, TypeError, ValueError):
                continue  # a log an old version wrote without the state before: nothing to replay
            found.setdefault(card_id, []).append(sched.Answer(at, rating, duration or 0, memory, kind == "cram"))
    return found
