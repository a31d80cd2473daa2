"""Question bank operations: add, find by normalised text, tag."""
from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from ..extensions import db
from .errors import EmptyQuestion, QuestionError  # noqa: F401 (QuestionError: callers catch it here)
from .card_merge import fold_question
from .models import Publication, Question, Source, Tag
from . import translations
from .normalize import guess_lang, normalize_question

MAX_OWN_QUESTIONS = 2000


def get_or_create_tags(names: Iterable[str], known: dict[str, Tag] | None = None) -> list[Tag]:
    """The tags of these names, made when missing. ``known``: tags already looked up by name (an
    import tagging many questions): those need no query, and the ones found or made are added."""
    known = {} if known is None else known
    wanted: list[str] = []
    seen: set[str] = set()
    for name in names:
        name = name.strip()[:80].strip()  # cut first: two long names may share their first 80 characters
        if name and name.casefold() not in seen:
            seen.add(name.casefold())
            wanted.append(name)
    if not wanted:
        return []
    missing = [name for name in wanted if name not in known]
    if missing:
        known.update({t.name: t for t in db.session.scalars(select(Tag).where(Tag.name.in_(missing)))})
    out = []
    for name in wanted:
        tag = known.get(name)
        if tag is None:
            tag = known[name] = Tag(name=name)
            db.session.add(tag)
        out.append(tag)
    return out


def merge_tags(question: Question, names: Iterable[str], known: dict[str, Tag] | None = None) -> None:
    """Add the named tags the question lacks (``known``: see :func:`get_or_create_tags`)."""
    for tag in get_or_create_tags(names, known):
        if tag not in question.tags:
            question.tags.append(tag)


def find_public_question(text: str) -> Question | None:
    return db.session.scalar(select(Question).where(Question.norm == normalize_question(text),
                                                    Question.owner_id.is_(None)).limit(1))


def add_question(text: str, *, source: Source, owner_id: int | None = None, lang: str | None = None,
                 tags: Iterable[str] = (), known_tags: dict[str, Tag] | None = None, new: bool = False,
                 flush: bool = True) -> Question:
    """Add a question, or return the existing one with the same normalised text (merging tags).
    ``new``: the caller knows there is none (no lookup); ``known_tags``: see :func:`get_or_create_tags`;
    ``flush=False``: leave the new row to the caller's next flush (an import adds many in one)."""
    text = text.strip()
    norm = normalize_question(text)
    if not norm:
        raise EmptyQuestion()
    question = None
    if not new:
        stmt = select(Question).where(Question.norm == norm)
        stmt = stmt.where(Question.owner_id == owner_id) if owner_id else stmt.where(Question.owner_id.is_(None))
        question = db.session.scalar(stmt.limit(1))
    if question is None:  # empty collections: nothing to load for a new row
        question = Question(text=text, norm=norm, lang=lang if lang in ("en", "zh") else guess_lang(text),
                            source=source, owner_id=owner_id, tags=[], links=[])
        db.session.add(question)
    merge_tags(question, tags, known_tags)
    if flush:
        db.session.flush()
    return question


def adopt_listed(texts: Iterable[str]) -> int:
    """An explanation lists these texts; for each that the shared bank lacks but candidates
    imported (each a private copy), the oldest copy becomes the shared question (its owner's
    card stays on it) and every other copy folds into it (:func:`.card_merge.fold_question`), so
    the bank lists the text once and everyone who holds it holds the one question. Returns how
    many questions became shared; the caller links them to the explanation. One query when no
    candidate has any of the texts."""
    norms = sorted({n for n in (normalize_question(t) for t in texts) if n})
    if not norms:
        return 0
    copies = list(db.session.scalars(select(Question).where(
        Question.norm.in_(norms), Question.owner_id.is_not(None), Question.source == Source.posting)
        .order_by(Question.id)))
    if not copies:
        return 0
    public = set(db.session.scalars(select(Question.norm).where(Question.norm.in_(norms), Question.owner_id.is_(None))))
    adopted = 0
    for norm in sorted({c.norm for c in copies} - public):
        shared, *others = [c for c in copies if c.norm == norm]
        translations.unlink(shared)  # its owner's other wordings stay theirs: a group never spans owners
        owners = [(other.id, other.owner_id) for other in others]
        shared.owner_id, shared.source, shared.publication = None, Source.content, Publication.published
        db.session.flush()
        for old_id, owner_id in owners:
            fold_question(db.session.connection(), old_id, shared.id, owner_id)
        db.session.expire_all()
        adopted += 1
    return adopted
