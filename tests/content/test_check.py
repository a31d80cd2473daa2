"""Checking a content tree (our own fixture corpus, good and broken) and `content check`."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from prep.content.check import check_tree
from prep.content.cli import content_group
from prep.skills.taxonomy import Taxonomy, load_taxonomy

DATA = Path(__file__).parents[1] / "data" / "content"

EXPECTED_BROKEN = """\
broken/Bad_Name.md:1: file name 'Bad_Name' is not a valid slug: rename the file (lower-case letters, digits, hyphens) or set 'slug'
broken/dups/ok-target.md:3: duplicate slug 'ok-target' (lang en): also used by broken/dups/copy.md
broken/empty-body.md:3: the explanation body is empty
broken/latin1.md:4: not valid UTF-8 (byte 0xe9); save the file as UTF-8
broken/links.md:7: cross-link target 'ghost' does not exist
broken/links.md:7: malformed cross-link '[[Bad Link]]': a slug is lower-case letters, digits and hyphens
broken/links.md:15: unknown admonition kind 'caution' (use note, tip, warning, danger, info)
broken/networking/bad-yaml.md:4: invalid YAML in front matter: expected ',' or ']', but got ':' (while parsing a flow sequence started on line 3); a [list] must end with ']'
broken/networking/fields.md:1: missing required field 'title'
broken/networking/fields.md:2: unknown field 'titel' (known: title, slug, tags, skills, questions, difficulty, lang, related, key_points, questions_paired)
broken/networking/fields.md:3: difficulty must be a whole number from 1 to 5, not 7
broken/networking/fields.md:4: lang must be one of en, zh, not 'fr'
broken/networking/fields.md:5: tags must be a list of text items, not text
broken/networking/fields.md:6: skill 'nccl' is not the canonical name: use 'NCCL'
broken/networking/fields.md:6: unknown skill 'Quantum' (not in the skills taxonomy)
broken/networking/fields.md:8: question also listed by 'ok-target' (broken/dups/copy.md:5)
broken/networking/fields.md:9: questions item must be text, not a number (put it in quotes)
broken/networking/fields.md:10: related explanation 'ghost-related' does not exist
broken/networking/types.md:2: title must be text, not a boolean (put it in quotes)
broken/networking/types.md:3: slug 'Bad_Slug' is invalid: use lower-case letters, digits and hyphens
broken/networking/types.md:4: difficulty must be a whole number from 1 to 5, not 'two'
broken/no-front-matter.md:1: missing front matter: the file must start with a '---' line
broken/unclosed.md:1: front matter is not closed: add a '---' line after it
"""


@pytest.fixture
def taxonomy() -> Taxonomy:
    return load_taxonomy(DATA / "taxonomy.yaml")


@pytest.fixture
def in_data(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from tests/data/content so reported paths are short and relative."""
    monkeypatch.chdir(DATA)
    return DATA


def test_good_corpus_has_no_problems(taxonomy: Taxonomy) -> None:
    report = check_tree(DATA / "good", taxonomy)
    assert report.ok, report.lines()
    assert report.files == 10 and len(report.docs) == 10
    assert {(d.slug, d.lang) for d in report.docs} >= {("ring-allreduce", "en"), ("ring-allreduce", "zh")}


def test_broken_corpus_reports_every_problem_one_per_line(in_data: Path, taxonomy: Taxonomy) -> None:
    report = check_tree(Path("broken"), taxonomy)
    assert "\n".join(report.lines()) + "\n" == EXPECTED_BROKEN
    assert report.files == 12


def test_a_bad_file_never_takes_the_others_down(in_data: Path, taxonomy: Taxonomy) -> None:
    report = check_tree(Path("broken"), taxonomy)
    # files with no problem of their own are still loaded (the translation and the duplicate's twin)
    assert sorted(d.path for d in report.docs) == ["broken/dups/copy.md", "broken/dups/ok-target.zh.md"]
    assert "broken/links.md" in {d.path for d in report.all_docs}


def test_same_slug_in_two_languages_is_a_translation(tmp_path: Path, taxonomy: Taxonomy) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.md").write_text("---\ntitle: X\n---\nbody [[x]]\n", encoding="utf-8")
    (tmp_path / "a" / "x.zh.md").write_text("---\ntitle: X\n---\n正文\n", encoding="utf-8")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "junk.md").write_text("not content", encoding="utf-8")
    report = check_tree(tmp_path, taxonomy)
    assert report.ok and report.files == 2


def test_cross_links_in_code_are_ignored_and_lines_are_file_lines(tmp_path: Path, taxonomy: Taxonomy) -> None:
    text = "---\ntitle: X\n---\nline 4\n\n````md\n[[in-fence]]\n```\n[[still-fence]]\n````\n`[[span]]` [[real]]\n"
    (tmp_path / "x.md").write_text(text, encoding="utf-8")
    report = check_tree(tmp_path, taxonomy)
    assert report.lines() == [f"{(tmp_path / 'x.md').as_posix()}:11: cross-link target 'real' does not exist"]


def test_default_taxonomy_is_the_shipped_one(tmp_path: Path) -> None:
    (tmp_path / "x.md").write_text("---\ntitle: X\nskills: [NCCL, Cobol]\n---\nB\n", encoding="utf-8")
    assert [p.message for p in check_tree(tmp_path).problems] == [
        "unknown skill 'Cobol' (not in the skills taxonomy)"]


def test_content_check_cli_reports_problems_and_exits_1(in_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(content_group, ["check", "--no-require-key-points", "broken"])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert len(lines) == len(EXPECTED_BROKEN.splitlines())
    assert "broken/unclosed.md:1: front matter is not closed: add a '---' line after it" in lines


def test_content_check_cli_ok_summary_and_env_default(in_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PREP_CONTENT_DIR", "good/networking")
    result = CliRunner().invoke(content_group, ["check"])
    assert result.exit_code == 0, result.output
    assert result.output == "2 files, 0 problems\n"


@pytest.mark.parametrize("args", [["check", "no-such-dir"], ["check", "a", "b"], ["nope"]])
def test_content_check_cli_bad_arguments_exit_2_without_traceback(in_data: Path, args: list[str]) -> None:
    result = CliRunner().invoke(content_group, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "Error:" in result.output


def test_content_check_cli_missing_default_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PREP_CONTENT_DIR", raising=False)
    result = CliRunner().invoke(content_group, ["check"])
    assert result.exit_code == 2 and "directory 'content' does not exist" in result.output


def test_highlight_css_command_prints_the_stylesheet() -> None:
    result = CliRunner().invoke(content_group, ["highlight-css"])
    assert result.exit_code == 0 and "prefers-color-scheme: dark" in result.output
