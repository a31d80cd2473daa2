"""End to end: a scanned PDF uploaded on the import page gets a message asking for its text to be
pasted (nothing stored), in English and Chinese; a PDF with a text layer goes on to the review
checklist; a Word 面经 and the same report printed to PDF by the browser propose its text's questions."""
from __future__ import annotations

import html
from pathlib import Path

import pytest

from prep.postings import extract_posting
from tests.support.documents import docx_bytes, pdf_bytes, scanned_pdf_bytes
from tests.support.live import register

pytestmark = pytest.mark.browser

REPORT = """字节跳动 AML 一面
1. 讲一下NCCL的ring allreduce每一步在干什么
2. 说说RDMA的RC和UD有什么区别
"""


def _upload_a_scan(page, server, tmp_path: Path, marker: str, message: str) -> None:
    """Upload a scanned PDF: the page says ``message`` (in an alert holding ``marker``) and shows no checklist."""
    page.goto(server.url + "/postings/new")
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(scanned_pdf_bytes())
    page.set_input_files("#file", str(scan))
    page.click("#import-form button[type=submit]")
    alert = page.locator("[role=alert]", has_text=marker)
    alert.wait_for()
    assert message in alert.inner_text()
    assert page.locator("#review-form").count() == 0


def test_a_scanned_pdf_asks_for_pasted_text(live_server, page, tmp_path: Path):
    register(page, live_server)
    _upload_a_scan(page, live_server, tmp_path, "no text layer",
                   "it looks like a scanned page. Copy its text and paste it into the box instead.")

    report = tmp_path / "report.pdf"
    report.write_bytes(pdf_bytes(REPORT))
    page.set_input_files("#file", str(report))
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#review-form")
    assert "讲一下NCCL的ring allreduce每一步在干什么" in page.content()
    assert page.js_errors == []


REPORT_ZH = Path(__file__).resolve().parents[2] / "tests/data/corpus/zh_report_bytedance_rounds.txt"


def _upload_and_review(page, path: Path) -> list[str]:
    page.goto(page.url.split("/postings")[0] + "/postings/new?kind=report")
    page.set_input_files("#file", str(path))
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#review-form")
    rows = page.locator(".review-row textarea")
    return [rows.nth(i).input_value() for i in range(rows.count())]


def _unspaced(texts: list[str]) -> list[str]:
    return ["".join(t.split()) for t in texts]


def test_in_chinese_a_scan_is_refused_and_word_and_printed_pdf_reports_give_their_texts_questions(
        live_server, page, tmp_path: Path):
    register(page, live_server, email="docs-zh@example.com")
    page.click(".language-switcher button[value=zh]")
    page.wait_for_selector("html[lang=zh-CN]")
    _upload_a_scan(page, live_server, tmp_path, "没有文字层",
                   "这个 PDF 没有文字层：它看起来是扫描的页面。请复制其中的文字，粘贴到文本框中。")

    text = REPORT_ZH.read_text(encoding="utf-8")
    expected = [q.text for q in extract_posting(text).questions]
    assert len(expected) >= 5
    word = tmp_path / "面经.docx"
    word.write_bytes(docx_bytes(text))
    assert _upload_and_review(page, word) == expected
    page.click("#review-save", timeout=120_000)
    page.wait_for_selector("#posting-title")
    assert page.locator("a.posting-question").all_inner_texts() == expected

    # A PDF as a browser prints one (fonts switched between Chinese and Latin runs, an emoji, real
    # layout): the same questions, spaces aside, and none of the spaces the font switches put in.
    text = "攒人品，挂了也要分享 😭\n" + text
    expected = [q.text for q in extract_posting(text).questions]
    printed = tmp_path / "printed.pdf"
    body = "".join(f"<p>{html.escape(line)}</p>" for line in text.splitlines() if line.strip())
    printer = page.context.new_page()
    printer.set_content(f"<html><body style='font: 11pt sans-serif'>{body}</body></html>")
    printed.write_bytes(printer.pdf(format="A4"))
    printer.close()
    got = _upload_and_review(page, printed)
    assert _unspaced(got) == _unspaced(expected)
    assert not any("  " in q or " ，" in q or "： " in q for q in got), got
    assert page.js_errors == []
