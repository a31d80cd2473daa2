"""Documents in every registered format: the registry finds each by its bytes, PDF and Word files
give the same questions as their text (engine, `prep extract`, `prep postings import`, the web
upload), and a scanned PDF asks for pasted text (CLI in English; web in English and Chinese)."""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from sqlalchemy import select

from prep.extensions import db
from prep.postings import decode_posting_bytes, decode_posting_text, extract_posting
from prep.postings.cli import extract_command
from prep.postings.errors import PostingInputError, ScannedDocumentError
from prep.postings.formats import FORMATS, accepted_extensions, find_format, find_text_format
from prep.postings.formats.pdf import PageLine, paragraph_lines, tidy_line
from prep.postings.models import Posting
from tests.support.documents import docx_bytes, pdf_bytes, scanned_pdf_bytes
from tests.support.htmlforms import read_form

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = {  # a posting and an interview report (面经) in each language
    "posting-zh": REPO / "prep/postings/samples/01_yunfan_llm_comm_zh.txt",
    "posting-en": REPO / "prep/postings/samples/03_northwind_inference_en.txt",
    "report-zh": REPO / "tests/data/corpus/zh_report_bytedance_rounds.txt",
    "report-en": REPO / "tests/data/corpus/en_report_blind_nvidia.txt",
}
MAKERS = {"pdf": pdf_bytes, "docx": docx_bytes}
JSONLD = json.dumps({
    "@context": "https://schema.org", "@type": "JobPosting", "title": "GPU Communication Engineer",
    "hiringOrganization": {"@type": "Organization", "name": "Example Compute"},
    "jobLocation": {"@type": "Place", "address": {"addressLocality": "Shanghai", "addressCountry": "CN"}},
    "description": "<p>Tune NCCL over RDMA.</p><h3>Interview questions</h3>"
                   "<ul><li>How does ring AllReduce work?</li><li>What is GPUDirect RDMA?</li></ul>",
})


def _questions(text: str) -> list[str]:
    return [q.text for q in extract_posting(text).questions]


# --- the registry ---------------------------------------------------------------------------

def test_plain_text_is_the_last_format_and_takes_what_is_left() -> None:
    assert list(FORMATS)[-1] == "text"
    assert find_format(b"just some words") is FORMATS["text"]


@pytest.mark.parametrize(("data", "name"), [
    pytest.param(pdf_bytes("NCCL"), "pdf", id="pdf"),
    pytest.param(docx_bytes("NCCL"), "docx", id="docx"),
    pytest.param(JSONLD.encode(), "jsonld", id="jsonld"),
    pytest.param(b"<html><body><p>NCCL</p></body></html>", "html", id="html"),
    pytest.param("面试题\n1. NCCL?".encode("gb18030"), "text", id="gbk-text"),
])
def test_each_format_is_found_by_its_bytes(data: bytes, name: str) -> None:
    assert find_format(data, None).name == name


def test_pasted_text_is_only_ever_a_text_format() -> None:
    assert find_text_format("%PDF-1.7 pasted as text").name == "text"
    assert find_text_format(JSONLD).name == "jsonld"
    assert {".pdf", ".docx", ".html", ".txt", ".jsonld"} <= set(accepted_extensions())


def test_a_zip_that_is_not_a_word_document_is_still_refused() -> None:
    buffer = io.BytesIO()
    import zipfile
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("notes.txt", "NCCL")
    with pytest.raises(PostingInputError, match="looks like a ZIP archive or Office document"):
        decode_posting_bytes(buffer.getvalue())


def test_a_jsonld_job_posting_gives_labelled_lines_and_its_description() -> None:
    text = decode_posting_bytes(JSONLD.encode())
    assert text.splitlines()[:3] == ["Company: Example Compute", "Job title: GPU Communication Engineer",
                                     "Location: Shanghai, CN"]
    assert decode_posting_text(JSONLD) == text
    result = extract_posting(text)
    assert result.company == "Example Compute"
    assert result.title == "GPU Communication Engineer"
    assert _questions(text) == ["How does ring AllReduce work?", "What is GPUDirect RDMA?"]


def test_word_list_paragraphs_are_list_items() -> None:
    text = "Interview questions\n- How does ring AllReduce work?\n- What is GPUDirect RDMA?"
    assert decode_posting_bytes(docx_bytes(text, list_items=True)) == text


