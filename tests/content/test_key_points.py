"""Key points in front matter: parsed, checked (too few, too many, empty, too long, not text;
missing only with --require-key-points, which `prep content check` turns on by default) and
stored by a sync."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from prep.content.check import MISSING_KEY_POINTS, check_tree
from prep.content.cli import content_group
from prep.content.document import parse_document
from prep.content.models import Explanation
from prep.content.sync import sync_tree
from prep.extensions import db

DATA = Path(__file__).parents[1] / "data" / "content"


def _doc(points: str) -> str:
    return f"---\ntitle: Ring\n{points}---\nBody\n"


def test_key_points_are_parsed_in_order() -> None:
    parsed = parse_document(_doc("key_points:\n  - One\n  - 两个要点\n  - '3: three'\n"), "c/ring.md")
    assert parsed.ok, parsed.problems
    assert parsed.doc.key_points == ["One", "两个要点", "3: three"]
    assert parsed.doc.line_of("key_points", 1) == 5


@pytest.mark.parametrize(("points", "line", "words"), [
    ("key_points: [a, b]\n", 3, "key_points has 2 items; give 3 to 6"),
    ("key_points: [a, b, c, d, e, f, g]\n", 3, "key_points has 7 items; give 3 to 6"),
    ("key_points:\n", 3, "key_points has 0 items"),
    ("key_points: []\n", 3, "key_points has 0 items"),
    ("key_points: one point\n", 3, "key_points must be a list of text items, not text"),
    ("key_points:\n  - a\n  - ''\n  - c\n", 5, "key_points item must not be empty"),
    ("key_points:\n  - a\n  - b\n  - " + "x" * 121 + "\n", 6, "key_points item is over 120 characters"),
    ("key_points:\n  - a\n  - 42\n  - c\n", 5, "key_points item must be text, not a number"),
])
def test_malformed_key_points_are_problems_with_their_line(points: str, line: int, words: str) -> None:
    parsed = parse_document(_doc(points), "c/ring.md")
    assert not parsed.ok
    assert any(p.line == line and words in p.message for p in parsed.problems), parsed.problems


def test_missing_key_points_only_when_required(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(_doc(""), encoding="utf-8")
    (tmp_path / "b.md").write_text(_doc("key_points: [x, y, z]\n"), encoding="utf-8")
    assert check_tree(tmp_path).ok  # a sync and the editor load a page without them
    report = check_tree(tmp_path, require_key_points=True)
    assert report.lines() == [f"{(tmp_path / 'a.md').as_posix()}:1: {MISSING_KEY_POINTS}"]


def test_content_check_requires_key_points_by_default(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(_doc(""), encoding="utf-8")
    result = CliRunner().invoke(content_group, ["check", str(tmp_path)])
    assert result.exit_code == 1 and "a.md:1: missing key_points" in result.output
    result = CliRunner().invoke(content_group, ["check", "--no-require-key-points", str(tmp_path)])
    assert result.exit_code == 0 and result.output == "1 file, 0 problems\n"


def test_the_good_fixture_pack_has_key_points_everywhere() -> None:
    report = check_tree(DATA / "good", require_key_points=True, taxonomy=None)
    assert report.ok, report.lines()
    assert all(3 <= len(d.key_points) <= 6 for d in report.docs) and len(report.docs) == 10


def test_sync_stores_key_points_and_updates_them(app, tmp_path: Path) -> None:
    root = tmp_path / "pack" / "collectives"
    root.mkdir(parents=True)
    page = root / "ring.md"
    page.write_text(_doc("key_points: [Reduce-scatter, All-gather, 2(N−1)/N·S per rank]\n"), encoding="utf-8")
    sync_tree(tmp_path / "pack")
    db.session.commit()
    row = db.session.query(Explanation).filter_by(slug="ring").one()
    assert row.key_points == ["Reduce-scatter", "All-gather", "2(N−1)/N·S per rank"]
    page.write_text(_doc(""), encoding="utf-8")
    sync_tree(tmp_path / "pack")
    db.session.commit()
    db.session.expire_all()
    assert db.session.query(Explanation).filter_by(slug="ring").one().key_points == []
