"""Translation groups: wordings of one question in different languages are one question to a
candidate (one card, shown in their language). A group is its root question plus the questions
whose ``translation_of`` points to it.

Groups are made where we know two wordings are the same question: an explanation's en and zh
files that say their question lists are paired, the questions one explanation lists that the
matcher finds to be one question (:func:`link_by_meaning`: a translation, or the same question
reworded), an instructor's link in the bank, and an import whose question has the normalised
text of a grouped wording (it is that wording).
"""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from sqlalchemy import or_, select, update

from ..extensions import db
from .card_merge import merge_duplicate_cards
from .errors import QuestionError
from .matcher import default_matcher
from .models import Question


class NotTranslatable(QuestionError):
    """Two wordings that cannot be one question (the message says why)."""


_OTHER_OWNER = "Only questions with the same owner can be translations of each other."
_SAME_GROUP = "These questions are already translations of each other."


def check_link(a: Question, b: Question) -> None:
    """Raise :class:`NotTranslatable` unless ``a`` and ``b`` may be linked as translations."""
    if a.owner_id != b.owner_id:
        raise NotTranslatable(_OTHER_OWNER, _l("Only questions with the same owner can be translations of each other."))
    if a.group_id == b.group_id:
        raise NotTranslatable(_SAME_GROUP, _l("These questions are already translations of each other."))


def link(a: Question, b: Question) -> int:
    """Make ``b`` (and its group) translations of ``a``'s group, then merge every candidate's
    duplicate cards in the new group. Returns how many cards were merged away."""
    check_link(a, b)
    return _join_groups(a.group_id, b.group_id)


def _join_groups(root: int, moved: int) -> int:
    """Make group ``moved`` part of group ``root`` (the ids of their roots), then merge every
    candidate's duplicate cards; how many cards were merged away. Every loaded object is expired."""
    db.session.flush()
    db.session.execute(update(Question).where(or_(Question.id == moved, Question.translation_of == moved))
                       .values(translation_of=root).execution_options(synchronize_session=False))
    db.session.expire_all()
    return merge_duplicate_cards(db.session.connection())


def _groups_and_owners(question_ids: set[int]) -> tuple[dict[int, int], dict[int, int | None]]:
    """Each of these questions' translation group and owner, in one query (questions that do not
    exist are left out)."""
    rows = db.session.execute(select(Question.id, Question.group_of(), Question.owner_id)
                              .where(Question.id.in_(sorted(question_ids)))).all() if question_ids else []
    return {row[0]: row[1] for row in rows}, {row[0]: row[2] for row in rows}


def _moved_into(group: dict[int, int], root: int, moved: int) -> dict[int, int]:
    """``group`` (question id -> group) after :func:`_join_groups` (``root``, ``moved``)."""
    return {qid: (root if g == moved else g) for qid, g in group.items()}


def link_pairs(pairs: list[tuple[int, int]]) -> int:
    """Link each (question id, question id) pair that is not linked yet and may be; how many
    links were made. Used by the content sync for paired question lists. The groups and owners
    are read in one query and followed as links are made (a link expires every loaded object:
    loading two questions to check each pair cost more than linking them)."""
    group, owner = _groups_and_owners({qid for pair in pairs for qid in pair})
    made = 0
    for a_id, b_id in pairs:
        if a_id not in group or b_id not in group or owner[a_id] != owner[b_id] or group[a_id] == group[b_id]:
            continue
        root, moved = group[a_id], group[b_id]
        _join_groups(root, moved)
        group = _moved_into(group, root, moved)
        made += 1
    return made


def unlink(question: Question) -> None:
    """Take ``question`` out of its group (its cards stay as they are)."""
    if question.translation_of is None:
        members = list(db.session.scalars(select(Question).where(Question.translation_of == question.id)
                                          .order_by(Question.id)))
        if members:
            new_root = members[0]
            new_root.translation_of = None
            for other in members[1:]:
                other.translation_of = new_root.id
    else:
        question.translation_of = None
    db.session.flush()
    db.session.expire_all()


def grouped_ids(question_ids: list[int]) -> dict[int, int]:
    """Each question id's translation group id."""
    if not question_ids:
        return {}
    return dict(db.session.execute(select(Question.id, Question.group_of()).where(Question.id.in_(question_ids))).all())


def link_by_meaning(question_ids: list[int]) -> int:
    """Link the questions (all listed by one explanation) that the matcher finds to be one
    question, the surest pairs first; how many links were made. Listed by one explanation, two
    wordings of its subject are the hard case of "close but different", so only pairs at the
    matcher's threshold are linked; only questions of one owner are linked."""
    if len(question_ids) < 2:
        return 0
    rows = db.session.execute(select(Question.id, Question.text, Question.owner_id, Question.group_of())
                              .where(Question.id.in_(question_ids)).order_by(Question.id)).all()
    matcher = default_matcher()
    meanings = [(row, matcher.concepts(row.text)) for row in rows]
    scored = []
    for i, (a, ma) in enumerate(meanings):
        for b, mb in meanings[i + 1:]:
            if a.owner_id == b.owner_id:
                score = matcher.score(ma, mb)
                if score >= matcher.threshold:
                    scored.append((-score, a.id, b.id))
    group = {row.id: row[3] for row in rows}
    made = 0
    for _score, a_id, b_id in sorted(scored):
        ga, gb = group[a_id], group[b_id]
        if ga == gb:
            continue
        # the older group's root stays the root: a row only points to an older one
        root, old = min(ga, gb), max(ga, gb)
        _join_groups(root, old)
        group = _moved_into(group, root, old)
        made += 1
    return made
