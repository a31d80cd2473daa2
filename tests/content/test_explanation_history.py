"""Explanations with history: the browser editor saves revisions to the
database, a file sync never removes browser work and removes file-owned explanations softly
(restorable), a file changed while the browser also saved is a flagged conflict with both texts
kept, and instructors see History, an escaped diff and "Restore this revision"."""
from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from prep.accounts.models import Role
from prep.content.models import Explanation, ExplanationRevision
from prep.content.sync import sync_tree
from prep.extensions import db
from tests.support.app import PASSWORD
from tests.support.clock import FIXED_NOW
from tests.support.pages import csrf_token_from

A = "---\ntitle: Alpha\nquestions: ['What is alpha?']\n---\nAlpha from the file.\n"
B = "---\ntitle: Beta\nquestions: ['What is beta?']\n---\nBeta from the file.\n"
C = "---\ntitle: Gamma\nquestions: ['What is gamma?']\n---\nGamma from the file.\n"


def write(root: Path, rel: str, text: str, *, at=None) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if at is not None:
        os.utime(path, (at.timestamp(), at.timestamp()))
    return path


def row(slug: str) -> Explanation:
    db.session.expire_all()
    return db.session.scalar(select(Explanation).where(Explanation.slug == slug))


def numbers(slug: str) -> list[tuple[int, str]]:
    return [(r.number, r.origin) for r in db.session.scalars(
        select(ExplanationRevision).join(Explanation).where(Explanation.slug == slug)
        .order_by(ExplanationRevision.number))]


@pytest.fixture
def content(app) -> Path:
    root = Path(app.config["CONTENT_DIR"])
    for rel, text in (("gpu/alpha.md", A), ("gpu/beta.md", B), ("gpu/gamma.md", C)):
        write(root, rel, text, at=FIXED_NOW - timedelta(days=1))
    sync_tree(root)
    db.session.commit()
    return root


@pytest.fixture
def instructor(make_user, login):
    user = make_user("teach@example.com", role=Role.instructor)
    login(user)
    return user


def test_sync_never_removes_browser_work_and_removes_file_work_softly(clock, client, instructor, content, runner):
    new = "---\ntitle: Delta\nquestions: ['What is delta?']\n---\nWritten in the browser.\n"
    assert client.post("/explanations/new", data={"area": "gpu", "text": new, "save": "1"}).status_code == 302
    edited = A.replace("from the file", "from the browser")
    assert client.post("/explanations/alpha/edit", data={"text": edited, "save": "1"}).status_code == 302
    for name in ("alpha", "gamma"):
        (content / "gpu" / f"{name}.md").unlink()
    report = sync_tree(content)
    db.session.commit()
    # alpha was last saved in the browser and delta never had a file: both stay; gamma goes, softly.
    assert report.removed == ["gpu/gamma.md"]
    assert row("alpha").removed_at is None and "from the browser" in row("alpha").html
    assert row("delta").removed_at is None and row("gamma").removed_at is not None
    assert runner.invoke(args=["content", "sync", "--prune", str(content)]).exit_code == 0
    assert row("alpha").removed_at is None and row("delta").removed_at is None
    # Removed: hidden from readers, listed for instructors with Restore, restorable.
    assert client.get("/explanations/gamma").status_code == 404
    index = client.get("/explanations").get_data(as_text=True)
    assert "Removed explanations" in index and "gpu/gamma.md" in index
    assert client.post("/explanations/gamma/restore?lang=en").status_code == 302
    assert row("gamma").removed_at is None and numbers("gamma") == [(1, "file"), (2, "restore")]
    assert "Gamma from the file" in client.get("/explanations/gamma").get_data(as_text=True)
    sync_tree(content)  # its file is still gone, but a restore is not file work: it stays
    db.session.commit()
    assert row("gamma").removed_at is None


def test_init_with_the_git_content_keeps_browser_edits(clock, client, instructor, content, runner):
    edited = B.replace("from the file", "from the browser")
    assert client.post("/explanations/beta/edit", data={"text": edited, "save": "1"}).status_code == 302
    result = runner.invoke(args=["init"])
    assert result.exit_code == 0, result.output
    assert row("beta").source == edited and numbers("beta") == [(1, "file"), (2, "browser")]


