"""Golden cases for the one ``normalize_question`` (question identity in the bank, exact matches
in the linker, merging in postings): adding a case is adding a row."""
from __future__ import annotations

import pytest

from prep.content import linker
from prep.questions.normalize import normalize_question

GOLDEN = [
    # full-width and half-width
    ("１２３ＡＢＣ", "123abc"),
    ("Ｃ＋＋ leak?", "cleak"),
    # case
    ("What Is RDMA", "whatisrdma"),
    ("Straße", "strasse"),
    # punctuation and symbols
    ("TCP/IP, UDP; QUIC!", "tcpipudpquic"),
    ("snake_case", "snakecase"),
    ("「引号」《书名》", "引号书名"),
    # trailing question marks, ASCII and full-width
    ("what is rdma?", "whatisrdma"),
    ("什么是RDMA？", "什么是rdma"),
    # whitespace, including the ideographic space and a zero-width space
    (" a\tb\n c\u3000", "abc"),
    ("x\u200by", "xy"),
    # Chinese mixed with Latin terms
    ("RDMA与TCP/IP相比有何优势？", "rdma与tcpip相比有何优势"),
    # compatibility forms and composed accents
    ("Ⅻ ½", "xii12"),
    ("e\u0301t\u00e9", "été"),
    # combining marks that do not compose are dropped (the bank's rule, which the linker now shares)
    ("नमस्ते", "नमसत"),
]


@pytest.mark.parametrize(("text", "expected"), GOLDEN)
def test_golden(text: str, expected: str) -> None:
    assert normalize_question(text) == expected


def test_long_text_is_cut_at_500() -> None:
    assert normalize_question("a" * 600) == "a" * 500


def test_the_linker_uses_the_same_function() -> None:
    assert linker.normalize_question is normalize_question
