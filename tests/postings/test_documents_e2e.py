"""End to end: a scanned PDF uploaded on the import page gets a message asking for its text to be
pasted (nothing stored); a PDF with a text layer goes on to the review checklist."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.documents import pdf_bytes, scanned_pdf_bytes
from tests.support.live import register

pytestmark = pytest.mark.browser

REPORT = """字节跳动 AML 一面
1. 讲一下NCCL的ring allreduce每一步在干什么
2. 说说RDMA的RC和UD有什么区别
"""


def test_a_scanned_pdf_asks_for_pasted_text(live_server, page, tmp_path: Path):
    register(page, live_server)
    page.goto(live_server.url + "/postings/new")
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(scanned_pdf_bytes())
    page.set_input_files("#file", str(scan))
    page.click("#import-form button[type=submit]")
    alert = page.locator("[role=alert]", has_text="no text layer")
    alert.wait_for()
    assert "it looks like a scanned page. Copy its text and paste it into the box instead." in alert.inner_text()
    assert page.locator("#review-form").count() == 0

    report = tmp_path / "report.pdf"
    report.write_bytes(pdf_bytes(REPORT))
    page.set_input_files("#file", str(report))
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#review-form")
    assert "讲一下NCCL的ring allreduce每一步在干什么" in page.content()
    assert page.js_errors == []
