"""Instructor editor: permissions, validation, preview, atomic save + sync, links, unanswered queue."""
from __future__ import annotations

import errno
from pathlib import Path

import pytest
from sqlalchemy import func, select

from prep.accounts.models import Role
from prep.content import editor
from prep.content.models import Explanation, ExplanationRevision
from prep.content.sync import sync_tree
from prep.drill import rating
from prep.drill.cards import add_to_study
from prep.drill.models import Card, ReviewLog
from prep.extensions import db
from prep.questions.models import LinkOrigin, Question, QuestionExplanation, Source
from prep.questions.service import add_question
from tests.support.clock import FIXED_NOW

GOOD = """---
title: CUDA streams
skills: [CUDA]
questions:
  - What is a CUDA stream?
---
## Streams

A stream is an ordered queue of work, $t = \\alpha + \\beta n$.

```cpp
cudaStream_t s; cudaStreamCreate(&s);
```
"""


@pytest.fixture
def instructor(make_user, login, client):
    user = make_user("teach@example.com", role=Role.instructor)
    login(user)
    return user


@pytest.fixture
def content_dir(app) -> Path:
    root = Path(app.config["CONTENT_DIR"])
    root.mkdir(parents=True, exist_ok=True)
    return root


def test_candidates_get_403(client, login, make_user):
    login(make_user())
    for url in ("/explanations/new", "/instructor/unanswered", "/explanations/x/edit"):
        assert client.get(url).status_code == 403
    assert client.post("/explanations/preview", data={"text": GOOD}).status_code == 403


def test_anonymous_is_sent_to_login(client):
    r = client.get("/explanations/new")
    assert r.status_code == 302 and "/login" in r.headers["Location"]


def test_new_prefills_question(client, instructor, content_dir):
    q = add_question("如何设计NCCL的拓扑感知通信？", source=Source.posting)
    db.session.commit()
    html = client.get(f"/explanations/new?question={q.id}").get_data(as_text=True)
    assert "如何设计NCCL的拓扑感知通信？" in html


def test_preview_renders_highlighted_code_and_math(client, instructor, content_dir):
    data = client.post("/explanations/preview", data={"text": GOOD, "area": "gpu"}).get_json()
    assert 'class="highlight"' in data["html"] and 'class="math inline"' in data["html"]
    assert data["problems"] == []
    bad = client.post("/explanations/preview", data={"text": GOOD.replace("[CUDA]", "[Cobol]"),
                                                     "area": "gpu"}).get_json()
    assert any("unknown skill 'Cobol'" in p for p in bad["problems"])


def test_save_stores_a_revision_writes_no_file_and_drill_shows_it(client, instructor, content_dir):
    r = client.post("/explanations/new", data={"area": "gpu", "text": GOOD.replace("\n", "\r\n"), "save": "1"})
    assert r.status_code == 302, r.get_data(as_text=True)
    # The database holds it (any host serves it); the serving host's folder is not written.
    assert list(content_dir.rglob("*.md")) == []
    row = db.session.scalar(select(Explanation))
    # With no slug in the front matter, the path (and slug) is made from the title.
    assert row is not None and row.title == "CUDA streams" and row.path == "gpu/cuda-streams.md"
    assert row.source == GOOD and row.origin == "browser"  # the textarea's CRLF stored as LF
    revision = db.session.scalar(select(ExplanationRevision))
    assert (revision.number, revision.origin, revision.author_id, revision.source) == (1, "browser", instructor.id,
                                                                                        GOOD)
    question = db.session.scalar(select(Question).where(Question.text == "What is a CUDA stream?"))
    add_to_study(instructor, [question.id], FIXED_NOW)
    db.session.commit()
    card = db.session.scalar(select(Card))
    html = client.get(f"/drill?card={card.id}&show=1").get_data(as_text=True)
    assert "CUDA streams" in html and 'class="highlight"' in html


def test_invalid_draft_shows_problems_inline_and_saves_nothing(client, instructor, content_dir):
    bad = GOOD.replace("title: CUDA streams\n", "").replace("[CUDA]", "[Cobol]")
    r = client.post("/explanations/new", data={"area": "gpu", "text": bad, "save": "1"})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "nothing was saved" in html and "Cobol" in html and "title" in html
    assert list(content_dir.rglob("*.md")) == []
    assert db.session.scalar(select(func.count(Explanation.id))) == 0


