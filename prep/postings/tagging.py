"""A posting question's tags, and the retag of questions tagged the old way.

A question imported from a posting is tagged with the skills it is about
(:func:`prep.skills.question_skills.question_skills`): those its text names or implies, and
those of the explanations it is confidently linked to that it hints at. Imports used to add the
posting's leading skills to every question, so a coding task from an NCCL posting was tagged
NCCL; :func:`plan_retag` finds those automatic tags and :func:`apply_retag` replaces them, keeping
every tag a person wrote.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import select

from ..content.models import Explanation, live
from ..extensions import db
from ..questions.models import LinkOrigin, Question, Source, Tag
from ..questions.service import get_or_create_tags, merge_tags
from ..skills import load_taxonomy
from ..skills.question_skills import question_skills
from .models import Posting, PostingQuestion

#: The old rule: a posting question got the posting's first skills as tags, whatever it asked.
OLD_LEADING_SKILL_TAGS = 3
#: How many questions the retag reads at a time.
RETAG_BATCH = 200


def lead_skills(slugs: Iterable[str]) -> dict[str, str]:
    """Each explanation's lead skill (the first of its ``skills:``), by slug (one query)."""
    wanted = sorted(set(slugs))
    if not wanted:
        return {}
    leads: dict[str, str] = {}
    rows = db.session.execute(select(Explanation.slug, Explanation.skills).where(Explanation.slug.in_(wanted), live())
                              .order_by(Explanation.id))
    for slug, skills in rows:
        if skills:
            leads.setdefault(slug, skills[0])
    return leads


def tags_for(questions: Sequence[Question], min_score: float | None = None, *, linked: bool = True) -> list[list[str]]:
    """The skill tags of each question: what its text is about, helped by the lead skills of the
    explanations it is confidently linked to (``min_score``: ``LINK_MIN_SCORE`` by default).
    ``linked=False``: by the text alone, without reading the questions' links."""
    if not linked:
        return [question_skills(q.text) for q in questions]
    if min_score is None:
        min_score = current_app.config["LINK_MIN_SCORE"]
    slugs = [[link.slug for link in q.confident_links(min_score)] for q in questions]
    leads = lead_skills(slug for linked_slugs in slugs for slug in linked_slugs)
    return [question_skills(q.text, [leads[s] for s in linked_slugs if s in leads])
            for q, linked_slugs in zip(questions, slugs)]


def tag_questions(questions: Sequence[Question], found: Sequence[Question] = ()) -> None:
    """Add the skill tags (:func:`tags_for`) each question lacks: ``questions`` new ones (their
    links are in memory), ``found`` ones already in the bank, tagged by their text alone (an import
    reads nothing per question it merges). One query for every tag."""
    names = [*tags_for(questions), *tags_for(found, linked=False)]
    known: dict[str, Tag] = {}
    get_or_create_tags([name for tags in names for name in tags], known)
    for question, tags in zip([*questions, *found], names):
        merge_tags(question, tags, known)


def retag_question(question: Question) -> None:
    """Give a question made from a posting the skill tags of its current wording (an instructor
    edited it): its skill-named tags are replaced, its other tags stay. Other questions keep theirs."""
    if question.source is not Source.posting:
        return
    taxonomy = load_taxonomy()
    wanted = tags_for([question])[0]
    keep = [tag for tag in question.tags if taxonomy.canonical(tag.name) != tag.name or tag.name in wanted]
    have = {tag.name for tag in keep}
    question.tags = keep + get_or_create_tags([name for name in wanted if name not in have])


def old_rule_tags(text: str, posting_skills: Sequence[str]) -> set[str]:
    """The tags the old rule gave a question of a posting with these skills: the skills it
    named, then the posting's first :data:`OLD_LEADING_SKILL_TAGS`."""
    named = set(load_taxonomy().find_skills(text))
    return {s for s in posting_skills if s in named} | set(posting_skills[:OLD_LEADING_SKILL_TAGS])


@dataclass(frozen=True)
class Retag:
    """One question whose tags change: the ones taken off and the ones added."""

    question_id: int
    text: str
    removed: tuple[str, ...]
    added: tuple[str, ...]


