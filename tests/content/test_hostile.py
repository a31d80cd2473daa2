"""Content that used to pass `prep content check` and then fail on save: the
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
from prep.content.check import check_tree
from prep.content.cli import check_command
from prep.content.document import parse_document
from prep.content.markdown_rules import MAX_ANCHORED_HEADINGS, MAX_BLOCK_NESTING
from prep.content.render import render_markdown
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
    "list-nested-past-the-limit": (HEAD + "questions: ['Q?']\n---\n" + "".join("  " * i + "- x\n" for i in range(40)),
                                   25, "nest more than"),
    "quotes-nested-past-the-limit": (HEAD + "questions: ['Q?']\n---\nok\n\n" + ">" * 100 + " x\n", 8, "nest more than"),
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
    import prep.content.revisions as revisions
    real = revisions.sync_questions

    def refuse(doc, old):
        if doc.slug == "boom":
            from prep.questions.service import QuestionError
            raise QuestionError("refused")
        return real(doc, old)

    monkeypatch.setattr(revisions, "sync_questions", refuse)
    report = sync_tree(root)
    db.session.commit()
    assert report.added == ["gpu/good.md"]
    assert any("boom.md" in p for p in report.problems)
    assert db.session.scalar(select(func.count(Explanation.id))) == 1


def test_tags_sharing_80_characters_are_one_tag(app) -> None:
    tags = get_or_create_tags([LONG_A, LONG_B, "NCCL", "nccl"])
    db.session.flush()
    assert [t.name for t in tags] == ["a" * 80, "NCCL"]


# --------------------------------------------------------------------------- check = save = sync

def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


GOOD = "---\ntitle: Good\nquestions: ['What is RDMA?']\n---\nok\n"
# Files the old check passed and the database then refused (PostgreSQL: a NUL character in
# text, an area name over the column's 80 characters, a path over its 500).
STORE_BAD = {
    "nul-in-body": ("gpu/nul.md", "---\ntitle: Nul\nquestions: ['What is a NUL?']\n---\nbefore\x00after\n", 5, "NUL"),
    "long-area": ("a" * 81 + "/long-area.md", "---\ntitle: Area\nquestions: ['What is an area?']\n---\nok\n", 1, "80"),
    "long-path": ("/".join(["d" * 60] * 9) + "/long-path.md",
                  "---\ntitle: Path\nquestions: ['What is a path?']\n---\nok\n", 1, "500"),
}


@pytest.mark.parametrize("name", sorted(STORE_BAD))
def test_what_the_check_accepts_the_sync_stores(app, tmp_path: Path, name: str) -> None:
    rel, text, line, words = STORE_BAD[name]
    root = _tree(tmp_path / "tree", {"gpu/good.md": GOOD, rel: text})
    checked = check_tree(root)
    assert any(p.path.endswith(rel) and p.line == line and words in p.message for p in checked.problems), \
        checked.lines()
    report = sync_tree(root)
    db.session.commit()
    assert report.added == ["gpu/good.md"], report
    assert not any("could not be stored" in p for p in report.problems), report.problems
    # and every file the check passes is stored
    assert {e.path for e in db.session.scalars(select(Explanation))} == {"gpu/good.md"}


def test_the_check_and_the_bank_agree_on_question_identity(app, tmp_path: Path) -> None:
    """The bank keys a question by questions.normalize (first 500 characters of words); the check
    compared another normal form, so two files could share one bank question unreported."""
    long = "word " * 130
    root = _tree(tmp_path / "tree", {
        "gpu/one.md": f"---\ntitle: One\nquestions: ['{long}alpha?']\n---\nok\n",
        "gpu/two.md": f"---\ntitle: Two\nquestions: ['{long}beta?']\n---\nok\n",
    })
    checked = check_tree(root)
    assert any("question also listed by" in p.message for p in checked.problems), checked.lines()


def test_init_and_sync_commands_skip_a_bad_file(app, runner, tmp_path: Path) -> None:
    root = _tree(tmp_path / "tree", {"gpu/good.md": GOOD, **{rel: text for rel, text, _, _ in STORE_BAD.values()}})
    result = runner.invoke(args=["content", "sync", str(root)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "long-path.md:1:" in result.output and "nul.md:5:" in result.output, result.output
    assert db.session.scalar(select(func.count(Explanation.id))) == 1
    app.config["CONTENT_DIR"] = str(root)
    (root / "gpu" / "more.md").write_text(GOOD.replace("Good", "More").replace("RDMA", "GPUDirect"), encoding="utf-8")
    result = runner.invoke(args=["init"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    db.session.expire_all()
    assert {e.path for e in db.session.scalars(select(Explanation))} == {"gpu/good.md", "gpu/more.md"}


# --------------------------------------------------------------------------- rendering

#: Adversarial Markdown bodies, each within the 50,000-character limit (longer ones are shown
#: escaped without parsing) or just over it.
HOSTILE_MARKDOWN = {
    "10k-headings": "# a\n" * 10_000,
    "5k-distinct-h2": "".join(f"## h{i}\n" for i in range(5_000)),
    "12k-setext-headings": "a\n=\n" * 12_000,
    "deep-list-indent": "".join("  " * i + "- x\n" for i in range(200)),
    "list-markers": "- " * 24_000 + "x",
    "deep-quotes": ">" * 49_000 + " x",
    "quote-lines": "".join(">" * i + " x\n" for i in range(300)),
    "quote-list": "> - " * 12_000 + "x",
    "100k-backticks": "`" * 100_000,
    "49k-backticks": "`" * 49_000,
    "backtick-runs": "".join("`" * i + " " for i in range(1, 300)),
    "long-link-refs": "".join(f"[{'l' * 900}{i}]: http://x/{'u' * 40}\n" for i in range(45)) + "[" + "l" * 900 + "0]\n",
    "link-ref-flood": "[a]: /u\n" * 5_000 + "[a]" * 3_000,
    "brackets": "[" * 25_000 + "]" * 24_000,
    "open-brackets": "[" * 49_000,
    "image-openers": "![" * 24_000,
    "link-openers": "[a](" * 12_000,
    "emphasis": "*a" * 24_000,
    "emphasis-mix": "*_" * 24_000,
    "footnotes": "".join(f"[^{i}]: x\n" for i in range(3_000)) + "[^1]" * 3_000,
    "dollars": "$a$ " * 12_000,
    "cross-links-unclosed": "[[a|" * 12_000,
    "entities": "&#" * 24_000,
    "fences": "```\n" * 12_000,
    "admonitions": "!!! note\n    " * 3_500,
}


@pytest.mark.parametrize("name", sorted(HOSTILE_MARKDOWN))
def test_rendering_hostile_markdown_is_bounded(name: str) -> None:
    text = HOSTILE_MARKDOWN[name]
    start = time.thread_time()
    rendered = render_markdown(text)
    spent = time.thread_time() - start
    assert spent < 3.0, f"{name}: {spent:.2f} s"
    assert len(rendered.toc) <= MAX_ANCHORED_HEADINGS
    assert "<script" not in rendered.html


def test_ten_thousand_headings_are_linear_and_the_toc_is_capped() -> None:
    text = "## same\n" * 5_000  # within the character limit; every heading the same title
    start = time.thread_time()
    rendered = render_markdown(text)
    assert time.thread_time() - start < 3.0
    assert len(rendered.toc) == MAX_ANCHORED_HEADINGS
    assert rendered.toc[1].anchor == "same-1" and rendered.toc[-1].anchor == f"same-{MAX_ANCHORED_HEADINGS - 1}"


def test_four_levels_of_lists_render_whole() -> None:
    """An inline nesting limit also cut block nesting: a list four levels deep dropped the rest of
    the page."""
    text = "".join("  " * i + f"- level {i}\n" for i in range(6)) + "\nThe paragraph after.\n"
    rendered = render_markdown(text)
    assert "level 5" in rendered.html and "The paragraph after." in rendered.html


def test_nesting_past_the_limit_is_reported_by_the_check_and_said_by_the_render() -> None:
    body = "".join("  " * i + "- x\n" for i in range(MAX_BLOCK_NESTING)) + "\nafter\n"
    text = "---\ntitle: Deep\nquestions: ['Deep?']\n---\n" + body
    parsed = parse_document(text, "gpu/deep.md")
    assert not parsed.ok and any("nest" in p.message and p.line > 5 for p in parsed.problems), parsed.problems
    assert "the rest is not shown" in render_markdown(body).html


def test_rendering_holds_no_global_lock() -> None:
    """Another thread renders a short page while a long one is being rendered."""
    import threading

    slow = "![" * 24_000
    done: dict[str, float] = {}

    def long_render() -> None:
        render_markdown(slow)
        done["long"] = time.monotonic()

    worker = threading.Thread(target=long_render)
    worker.start()
    time.sleep(0.02)  # let the other thread start its long render first (a thread, not a clock)
    render_markdown("# short\n\nfine\n")
    done["short"] = time.monotonic()
    worker.join()
    assert done["short"] <= done["long"]


@pytest.mark.parametrize("name", ["10k-headings", "deep-quotes", "49k-backticks", "long-link-refs", "image-openers"])
def test_the_editor_previews_and_saves_hostile_markdown_without_a_500(app, client, instructor, name: str) -> None:
    text = "---\ntitle: Hostile " + name + "\nslug: hostile-" + name.lower() + "\nquestions: ['Why " + name + "?']\n---\n" \
        + HOSTILE_MARKDOWN[name]
    start = time.thread_time()  # CPU time of this thread (the test client runs the app here): a busy machine does not count
    preview = client.post("/explanations/preview", data={"area": "gpu", "text": text})
    assert preview.status_code == 200
    response = client.post("/explanations/new", data={"area": "gpu", "text": text, "save": "1"})
    assert response.status_code in (302, 400), response.status_code
    assert time.thread_time() - start < 8.0
