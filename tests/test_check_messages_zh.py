"""The content checker's own findings in the reader's language (issue 21 item 2): the checker is
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
