"""Posting extraction: seeds, golden postings, questions, decoding, bad input and the CLI.

Golden files: each posting in ``tests/data/postings/`` has a ``<stem>.json`` with the expected
``to_json_dict()``. After a deliberate change, regenerate them with
``PREP_UPDATE_GOLDEN=1 .venv/bin/pytest tests/postings/test_extract.py -k golden`` and review the diff.
"""
from __future__ import annotations

import codecs
import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from prep.postings import (
    ExtractionResult,
    PostingInputError,
    Question,
    decode_posting_bytes,
    decode_posting_text,
    extract_posting,
    read_posting_file,
)
from prep.postings.cli import extract_command
from prep.postings.decode import html_to_text, looks_like_html
from prep.postings.extract import question_text, strip_list_marker
from tests.support.data import SEEDS

DATA = Path(__file__).parents[1] / "data" / "postings"
GOLDEN_POSTINGS = sorted(p for p in DATA.iterdir() if p.suffix != ".json")

# ---------------------------------------------------------------------------------------------
# Seed postings (tests/data/seeds)

SEED_EXPECTATIONS = {
    "000_97fc3cec54768f54.txt": {
        "company": "百度",
        "title": "AI网络通信库研发实习生（J97773）",
        "location": "北京市",
        "questions": [
            "请解释NCCL中AllReduce的Ring算法原理",
            "如何优化GPU通信中的带宽利用率？",
            "描述你使用CUDA编程解决的一个性能问题",
            "RDMA与TCP/IP相比有何优势？",
            "在分布式训练中，如何定位通信瓶颈？",
        ],
        "skills": "CUDA RDMA NCCL MPI NVLink OpenMP UCX NVSHMEM C++ Python".split()
        + ["GPUDirect RDMA", "Nsight Systems"],
        "forbidden": [],
    },
    "002_f799f6b96215417c.txt": {
        "company": "英伟达",
        "title": "Software Engineering Intern, NCCL - 2027",
        "location": "上海",
        "questions": [
            "请解释NCCL中AllReduce算法的实现原理及优化策略",
            "如何在Linux环境下进行C++程序的内存泄漏检测和性能剖析?",
            "描述你对GPU内存层次结构及PCIe/NVLink带宽瓶颈的理解",
        ],
        "skills": "CUDA MPI NCCL PyTorch TensorFlow JAX vLLM SGLang UCX OpenSHMEM InfiniBand RoCE Linux C++ "
        "NVLink PCIe".split(),
        "forbidden": ["Java", "JavaScript", "Palantir"],
    },
}


def _seed(name: str) -> Path:
    return SEEDS / name


@pytest.mark.parametrize("name", sorted(SEED_EXPECTATIONS))
def test_seed_posting_questions_are_exact(name: str) -> None:
    result = extract_posting(read_posting_file(_seed(name)))
    expected = SEED_EXPECTATIONS[name]["questions"]
    assert [q.text for q in result.questions] == expected  # precision and recall 1.0, in order
    assert {q.section for q in result.questions} == {"面试指南"}


@pytest.mark.parametrize("name", sorted(SEED_EXPECTATIONS))
def test_seed_posting_skills_and_identity(name: str) -> None:
    result = extract_posting(read_posting_file(_seed(name)))
    expected = SEED_EXPECTATIONS[name]
    assert set(expected["skills"]) <= set(result.skills)
    assert not set(expected["forbidden"]) & set(result.skills)
    assert (result.company, result.title, result.location) == (
        expected["company"],
        expected["title"],
        expected["location"],
    )
    assert result.recognised_sections
    assert not any("其他在招职位" in s or "相似职位" in s for s in result.sections)
    assert not any("Palantir" in text or "JAVA" in text for text in result.sections.values())


