"""The "new explanation" template passes its own check; YAML errors name the
line of the textarea; an unclosed $$ or code fence is a warning (preview, save, ``prep content
check``); the editor speaks in sentences, in English and Chinese."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from prep.accounts.models import Role
from prep.content import editor
from prep.content.check import check_tree, unclosed_blocks
from prep.content.cli import content_group
from prep.content.document import parse_document
from prep.content.models import Explanation
from prep.extensions import db
from tests.support.pages import textarea_value

DRAFT = """---
title: Ring AllReduce
questions:
  - How does ring AllReduce work?
key_points:
  - Reduce-scatter, then all-gather
  - Each rank sends about twice the data
  - Bandwidth-optimal
---
## The idea

Each rank sends to its right neighbour.
"""


@pytest.fixture
def instructor(make_user, login, client):
    user = make_user("teach@example.com", role=Role.instructor)
    login(user)
    return user


# --- the template ------------------------------------------------------------------------------

@pytest.mark.parametrize(("question", "lang"), [(None, "en"), ("How does ring AllReduce work?", "en"),
                                                ("如何设计NCCL的拓扑感知通信？", "zh")])
def test_the_new_explanation_template_passes_its_own_check(question, lang) -> None:
    checked = editor.check_draft(editor.new_draft(question, lang), [], area="drafts")
    assert checked.problems == [] and checked.ok
    # Saving it as it is warns that it has no key points yet (the template only shows where they go).
    assert [w.message for w in checked.warnings] == [
        "no key_points: add 3 to 6 short points a full answer must cover (the drill's checklist to grade an answer by)"]


def test_the_template_from_the_page_saves_as_it_is(client, instructor) -> None:
    page = client.get("/explanations/new?area=drafts").get_data(as_text=True)
    r = client.post("/explanations/new", data={"area": "drafts", "text": textarea_value(page, "text"), "save": "1"})
    assert r.status_code == 302, r.get_data(as_text=True)
    shown = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Saved. The explanation is live for candidates." in shown
    assert "content:" not in shown and "drafts/new-explanation.md" not in shown


# --- YAML errors at the textarea's line --------------------------------------------------------

MALFORMED = [  # (front matter lines, the textarea line the error is on, what to do)
    (["title: X", "tags: [a, b", "skills: []"], 4, "a [list] must end with ']'"),  # seen on the next key
    (["title: X", "tags: [a, b"], 3, "a [list] must end with ']'"),  # ... or on its own line when last
    (["# a comment", "", "title: X", "\tslug: x"], 5, "indent with spaces, not tabs"),
    (["title: Why: because"], 2, "if a value contains ': ', put it in quotes"),
    (["title: X", "questions:", "  - a: b: c"], 4, "put it in quotes"),
    (["title: X", "skills: {a"], 3, "a {mapping} must end with '}'"),
    (["title: \"X", "slug: x"], 3, "a quoted value must end with the same quote"),
]


@pytest.mark.parametrize(("lines", "expected", "hint"), MALFORMED)
def test_yaml_errors_name_the_textarea_line(client, instructor, lines: list[str], expected: int, hint: str) -> None:
    text = "---\n" + "\n".join(lines) + "\n---\nBody.\n"
    [problem] = parse_document(text, "drafts/x.md").problems
    assert problem.line == expected and problem.message.endswith(hint), problem
    # The browser sends CRLF; the preview names the same line.
    data = client.post("/explanations/preview", data={"text": text.replace("\n", "\r\n"), "area": "drafts"}).get_json()
    assert len(data["problems"]) == 1 and data["problems"][0].startswith(f"Line {expected}: "), data["problems"]


# --- unclosed $$ and code fences ---------------------------------------------------------------

def _doc(body: str):
    return parse_document(DRAFT + body, "drafts/ring.md").doc


def test_unclosed_math_and_fences_are_warnings_at_their_opening_line() -> None:
    first = DRAFT.count("\n") + 1  # the body's appended part starts on this line
    [math] = unclosed_blocks(_doc("\n$$\na^2 + b^2\n\nMore text.\n"))
    assert math.line == first + 1 and "$$ math block is never closed" in math.message
    [fence] = unclosed_blocks(_doc("\n```python\nx = 1\n\nMore text.\n"))
    assert fence.line == first + 1 and "code block (```) is never closed" in fence.message
    both = unclosed_blocks(_doc("\n$$ a $$ and $$ b\n\n~~~\ncode\n"))
    assert [w.line for w in both] == [first + 1, first + 3]


@pytest.mark.parametrize("body", [
    "\n$$\na^2\n$$\n", "\n$$ a^2 $$\n", "Inline `$$` in code.\n", "\n```\n$$ inside code\n```\n",
    "\n````\n```\nnested\n````\n", "Money: \\$$5 and \\$$6.\n", "\n$$\na\n\nb\n$$\n",
])
def test_closed_blocks_and_dollars_in_code_are_fine(body: str) -> None:
    assert unclosed_blocks(_doc(body)) == []


def test_content_check_prints_warnings_and_still_passes(tmp_path: Path) -> None:
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "ring.md").write_text(DRAFT + "\n```python\nx = 1\n", encoding="utf-8")
    report = check_tree(tmp_path)
    assert report.ok and len(report.docs) == 1 and [w.line for w in report.warnings] == [14]
    result = CliRunner().invoke(content_group, ["check", "--no-require-key-points", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"{(tmp_path / 'net' / 'ring.md').as_posix()}:14: warning: this code block (```) is never closed: add a "
        "closing ``` line, or everything after it shows as code",
        "1 file, 0 problems, 1 warning"]


def test_preview_and_save_say_so(client, instructor) -> None:
    text = DRAFT + "\n$$\na^2 + b^2\n"
    data = client.post("/explanations/preview", data={"text": text, "area": "net"}).get_json()
    assert data["problems"] == []
    assert data["warnings"] == ["Line 14: this $$ math block is never closed: add a closing $$, or the formula "
                                "shows as plain text"]
    page = client.post("/explanations/new", data={"area": "net", "text": text, "preview": "1"}).get_data(as_text=True)
    assert 'id="warning-list"' in page and "candidates would see this broken" in page
    r = client.post("/explanations/new", data={"area": "net", "text": text, "save": "1"})
    assert r.status_code == 302  # a warning does not stop the save, but it is not silent
    shown = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Saved. The explanation is live for candidates." in shown
    assert "Check line 14: this $$ math block is never closed" in shown


def test_the_editor_speaks_chinese(client, instructor) -> None:
    instructor.language = "zh"
    db.session.commit()
    text = DRAFT + "\n```python\nx = 1\n"
    data = client.post("/explanations/preview", data={"text": text, "area": "net"}).get_json()
    assert data["warnings"] == ["第 14 行：这个代码块（```）没有结束：请补上一行 ```，否则后面的内容都会显示成代码"]
    bad = client.post("/explanations/preview", data={"text": "---\ntitle: [x\n---\nB\n", "area": "net"}).get_json()
    assert bad["problems"][0].startswith("第 2 行：")
    r = client.post("/explanations/new", data={"area": "net", "text": DRAFT, "save": "1"})
    assert "已保存。考生现在就能看到这篇讲解。" in client.get(r.headers["Location"]).get_data(as_text=True)
    row = db.session.scalar(select(Explanation))
    r = client.post(f"/explanations/{row.slug}/edit", data={"text": DRAFT + "\nMore.\n", "save": "1"})
    assert r.status_code == 302
    assert "已保存。考生现在看到的是这一版。" in client.get(r.headers["Location"]).get_data(as_text=True)
