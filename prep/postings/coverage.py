"""What the explanations do not cover yet, as postings and interviews ask it: skills with no
explanation, bank questions with no linked explanation, and the field set's questions (real
interviews, :mod:`prep.content.field`) that no explanation answers, most-asked first.

Read by ``prep content coverage`` and the instructor's unanswered page. The counting of skill
gaps is pure (:func:`prep.content.coverage.skill_gaps`); this module reads the rows.
"""
from __future__ import annotations

import json

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy import func, select

from ..content.coverage import SkillGap, skill_gaps
from ..content.errors import FieldSetError
from ..content.field import misses_now
from ..content.models import Explanation, live
from ..extensions import db
from ..questions.models import Question, QuestionExplanation
from .models import Posting, PostingQuestion


def uncovered_skills(min_postings: int = 1) -> list[SkillGap]:
    """Skills named by at least ``min_postings`` postings that no explanation lists."""
    return skill_gaps(db.session.scalars(select(Posting.skills)), db.session.scalars(select(Explanation.skills).where(live())),
                      min_postings)


def unanswered_statement(min_score: float | None = None):
    """Published bank questions with no explanation that answers them (an accepted link, automatic
    ones scoring at least ``min_score``, by default the config's ``LINK_MIN_SCORE``), most-asked
    (by postings) first: ``(Question, postings)`` rows."""
    if min_score is None:
        min_score = current_app.config["LINK_MIN_SCORE"]
    linked = select(QuestionExplanation.question_id).where(QuestionExplanation.answers(min_score))
    postings = func.count(func.distinct(PostingQuestion.posting_id)).label("n")
    asked = select(PostingQuestion.question_id, postings).group_by(PostingQuestion.question_id).subquery()
    return (select(Question, func.coalesce(asked.c.n, 0))
            .outerjoin(asked, asked.c.question_id == Question.id)
            .where(Question.shared(), Question.id.not_in(linked))
            .order_by(func.coalesce(asked.c.n, 0).desc(), Question.id))


@click.command("coverage")
@click.option("--min-postings", type=click.IntRange(min=1), default=1, show_default=True,
              help="List only skills named by at least this many postings.")
@click.option("--limit", type=click.IntRange(min=1, max=10_000), default=50, show_default=True,
              help="Show at most this many rows of each list.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--field", "field_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A field-set file of interview questions to check (default: the shipped questions "
                   "no explanation answered).")
@with_appcontext
def coverage_command(min_postings: int, limit: int, as_json: bool, field_path: str | None) -> None:
    """List the skills postings ask for that no explanation covers, the bank questions with no
    linked explanation, and the interview questions (the field set) no explanation answers, by
    topic; most-asked first."""
    gaps = uncovered_skills(min_postings)
    total = db.session.scalar(select(func.count()).select_from(unanswered_statement().subquery())) or 0
    questions = db.session.execute(unanswered_statement().limit(limit)).all()
    try:
        field = misses_now(field_path)
    except FieldSetError as err:
        raise click.BadParameter(str(err), param_hint="--field") from None
    if as_json:
        click.echo(json.dumps({
            "skills": [{"skill": g.skill, "postings": g.postings} for g in gaps[:limit]],
            "questions": [{"id": q.id, "text": q.text, "postings": n} for q, n in questions],
            "field": [{"topic": m.topic, "asked": m.asked, "reports": m.reports, "questions": list(m.questions),
                       "closest": m.closest} for m in field[:limit]],
            "skills_total": len(gaps), "questions_total": total, "field_total": sum(m.asked for m in field),
        }, ensure_ascii=False, indent=2))
        return
    click.echo(f"skills postings ask for that no explanation covers: {len(gaps)}")
    for gap in gaps[:limit]:
        click.echo(f"  {gap.postings:5d} posting(s)  {gap.skill}")
    click.echo(f"bank questions with no explanation: {total} (most asked first)")
    for question, n in questions:
        click.echo(f"  {n:5d} posting(s)  #{question.id}  {question.text[:100]}")
    asked = sum(m.asked for m in field)
    click.echo(f"interview questions no explanation answers: {asked} in {len(field)} topic(s) (most asked first)")
    for miss in field[:limit]:
        closest = f"  (closest: {miss.closest})" if miss.closest else ""
        click.echo(f"  {miss.asked:5d} asked  {miss.reports:3d} report(s)  {miss.topic}{closest}")
        for text in miss.questions[:3]:
            click.echo(f"           - {text[:100]}")
    if not gaps and not total and not field:
        click.echo("every skill postings ask for, every bank question and every interview question has an explanation")
