"""``prep interview date``: set or clear the interview date of a candidate's posting, checked as
the posting page checks it (today, in the candidate's time zone, to a year ahead)."""
from __future__ import annotations

from datetime import date
from typing import NoReturn

import click
from flask.cli import with_appcontext
from sqlalchemy import func, select

from .. import clock
from ..accounts.models import User
from ..extensions import db
from ..postings.errors import InterviewDateError
from ..postings.models import Posting
from .service import set_interview_date

EXIT_BAD_INPUT = 2


@click.group("interview")
def interview_group() -> None:
    """Interview mode: the dates the plan counts down to."""


def _fail(message: str) -> NoReturn:
    db.session.rollback()
    click.echo(f"prep interview date: {message}", err=True)
    raise click.exceptions.Exit(EXIT_BAD_INPUT)


@interview_group.command("date")
@click.argument("posting_id", type=click.IntRange(min=1, max=2**31 - 1))
@click.argument("day", metavar="YYYY-MM-DD|none")
@click.option("--user", "email", required=True, metavar="EMAIL", help="The candidate whose posting it is.")
@with_appcontext
def date_command(posting_id: int, day: str, email: str) -> None:
    """Set the interview date of the candidate's posting POSTING_ID (``none`` clears it): a day
    from today (the candidate's study day) to a year ahead, else nothing changes."""
    user = db.session.scalar(select(User).where(func.lower(User.email) == email.strip().lower()))
    posting = db.session.get(Posting, posting_id)
    if user is None or posting is None or posting.user_id != user.id:
        _fail(f"{email} has no posting #{posting_id}")
    try:
        parsed = None if day.strip().lower() == "none" else date.fromisoformat(day.strip())
    except ValueError:
        _fail(f"{day!r} is not a date; give it as YYYY-MM-DD (or none to clear it)")
    try:
        set_interview_date(user, posting, parsed, clock.now())
    except InterviewDateError as exc:
        _fail(f"{exc.day.isoformat()} is not between today ({exc.first.isoformat()}) and a year ahead "
              f"({exc.last.isoformat()}); nothing was changed")
    db.session.commit()
    click.echo(f"posting #{posting.id}: interview date {parsed.isoformat() if parsed else 'cleared'}")