def test_cli_prints_seeds_as_json_array() -> None:
    paths = [str(_seed(name)) for name in sorted(SEED_EXPECTATIONS)]
    result = CliRunner().invoke(extract_command, [*paths, "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert [p["company"] for p in payload] == ["百度", "英伟达"]
    assert [len(p["questions"]) for p in payload] == [5, 3]


# ---------------------------------------------------------------------------------------------
# Golden postings: English, numbered Chinese (UTF-8 BOM), GB18030, UTF-16, HTML, no sections


@pytest.mark.parametrize("path", GOLDEN_POSTINGS, ids=lambda p: p.name)
def test_golden_posting(path: Path) -> None:
    result = extract_posting(read_posting_file(path)).to_json_dict()
    golden = path.with_suffix(".json")
    if os.environ.get("PREP_UPDATE_GOLDEN"):
        golden.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    assert result == json.loads(golden.read_text(encoding="utf-8"))


def test_golden_set_covers_the_required_formats() -> None:
    raw = {p.name: p.read_bytes() for p in GOLDEN_POSTINGS}
    assert raw["zh_utf16.txt"].startswith(codecs.BOM_UTF16_LE)
    assert raw["zh_numbered_bom.txt"].startswith(codecs.BOM_UTF8)
    with pytest.raises(UnicodeDecodeError):
        raw["zh_gb18030.txt"].decode("utf-8")
    assert looks_like_html(raw["en_saved_page.html"].decode("utf-8"))


def test_posting_without_sections_is_not_an_error() -> None:
    result = extract_posting(read_posting_file(DATA / "en_no_sections.txt"))
    assert not result.recognised_sections
    assert result.sections == {}
    assert result.questions == []  # even though it contains "How would you ...?"
    assert {"NCCL", "RDMA", "CUDA"} <= set(result.skills)


def test_noise_sections_leak_nothing() -> None:
    result = extract_posting(read_posting_file(DATA / "en_interview_prep.txt"))
    assert "JavaScript" in result.skills  # from the posting itself
    assert not {"Java", "Rust", "Go"} & set(result.skills)  # only under "Similar jobs"
    html = extract_posting(read_posting_file(DATA / "en_saved_page.html"))
    assert not {"Java", "Go", "Rust", "Kubernetes", "Docker"} & set(html.skills)  # noise, script, comment
    assert "How are you?" not in [q.text for q in html.questions]


def test_noise_ends_at_the_next_real_heading() -> None:
    text = "ACME\nEngineer\n相似职位推荐\nJava工程师\n面试题\n- 如何使用CUDA？\n"
    result = extract_posting(text)
    assert result.skills == ["CUDA"]
    assert [q.text for q in result.questions] == ["如何使用CUDA？"]


def test_to_json_dict_has_exactly_the_cli_keys() -> None:
    result = extract_posting("Acme\nEngineer\nInterview questions\n1. Why NCCL?\n")
    data = result.to_json_dict()
    assert list(data) == ["company", "title", "location", "skills", "questions", "sections", "doc_kind", "rounds",
                          "skill_weights", "truncated"]
    assert data["questions"] == [{"text": "Why NCCL?", "section": "Interview questions", "kind": "concept",
                                  "round": None, "confidence": 0.9}]
    assert result.questions == [Question(text="Why NCCL?", section="Interview questions", confidence=0.9)]


@pytest.mark.parametrize(
    ("text", "company", "title", "location"),
    [
        ("Company: Acme\nTitle: GPU Engineer\nLocation: Shanghai, China\nRequirements\nCUDA", "Acme", "GPU Engineer",
         "Shanghai, China"),
        ("公司：壁仞科技\n职位名称：通信工程师\n工作地点：上海\n岗位职责\n开发", "壁仞科技", "通信工程师", "上海"),
        ("Acme\nGPU Engineer\nGPU Engineer\nBeijing · Full-time\nResponsibilities\nx", "Acme", "GPU Engineer",
         "Beijing"),
        ("GPU Engineer\nResponsibilities\nx\n工作地点\n深圳市南山区", None, "GPU Engineer", "深圳市南山区"),
        ("We hire.\nResponsibilities\nx", None, None, None),
        ("", None, None, None),
    ],
)
def test_company_title_location(text: str, company: str | None, title: str | None, location: str | None) -> None:
    result = extract_posting(text)
    assert (result.company, result.title, result.location) == (company, title, location)


@pytest.mark.parametrize(
    "heading",
    ["面试指南", "面试题", "常见面试题：", "【面试问题】", "## Interview questions", "Sample questions:",
     "**Interview preparation**", "三、高频面试题", "Common interview questions", "Questions you may be asked"],
)
def test_interview_headings(heading: str) -> None:
    result = extract_posting(f"Acme\nEngineer\n{heading}\n- 如何优化NCCL？\n")
    assert [q.text for q in result.questions] == ["如何优化NCCL？"]


@pytest.mark.parametrize(
    "heading", ["英伟达 的其他在招职位", "相似职位推荐", "推荐职位", "其他在招职位", "Similar jobs", "More jobs at NVIDIA"]
)
def test_noise_headings(heading: str) -> None:
    result = extract_posting(f"Acme\nEngineer\n工作职责\n开发NCCL\n{heading}\nJava工程师\n")
    assert result.skills == ["NCCL"]
    assert list(result.sections) == ["工作职责"]


def test_inline_heading_starts_a_section() -> None:
    result = extract_posting("Acme\nEngineer\n面试题：请解释RDMA的原理\n岗位职责：负责UCX开发\n")
    assert [q.text for q in result.questions] == ["请解释RDMA的原理"]
    assert result.sections["岗位职责"] == "负责UCX开发"


def test_repeated_question_is_kept_once() -> None:
    result = extract_posting("面试题\n- 如何优化NCCL？\n1. 如何优化NCCL？\n")
    assert [q.text for q in result.questions] == ["如何优化NCCL？"]


# ---------------------------------------------------------------------------------------------
# Question lines


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("- 请解释NCCL中AllReduce的Ring算法原理", "请解释NCCL中AllReduce的Ring算法原理"),
        ("1、如何优化GPU通信中的带宽利用率？", "如何优化GPU通信中的带宽利用率？"),
        ("2. RDMA与TCP/IP相比有何优势？", "RDMA与TCP/IP相比有何优势？"),
        ("(3) 什么是GPUDirect RDMA", "什么是GPUDirect RDMA"),
        ("（4）为什么需要NVLink", "为什么需要NVLink"),
        ("① 谈谈你对CUDA Graphs的理解", "谈谈你对CUDA Graphs的理解"),
        ("• 描述一次性能调优", "描述一次性能调优"),
        ("Q1: Why is decode memory-bound", "Why is decode memory-bound"),
        ("问题3：怎样检测内存泄漏", "怎样检测内存泄漏"),
        ("- 1. Explain ring AllReduce.", "Explain ring AllReduce."),
        ("**Walk us through a hard bug**", "Walk us through a hard bug"),
        ("a) Compare TCP and RDMA", "Compare TCP and RDMA"),
        ("Does NCCL use RDMA?", "Does NCCL use RDMA?"),
        ("对于大模型训练，如何定位通信瓶颈？", "对于大模型训练，如何定位通信瓶颈？"),
        ("如何在Linux下检测内存泄漏?", "如何在Linux下检测内存泄漏?"),
        ("RDMA的优势是什么？（结合项目回答）", "RDMA的优势是什么？（结合项目回答）"),
        ("2.5x speedup: how did you get it?", "2.5x speedup: how did you get it?"),
        # advice, tips and sub-headings are not questions
        ("- 对于原理类问题，先简述概念，再展开算法步骤，最后举例说明", None),
        ("- 复习并行编程模型（CUDA、MPI）和常用通信库", None),
        ("- 采用STAR法则(情境、任务、行动、结果),结合具体项目经历", None),
        ("- 回顾参与的科研项目中涉及并行计算的部分", None),
        ("- 了解英伟达最新的技术架构", None),
        ("- 准备一个性能优化项目的案例", None),
        ("Review the alpha-beta model", None),
        ("Be ready to discuss a past project", None),
        ("Tips: what interviewers want?", None),
        ("Prepare stories about debugging", None),
        ("However, expect system design", None),
        ("Technical questions:", None),
        ("- ", None),
        ("?", None),
    ],
)
def test_question_text(line: str, expected: str | None) -> None:
    assert question_text(line) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [("- x y", "x y"), ("1、x", "x"), ("12. x", "x"), ("2.5 GB", "2.5 GB"), ("C++ x", "C++ x"), ("⑳x", "x")],
)
def test_strip_list_marker(line: str, expected: str) -> None:
    assert strip_list_marker(line) == expected


