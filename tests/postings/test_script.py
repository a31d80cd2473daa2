"""Traditional Chinese documents: read in simplified characters, given back as they were written."""
from __future__ import annotations

from prep.postings.extract import extract_posting
from prep.postings.script import read_simplified

TRADITIONAL = """# 2026 面試分享 (聯訊半導體)

## 面試過程
- **第一輪 技術面**
- 行程與執行緒的差別是什麼？
- 虛擬記憶體的頁表是怎麼查的？
- **第二輪 主管面**
- 為什麼想轉到韌體開發？
"""


def test_a_traditional_report_is_read_and_its_questions_keep_their_characters() -> None:
    result = extract_posting(TRADITIONAL)
    assert result.doc_kind == "report"
    assert [q.text for q in result.questions] == ["行程與執行緒的差別是什麼？", "虛擬記憶體的頁表是怎麼查的？",
                                                  "為什麼想轉到韌體開發？"]
    assert "Virtual Memory" in result.skills  # 虛擬記憶體的頁表: 页表, once read in simplified characters


def test_a_simplified_page_quoting_a_few_traditional_names_is_read_as_it_is() -> None:
    text = "面试题\n1. 讲一下臺積電的先进封装\n2. 为什么 RDMA 比 TCP 快？\n"
    read, restore = read_simplified(text)
    assert read is text and restore("臺積電") == "臺積電"
    assert read_simplified("ASCII only") == ("ASCII only", read_simplified("x")[1])


def test_a_piece_the_text_does_not_hold_is_given_back_character_by_character() -> None:
    text = "後來面試官問了記憶體與執行緒。皇后區的辦公室很遠，還問了頁表與緩衝區。"
    read, restore = read_simplified(text)
    assert read == "后来面试官问了记忆体与执行绪。皇后区的办公室很远，还问了页表与缓冲区。"
    assert restore("问了记忆体与执行绪") == "問了記憶體與執行緒"                # found: the document's span
    assert restore("问了 记忆体 与 执行绪") == "問了 記憶體 與 執行緒"          # not found: each character back
    assert restore("后来") == "後來"                                          # found
    assert restore("后 来") == "后 來"  # not found: 后 is also written as it is (皇后), so never guessed as 後
