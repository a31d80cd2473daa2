"""``prep extract``: print what the extraction engine finds in posting files (no database);
``prep postings import``: store posting files for a candidate; ``prep postings retag``: re-tag the
questions imports tagged with their posting's skills.

Plain click commands; the application registers them on the ``prep`` CLI group. ``extract``
needs no application context; ``postings import`` wraps :func:`prep.postings.service.import_posting`.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn

import click
from flask.cli import with_appcontext
from sqlalchemy import func, select

from .. import clock
from ..accounts.models import User
from ..extensions import db
from .decode import LIMITS, MAX_FILE_BYTES, MAX_POSTING_CHARS, limit_params, read_posting_file
from .errors import PostingInputError
from .evaluate import evaluate, format_report, load_corpus
from .explain import explain_document, format_explanation
from .extract import ExtractionResult, extract_posting
from .origins import describe
from .service import PostingLimitError, import_posting, likely_questions
from .tagging import apply_retag, plan_retag

EXIT_BAD_INPUT = 2


@click.command("extract")
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON: an object for one file, an array for several.")
@click.option("--eval", "eval_dir", type=click.Path(path_type=Path), metavar="DIR",
              help="Score the engine on a labelled corpus (documents with golden .json files): "
                   "precision, recall and F1 of questions, skill recall, company/title/kind.")
@click.option("--verbose", "-v", is_flag=True,
              help="Say where each question came from (a numbered list, narration, the model's guess ...); "
                   "with --eval: list each document's misses.")
@click.option("--explain", is_flag=True, help="For each line of one FILE: taken as a question or not, and why.")
@click.option("--max-chars", type=click.IntRange(min=1), default=MAX_POSTING_CHARS, show_default=True,
              help="Refuse a file whose text is longer than this many characters.")
@click.option("--max-bytes", type=click.IntRange(min=1), default=MAX_FILE_BYTES, show_default=True,
              help="Refuse files larger than this many bytes.")
def extract_command(files: tuple[Path, ...], as_json: bool, eval_dir: Path | None, verbose: bool,
                    explain: bool, max_chars: int, max_bytes: int) -> None:
    """Extract interview questions and skills from job postings and interview reports.

    FILES are text, Markdown, saved HTML pages or JSON-LD job postings (in any of UTF-8, UTF-16 or
    GB18030), PDF or Word (.docx) files. By default, as on the web, LIMITS.
    """
    if eval_dir is not None:
        _evaluate(eval_dir, as_json, verbose)
        return
    if not files:
        raise click.UsageError("name one or more FILES, or --eval DIR")
    if explain:
        _explain(files, max_bytes, max_chars)
        return
    results: list[tuple[Path, ExtractionResult]] = []
    failures: list[str] = []
    for path in files:
        try:
            results.append((path, extract_posting(read_posting_file(path, max_bytes=max_bytes, max_chars=max_chars))))
        except PostingInputError as exc:
            failures.append(f"prep extract: {click.format_filename(path)}: {exc}")
    if failures:  # all or nothing, so a JSON array never silently misses a file
        for message in failures:
            click.echo(message, err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT)
    if as_json:
        payload: object = [r.to_json_dict() for _, r in results]
        if len(results) == 1:
            payload = results[0][1].to_json_dict()
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    for index, (path, result) in enumerate(results):
        if index:
            click.echo("")
        click.echo(format_summary(click.format_filename(path), result, origins=verbose))


def _explain(files: tuple[Path, ...], max_bytes: int, max_chars: int) -> None:
    if len(files) != 1:
        raise click.UsageError("--explain takes one FILE")
    try:
        text = read_posting_file(files[0], max_bytes=max_bytes, max_chars=max_chars)
    except PostingInputError as exc:
        click.echo(f"prep extract: {click.format_filename(files[0])}: {exc}", err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT) from exc
    kind, verdicts = explain_document(text)
    click.echo(format_explanation(click.format_filename(files[0]), kind, verdicts))


def _evaluate(folder: Path, as_json: bool, verbose: bool) -> None:
    if not folder.is_dir():
        click.echo(f"prep extract: {click.format_filename(folder)}: not a folder", err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT)
    try:
        documents = load_corpus(folder)
    except (PostingInputError, ValueError, OSError) as exc:
        click.echo(f"prep extract: {click.format_filename(folder)}: {exc}", err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT) from None
    if not documents:
        click.echo(f"prep extract: {click.format_filename(folder)}: no documents with a golden .json file",
                   err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT)
    score = evaluate(documents)
    if as_json:
        click.echo(json.dumps(score.summary(), ensure_ascii=False, indent=2))
    else:
        click.echo(format_report(score, verbose=verbose))


def format_summary(name: str, result: ExtractionResult, *, origins: bool = False) -> str:
    """A short human-readable summary of one extraction; with ``origins``, where each question
    came from under it."""
    who = " — ".join(part for part in (result.company, result.title) if part) or "(company and title unknown)"
    if result.location:
        who += f" ({result.location})"
    lines = [f"{name}: {who}"]
    if result.recognised_sections:
        lines.append(f"  sections ({len(result.sections)}): {', '.join(result.sections)}")
    else:
        lines.append("  no recognisable sections" + ("" if result.questions else ": no questions extracted"))
    lines.append(f"  skills ({len(result.skills)}): {', '.join(result.skills) or '-'}")
    kind = "interview report" if result.doc_kind == "report" else "posting"
    if result.rounds:
        kind += f", rounds: {', '.join(result.rounds)}"
    lines.insert(1, f"  kind: {kind}")
    lines.append(f"  questions ({len(result.questions)}):")
    for q in result.questions:
        lines.append(f"    [{q.section}] ({q.kind}{'' if q.confidence >= 0.6 else ', uncertain'}) {q.text}")
        if origins:
            lines.append(f"      ← {describe(q.origin, q.section, q.confidence)}")
    if result.truncated:
        lines.append(f"  {result.truncated} more questions not taken (limit reached)")
    return "\n".join(lines)


def _state_limits(command: click.Command) -> None:
    """Put the limits, in the words the web pages use, where a command's help says LIMITS."""
    command.help = (command.help or "").replace("LIMITS", LIMITS % limit_params())


