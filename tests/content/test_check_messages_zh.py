"""The content checker's own findings in the reader's language: the checker is
pure and returns a message id with its values; the editor and its live preview translate them,
the CLI stays English."""
from __future__ import annotations

import pytest

from prep.accounts.models import Role
from prep.content.document import parse_document
from prep.content.errors import problem

DRAFT = """---
title: Ring AllReduce
difficulty: 9
questions:
  - How does ring AllReduce work?
key_points:
  - each rank sends to its right neighbour
  - reduce-scatter then all-gather
  - bandwidth term 2(n-1)/n
---
## The idea

See [[no-such-page]].

!!! nonsense "A box"
    Inside.
"""


@pytest.fixture
def zh_instructor(make_user, login, client):
    user = make_user("teach-zh@example.com", role=Role.instructor, language="zh")
    login(user)
    return user


def test_a_problem_keeps_its_english_and_its_message_id() -> None:
    p = problem("a.md", 3, "cross-link target '%(target)s' does not exist", target="x")
    assert p.message == "cross-link target 'x' does not exist"
    assert p.msgid == "cross-link target '%(target)s' does not exist" and dict(p.params) == {"target": "x"}
    assert str(p) == "a.md:3: cross-link target 'x' does not exist"  # the CLI prints English
    parsed = parse_document(DRAFT, "content/net/ring.md", lenient=True)
    assert [p.message for p in parsed.problems] == ["difficulty must be a whole number from 1 to 5, not 9"]


def test_the_editor_preview_in_chinese_shows_chinese_problems(client, zh_instructor) -> None:
    data = client.post("/explanations/preview", data={"text": DRAFT, "area": "net"}).get_json()
    text = " ".join(data["problems"])
    assert "difficulty 必须是 1 到 5 的整数，而不是 9" in text
    assert "交叉链接的目标 'no-such-page' 不存在" in text
    assert "未知的提示框类型 'nonsense'" in text
    assert "must be" not in text and "does not exist" not in text
    page = client.post("/explanations/new", data={"area": "net", "text": DRAFT, "preview": "1"}).get_data(as_text=True)
    assert "交叉链接的目标 &#39;no-such-page&#39; 不存在" in page or "交叉链接的目标 'no-such-page' 不存在" in page
    assert "does not exist" not in page


def test_the_editor_preview_in_english_is_unchanged(client, make_user, login) -> None:
    login(make_user("teach-en@example.com", role=Role.instructor, language="en"))
    data = client.post("/explanations/preview", data={"text": DRAFT, "area": "net"}).get_json()
    assert any("cross-link target 'no-such-page' does not exist" in p for p in data["problems"])


def test_the_words_inside_a_finding_are_translated_too(client, zh_instructor) -> None:
    text = DRAFT.replace("title: Ring AllReduce", "title: 12")
    data = client.post("/explanations/preview", data={"text": text, "area": "net"}).get_json()
    assert any("title 必须是文本，而不是数字（请加上引号）" in p for p in data["problems"]), data["problems"]


@pytest.mark.parametrize(("front", "zh", "english"), [
    # PyYAML's description has values in it: it stays as written, the hint is translated.
    ("title: a\ntags: [x, y\n", "；[列表] 必须以 ']' 结尾", "expected ',' or ']'"),
    # A fixed description is translated whole, and so is its hint.
    ("title: a\n  b: c\n", "这里不能出现映射的值（多了一个 ': '？）；如果值里有 ': '，请给它加上引号", None),
    ("title: &a x\nsummary: *a\n", "前置信息里不允许锚点和别名（&name、*name）", None),
    ("title: a\x1f\n", "前置信息的 YAML 无效：不允许字符 #x001f", None),
])
def test_yaml_errors_in_chinese(client, zh_instructor, front, zh, english) -> None:
    text = "---\n" + front + "---\n## Body\n\nText.\n"
    problems = client.post("/explanations/preview", data={"text": text, "area": "net"}).get_json()["problems"]
    yaml_lines = [p for p in problems if "前置信息的 YAML 无效" in p]
    assert yaml_lines and any(zh in p for p in yaml_lines), problems
    assert not any("invalid YAML" in p for p in problems)
    if english is not None:  # the part with values keeps PyYAML's words
        assert any(english in p for p in yaml_lines)
    else:
        assert not any(w in p for p in yaml_lines for w in ("not allowed", "mapping values"))


def test_yaml_errors_keep_their_english_for_the_cli() -> None:
    parsed = parse_document("---\ntitle: a\n  b: c\n---\nB\n", "a.md", lenient=True)
    [p] = [p for p in parsed.problems if "YAML" in p.message]
    assert p.message == ("invalid YAML in front matter: mapping values are not allowed here; "
                         "if a value contains ': ', put it in quotes")
    assert p.msgid == "invalid YAML in front matter: %(detail)s%(hint)s"
