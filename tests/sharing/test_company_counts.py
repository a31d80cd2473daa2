"""Shared reports on the company pages, end to end through the pages: three reports of one company
under two of its names (字节跳动, ByteDance), shared by three candidates and approved, rank their
questions by how many reports asked them for a fourth candidate; a report still waiting for review
adds nothing; a withdrawal takes its counts away at once."""
from __future__ import annotations

import re

from prep.accounts.models import Role
from prep.extensions import db
from prep.postings.service import Review, ReviewedQuestion, import_posting
from tests.support.clock import FIXED_NOW

RING = "请解释 Ring AllReduce 的两个阶段？"
RDMA = "RDMA 与 TCP 相比有何优势？"
NVLINK = "NVLink 和 PCIe 的带宽差多少？"


def _report(user, company: str, questions: list[str]) -> int:
    body = f"{company} GPU 通信库 面经\n一面\n" + "\n".join(f"{i}. {q}" for i, q in enumerate(questions, 1))
    posting = import_posting(user, body, FIXED_NOW, review=Review(
        company=company, title="GPU 通信库工程师", kind="report",
        questions=[ReviewedQuestion(q, "concept", "一面") for q in questions])).posting
    db.session.commit()
    return posting.id


def _ranked(client) -> dict[str, int]:
    """The company page's questions (text → reports asking it), in the page's order."""
    html = client.get("/companies/bytedance").get_data(as_text=True)
    rows = re.findall(r'data-reports="(\d+)">(.*?)</li>', html, re.S)
    return {re.search(r'<a [^>]*>([^<]+)</a>', item).group(1): int(n) for n, item in rows}


def test_approved_shared_reports_rank_a_companys_questions(app, login, make_user, make_question):
    for text in (RING, RDMA, NVLINK):  # in the shared bank already: the reports merge into them
        make_question(text)
    authors = [make_user(f"author{i}@example.com") for i in range(4)]
    reader, instructor = make_user("reader@example.com"), make_user("i@example.com", role=Role.instructor)
    reports = [_report(authors[0], "字节跳动", [RING, RDMA]), _report(authors[1], "ByteDance", [RING, RDMA]),
               _report(authors[2], "字节跳动", [RING]), _report(authors[3], "ByteDance", [NVLINK, RDMA])]
    shares = []
    for author, posting_id in zip(authors, reports):
        client = login(author, app.test_client())
        text = re.search(r"<textarea[^>]*>\n?(.*?)</textarea>",
                         client.get(f"/postings/{posting_id}/share").get_data(as_text=True), re.S).group(1)
        assert client.post(f"/postings/{posting_id}/share", data={"text": text}).status_code == 302
        shares.append(int(re.search(r"/shared/(\d+)", client.get(f"/postings/{posting_id}").get_data(as_text=True))
                          .group(1)))
    teacher = login(instructor, app.test_client())
    for share_id in shares[:3]:  # the fourth stays waiting for review
        assert teacher.post(f"/instructor/shared/{share_id}/approve").status_code == 302

    candidate = login(reader, app.test_client())
    ranked = _ranked(candidate)
    assert list(ranked.items()) == [(RING, 3), (RDMA, 2)]  # most asked first; NVLink only in the pending one
    assert "NVLink" not in candidate.get("/companies").get_data(as_text=True)
    assert 'href="/companies/bytedance" id="company-link"' in candidate.get(f"/shared/{shares[1]}").get_data(as_text=True)

    author = login(authors[1], app.test_client())
    assert author.post(f"/postings/{reports[1]}/share/withdraw").status_code == 302
    assert list(_ranked(candidate).items()) == [(RING, 2), (RDMA, 1)]