# ---------------------------------------------------------------------------------------------
# Robustness: never raises, deterministic

FRAGMENTS = st.sampled_from(
    ["面试指南", "Interview questions", "相似职位推荐", "岗位职责：", "- 如何优化NCCL？", "1、请解释RDMA", "Java",
     "JavaScript", "熟悉CUDA编程", "Q1:", "（1）", "①", "**", "：", "?", "？", "\n", "\r\n", " ", "\u3000", "\x00",
     "<div>", "Company: Acme", "北京市", "Go", "DP"]
)


@settings(max_examples=300, database=None, deadline=None)
@given(st.text())
def test_extract_never_raises_on_any_text(text: str) -> None:
    result = extract_posting(text)
    assert isinstance(result, ExtractionResult)
    assert result == extract_posting(text)


@settings(max_examples=300, database=None, deadline=None)
@given(st.lists(st.one_of(FRAGMENTS, st.text(max_size=8)), max_size=40).map("".join))
def test_extract_never_raises_on_posting_like_text(text: str) -> None:
    result = extract_posting(text)
    json.dumps(result.to_json_dict(), ensure_ascii=False)
    # a question read from the document's top, before any heading (a report, a list of questions), has no section
    assert all(q.section in result.sections or q.section == "" for q in result.questions)
    assert result == extract_posting(text)


