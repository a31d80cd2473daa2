"""The extraction engine against the labelled corpus (tests/data/corpus and corpus_holdout).

The corpus was written for the project: interview reports, postings with questions under
varied headings, postings without questions and documents built around question-like noise,
in Chinese and English, as text, Markdown and saved HTML. Each document has a golden JSON file
(format: :mod:`prep.postings.evaluate`). The figures are micro-averaged over every document;
``prep extract --eval DIR -v`` prints them with each document's misses.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from prep.postings.cli import extract_command
from prep.postings.evaluate import CorpusDocument, evaluate, load_corpus, texts_match

DATA = Path(__file__).parents[1] / "data"
CORPUS = DATA / "corpus"
HOLDOUT = DATA / "corpus_holdout"
MIN_QUESTION_F1 = 0.95
MIN_SKILL_RECALL = 0.95


@pytest.fixture(scope="module")
def documents() -> list[CorpusDocument]:
    docs = load_corpus(CORPUS) + (load_corpus(HOLDOUT) if HOLDOUT.is_dir() else [])
    if not docs:
        pytest.fail("the labelled corpus is missing")
    return docs


def test_corpus_has_every_category(documents: list[CorpusDocument]) -> None:
    counts: dict[str, int] = {}
    for doc in documents:
        counts[doc.golden["category"]] = counts.get(doc.golden["category"], 0) + 1
    # The corpus' size: 40+ documents, 10+ per category, 5+ built around noise.
    assert len(documents) >= 40, counts
    assert counts.get("report", 0) >= 10, counts
    assert counts.get("posting_with_questions", 0) >= 10, counts
    assert counts.get("posting_without_questions", 0) >= 10, counts
    assert counts.get("noise", 0) >= 5, counts
    langs = {doc.golden.get("lang") for doc in documents}
    assert {"zh", "en"} <= langs
    assert any(doc.name.endswith((".html", ".htm")) for doc in documents)


def test_question_f1_and_skill_recall(documents: list[CorpusDocument]) -> None:
    score = evaluate(documents)
    summary = score.summary()
    assert score.f1 >= MIN_QUESTION_F1, summary
    assert score.skill_recall >= MIN_SKILL_RECALL, summary


def test_no_question_is_taken_from_noise(documents: list[CorpusDocument]) -> None:
    score = evaluate(documents)
    assert score.noise_hits == []
    assert score.forbidden_skills == []


def test_reports_are_recognised_as_reports(documents: list[CorpusDocument]) -> None:
    score = evaluate(documents)
    wrong = [d.name for d in score.documents if d.doc_kind_ok is False]
    assert len(wrong) <= len(documents) // 20, wrong


def test_company_is_found(documents: list[CorpusDocument]) -> None:
    score = evaluate(documents)
    wrong = [d.name for d in score.documents if d.company_ok is False]
    checked = [d for d in score.documents if d.company_ok is not None]
    assert len(wrong) <= len(checked) // 10, wrong


def test_lenient_matching() -> None:
    assert texts_match("问了RDMA和TCP的区别", "RDMA和TCP的区别")
    assert texts_match("How does ring AllReduce work?", "how does ring allreduce work")
    assert not texts_match("RDMA", "RDMA和TCP的区别是什么，各自适合什么场景")
    assert not texts_match("", "x")
    # a bracketed remark after the question, kept by one side only
    assert texts_match("static 变量存放在哪里？", "static 变量存放在哪里？(这里我就详细说了说，面试官点头)")
    assert not texts_match("静态变量", "static 变量存放在哪里？(这里我就详细说了说)")
    assert not texts_match("[MySQL为什么用B+树？](https://v.example.org/a/?p=1",
                           "MySQL 的事务隔离级别有哪些？")
    # an inline tag a label copied from the page's source is its words, as the reader gives them
    assert texts_match("Given the fqdn www.example.com, what is the root?",
                       "Given the fqdn <code>www.example.com</code>, what is the root?")


def test_an_employer_matches_with_and_without_technologies() -> None:
    from prep.postings.names import brand
    assert brand("Mellanox Technologies") == "Mellanox" and brand("Technologies") == "Technologies"


def test_a_label_names_a_skill_by_its_alias() -> None:
    golden = {"category": "report", "lang": "zh", "doc_kind": "report", "questions": [],
              "skills": ["TCP", "gdb"], "company": None, "title": None}
    text = "某厂 一面 面经\n1. TCP 三次握手?\n2. 用 gdb 怎么调试多线程?\n"
    score = evaluate([CorpusDocument("alias.txt", text, golden)]).documents[0]
    assert (score.skills_expected, score.skills_found) == (2, 2)


def test_a_company_is_right_under_any_of_its_names() -> None:
    """A label may name the employer in the other language ("Tencent" for a report that says 腾讯):
    one known company under two names is the same employer, as on its company page."""
    golden = {"category": "posting_without_questions", "lang": "zh", "doc_kind": "posting", "questions": [],
              "skills": [], "company": "Tencent", "title": None}
    text = "腾讯\nHPC 工程师\n\n岗位职责\n负责集群网络。\n"
    assert evaluate([CorpusDocument("tencent.txt", text, golden)]).documents[0].company_ok is True
    other = {**golden, "company": "ByteDance"}
    assert evaluate([CorpusDocument("tencent.txt", text, other)]).documents[0].company_ok is False


def test_cli_eval_prints_the_figures() -> None:
    result = CliRunner().invoke(extract_command, ["--eval", str(CORPUS), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["documents"] >= 13
    assert {"precision", "recall", "f1", "mean_f1", "skill_recall", "noise_hits"} <= set(figures)


def test_the_mean_f1_weighs_each_document_holding_questions_alike() -> None:
    """A document of one missed question counts as much as one of many found; a posting without
    questions does not count (pooled F1 hides the first, which a candidate pasting it meets)."""
    def golden(*questions: str) -> dict:
        return {"category": "report", "lang": "en", "doc_kind": "report", "questions": [{"text": q} for q in questions],
                "skills": [], "company": None, "title": None}
    many = ("Interview experience\nRound 1\n1. What is NCCL?\n2. How does RDMA work?\n3. What is a warp?\n")
    score = evaluate([CorpusDocument("many.txt", many, golden("What is NCCL?", "How does RDMA work?", "What is a warp?")),
                      CorpusDocument("one.txt", "Senior engineer\nWe build clusters.\n", golden("Explain NVLink.")),
                      CorpusDocument("posting.txt", "Engineer\n岗位职责\n负责网络。\n", {**golden(), "doc_kind": "posting"})])
    assert [round(d.f1, 3) for d in score.documents] == [1.0, 0.0, 0.0]
    assert score.mean_f1 == 0.5
    assert score.summary()["documents_with_questions"] == 2
    assert score.f1 > score.mean_f1  # pooled: 3 of 4 questions


def test_cli_eval_refuses_a_missing_folder(tmp_path: Path) -> None:
    result = CliRunner().invoke(extract_command, ["--eval", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "not a folder" in result.stderr
    result = CliRunner().invoke(extract_command, ["--eval", str(tmp_path)])
    assert result.exit_code == 2
    assert "no documents" in result.stderr


def test_a_link_in_a_label_is_read_as_its_words() -> None:
    assert texts_match("redis 相比 memcached 有哪些优势？",
                       "redis 相比 [memcached](https://link.example.org/?target=x%3Fy) 有哪些优势？")


def test_an_employer_matches_without_its_corporate_tail() -> None:
    from prep.postings.evaluate import _same_name
    assert _same_name("Juniper", "Juniper Networks") and _same_name("Arista Networks, Inc.", "Arista")
    assert not _same_name("Juniper", "Juniper Cloud") and not _same_name("Networks", "Juniper Networks")
