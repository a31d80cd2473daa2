"""Why each line of a document was or was not taken as an interview question (``prep extract --explain``).

The document is read once, as :func:`.extract.extract_posting` reads it
(:func:`.extract.read_questions`: its lines, its sections, whether it is a report or a list of
questions, the questions found with their origins); each line then gets a verdict: taken (as
which question, from which section, how sure, and its origin in the words of
:func:`.origins.describe`), a heading (of which kind), or not taken and the reason (a section
that is not read, the candidate's own questions, a dropped line and why, a line that does not ask).

Pure module: no Flask, no database; linear in the document like the extraction it explains.
"""
from __future__ import annotations

from dataclasses import dataclass

from .asking import judge_line
from .extract import read_questions
from .headings import CONTENT, GENERIC, INTERVIEW, ROUND_KIND
from .interview_questions import never_a_question
from .origins import describe

_READ_KINDS = (INTERVIEW, ROUND_KIND, GENERIC, "header")
_DROPPED = {
    "short": "too short to be a question",
    "long": "too long: a paragraph, not a question",
    "label": "a label or a tip",
    "not a technical question": "not an interview question (logistics, the candidate's own, small talk, a rubric)",
    "project talk without a topic": "talk about the candidate's project without a technical topic",
    "a transition to the next topic": "the report moving on to the next topic",
    "advice": "advice, not a question",
    "a table's row": "a table's row (a cell that asks is read on its own)",
}


@dataclass(frozen=True)
class LineVerdict:
    """One line of the document: ``taken`` with the question it gave, or why not."""

    line: str
    taken: bool
    why: str
    question: str | None = None


def explain_document(text: str) -> tuple[str, list[LineVerdict]]:
    """What kind the document was read as, and a verdict for each of its lines, in order."""
    reading = read_questions(text)
    report, listing, back = reading.report, reading.listing, reading.restore
    questions = [(q.text.casefold(), q.text, q.section, q.confidence, q.origin) for q in reading.questions]
    kind = "an interview report" if report else ("a list of interview questions" if listing else "a job posting")
    verdicts: list[LineVerdict] = []
    for block in reading.blocks:
        if block.name:
            verdicts.append(LineVerdict(back(block.name), False, "the question above; its answer follows" if block.answer
                                        else f"heading of a {_kind_name(block)} section"))
        for line in block.lines:
            shown = back(line)  # (the line as the document wrote it; ``line`` is as it was read)
            folded = shown.casefold()
            said = back(judge_line(line).text).casefold()
            hit = next((q for q in questions if q[0] and (q[0][:40] in folded or (len(said) >= 6 and said in q[0]))), None)
            if hit is not None:
                why = f"{describe(hit[4], hit[2], hit[3])}, confidence {hit[3]:.2f}"
                verdicts.append(LineVerdict(shown, True, why, hit[1]))
            else:
                read = block.kind != CONTENT or listing  # a question page's "Overview" is read (interview_questions)
                verdicts.append(LineVerdict(shown, False, _why_not(line, block, report or listing) if read else
                                            f"in a posting section ({block.kind}), not read for questions"))
    return kind, verdicts


def _kind_name(block) -> str:
    if block.reverse:
        return "candidate's own questions (反问/QA)"
    return {INTERVIEW: "interview", ROUND_KIND: "interview round", GENERIC: "other", "header": "header"}.get(
        block.kind, f"posting ({block.kind})")


def _why_not(line: str, block, read_everywhere: bool) -> str:
    if block.answer:
        return "part of the answer to the question heading above it"
    if block.reverse:
        return "the candidate's own questions (反问/QA)"
    if block.kind not in (*_READ_KINDS, CONTENT):
        return f"in a posting section ({block.kind}), not read for questions"
    if block.kind == "header" and not read_everywhere:
        return "in a posting's header, not read for questions"
    if never_a_question(line):
        return "an answer, a quote, code, a link, a line of tags or a footer"
    judgement = judge_line(line)
    if judgement.dropped:
        return _DROPPED.get(judgement.dropped, judgement.dropped)
    if judgement.asks:
        return "asks, but its section or neighbours say it is not an interview question (rhetorical, advice, an answer)"
    if judgement.topic:
        return "a bare topic, taken only inside an interview round"
    return "does not ask (no question mark, no asking or imperative verb, not a listed topic)"


def format_explanation(name: str, kind: str, verdicts: list[LineVerdict]) -> str:
    """The verdicts as text: ``+`` taken (→ the question), ``-`` not taken (— why), ``#`` a heading."""
    out = [f"{name}: read as {kind}"]
    for verdict in verdicts:
        shown = verdict.line if len(verdict.line) <= 160 else verdict.line[:157] + "…"
        if verdict.taken:
            out.append(f"+ {shown}\n    → {verdict.question}  ({verdict.why})")
        elif verdict.why.startswith("heading"):
            out.append(f"# {shown}  ({verdict.why})")
        else:
            out.append(f"- {shown}\n    — {verdict.why}")
    return "\n".join(out)