def test_word_tables_are_read_in_order() -> None:
    from docx import Document

    document = Document()
    document.add_paragraph("Interview questions")
    table = document.add_table(rows=2, cols=1)
    table.cell(0, 0).text = "1. How does ring AllReduce work?"
    table.cell(1, 0).text = "2. What is GPUDirect RDMA?"
    out = io.BytesIO()
    document.save(out)
    assert decode_posting_bytes(out.getvalue()).splitlines() == [
        "Interview questions", "1. How does ring AllReduce work?", "2. What is GPUDirect RDMA?"]


# --- PDF and Word give what their text gives ------------------------------------------------

@pytest.mark.parametrize("fmt", sorted(MAKERS))
@pytest.mark.parametrize("doc", sorted(DOCUMENTS))
def test_pdf_and_word_give_the_questions_of_their_text(doc: str, fmt: str) -> None:
    text = DOCUMENTS[doc].read_text(encoding="utf-8")
    from_file = decode_posting_bytes(MAKERS[fmt](text))
    expected, got = extract_posting(decode_posting_text(text)), extract_posting(from_file)
    assert expected.questions, doc  # the case proves something
    assert [q.text for q in got.questions] == [q.text for q in expected.questions]
    assert (got.company, got.title, got.doc_kind) == (expected.company, expected.title, expected.doc_kind)
    assert got.skills == expected.skills