_state_limits(extract_command)


@click.group("postings")
def postings_group() -> None:
    """Manage stored job postings."""


@postings_group.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--user", "email", metavar="EMAIL",
              help="The candidate to store them for (default: the only account, when there is one).")
@click.option("--json", "as_json", is_flag=True,
              help="Print what was stored as JSON: kind, company, title, skills, questions and likely "
                   "questions, each with its bank id and explanation.")
@with_appcontext
def import_command(files: tuple[Path, ...], email: str | None, as_json: bool) -> None:
    """Store job posting or interview report files for a candidate: extract, merge and link their
    questions. As on the web, LIMITS."""
    def fail(message: str) -> NoReturn:
        db.session.rollback()
        click.echo(f"prep postings import: {message}", err=True)
        raise click.exceptions.Exit(EXIT_BAD_INPUT)

    if email:
        user = db.session.scalar(select(User).where(func.lower(User.email) == email.strip().lower()))
        if user is None:
            fail(f"no account with the e-mail {email}")
    else:
        users = db.session.scalars(select(User).limit(2)).all()
        if len(users) != 1:
            fail("name the candidate with --user EMAIL" if users else "there are no accounts yet; "
                 "create one with `prep users create EMAIL` first")
        user = users[0]
    texts: list[tuple[Path, str]] = []
    failures: list[str] = []
    for path in files:
        try:
            texts.append((path, read_posting_file(path)))
        except PostingInputError as exc:
            failures.append(f"{click.format_filename(path)}: {exc}")
    if failures:  # all or nothing: nothing is stored when any file is refused
        for message in failures[:-1]:
            click.echo(f"prep postings import: {message}", err=True)
        fail(failures[-1])
    now = clock.now()
    lines = []
    outcomes = []
    for path, text in texts:
        try:
            outcome = import_posting(user, text, now)
        except (PostingInputError, PostingLimitError) as exc:
            fail(f"{click.format_filename(path)}: {exc}")
        outcomes.append((path, outcome))
        lines.append(f"{click.format_filename(path)}: posting #{outcome.posting.id}: {outcome.summary()}")
    db.session.commit()
    if not as_json:
        for line in lines:
            click.echo(line)
        return
    payload = [_stored_json(path, outcome.posting, likely_questions(outcome.posting)) for path, outcome in outcomes]
    click.echo(json.dumps(payload[0] if len(payload) == 1 else payload, ensure_ascii=False, indent=2))


_state_limits(import_command)


def _stored_json(path: Path, posting, likely) -> dict[str, object]:
    """What ``prep postings import --json`` prints for one stored posting."""
    result = extract_posting(posting.raw_text)
    by_text = {q.text: q for q in result.questions}

    def slug(question) -> str | None:
        links = question.accepted_links
        return links[0].slug if links else None

    return {
        "file": str(path),
        "posting_id": posting.id,
        "kind": result.doc_kind,
        "company": posting.company,
        "title": posting.title,
        "rounds": list(result.rounds),
        "skills": list(posting.skills),
        "questions": [
            {"text": pq.text, "question_id": pq.question_id,
             "kind": by_text[pq.text].kind if pq.text in by_text else None,
             "round": by_text[pq.text].round if pq.text in by_text else None,
             "explanation": slug(pq.question)}
            for pq in posting.questions
        ],
        "likely_questions": [
            {"text": q.text, "question_id": q.id, "explanation": q.slug, "skills": list(q.skills),
             "asked_in": q.asked, "score": q.score}
            for q in likely
        ],
    }


@postings_group.command("retag")
@click.option("--dry-run", is_flag=True, help="List the changes without making them.")
@with_appcontext
def retag_command(dry_run: bool) -> None:
    """Re-tag the questions imports tagged with their posting's leading skills: each gets the
    skills it is about instead. Tags a person wrote stay; running it twice changes nothing."""
    changes = plan_retag() if dry_run else apply_retag()
    for change in changes:
        parts = [f"-{name}" for name in change.removed] + [f"+{name}" for name in change.added]
        click.echo(f"#{change.question_id} {_one_line(change.text)}: {' '.join(parts)}")
    counted = f"{len(changes)} question{'' if len(changes) == 1 else 's'}"
    if dry_run:
        db.session.rollback()
        click.echo(f"{counted} would be re-tagged (dry run: nothing changed).")
        return
    db.session.commit()
    click.echo(f"{counted} re-tagged.")


def _one_line(text: str, length: int = 70) -> str:
    line = " ".join(text.split())
    return line if len(line) <= length else line[:length - 1] + "…"
