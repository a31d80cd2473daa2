"""The DoS corpus (tests/data/hostile/cases.yaml) and the parsers each kind of input goes
through; shared by tests/postings/test_hostile_corpus.py and the benchmark (``make bench``, which times
them with :func:`tests.support.cpu.least_cpu_seconds`)."""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from prep.content.document import parse_document
from prep.content.errors import ContentError
from prep.content.render import render_markdown
from prep.drill.scheduling import SchedulingError, parse_steps
from prep.export.restore import ImportProblem
from prep.export.restore import parse as parse_export
from prep.postings.decode import decode_posting_bytes, decode_posting_text
from prep.postings.errors import PostingError
from prep.postings.extract import extract_posting
from prep.postings.htmltext import html_to_text
from prep.search.matching import parse_terms, snippet
from prep.skills import load_taxonomy

from .clock import FIXED_NOW
from .cpu import budget

CASES_FILE = Path(__file__).parents[1] / "data" / "hostile" / "cases.yaml"
#: Seconds of CPU time one parser or one request may take on one input.
#: (Thread CPU seconds. Alone, the worst case, 30,000 first-level headings that each ask, takes 1.4-1.8 s to
#: extract, as it did before the last changes to the reader; a busy CI machine made its review form 2.83 s.
#: Quadratic work on these inputs takes minutes.)
BUDGET = budget(4.0)  # (on this machine: see :func:`.cpu.slowness`, which also pays the one-off costs first)
#: Errors that are a parser's own, clear refusal of an input.
REFUSALS = (PostingError, ImportProblem, SchedulingError, ContentError)


def load_cases() -> list[dict[str, Any]]:
    cases = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))["cases"]
    for case in cases:
        case["text"] = "".join(str(text) * int(times) for text, times in case["parts"])
    return cases


CASES = load_cases()


def timed(label: str, fn: Callable[[], Any], slow: list[str]) -> Any:
    start = time.thread_time()
    try:
        result = fn()
    except REFUSALS:
        result = None
    spent = time.thread_time() - start
    if spent > BUDGET:
        slow.append(f"{label}: {spent:.2f} s")
    return result


def parsers(kind: str, text: str) -> dict[str, Callable[[], Any]]:
    taxonomy = load_taxonomy()
    text_parsers: dict[str, Callable[[], Any]] = {
        "decode_posting_text": lambda: decode_posting_text(text),
        "extract_posting": lambda: extract_posting(text),
        "html_to_text": lambda: html_to_text(text),
        "find_skills": lambda: taxonomy.find_skills(text),
        "render_markdown": lambda: render_markdown(text),
        "parse_document": lambda: parse_document(text, "drafts/hostile.md", lenient=True),
        "search_snippet": lambda: snippet(text, parse_terms(text[:2000]) or ["a"]),
    }
    if kind == "text":
        return text_parsers
    if kind == "html":
        return {**text_parsers, "decode_posting_bytes": lambda: decode_posting_bytes(text.encode("utf-8"))}
    if kind == "markdown":
        return {"parse_document": lambda: parse_document(text, "drafts/hostile.md"),
                "render_markdown": lambda: render_markdown(text),
                "extract_posting": lambda: extract_posting(text)}
    if kind == "json":
        return {"export_parse": lambda: parse_export(text.encode("utf-8"), FIXED_NOW)}
    if kind == "steps":
        return {"parse_steps": lambda: parse_steps(text)}
    if kind == "query":
        return {"parse_terms": lambda: parse_terms(text), "snippet": lambda: snippet("a" * 10_000, parse_terms(text))}
    return {}
