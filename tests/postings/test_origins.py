"""Where each extracted question came from (:mod:`prep.postings.origins`), on small documents of each shape,
and the same origin in ``prep extract -v`` and ``prep extract --explain``."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from prep.postings import extract_posting
from prep.postings.cli import extract_command
from prep.postings.origins import HOWS, Origin, describe

REPORT = """字节跳动 AI Infra 一面面经

一面
1. 介绍一下 NCCL 的 ring allreduce
2. CUDA stream 是什么？
- 共享内存 bank 冲突怎么避免？
面试官上来就问了 RDMA 和 TCP 的区别，我说了零拷贝。然后又问了 GPUDirect 怎么绕过主机内存。
手撕：
实现一个 LRU 缓存
二面
聊了很多项目细节1. 什么是 KV cache？2. PagedAttention 解决了什么问题？3. 怎么做 continuous batching？
Q: 解释一下 Transformer 的 attention 复杂度
A: O(n^2)
"""


def _origins(text: str) -> dict[str, Origin]:
    return {q.text: q.origin for q in extract_posting(text).questions}


def test_each_layout_of_a_report_gives_its_origin() -> None:
    origins = _origins(REPORT)
    assert {text: o.how for text, o in origins.items()} == {
        "介绍一下 NCCL 的 ring allreduce": "numbered",
        "CUDA stream 是什么？": "numbered",
        "共享内存 bank 冲突怎么避免？": "bulleted",
        "RDMA 和 TCP 的区别": "narrated",
        "GPUDirect 怎么绕过主机内存": "narrated",
        "实现一个 LRU 缓存": "line",  # under a "手撕：" heading: a line of its own there
        "什么是 KV cache？": "inline",
        "PagedAttention 解决了什么问题？": "inline",
        "怎么做 continuous batching？": "inline",
        "解释一下 Transformer 的 attention 复杂度": "qa",
    }
    # narration quotes the sentence that tells the question, not the whole paragraph
    assert origins["RDMA 和 TCP 的区别"].quote == "面试官上来就问了 RDMA 和 TCP 的区别，我说了零拷贝。"
    assert origins["GPUDirect 怎么绕过主机内存"].quote == "然后又问了 GPUDirect 怎么绕过主机内存。"


@pytest.mark.parametrize(("text", "question", "how", "quote"), [
    ("Acme\nEngineer\nInterview questions\n1. Why NCCL?\n2. What is RDMA?\n", "Why NCCL?", "numbered", ""),
    ("Acme\nEngineer\nInterview questions\n- Why NCCL?\n- What is RDMA?\n", "Why NCCL?", "bulleted", ""),
    ("Acme\nEngineer\nInterview questions\nWhy NCCL?\nWhat is RDMA?\n", "Why NCCL?", "line", ""),
    # narration in English; the task after a "算法题：" label; a quoted task; a heading that asks
    ("My Google onsite, round 1\n\nRound 1\nThe interviewer was friendly. Then he asked how ring all-reduce "
     "scales with the number of GPUs, I said bandwidth stays constant.\n",
     "how ring all-reduce scales with the number of GPUs", "narrated",
     "Then he asked how ring all-reduce scales with the number of GPUs, I said bandwidth stays constant."),
    ("阿里 二面面经\n\n二面\n- 算法题：\n- 合并 K 个有序链表\n- 讲讲 epoll 的原理\n", "合并 K 个有序链表", "task", "- 算法题："),
    ("腾讯 一面面经\n\n一面\n> 给定一个数组，求最长递增子序列\n讲讲 epoll 的原理？\n",
     "给定一个数组，求最长递增子序列", "quoted", ""),
    ("Interview questions\n\n## How does NCCL choose between ring and tree algorithms?\n"
     + "NCCL measures the bandwidth and latency of each algorithm on the topology it found and picks the faster one "
       "for the message size at hand.\n"
     + "## What is GPUDirect RDMA?\nIt lets the NIC read and write GPU memory directly, without a copy through the "
       "host's memory, which saves a copy and latency.\n",
     "How does NCCL choose between ring and tree algorithms?", "heading", ""),
])
def test_origin_of_one_shape(text: str, question: str, how: str, quote: str) -> None:
    origins = _origins(text)
    assert question in origins, list(origins)
    assert origins[question] == Origin(how, quote)


def test_a_question_only_the_model_took_is_a_guess_in_document_order() -> None:
    text = ("Google L4 onsite\n\nRound 1\n- Explain how ring all-reduce works and its bandwidth cost.\n"
            "  A: each GPU sends 2(N-1)/N of the data.\n"
            "- Suggest a way to send a large file faster over a lossy link\n"
            "  A: parallel streams and forward error correction.\n"
            "- What is a CUDA warp?\n")
    questions = extract_posting(text).questions
    guessed = [q for q in questions if q.origin.guessed]
    assert [q.text for q in guessed] == ["Suggest a way to send a large file faster over a lossy link"]
    assert 0 < guessed[0].confidence <= 0.8
    order = [q.text for q in questions]
    assert order.index("Suggest a way to send a large file faster over a lossy link") == 1  # where the document has it
    assert describe(guessed[0].origin, guessed[0].section, 0.7) == "guessed from the wording (70%)"


def test_every_origin_is_described() -> None:
    for how in HOWS:
        said = describe(Origin(how, "问了 X"), "一面", 0.5)
        assert said and "None" not in said
    assert describe(Origin("numbered"), "一面", 0.9) == "a numbered list under '一面'"
    assert describe(Origin("numbered"), "", 0.9) == "a numbered list"


def test_origin_is_not_part_of_equality_or_the_json() -> None:
    result = extract_posting("Acme\nEngineer\nInterview questions\n1. Why NCCL?\n")
    assert result.questions[0].origin == Origin("numbered")
    assert "origin" not in result.to_json_dict()["questions"][0]


def test_cli_verbose_and_explain_say_the_same_origin(tmp_path: Path) -> None:
    path = tmp_path / "report.txt"
    path.write_text(REPORT, encoding="utf-8")
    verbose = CliRunner().invoke(extract_command, ["-v", str(path)])
    assert verbose.exit_code == 0, verbose.output
    assert ("    [聊了很多项目细节] (concept) 什么是 KV cache？\n"
            "      ← a numbered list written on one line under '聊了很多项目细节'") in verbose.output
    assert "← narrated: '然后又问了 GPUDirect 怎么绕过主机内存。'" in verbose.output
    plain = CliRunner().invoke(extract_command, [str(path)])
    assert "←" not in plain.output
    explained = CliRunner().invoke(extract_command, ["--explain", str(path)])
    assert "→ 解释一下 Transformer 的 attention 复杂度  (a question followed by its answer under" in explained.output
    assert "(narrated: '面试官上来就问了 RDMA 和 TCP 的区别，我说了零拷贝。', confidence 0.70)" in explained.output
