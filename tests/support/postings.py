"""Sample documents the tests paste: a job posting (Chinese, with interview questions), and an
interview report in which one question is only the sentence model's guess (:data:`GUESSED`)."""
from __future__ import annotations

POSTING = """Acme GPU 公司
GPU 通信库工程师
职位详情
负责 NCCL 与 RDMA 通信优化，熟悉 CUDA。
面试指南
- 请解释Ring AllReduce的两个阶段
- RDMA与TCP/IP相比有何优势？
"""


#: A report whose second item ("Suggest …", between two answered questions) no rule takes: only
#: the sentence model does, from its wording.
GUESSED = """Google L4 onsite

Round 1
- Explain how ring all-reduce works and its bandwidth cost.
  A: each GPU sends 2(N-1)/N of the data.
- Suggest a way to send a large file faster over a lossy link
  A: parallel streams and forward error correction.
- What is a CUDA warp?
"""
