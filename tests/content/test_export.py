"""`prep content export DIR`: every current explanation back out as its file,
byte-identical to the file it came from; a round trip through a fresh database gives the same
tree; a folder that is not a content folder is refused, and no write goes through a link."""
from __future__ import annotations

import shutil
from pathlib import Path

from prep.content.export import export_tree
from prep.content.sync import sync_tree
from prep.extensions import db
from tests.support.app import make_app
from tests.support.content import load_shipped_content

REPO = Path(__file__).resolve().parents[2]


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_round_trip_through_a_fresh_database_is_byte_identical(app, runner, tmp_path, shipped_content):
    """Every shipped file, as a sync of content/ stored it (the ``shipped_content`` rows), and one
    written here."""
    content = tmp_path / "content"
    shutil.copytree(REPO / "content", content)
    # A file without a final newline and one with CRLF line ends come back exactly as they were.
    (content / "networking" / "bare.md").write_bytes(b"---\r\ntitle: Bare\r\nquestions: ['What is bare?']\r\n---\r\n"
                                                     b"No final newline.")
    report = sync_tree(content)
    assert not report.problems and report.unchanged == len(tree(content)) - 1
    db.session.commit()
    first = tmp_path / "first"
    result = runner.invoke(args=["content", "export", str(first)])
    assert result.exit_code == 0, result.output
    assert tree(first) == tree(content)
    # Another fresh database: sync the export, export again. The export is byte-identical to
    # content/ and a bare file, so its sync is the shipped rows' sync and the bare file's.
    other = make_app(tmp_path / "other", SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'other.sqlite3'}")
    with other.app_context():
        load_shipped_content()
        report = sync_tree(first)
        assert not report.problems and report.unchanged == len(tree(first)) - 1
        db.session.commit()
        second = tmp_path / "second"
        report = export_tree(second)
        assert tree(second) == tree(first) == tree(content) and len(report.written) == len(tree(content))
        assert export_tree(second).unchanged == len(report.written)  # again: nothing rewritten
        db.session.remove()
        db.engine.dispose()


def test_a_folder_that_is_not_a_content_folder_is_refused(app, runner, tmp_path):
    content = tmp_path / "content"
    (content / "gpu").mkdir(parents=True)
    (content / "gpu" / "nccl.md").write_text("---\ntitle: NCCL\nquestions: ['What is NCCL?']\n---\nRings.\n",
                                             encoding="utf-8")
    sync_tree(content)
    db.session.commit()
    home = tmp_path / "home"
    (home / "gpu").mkdir(parents=True)
    (home / "notes.txt").write_text("mine", encoding="utf-8")
    (home / "gpu" / "nccl.md").write_text("my own file", encoding="utf-8")
    result = runner.invoke(args=["content", "export", str(home)])
    assert result.exit_code != 0 and "notes.txt" in result.output and "--force" in result.output
    assert (home / "gpu" / "nccl.md").read_text(encoding="utf-8") == "my own file"
    file_target = tmp_path / "a-file"
    file_target.write_text("x", encoding="utf-8")
    assert runner.invoke(args=["content", "export", str(file_target)]).exit_code != 0
    result = runner.invoke(args=["content", "export", "--force", str(home)])
    assert result.exit_code == 0, result.output
    assert (home / "gpu" / "nccl.md").read_bytes() == (content / "gpu" / "nccl.md").read_bytes()
    assert (home / "notes.txt").read_text(encoding="utf-8") == "mine"  # never deleted
    assert not [p for p in home.rglob("*.tmp")]


def test_export_never_writes_through_a_link(app, tmp_path):
    content = tmp_path / "content"
    (content / "gpu").mkdir(parents=True)
    (content / "gpu" / "nccl.md").write_text("---\ntitle: NCCL\nquestions: ['What is NCCL?']\n---\nRings.\n",
                                             encoding="utf-8")
    sync_tree(content)
    db.session.commit()
    target, outside = tmp_path / "out", tmp_path / "outside"
    target.mkdir()
    outside.mkdir()
    (target / "gpu").symlink_to(outside, target_is_directory=True)
    report = export_tree(target)
    assert report.problems and "symbolic link" in report.problems[0] and not report.written
    assert list(outside.iterdir()) == []
