"""A sync cannot wipe the explanations (the part that loses data): run on an empty
folder or a wrong checkout, `prep content sync` and `prep init` remove nothing, say which
explanations have no file, and (sync) exit 1; `--prune` removes them; a few deleted files are
still removed as before."""
from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from prep.content.models import Explanation, live
from prep.content.sync import sync_tree
from prep.extensions import db
from prep.questions.models import QuestionExplanation



def _count() -> int:
    """The explanations shown (a removal is soft: the row stays, hidden and restorable)."""
    return db.session.scalar(select(func.count(Explanation.id)).where(live())) or 0


def _shipped(tmp_path: Path, pages: int = 30) -> Path:
    """A pack of ``pages`` small explanations in three sections, as a checkout holds them."""
    root = tmp_path / "content"
    for number in range(pages):
        section = root / ("collectives", "gpu", "networking")[number % 3]
        section.mkdir(parents=True, exist_ok=True)
        (section / f"topic-{number}.md").write_text(
            f"---\ntitle: Topic {number}\ntags: [NCCL]\nquestions:\n  - What is topic {number} about?\n---\n"
            f"Topic {number} is explained here in a short paragraph of its own.\n", encoding="utf-8")
    return root


def test_an_empty_folder_removes_nothing(app, runner, tmp_path):
    root = _shipped(tmp_path)
    sync_tree(root)
    db.session.commit()
    before, links = _count(), db.session.scalar(select(func.count(QuestionExplanation.id)))
    assert before > 20
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(args=["content", "sync", str(empty)])
    assert result.exit_code == 1
    assert "nothing was removed" in result.output and "--prune" in result.output
    db.session.expire_all()
    assert _count() == before
    assert db.session.scalar(select(func.count(QuestionExplanation.id))) == links


def test_init_on_an_empty_content_dir_removes_nothing(app, runner, tmp_path):
    root = _shipped(tmp_path)
    sync_tree(root)
    db.session.commit()
    before = _count()
    empty = tmp_path / "empty"
    empty.mkdir()
    app.config["CONTENT_DIR"] = str(empty)
    result = runner.invoke(args=["init"])
    assert result.exit_code == 0, result.output
    assert "nothing was removed" in result.output
    db.session.expire_all()
    assert _count() == before


def test_prune_removes_and_a_few_deletions_still_go(app, runner, tmp_path):
    root = _shipped(tmp_path)
    sync_tree(root)
    db.session.commit()
    before = _count()
    files = sorted(root.rglob("*.md"))
    for path in files[:2]:  # a couple of deleted files: removed as before
        path.unlink()
    report = sync_tree(root)
    db.session.commit()
    assert len(report.removed) == 2 and not report.refused and _count() == before - 2
    many = len(files) // 10 + 1  # more than 10 % of the pack at once: refused, whatever its size
    for path in files[2:2 + many]:
        path.unlink()
    report = sync_tree(root)
    db.session.commit()
    assert report.refused and len(report.kept) == many and _count() == before - 2
    result = runner.invoke(args=["content", "sync", "--prune", str(root)])
    assert result.exit_code == 0, result.output
    db.session.expire_all()
    assert _count() == before - 2 - many