def test_bad_area_is_refused(client, instructor, content_dir):
    r = client.post("/explanations/new", data={"area": "../etc", "text": GOOD, "save": "1"})
    assert r.status_code == 400
    assert list(content_dir.rglob("*.md")) == []


def test_edit_keeps_cards_and_history(client, instructor, content_dir):
    (content_dir / "gpu").mkdir()
    (content_dir / "gpu" / "cuda-streams.md").write_text(GOOD, encoding="utf-8")
    sync_tree(content_dir)
    db.session.commit()
    question = db.session.scalar(select(Question).where(Question.text == "What is a CUDA stream?"))
    add_to_study(instructor, [question.id], FIXED_NOW)
    db.session.commit()
    card = db.session.scalar(select(Card))
    rating.rate(instructor, rating.Answer(card.id, 0, 3), FIXED_NOW)
    db.session.commit()
    page = client.get("/explanations/cuda-streams/edit").get_data(as_text=True)
    assert "What is a CUDA stream?" in page
    edited = GOOD.replace("ordered queue of work", "ordered queue of GPU work")
    r = client.post("/explanations/cuda-streams/edit", data={"text": edited, "save": "1"})
    assert r.status_code == 302
    assert (content_dir / "gpu" / "cuda-streams.md").read_text(encoding="utf-8") == GOOD  # the file is untouched
    row = db.session.scalar(select(Explanation))
    assert "GPU work" in row.html and row.source == edited and row.revision == 2
    # The next sync of the unchanged file keeps the browser's text.
    sync_tree(content_dir)
    db.session.commit()
    assert "GPU work" in db.session.scalar(select(Explanation)).html
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 1
    assert db.session.get(Card, card.id).question_id == question.id
    # Changing the slug in place is refused.
    r = client.post("/explanations/cuda-streams/edit",
                    data={"text": GOOD.replace("---\ntitle", "---\nslug: other\ntitle"), "save": "1"})
    assert r.status_code == 400 and "cannot be changed" in r.get_data(as_text=True)


def test_disk_full_leaves_the_old_file_intact(tmp_path, monkeypatch):
    target = tmp_path / "a.md"
    target.write_text("old", encoding="utf-8")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(editor.os, "replace", full)
    with pytest.raises(OSError):
        editor.write_atomically(target, "new text")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.md"]  # no temp file left behind


def test_a_full_or_read_only_disk_does_not_stop_a_save(client, instructor, content_dir, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(editor.os, "replace", full)
    content_dir.chmod(0o500)
    try:
        r = client.post("/explanations/new", data={"area": "gpu", "text": GOOD, "save": "1"})
    finally:
        content_dir.chmod(0o700)
    assert r.status_code == 302
    assert db.session.scalar(select(func.count(Explanation.id))) == 1


def test_unanswered_queue_and_hand_links_survive_resync(client, instructor, content_dir):
    (content_dir / "gpu").mkdir()
    (content_dir / "gpu" / "cuda-streams.md").write_text(GOOD, encoding="utf-8")
    sync_tree(content_dir)
    orphan = add_question("How do you pick a block size for a kernel?", source=Source.user)
    db.session.commit()
    html = client.get("/instructor/unanswered").get_data(as_text=True)
    assert "pick a block size" in html and "What is a CUDA stream?" not in html
    r = client.post(f"/instructor/questions/{orphan.id}/links", data={"slug": "nope"})
    assert r.status_code == 400 and "No explanation has the slug" in r.get_data(as_text=True)
    client.post(f"/instructor/questions/{orphan.id}/links", data={"slug": "cuda-streams"})
    assert "pick a block size" not in client.get("/instructor/unanswered").get_data(as_text=True)
    # Reject the content link of the other question; re-sync does not bring it back.
    q = db.session.scalar(select(Question).where(Question.text == "What is a CUDA stream?"))
    link = db.session.scalar(select(QuestionExplanation).where(QuestionExplanation.question_id == q.id))
    client.post(f"/instructor/links/{link.id}/reject")
    (content_dir / "gpu" / "cuda-streams.md").write_text(GOOD + "\nMore.\n", encoding="utf-8")
    sync_tree(content_dir)
    db.session.commit()
    link = db.session.get(QuestionExplanation, link.id)
    assert link.rejected and link.origin is LinkOrigin.manual
    assert db.session.get(Question, q.id).accepted_links == []