@pytest.mark.parametrize("file_is_newer", [True, False])
def test_a_file_and_a_browser_edit_since_the_last_sync_are_a_flagged_conflict(
        clock, client, instructor, content, make_user, login, file_is_newer):
    browser = A.replace("from the file", "from the browser")
    assert client.post("/explanations/alpha/edit", data={"text": browser, "save": "1"}).status_code == 302
    from_git = A.replace("from the file", "from git")
    write(content, "gpu/alpha.md", from_git, at=FIXED_NOW + timedelta(hours=1 if file_is_newer else -1))
    report = sync_tree(content)
    db.session.commit()
    assert report.conflicts == ["gpu/alpha.md"]
    alpha = row("alpha")
    assert alpha.conflict and numbers("alpha") == [(1, "file"), (2, "browser"), (3, "file")]
    assert alpha.source == (from_git if file_is_newer else browser)  # the newer is shown
    page = client.get("/explanations/alpha").get_data(as_text=True)
    assert "both changed this explanation" in page and "History" in page
    again = sync_tree(content)  # the same file again: nothing new
    db.session.commit()
    assert not again.conflicts and len(numbers("alpha")) == 3
    candidate = login(make_user("cand@example.com"), client.application.test_client())
    page = candidate.get("/explanations/alpha").get_data(as_text=True)
    assert "both changed" not in page and "History" not in page


def test_history_diff_is_escaped_and_restore_needs_csrf(clock, csrf_app, make_user, content):
    client = csrf_app.test_client()
    teacher = make_user("teach2@example.com", role=Role.instructor)
    page = client.get("/login").get_data(as_text=True)
    client.post("/login", data={"email": teacher.email, "password": PASSWORD,
                                "csrf_token": csrf_token_from(page)})
    hostile = A.replace("Alpha from the file.", "Alpha <script>alert(1)</script> & more.")
    edit = client.get("/explanations/alpha/edit").get_data(as_text=True)
    assert client.post("/explanations/alpha/edit", data={"text": hostile, "save": "1",
                                                         "csrf_token": csrf_token_from(edit)}).status_code == 302
    show = client.get("/explanations/alpha").get_data(as_text=True)
    assert "/explanations/alpha/revisions/2" in show and "teach2@example.com" in show and "browser editor" in show
    diff = client.get("/explanations/alpha/revisions/2?lang=en").get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more." in diff and "<script>alert" not in diff
    assert 'class="diff-del">-Alpha from the file.' in diff
    first = client.get("/explanations/alpha/revisions/1?lang=en").get_data(as_text=True)
    assert "Restore this revision" in first and "data-confirm" in first
    assert client.post("/explanations/alpha/revisions/1/restore?lang=en").status_code == 400  # no token
    assert numbers("alpha") == [(1, "file"), (2, "browser")]
    r = client.post("/explanations/alpha/revisions/1/restore?lang=en", data={"csrf_token": csrf_token_from(first)})
    assert r.status_code == 302
    assert numbers("alpha") == [(1, "file"), (2, "browser"), (3, "restore")] and row("alpha").source == A
    assert client.get("/explanations/alpha/revisions/9?lang=en").status_code == 404
    assert db.session.scalar(select(ExplanationRevision.author_id).where(ExplanationRevision.number == 3)) == teacher.id


def test_candidates_cannot_see_or_restore_history(clock, client, make_user, login, content):
    login(make_user("cand@example.com"))
    assert client.get("/explanations/alpha/revisions/1?lang=en").status_code == 403
    assert client.post("/explanations/alpha/revisions/1/restore?lang=en").status_code == 403
    assert client.post("/explanations/alpha/restore?lang=en").status_code == 403
    assert db.session.scalar(select(func.count(ExplanationRevision.id))) == 3


def test_preview_checks_cross_links_against_the_database_not_the_files(clock, client, instructor, content):
    """The draft's cross-links and slug are checked against the stored
    explanations; the serving host's folder is not read (here it is gone altogether)."""
    import shutil

    shutil.rmtree(content)
    draft = "---\ntitle: Epsilon\nquestions: ['What is epsilon?']\n---\nSee [[alpha]] and [[nowhere]].\n"
    answer = client.post("/explanations/preview", data={"text": draft, "area": "gpu"}).get_json()
    assert len(answer["problems"]) == 1 and "nowhere" in answer["problems"][0]
    taken = draft.replace("title: Epsilon", "title: Beta")
    answer = client.post("/explanations/preview", data={"text": taken, "area": "gpu"}).get_json()
    assert any("already used by gpu/beta.md" in p for p in answer["problems"])


def test_an_empty_folder_is_an_error_even_when_only_browser_work_is_stored(clock, client, instructor, app, runner,
                                                                           tmp_path):
    new = "---\ntitle: Delta\nquestions: ['What is delta?']\n---\nWritten in the browser.\n"
    assert client.post("/explanations/new", data={"area": "gpu", "text": new, "save": "1"}).status_code == 302
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(args=["content", "sync", str(empty)])
    assert result.exit_code == 1 and "no explanation files here" in result.output
    result = runner.invoke(args=["content", "sync", "--prune", str(empty)])
    assert result.exit_code == 0, result.output
    assert row("delta").removed_at is None and row("delta").source == new  # browser work is never removed
