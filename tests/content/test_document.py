"""Parsing one explanation file: front matter fields, defaults, and problems with their lines."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prep.content.document import (
    ExplanationDoc,
    ParsedDocument,
    content_hash,
    parse_document,
    slug_and_lang_from_path,
)
from prep.content.errors import ContentError, Problem

GOOD = """---
title: Ring AllReduce
slug: ring-allreduce
tags: [NCCL, AllReduce, 集合通信]
skills: [NCCL, MPI]
questions:
  - How does ring AllReduce work, step by step?
  - 环形AllReduce分为哪两个阶段？
difficulty: 2
lang: en
related: [nccl-algorithms]
---
Ring AllReduce has two phases.

## Reduce-scatter
"""


def test_parses_every_field() -> None:
    parsed = parse_document(GOOD, "content/collectives/ring-allreduce.md")
    assert parsed.ok and parsed.problems == []
    doc = parsed.doc
    assert doc == ExplanationDoc(
        slug="ring-allreduce",
        title="Ring AllReduce",
        tags=["NCCL", "AllReduce", "集合通信"],
        skills=["NCCL", "MPI"],
        questions=["How does ring AllReduce work, step by step?", "环形AllReduce分为哪两个阶段？"],
        difficulty=2,
        lang="en",
        related=["nccl-algorithms"],
        body="Ring AllReduce has two phases.\n\n## Reduce-scatter\n",
        body_start_line=13,
        path="content/collectives/ring-allreduce.md",
        area="collectives",
        content_hash=content_hash(GOOD),
    )
    assert doc.line_of("skills") == 5 and doc.line_of("questions", 1) == 8


def test_defaults_from_the_file_name() -> None:
    doc = parse_document("---\ntitle: 环形\n---\n正文\n", "content/collectives/ring-allreduce.zh.md").doc
    assert doc is not None
    assert (doc.slug, doc.lang, doc.tags, doc.difficulty, doc.related) == ("ring-allreduce", "zh", [], None, [])


def test_crlf_bom_and_dot_closer() -> None:
    parsed = parse_document("\ufeff---\r\ntitle: T\r\n...\r\nBody\r\n", "x/plain.md")
    assert parsed.ok and parsed.doc is not None
    assert parsed.doc.body == "Body\n" and parsed.doc.body_start_line == 4


@pytest.mark.parametrize(
    ("path", "expected"),
    [("a/ring-allreduce.zh.md", ("ring-allreduce", "zh")), ("a/rdma.md", ("rdma", None)),
     ("a/x.en.md", ("x", "en")), ("a/v1.2.md", ("v1.2", None)), ("x.ZH.md", ("x", "zh"))],
)
def test_slug_and_lang_from_path(path: str, expected: tuple[str, str | None]) -> None:
    assert slug_and_lang_from_path(path) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# no front matter\n", [(1, "missing front matter: the file must start with a '---' line")]),
        ("---\ntitle: x\nbody\n", [(1, "front matter is not closed: add a '---' line after it")]),
        ("---\ntitle: [a\n---\nB\n",
         [(2, "invalid YAML in front matter: expected ',' or ']', but got '<stream end>'; a [list] must end with ']'")]),
        ("---\ntitle: [a\ntags: [b]\n---\nB\n",
         [(3, "invalid YAML in front matter: expected ',' or ']', but got ':' "
              "(while parsing a flow sequence started on line 2); a [list] must end with ']'")]),
        ("---\ntitle: T\n\x1f: x\n---\nB\n",
         [(3, "invalid YAML in front matter: character #x001f is not allowed")]),
        ("---\ntitle: a\n  b: c\n---\nB\n", [(3, "invalid YAML in front matter: mapping values are not allowed here; "
                                               "if a value contains ': ', put it in quotes")]),
        ("---\n- a\n---\nB\n", [(2, "front matter must be a mapping of fields (key: value)")]),
        ("---\n---\nB\n", [(1, "missing required field 'title'")]),
        ("---\ntitle: '  '\n---\nB\n", [(2, "title must not be empty")]),
        ("---\ntitle: 2024\n---\nB\n", [(2, "title must be text, not a number (put it in quotes)")]),
        ("---\ntitle: T\ntitle: U\n---\nB\n", [(3, "duplicate field 'title' (first on line 2)")]),
        ("---\ntitle: T\nauthor: me\n---\nB\n",
         [(3, "unknown field 'author' (known: title, slug, tags, skills, questions, difficulty, lang, related, key_points, questions_paired)")]),
        ("---\ntitle: T\ndifficulty: 0\n---\nB\n", [(3, "difficulty must be a whole number from 1 to 5, not 0")]),
        ("---\ntitle: T\ndifficulty: true\n---\nB\n", [(3, "difficulty must be a whole number from 1 to 5, not True")]),
        ("---\ntitle: T\ndifficulty: 2.5\n---\nB\n", [(3, "difficulty must be a whole number from 1 to 5, not 2.5")]),
        ("---\ntitle: T\nlang: de\n---\nB\n", [(3, "lang must be one of en, zh, not 'de'")]),
        ("---\ntitle: T\nslug: Ring AllReduce\n---\nB\n",
         [(3, "slug 'Ring AllReduce' is invalid: use lower-case letters, digits and hyphens")]),
        ("---\ntitle: T\ntags: NCCL\n---\nB\n", [(3, "tags must be a list of text items, not text")]),
        ("---\ntitle: T\nskills: {a: 1}\n---\nB\n", [(3, "skills must be a list of text items, not a mapping")]),
        ("---\ntitle: T\nquestions:\n  - ok\n  - 12\n  - ''\n---\nB\n",
         [(5, "questions item must be text, not a number (put it in quotes)"), (6, "questions item must not be empty")]),
        ("---\ntitle: T\nrelated: [ok, Not Slug]\n---\nB\n", [(3, "related item 'Not Slug' is not a valid slug")]),
        ("---\ntitle: T\n---\n\n  \n", [(3, "the explanation body is empty")]),
    ],
)
def test_problems_with_lines(text: str, expected: list[tuple[int, str]]) -> None:
    parsed = parse_document(text, "content/a/doc.md")
    assert [(p.line, p.message) for p in parsed.problems] == expected
    assert parsed.doc is None


def test_lang_contradicting_the_file_suffix() -> None:
    parsed = parse_document("---\ntitle: T\nlang: en\n---\nB\n", "a/x.zh.md")
    assert [str(p) for p in parsed.problems] == ["a/x.zh.md:3: lang 'en' contradicts the file name suffix '.zh'"]


def test_invalid_file_name_needs_a_slug() -> None:
    bad = parse_document("---\ntitle: T\n---\nB\n", "a/Ring_AllReduce.md")
    assert [p.message for p in bad.problems] == [
        "file name 'Ring_AllReduce' is not a valid slug: rename the file (lower-case letters, digits, "
        "hyphens) or set 'slug'"]
    assert parse_document("---\ntitle: T\nslug: ring\n---\nB\n", "a/Ring_AllReduce.md").ok


def test_lenient_mode_returns_a_best_effort_document_with_the_problems() -> None:
    parsed = parse_document("---\ntitle: T\ndifficulty: 9\ntags: [a, 1]\n---\nB\n", "a/x.md", lenient=True)
    assert parsed.doc is not None and parsed.doc.difficulty is None and parsed.doc.tags == ["a"]
    assert len(parsed.problems) == 2


def test_html_in_front_matter_is_kept_as_text() -> None:
    doc = parse_document("---\ntitle: <img src=x onerror=alert(1)>\n---\nB\n", "a/x.md").doc
    assert doc is not None and doc.title == "<img src=x onerror=alert(1)>"


def test_problem_str_and_content_error() -> None:
    problem = Problem("content/a.md", 3, "title must not be empty")
    assert str(problem) == "content/a.md:3: title must not be empty"
    error = ContentError([Problem("b.md", 2, "y"), problem])
    assert str(error) == "b.md:2: y\ncontent/a.md:3: title must not be empty"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    st.text(max_size=300),
    st.builds(lambda fm, body: f"---\n{fm}\n---\n{body}", st.text(max_size=200), st.text(max_size=50)),
    st.lists(st.sampled_from(["---\n", "title: ", "tags: [", "]", "\n", "  - ", ":", "&a ", "*a",
                              "!!python/object:os.system ", "'", '"', "{", "}", "difficulty: ", "9",
                              "\t", "? ", "%YAML 1.1\n", "<<: ", "slug: ", "lang: zh"]),
             max_size=30).map("".join),
))
def test_parse_document_never_raises(text: str) -> None:
    """Hypothesis: 300 examples of arbitrary front matter; always a ParsedDocument."""
    parsed = parse_document(text, "fuzz/x.md")
    assert isinstance(parsed, ParsedDocument)
    assert (parsed.doc is None) == bool(parsed.problems)
    assert all(p.line >= 1 for p in parsed.problems)
