"""The shipped starter content pack: valid, complete, the right size, and it answers the seed questions."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from prep.content.check import check_tree
from prep.content.linker import Linker
from prep.skills import load_taxonomy

pytestmark = pytest.mark.heavy  # tens of seconds: scheduled first in a parallel run
CONTENT = Path(__file__).resolve().parents[2] / "content"

SEED_LINKS = {
    "请解释NCCL中AllReduce的Ring算法原理": "ring-allreduce",
    "请解释NCCL中AllReduce算法的实现原理及优化策略": "nccl-algorithms-protocols",
    "如何优化GPU通信中的带宽利用率？": "gpu-comm-bandwidth-utilization",
    "描述你使用CUDA编程解决的一个性能问题": "answering-performance-questions",
    "RDMA与TCP/IP相比有何优势？": "rdma-vs-tcp",
    "在分布式训练中，如何定位通信瓶颈？": "nsight-systems-comm-bottlenecks",
    "如何在Linux环境下进行C++程序的内存泄漏检测和性能剖析?": "cpp-leak-detection-profiling",
    "描述你对GPU内存层次结构及PCIe/NVLink带宽瓶颈的理解": "gpu-memory-hierarchy",
}

REQUIRED_TOPICS = [
    "ring-allreduce", "nccl-algorithms-protocols", "alpha-beta-model", "rdma-vs-tcp", "rdma-verbs",
    "ib-roce-iwarp", "roce-congestion-control", "gpudirect", "gpu-memory-hierarchy", "pcie-vs-nvlink",
    "ucx", "nvshmem-openshmem", "mpi-vs-nccl", "parallelism-communication", "expert-parallel-alltoall",
    "kv-cache-pagedattention", "cuda-graphs", "nsight-systems-comm-bottlenecks", "cpp-leak-detection-profiling",
    "cuda-kernel-optimization", "gpu-comm-bandwidth-utilization", "answering-performance-questions",
]


@pytest.fixture(scope="module")
def report():
    return check_tree(CONTENT, load_taxonomy(), require_key_points=True)  # every page has key points


@pytest.fixture(scope="module")
def linker(report):
    return Linker(report.docs, load_taxonomy())


def test_content_check_reports_nothing(report):
    assert report.lines() == []
    assert len(report.docs) >= 24


def test_required_topics_present(report):
    slugs = {d.slug for d in report.docs}
    assert set(REQUIRED_TOPICS) <= slugs


def test_each_explanation_has_size_and_a_figure(report):
    for doc in report.docs:
        # A Chinese word is one to two characters, so two Hanzi count as about one word:
        # a translation is held to the same size range as the English text it translates.
        # Code and worked examples count too, so pages with a tested program or a worked sizing
        # example (depth where interviewers follow up) get up to 1,500, and a coding task's page
        # (a reference solution and its tests besides the explanation) up to 2,200.
        words = len(re.findall(r"[A-Za-z0-9]+", doc.body)) + len(re.findall(r"[\u4e00-\u9fff]", doc.body)) / 2
        assert 300 <= words <= (2200 if Path(doc.path).parent.name == "coding" else 1500), (doc.slug, words)
        has_figure = "```" in doc.body or "$" in doc.body or re.search(r"^\|.*\|$", doc.body, re.M)
        assert has_figure, doc.slug


@pytest.mark.parametrize("question, slug", SEED_LINKS.items())
def test_seed_questions_link_to_the_right_explanation(linker, question, slug):
    links = linker.rank(question)
    assert links and links[0].slug == slug


@pytest.mark.parametrize("question", ["如何设计一个高并发的秒杀系统？", "How do you write a Java Spring REST controller?"])
def test_off_topic_questions_abstain(linker, question):
    assert linker.rank(question) == []
