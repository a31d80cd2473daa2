"""Content that used to pass `prep content check` and then fail on save (issue 16 item 6): the
check and the save run the same parse, so what the check accepts saves and syncs, and what
would fail is reported with file and line before anything is written. YAML anchors and
aliases are refused; a file the database refuses does not stop a sync."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from prep.accounts.models import Role
from prep.content.cli import check_command
from prep.content.document import parse_document
from prep.content.models import Explanation
from prep.content.sync import sync_tree
from prep.extensions import db
from prep.questions.service import get_or_create_tags

HEAD = "---\ntitle: T\nskills: [NCCL]\n"
BODY = "---\nSome explanation.\n"
LONG_A, LONG_B = "a" * 80 + "x", "a" * 80 + "y"

BAD = {
    "no-words-question": (HEAD + 'questions: ["???"]\n' + BODY, 4, "no words"),
    "long-tags-sharing-a-prefix": (HEAD + f"tags: [{LONG_A}, {LONG_B}]\nquestions: ['Q?']\n" + BODY, 4, "over 80"),
    "alias": (HEAD + "a: &x [1, 2]\nquestions: *x\n" + BODY, 4, "anchors and aliases"),
    "billion-laughs": (HEAD + 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
                       + "".join(f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefg", "bcdefgh"))
                       + "questions: ['Q?']\n" + BODY, 4, "anchors and aliases"),
    "long-title": ("---\ntitle: " + "t" * 301 + "\nquestions: ['Q?']\n" + BODY, 2, "over 300"),
    "long-slug": (HEAD + "slug: " + "s" * 121 + "\nquestions: ['Q?']\n" + BODY, 4, "over 120"),
    "deep-yaml": (HEAD + "questions: " + "[" * 200 + "]" * 200 + "\n" + BODY, 4, "nest"),
    "huge-body": (HEAD + "questions: ['Q?']\n---\n" + "x" * 60_000 + "\n", 6, "over 50,000"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_check_reports_file_and_line(tmp_path: Path, name: str) -> None:
    text, line, words = BAD[name]
    start = time.thread_time()
    parsed = parse_document(text, f"gpu/{name}.md")
    assert time.thread_time() - start < 1.0
    assert not parsed.ok
    assert any(p.line == line and words in p.message for p in parsed.problems), parsed.problems
    (tmp_path / "gpu").mkdir()
    (tmp_path / "gpu" / f"{name}.md").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(check_command, [str(tmp_path)])
    assert result.exit_code == 1 and f"{name}.md:{line}:" in result.output, result.output


@pytest.fixture
def instructor(make_user, login):
    login(make_user("teach@example.com", role=Role.instructor))


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_editor_refuses_before_writing_and_never_500s(app, client, instructor, name: str) -> None:
    content = Path(app.config["CONTENT_DIR"])
    content.mkdir(parents=True, exist_ok=True)
    text = BAD[name][0]
    response = client.post("/explanations/new", data={"area": "gpu", "text": text, "save": "1"})
    assert response.status_code == 400, response.status_code
    assert list(content.rglob("*.md")) == []
    preview = client.post("/explanations/preview", data={"area": "gpu", "text": text})
    assert preview.status_code == 200 and preview.get_json()["problems"]
    # And the next, good save still works.
    good = "---\ntitle: Good one\nquestions: ['What is NCCL?']\n---\nFine.\n"
    assert client.post("/explanations/new", data={"area": "gpu", "text": good, "save": "1"}).status_code == 302


def test_a_file_the_database_refuses_is_skipped_and_the_rest_synced(app, tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "tree"
    (root / "gpu").mkdir(parents=True)
    (root / "gpu" / "good.md").write_text("---\ntitle: Good\nquestions: ['What is RDMA?']\n---\nok\n", encoding="utf-8")
    (root / "gpu" / "boom.md").write_text("---\ntitle: Boom\nquestions: ['What is NCCL?']\n---\nok\n", encoding="utf-8")
    import prep.content.sync as sync
    real = sync._sync_questions

    def refuse(doc, old):
        if doc.slug == "boom":
            from prep.questions.service import QuestionError
            raise QuestionError("refused")
        return real(doc, old)

    monkeypatch.setattr(sync, "_sync_questions", refuse)
    report = sync_tree(root)
    db.session.commit()
    assert report.added == ["gpu/good.md"]
    assert any("boom.md" in p for p in report.problems)
    assert db.session.scalar(select(func.count(Explanation.id))) == 1


def test_tags_sharing_80_characters_are_one_tag(app) -> None:
    tags = get_or_create_tags([LONG_A, LONG_B, "NCCL", "nccl"])
    db.session.flush()
    assert [t.name for t in tags] == ["a" * 80, "NCCL"]