# ---------------------------------------------------------------------------------------------
# Decoding

TEXT = "面试题\n- 如何优化NCCL？𠮷\n"  # 𠮷 needs GB18030's four-byte form


@pytest.mark.parametrize(
    "data",
    [
        TEXT.encode("utf-8"),
        codecs.BOM_UTF8 + TEXT.encode("utf-8"),
        TEXT.encode("utf-16"),
        codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"),
        TEXT.encode("utf-32"),
        TEXT.encode("gb18030"),
        TEXT.replace("𠮷", "").encode("gbk"),
        TEXT.replace("\n", "\r\n").encode("utf-8"),
    ],
    ids=["utf-8", "utf-8-bom", "utf-16", "utf-16-be-bom", "utf-32", "gb18030", "gbk", "crlf"],
)
def test_decode_encodings(data: bytes) -> None:
    text = decode_posting_bytes(data)
    assert text.rstrip("\n") in (TEXT.rstrip("\n"), TEXT.replace("𠮷", "").rstrip("\n"))


def test_decode_utf16_without_bom() -> None:
    assert decode_posting_bytes("Interview questions\n- Why NCCL?\n".encode("utf-16-le")).startswith("Interview")


def test_decode_reduces_html_to_text() -> None:
    page = (
        "<html><head><title>t</title><style>p{}</style></head><body><script>var a='Java';</script>"
        "<h2>面试题</h2><ul><li>熟悉<b>CUDA</b>编程吗？</li><li>1. Why &amp; how?</li></ul></body></html>"
    )
    text = decode_posting_bytes(page.encode("utf-8"))
    assert text.splitlines() == ["Page title: t", "面试题", "- 熟悉CUDA编程吗？", "- 1. Why & how?"]
    result = extract_posting(text)
    assert [q.text for q in result.questions] == ["熟悉CUDA编程吗？", "Why & how?"]
    assert result.skills == ["CUDA"]


def test_html_fragment_detection() -> None:
    assert looks_like_html("<p>a</p><p>b</p><p>c</p><br><br>")
    assert not looks_like_html("面试题\n- 解释 <div> 与 <span> 的区别？")
    assert html_to_text("<div>a<br>b</div>") == "a\nb"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the file is empty"),
        (b" \r\n\t ", "the file is empty"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3", "looks like a PDF document"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "looks like a PNG image"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "looks like a JPEG image"),
        (b"GIF89a\x01\x00", "looks like a GIF image"),
        (b"PK\x03\x04\x14\x00", "looks like a ZIP archive"),
        (b"abc\x00\x01\x02def\x00", "contains NUL bytes"),
        (bytes(range(1, 32)) * 20, "contains binary data"),
        ("Caf\xe9 cr\xe8me br\xfbl\xe9e".encode("latin-1"), "cannot decode"),
        (b"NCCL \x80\x80 test", "cannot decode"),
        (bytes((i * 37 + 11) % 128 + 128 for i in range(400)), "cannot decode"),  # high bytes, not Chinese
        (b"<html><body><script>x()</script></body></html>", "contains no text"),
        (b"a" * 1_000_001, "the posting is too long: 1,000,001 characters (at most 1,000,000)"),
        (b"a" * 4_000_001, "the file is too large: 4,000,001 bytes (at most 4 MB)"),
    ],
)
def test_decode_refuses_bad_input(data: bytes, message: str) -> None:
    with pytest.raises(PostingInputError) as info:
        decode_posting_bytes(data)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_the_limits_are_characters_and_parameters(tmp_path: Path) -> None:
    assert decode_posting_bytes(b"a" * 1_000_000) == "a" * 1_000_000
    assert decode_posting_text("面" * 1_000_000) == "面" * 1_000_000  # 3 MB of UTF-8: characters count
    assert decode_posting_text("a\r\n" * 500_000) == "a\n" * 500_000  # counted once newlines are "\n"
    with pytest.raises(PostingInputError, match=r"at most 10 bytes"):
        decode_posting_bytes(b"a" * 11, max_bytes=10)
    with pytest.raises(PostingInputError, match=r"too long: 5 characters \(at most 4\)"):
        decode_posting_text("面" * 5, max_chars=4)
    with pytest.raises(PostingInputError, match=r"too long: 5 characters \(at most 4\)"):
        decode_posting_bytes(("面" * 5).encode("gb18030"), max_chars=4)
    big = tmp_path / "big.txt"
    big.write_bytes(b"a" * 11)
    with pytest.raises(PostingInputError, match="11 bytes"):
        read_posting_file(big, max_bytes=10)


