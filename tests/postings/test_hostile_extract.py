"""The extraction engine and the HTML reducer are linear.

Each case used to take seconds to minutes (the question-mark regex backtracked quadratically on
"为什么?" followed by a run of spaces; BeautifulSoup took ~27 s on 20,000 nested divs; a posting
with 2,500 question lines was imported whole). The budgets are CPU seconds and generous (a busy
CI machine), and each case is also checked for *linearity*: four times the input must take well under
sixteen times as long (a quadratic parser's ratio), the least of three runs each.
"""
from __future__ import annotations

from collections.abc import Callable

import pytest

from prep.postings import decode_posting_text, extract_posting
from prep.postings.asking import ends_with_question_mark
from prep.postings.decode import MAX_POSTING_CHARS
from prep.postings.extract import MAX_QUESTIONS
from prep.postings.htmltext import html_to_text
from tests.support.cpu import budget, least_cpu_seconds

BUDGET_S = budget(3.0)  # per input of up to 1 MB; measured well under 1 s on an idle 2-core machine



def _run(text: str) -> None:
    extract_posting(decode_posting_text(text))


CASES: dict[str, Callable[[int], str]] = {
    "question mark then spaces": lambda n: "面试题\n为什么?" + " " * n + "a",
    "question mark, spaces, many lines": lambda n: ("为什么?" + " " * 2000 + "a\n") * (n // 2000),
    "punctuation run": lambda n: "?？!（(" * (n // 5),
    "nested brackets": lambda n: "(" * (n // 2) + ")" * (n // 2),
    "list markers only": lambda n: "- \n1. \n①\n" * (n // 9),
    "round lines": lambda n: "一面（60min）\n" * (n // 20),
    "heading lines": lambda n: "## 面试题\n" * (n // 12),
    "colons": lambda n: ("面试：" * 100 + "\n") * (n // 900),
    "one long line": lambda n: "讲一下" + "NCCL " * (n // 5),
    "traditional questions": lambda n: "面試題\n" + "".join(f"{i}. 為什麼記憶體頁表 {i} 要這樣查？\n" for i in range(n // 24)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_adversarial_text_is_linear(name: str) -> None:
    make = CASES[name]
    small, large = make(100_000), make(400_000)
    _run(small)  # warm the compiled patterns and the taxonomy
    t_small = least_cpu_seconds(lambda: _run(small), runs=3)
    t_large = least_cpu_seconds(lambda: _run(large), runs=3)
    assert t_large <= BUDGET_S
    assert t_large <= 8 * max(t_small, 0.02), (t_small, t_large)


def test_a_megabyte_of_adversarial_text_fits_the_budget() -> None:
    text = "为什么?" + " " * (MAX_POSTING_CHARS - 20) + "a"
    assert least_cpu_seconds(lambda: _run(text)) <= BUDGET_S


def test_question_mark_check_is_a_scan() -> None:
    assert ends_with_question_mark("为什么?")
    assert ends_with_question_mark("Why? (asked twice)")
    assert ends_with_question_mark("“为什么？”  ")
    assert not ends_with_question_mark("为什么?" + " " * 50_000 + "a")
    assert least_cpu_seconds(
        lambda: [ends_with_question_mark("为什么?" + " " * 24_000 + "a") for _ in range(100)]) <= BUDGET_S


@pytest.mark.parametrize("depth", [20_000])
def test_deeply_nested_html_is_linear(depth: int) -> None:
    def page(n: int) -> str:
        return "<html><body>" + "<div>" * n + "<p>讲一下NCCL？</p>" + "</div>" * n + "</body></html>"

    assert "讲一下NCCL？" in html_to_text(page(depth))
    t_small = least_cpu_seconds(lambda: html_to_text(page(depth // 4)), runs=3)
    t_large = least_cpu_seconds(lambda: html_to_text(page(depth)), runs=3)
    assert t_large <= BUDGET_S
    assert t_large <= 8 * max(t_small, 0.02), (t_small, t_large)


def test_unbalanced_end_tags_are_linear() -> None:
    page = "<span>" * 40_000 + "x" + "</div>" * 40_000
    assert least_cpu_seconds(lambda: html_to_text(page)) <= BUDGET_S


def test_many_headings_in_html() -> None:
    page = "<h2>面试题</h2><p>讲一下RDMA？</p>" * 20_000
    assert least_cpu_seconds(lambda: extract_posting(decode_posting_text(page))) <= BUDGET_S


def test_questions_are_capped_and_the_rest_reported() -> None:
    text = "面试题\n" + "".join(f"{i}. 讲一下NCCL的第{i}个算法？\n" for i in range(2_500))
    result = extract_posting(text)
    assert len(result.questions) == MAX_QUESTIONS
    assert result.truncated == 2_500 - MAX_QUESTIONS
    assert result.to_json_dict()["truncated"] == 2_500 - MAX_QUESTIONS