def _in_scope(after_id: int, limit: int) -> list[Question]:
    """The next questions a posting tagged (the old way): made from a posting, or in one."""
    in_posting = select(PostingQuestion.question_id)
    return list(db.session.scalars(
        select(Question).where(Question.id > after_id, Question.source != Source.user,
                               (Question.source == Source.posting) | Question.id.in_(in_posting))
        .order_by(Question.id).limit(limit)))


def _written(questions: Sequence[Question]) -> dict[int, set[str]]:
    """For explanation questions: the tags their explanations' front matter gave them (a person's)."""
    slugs = {link.slug for q in questions if q.source is Source.content for link in q.links
             if link.origin is LinkOrigin.content}
    written: dict[str, set[str]] = {}
    if slugs:
        rows = db.session.execute(select(Explanation.slug, Explanation.skills, Explanation.tags)
                                  .where(Explanation.slug.in_(sorted(slugs))))
        for slug, skills, tags in rows:
            written.setdefault(slug, set()).update([*(skills or []), *(tags or [])])
    return {q.id: {name for link in q.links if link.origin is LinkOrigin.content for name in written.get(link.slug, ())}
            for q in questions if q.source is Source.content}


def _posting_skills(questions: Sequence[Question]) -> dict[int, list[tuple[str, list[str]]]]:
    """For each question: (the wording in the posting, the posting's skills) of every posting it is in."""
    rows = db.session.execute(select(PostingQuestion.question_id, PostingQuestion.text, Posting.skills)
                              .join(Posting, Posting.id == PostingQuestion.posting_id)
                              .where(PostingQuestion.question_id.in_([q.id for q in questions])))
    out: dict[int, list[tuple[str, list[str]]]] = {}
    for question_id, text, skills in rows:
        out.setdefault(question_id, []).append((text or "", list(skills or [])))
    return out


def automatic_tags(question: Question, written: set[str], postings: Sequence[tuple[str, list[str]]]) -> set[str]:
    """The tags of ``question`` the old import rule made, which the retag may replace. A question
    made from a posting: its skill-named tags (no person sets those; a person's own words that
    are not skills stay). An explanation's question a shared posting also tagged: the tags the
    old rule gave it there, except those its explanation's front matter says. A candidate's own
    question: none."""
    names = {tag.name for tag in question.tags}
    if question.source is Source.posting:
        return {name for name in names if load_taxonomy().canonical(name) == name}
    if question.source is Source.content:
        made: set[str] = set()
        for text, skills in postings:
            made |= old_rule_tags(text or question.text, skills) | old_rule_tags(question.text, skills)
        return (names & made) - written
    return set()


def plan_retag(min_score: float | None = None, batch: int = RETAG_BATCH) -> list[Retag]:
    """Every question whose tags the retag changes, and how (nothing is written)."""
    return [change for change, _question in _changes(min_score, batch)]


def apply_retag(min_score: float | None = None, batch: int = RETAG_BATCH) -> list[Retag]:
    """Replace the automatic tags (:func:`automatic_tags`) of every question a posting tagged
    with the skills it is about (:func:`tags_for`); a person's tags stay. Flushes; the caller
    commits. Running it again changes nothing."""
    changes = []
    known: dict[str, Tag] = {}
    for change, question in _changes(min_score, batch):
        keep = [tag for tag in question.tags if tag.name not in change.removed]
        question.tags = keep + get_or_create_tags(change.added, known)
        changes.append(change)
    db.session.flush()
    return changes


def _changes(min_score: float | None, batch: int):
    after = 0
    while True:
        questions = _in_scope(after, batch)
        if not questions:
            return
        after = questions[-1].id
        written = _written(questions)
        postings = _posting_skills(questions)
        for question, tags in zip(questions, tags_for(questions, min_score)):
            names = {tag.name for tag in question.tags}
            automatic = automatic_tags(question, written.get(question.id, set()), postings.get(question.id, []))
            wanted = (names - automatic) | set(tags)
            removed, added = tuple(sorted(names - wanted)), tuple(t for t in tags if t not in names)
            if removed or added:
                yield Retag(question.id, question.text, removed, added), question
