"""Questions told in prose (prep/postings/prose.py): cues, answers cut off, narration dropped."""
from __future__ import annotations

import pytest

from prep.postings.extract import extract_posting
from prep.postings.prose import is_prose, prose_questions


@pytest.mark.parametrize(("line", "expected"), [
    ("一面是电话，面试官上来就问 Linux 下一个进程 CPU 打满了你怎么排查，我说 top 定位线程，他又追问如果是内核态 sys 很高呢。"
     "接着问 TCP TIME_WAIT 过多会有什么问题，怎么处理。",
     ["Linux 下一个进程 CPU 打满了你怎么排查", "如果是内核态 sys 很高呢", "TCP TIME_WAIT 过多会有什么问题，怎么处理"]),
    ("二面偏集群：问我 GPU 节点上 Xid 79 报错一般意味着什么；还有一道设计：给几千台机器设计一套健康检查系统，要求误隔离率低。",
     ["GPU 节点上 Xid 79 报错一般意味着什么", "给几千台机器设计一套健康检查系统，要求误隔离率低"]),
    ("Started with a chat about my MPI work. Then he asked how a ring allreduce works. Follow up: why would you "
     "prefer a tree over ring? I did fine.",
     ["how a ring allreduce works", "why would you prefer a tree over ring?"]),
    ("Coding - Given a graph of GPUs, find the maximum spanning tree rooted at rank 0. I did a modified Prim's. "
     "He then asked what changes if links are asymmetric.",
     ["Given a graph of GPUs, find the maximum spanning tree rooted at rank 0", "what changes if links are asymmetric"]),
    ("面试官先问了 Kafka 怎么保证不丢消息，又问了一下 ISR 是什么；接着问 MySQL 为什么用 B+ 树，最后让写一道题：最长回文子串，写完问空间复杂度能不能再低。",
     ["Kafka 怎么保证不丢消息", "ISR 是什么", "MySQL 为什么用 B+ 树", "最长回文子串", "空间复杂度能不能再低"]),
    ("先问了 DeepFM 和 Wide&Deep 的区别，然后又问了多目标学习里的跷跷板现象怎么缓解。",
     ["DeepFM 和 Wide&Deep 的区别", "多目标学习里的跷跷板现象怎么缓解"]),
    ("After some small talk they asked a question about how I would shard a user table. Then we discussed "
     "what happens when a shard gets hot.",
     ["how I would shard a user table", "what happens when a shard gets hot"]),
    ("The first question was about what a memory fence guarantees on a GPU. The next question was explain "
     "how a CUDA stream differs from a graph. My third and last question was a programming question: reverse "
     "the bits of a 64-bit word.",
     ["what a memory fence guarantees on a GPU", "explain how a CUDA stream differs from a graph",
      "reverse the bits of a 64-bit word"]),
    ("First round was an online assessment - first problem was a rate limiter per client with token buckets. "
     "It went fine.",
     ["a rate limiter per client with token buckets"]),
])
def test_prose_questions(line: str, expected: list[str]) -> None:
    assert is_prose(line)
    assert [text for text, _how in prose_questions(line)] == expected


@pytest.mark.parametrize("line", [
    "A GPU node shows as Ready but every job on it hangs at NCCL init. How do you troubleshoot it?",
    "进程间同步用过哪些方式？共享内存 + 信号量具体怎么实现",
    "short line",
])
def test_one_question_in_several_sentences_is_not_prose(line: str) -> None:
    assert not is_prose(line)


def test_a_narrated_report_yields_its_questions_and_not_the_answers() -> None:
    text = "\n".join([
        "字节 AML 二面面经",
        "一面是视频，面试官先问 NCCL 的 ring 和 tree 分别适合什么场景，我说小消息用 tree。然后让我手写一个线程安全的环形队列。",
        "答：用两个原子下标，acquire/release。",
        "int push(int v) {",
        "反问：组里用什么框架",
    ])
    result = extract_posting(text)
    assert result.doc_kind == "report"
    assert [q.text for q in result.questions] == ["NCCL 的 ring 和 tree 分别适合什么场景", "手写一个线程安全的环形队列"]
