"""A sample job posting (Chinese, with interview questions) the browser tests paste."""
from __future__ import annotations

POSTING = """Acme GPU 公司
GPU 通信库工程师
职位详情
负责 NCCL 与 RDMA 通信优化，熟悉 CUDA。
面试指南
- 请解释Ring AllReduce的两个阶段
- RDMA与TCP/IP相比有何优势？
"""