@pytest.mark.parametrize("fmt", sorted(MAKERS))
def test_prep_extract_reads_pdf_and_word_files(tmp_path: Path, fmt: str) -> None:
    text = DOCUMENTS["report-zh"].read_text(encoding="utf-8")
    path = tmp_path / f"report.{fmt}"
    path.write_bytes(MAKERS[fmt](text))
    result = pytest.importorskip("click.testing").CliRunner().invoke(extract_command, [str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert [q["text"] for q in json.loads(result.output)["questions"]] == _questions(text)


def test_prep_extract_says_a_scanned_pdf_needs_pasted_text(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(scanned_pdf_bytes())
    result = pytest.importorskip("click.testing").CliRunner().invoke(extract_command, [str(path)])
    assert result.exit_code == 2
    assert result.stderr.strip() == (f"prep extract: {path}: the PDF document has no text layer "
                                      "(it looks like a scan): copy its text and paste it instead")


@pytest.mark.parametrize(("extracted", "written"), [
    ("说一下  MPI 里的  Reduce-Scatter ，它们和  AllReduce 是什么关系", "说一下 MPI 里的 Reduce-Scatter，它们和 AllReduce 是什么关系"),
    ("介绍一下  Verbs 编程模型， QP 、 CQ 、 MR 分别是干嘛的", "介绍一下 Verbs 编程模型，QP、CQ、MR 分别是干嘛的"),
    ("问了： 1 ） DeepSpeed ZeRO 三个  stage 各切了什么  2 ）为什么", "问了：1）DeepSpeed ZeRO 三个 stage 各切了什么 2）为什么"),
    ("How does ring AllReduce work?", "How does ring AllReduce work?"),  # nothing to take out
    ("说说 NCCL 的 ring", "说说 NCCL 的 ring"),  # one space between a Chinese and a Latin word stays
    ("先说结论：二面挂 \x00 但是真的学到了很多", "先说结论：二面挂 但是真的学到了很多"),  # an emoji with no character
])
def test_a_pdfs_font_switch_spaces_are_taken_out(extracted: str, written: str) -> None:
    assert tidy_line(extracted) == written


def _page(*rows: tuple[str, float, float]) -> list[PageLine]:
    return [PageLine(text, y, 36.0, right) for text, y, right in rows]


def test_a_pdf_paragraph_the_page_cut_is_one_line_again() -> None:
    page = _page(("问了：1）ZeRO 三个 stage 各切了什么 3）NVLink 和 PCIe", 780, 560),  # reaches the margin
                 ("带宽大概差几倍", 767, 140),                                          # 13 below: the same paragraph
                 ("手写了一个 topk，要求 O(n log k)", 743, 300),                         # 24 below: a new one
                 ("Walk us through how a ring all-reduce moves data between the", 719, 555),
                 ("ranks, step by step.", 706, 200),
                 ("Short line that ends early", 682, 250),
                 ("and the next paragraph", 669, 200),                                  # the line above stopped short
                 ("A line that reaches the margin and ends a sentence here.", 645, 560),
                 ("Next sentence", 632, 200),
                 ("A list follows, reaching the margin of the page, like the others", 608, 560),
                 ("- an item", 595, 100))
    assert paragraph_lines(page) == [
        "问了：1）ZeRO 三个 stage 各切了什么 3）NVLink 和 PCIe 带宽大概差几倍",
        "手写了一个 topk，要求 O(n log k)",
        "Walk us through how a ring all-reduce moves data between the ranks, step by step.",
        "Short line that ends early", "and the next paragraph",
        "A line that reaches the margin and ends a sentence here.", "Next sentence",
        "A list follows, reaching the margin of the page, like the others", "- an item"]


def test_a_pdf_page_with_one_spacing_keeps_its_lines() -> None:
    page = _page(("Northwind AI", 800, 120), ("Senior Engineer, LLM Inference Platform, Seattle, WA and remote", 784, 560),
                 ("Posted 1 week ago", 768, 200))
    assert paragraph_lines(page) == ["Northwind AI", "Senior Engineer, LLM Inference Platform, Seattle, WA and remote",
                                     "Posted 1 week ago"]


def test_a_scanned_pdf_is_its_own_error() -> None:
    with pytest.raises(ScannedDocumentError):
        decode_posting_bytes(scanned_pdf_bytes())


# --- the CLI import and the web upload ------------------------------------------------------

@pytest.mark.parametrize("fmt", sorted(MAKERS))
@pytest.mark.parametrize("doc", ["posting-en", "report-zh"])
def test_prep_postings_import_stores_the_questions_of_the_text(runner, make_user, tmp_path, fmt, doc) -> None:
    make_user("cli@example.com")
    text = DOCUMENTS[doc].read_text(encoding="utf-8")
    path = tmp_path / f"posting.{fmt}"
    path.write_bytes(MAKERS[fmt](text))
    result = runner.invoke(args=["postings", "import", str(path), "--user", "cli@example.com"])
    assert result.exit_code == 0, result.output
    posting = db.session.scalars(select(Posting)).one()
    assert [pq.question.text for pq in sorted(posting.questions, key=lambda pq: pq.position)] == _questions(text)


def _review_questions(client, data: bytes, name: str, kind: str = "") -> list[str]:
    response = client.post("/postings/new", data={"file": (io.BytesIO(data), name), "kind": kind},
                           content_type="multipart/form-data")
    html = response.get_data(as_text=True)
    assert response.status_code == 200, html
    _, fields = read_form(html, "review-form")
    rows = sorted((int(m.group(1)), value) for key, value in fields.items()
                  if (m := re.fullmatch(r"questions-(\d+)-text", key)))
    return [value for _, value in rows if value]


@pytest.mark.parametrize("fmt", sorted(MAKERS))
@pytest.mark.parametrize("doc", ["posting-zh", "report-en"])
def test_the_upload_proposes_the_questions_of_the_text(client, make_user, login, doc, fmt) -> None:
    login(make_user("cand@example.com"))
    text = DOCUMENTS[doc].read_text(encoding="utf-8")
    kind = "report" if doc.startswith("report") else ""
    expected = _review_questions(client, text.encode("utf-8"), "doc.txt", kind)
    assert expected
    assert _review_questions(client, MAKERS[fmt](text), f"doc.{fmt}", kind) == expected


@pytest.mark.parametrize(("lang", "message"), [
    ("en", "This PDF has no text layer: it looks like a scanned page. Copy its text and paste it into the box"),
    ("zh", "这个 PDF 没有文字层：它看起来是扫描的页面。请复制其中的文字，粘贴到文本框中。"),
])
def test_the_upload_of_a_scanned_pdf_asks_for_pasted_text(client, make_user, login, lang, message) -> None:
    login(make_user("cand@example.com", **({"language": lang} if lang == "zh" else {})))
    response = client.post("/postings/new", data={"file": (io.BytesIO(scanned_pdf_bytes()), "scan.pdf")},
                           content_type="multipart/form-data", headers={"Accept-Language": lang})
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert message in html
    assert db.session.scalar(select(Posting.id)) is None