@pytest.mark.parametrize(("text", "message"), [("", "empty"), ("  \n", "empty"), ("a\x00b", "NUL")])
def test_decode_text_refuses(text: str, message: str) -> None:
    with pytest.raises(PostingInputError, match=message):
        decode_posting_text(text)


def test_read_posting_file_errors(tmp_path: Path) -> None:
    with pytest.raises(PostingInputError, match="cannot read the file"):
        read_posting_file(tmp_path / "missing.txt")
    with pytest.raises(PostingInputError, match="directory"):
        read_posting_file(tmp_path)


# ---------------------------------------------------------------------------------------------
# CLI


def test_cli_one_file_prints_one_object() -> None:
    path = DATA / "zh_numbered_bom.txt"
    result = CliRunner().invoke(extract_command, [str(path), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert "摩尔线程" in result.stdout  # ensure_ascii=False
    assert result.stdout.startswith('{\n  "company"')  # indent=2


def test_cli_several_files_print_an_array_in_order() -> None:
    paths = [DATA / "zh_utf16.txt", DATA / "en_interview_prep.txt"]
    result = CliRunner().invoke(extract_command, [*map(str, paths), "--json"])
    assert result.exit_code == 0
    assert [p["company"] for p in json.loads(result.stdout)] == ["字节跳动", "NVIDIA"]


def test_cli_summary() -> None:
    paths = [str(DATA / "en_interview_prep.txt"), str(DATA / "en_no_sections.txt")]
    result = CliRunner().invoke(extract_command, paths)
    assert result.exit_code == 0
    assert "NVIDIA — Senior GPU Communication Engineer (Santa Clara, CA)" in result.stdout
    assert "questions (5):" in result.stdout
    assert "[Interview preparation] (concept) Explain how ring AllReduce works, step by step." in result.stdout
    assert "no recognisable sections" in result.stdout


def test_cli_bad_input_exits_2_with_one_line_per_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    pdf = tmp_path / "cv.pdf"
    pdf.write_bytes(b"%PDF-1.4\n")
    missing = tmp_path / "missing.txt"
    good = DATA / "en_no_sections.txt"
    result = CliRunner().invoke(extract_command, [str(good), str(empty), str(pdf), str(missing), "--json"])
    assert result.exit_code == 2
    assert result.stdout == ""  # all or nothing
    assert result.stderr.splitlines() == [
        f"prep extract: {empty}: the file is empty",
        f"prep extract: {pdf}: cannot read the file: it looks like a PDF document, but it is damaged or incomplete",
        f"prep extract: {missing}: cannot read the file: No such file or directory",
    ]
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


def test_cli_max_bytes_option(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("面试题\n- 如何优化NCCL？\n", encoding="utf-8")
    result = CliRunner().invoke(extract_command, [str(path), "--max-bytes", "5"])
    assert result.exit_code == 2
    assert "the file is too large: 32 bytes (at most 5 bytes)" in result.stderr
    result = CliRunner().invoke(extract_command, [str(path), "--max-chars", "5"])
    assert result.exit_code == 2
    assert "the posting is too long: 16 characters (at most 5)" in result.stderr


def test_the_cli_states_the_limits_as_the_web_does() -> None:
    help_text = " ".join(CliRunner().invoke(extract_command, ["--help"]).output.split())
    assert "a posting or interview report may be at most 1,000,000 characters of text, and a file at most 4 MB" \
        in help_text


def test_cli_requires_a_file() -> None:
    assert CliRunner().invoke(extract_command, []).exit_code == 2
