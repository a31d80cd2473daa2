"""Headings that ask: the heading is the question and what follows it (its sub-headings too) is the
answer; a page title that asks, and headings that only open with a question word, are not."""
from __future__ import annotations

from prep.postings.extract import extract_posting
from prep.postings.inline_lists import split_line

QA_PAGE = """# GPU interview notes

## Collectives

### Q1: How does ring allreduce split the work between GPUs?

**Why it matters**

- Every link carries the same amount of data

**How to check it**

- Compare bus bandwidth with the link speed

### Q2: Explain the difference between RC and UD queue pairs.

RC is reliable and connected; UD sends datagrams.

#### What to mention

- UD has no RDMA Write

#### 2.1 Why can UD not send messages larger than the MTU?

Each datagram is one packet.
"""


def _questions(text: str) -> list[str]:
    return [q.text for q in extract_posting(text).questions]


def test_question_headings_are_the_questions_and_their_answers_are_not() -> None:
    assert _questions(QA_PAGE) == [
        "How does ring allreduce split the work between GPUs?",
        "Explain the difference between RC and UD queue pairs.",
        "Why can UD not send messages larger than the MTU?",  # a deeper heading with a question mark
    ]


def test_a_title_that_asks_does_not_make_the_page_its_answer() -> None:
    text = ("# 华为网络岗的面试难度如何？\n\n## 一面\n\n1. RoCEv2 为什么需要 PFC？\n2. 讲讲 DCQCN 的原理\n"
            "3. 手撕：两个栈实现队列\n")
    found = _questions(text)
    assert "RoCEv2 为什么需要 PFC？" in found and "讲讲 DCQCN 的原理" in found


def test_headings_that_name_a_part_are_not_questions() -> None:
    text = ("# Orion Labs — Distributed Training Engineer\n\n## What you will do\n\n- Scale training to 4,000 GPUs\n\n"
            "## How to apply\n\nSend your CV and a link to code you are proud of.\n")
    assert "How to apply" not in _questions(text)


def test_a_number_glued_to_a_word_continues_a_run_only_once_it_is_established() -> None:
    line = "一面 1. 自我介绍2. 项目介绍3. 吞吐量如何增加4. 为什么没有q的cache5. flash attention"
    assert split_line(line)[-2:] == ["4. 为什么没有q的cache", "5. flash attention"]
    assert split_line("用 x86. 还是 arm1. 都行") == ["用 x86. 还是 arm1. 都行"]


def test_a_follow_up_line_inside_an_answer_is_a_question() -> None:
    text = ("## 某公司一面\n#### 1.epoll 底层用什么数据结构\n红黑树管理注册的 fd，就绪链表存放就绪事件。\n"
            "追问:为什么不用哈希表？\n红黑树有序，删除和查找都稳定。\n"
            "* **Follow-up:** What happens when the ready list grows faster than you drain it?\n"
            "It keeps growing until you read.\n"
            "#### 2.select 和 poll 的区别是什么？\nselect 有 1024 的上限，poll 没有。\n")
    assert _questions(text) == ["epoll 底层用什么数据结构", "为什么不用哈希表？",
                                "What happens when the ready list grows faster than you drain it?", "select 和 poll 的区别是什么？"]


def test_questions_a_page_says_to_expect_are_its_questions() -> None:
    text = ("# Storage Interview Themes\n\nMost storage interviews test how you reason about failure.\n\n"
            "Expect questions around:\n\n- debugging slow writes on one NVMe replica\n"
            "- trade-offs between erasure coding and replication\n")
    assert _questions(text) == ["debugging slow writes on one NVMe replica", "trade-offs between erasure coding and replication"]


def test_topic_headings_beside_asking_ones_are_a_banks_questions() -> None:
    text = ("# 面试题整理\n## 系统\n#### 并行运算\n见另一篇笔记。\n#### 进程和线程有什么区别？\n进程有独立地址空间。\n"
            "#### 不同线程之间是否可以共享套接字\nUDP 可以。\n#### 如何提升memcpy的效率\n按对齐的块复制。\n"
            "#### 进程状态图\n就绪、运行、阻塞。\n")
    assert _questions(text) == ["并行运算", "进程和线程有什么区别？", "不同线程之间是否可以共享套接字", "如何提升memcpy的效率", "进程状态图"]


def test_a_follow_ups_heading_inside_an_answer_lists_questions() -> None:
    text = ("# 显存\n## 状态分片\n### Q-001 · ZeRO 三个阶段各切分什么\n#### 答案\n优化器状态、梯度、参数。\n"
            "#### 追问\n- 为什么 ZeRO-3 可能更慢？\n- FSDP 和 ZeRO-3 有什么区别？\n"
            "### Q-002 · 激活重计算用时间换了多少显存？\n#### 答案\n大约省掉中间激活。\n")
    assert _questions(text) == ["Q-001 · ZeRO 三个阶段各切分什么", "为什么 ZeRO-3 可能更慢？", "FSDP 和 ZeRO-3 有什么区别？",
                                "Q-002 · 激活重计算用时间换了多少显存？"]
