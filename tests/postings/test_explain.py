"""``prep extract --explain``: each line of one document, taken as a question or not, and why."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from prep.postings.cli import extract_command
from prep.postings.explain import explain_document

REPORT = """阿里云 一面
- 自我介绍
- 讲讲 RDMA 的 write 和 send 有什么区别？
- 追问：为什么 write 不需要对端 post recv？
反问：
- 团队多少人？
"""


def test_each_line_says_whether_it_was_taken_and_why() -> None:
    kind, verdicts = explain_document(REPORT)
    assert kind == "an interview report"
    by_line = {v.line: v for v in verdicts}
    asked = by_line["- 讲讲 RDMA 的 write 和 send 有什么区别？"]
    assert asked.taken and asked.question == "讲讲 RDMA 的 write 和 send 有什么区别？"
    follow_up = by_line["- 追问：为什么 write 不需要对端 post recv？"]  # a follow-up on its own line: a question of its own
    assert follow_up.taken and follow_up.question == "为什么 write 不需要对端 post recv？"
    assert not by_line["- 自我介绍"].taken and "not an interview question" in by_line["- 自我介绍"].why
    own = by_line["- 团队多少人？"]
    assert not own.taken and "candidate's own" in own.why


def test_cli_explains_one_file(tmp_path: Path) -> None:
    path = tmp_path / "report.txt"
    path.write_text(REPORT, encoding="utf-8")
    result = CliRunner().invoke(extract_command, ["--explain", str(path)])
    assert result.exit_code == 0, result.output
    assert "read as an interview report" in result.output
    assert "+ - 讲讲 RDMA" in result.output and "candidate's own questions" in result.output
    two = CliRunner().invoke(extract_command, ["--explain", str(path), str(path)])
    assert two.exit_code == 2 and "one FILE" in two.output
