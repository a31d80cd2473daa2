"""The browser editor's database side: check a draft against the stored explanations (not the
files of whichever host serves the request) and save it as a revision. Any host then serves it."""
from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from ..extensions import db
from .editor import DraftCheck, check_draft, light_doc
from .models import Explanation, Origin
from .revisions import apply_doc
from .sync import relink_questions


def stored_docs() -> list:
    """Every stored explanation (removed ones too: their slugs stay reserved for a restore),
    as :func:`~prep.content.editor.check_draft` needs it: four short columns, no body."""
    rows = db.session.execute(select(Explanation.slug, Explanation.lang, Explanation.path, Explanation.questions))
    return [light_doc(slug, lang, path, questions) for slug, lang, path, questions in rows]


def taken_slugs() -> set[str]:
    """Every slug stored (removed explanations' too: a restore brings them back)."""
    return set(db.session.scalars(select(Explanation.slug).distinct()))


def normalized(text: str) -> str:
    """A browser's textarea sends CRLF line ends; files and revisions use LF."""
    return text.replace("\r\n", "\n")


def check(text: str, *, area: str, explanation: Explanation | None) -> DraftCheck:
    return check_draft(normalized(text), stored_docs(), area=area,
                       existing_path=explanation.path if explanation else None,
                       existing_slug=explanation.slug if explanation else None)


def save(checked: DraftCheck, explanation: Explanation | None, *, author_id: int | None,
         now: datetime) -> Explanation:
    """Make a checked draft the current text (a new revision, origin browser); the caller commits.
    The next file sync keeps it: a file that did not change since does not overwrite it."""
    assert checked.ok and checked.doc is not None
    was_new = explanation is None
    row = apply_doc(explanation, checked.doc, checked.rel_path, origin=Origin.browser, author_id=author_id, now=now)
    row.conflict = False
    if was_new:
        relink_questions()  # a new explanation may be the best link for questions without one
    return row
