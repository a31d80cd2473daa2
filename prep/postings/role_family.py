"""Which of prep's role families a posting's or report's title names, conservatively.

The families are the shipped target roles (``roles/<slug>.txt``); a title is put in one only
when it names the family's work in words that mean nothing else ("集合通信库", "LLM serving",
"推理引擎", "CUDA kernel", "RDMA", "分布式训练"). A title that names none, or a job these words
do not pin down ("后端开发", "AI Infra 工程师"), has no family: the company page lists it as it is.
The more specific families are tried first: "NCCL 通信库 (CUDA)" is GPU communication.

Pure module: no Flask, no database; one bounded pattern per family, on the title's first
:data:`MAX_TITLE_CHARS` characters.
"""
from __future__ import annotations

import re
import unicodedata

#: Characters of a title that are read.
MAX_TITLE_CHARS = 300

#: Family (a ``roles/<slug>.txt`` stem) -> the words that put a title in it, most specific first.
FAMILIES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("gpu-communication", re.compile(
        r"集合通信|通信库|网络通信库|gpu\s?通信|通信(?:算法|框架|中间件)|nccl|hccl|rccl|"
        r"collective\s+communications?|communications?\s+librar(?:y|ies)|gpu\s+communications?", re.IGNORECASE)),
    ("llm-inference", re.compile(
        r"推理(?:引擎|框架|系统|加速|优化|服务|部署|性能)|大模型推理|llm\s+(?:serving|inference)|"
        r"inference\s+(?:engine|systems?|serving|optimi[sz]ation|infrastructure|infra|acceleration|framework)|"
        r"model\s+serving|vllm|sglang|tensorrt[-\s]?llm", re.IGNORECASE)),
    ("distributed-training", re.compile(
        r"分布式训练|训练框架|大模型训练|训练(?:系统|加速|优化)|distributed\s+training|"
        r"training\s+(?:framework|infrastructure|infra|systems?)|megatron|deepspeed", re.IGNORECASE)),
    ("rdma-networking", re.compile(
        r"rdma|infiniband|roce(?:v2)?\b|高性能网络|智算网络|数据中心网络|hpc\s+network", re.IGNORECASE)),
    ("cuda-kernels", re.compile(
        r"cuda|算子(?:开发|优化)?|gpu\s?kernel|kernel\s+(?:engineer|developer|optimi[sz]ation)|"
        r"gpu\s+(?:performance|compute)\s+engineer|gpu\s?性能优化|高性能计算", re.IGNORECASE)),
)
FAMILY_KEYS = tuple(key for key, _ in FAMILIES)


def role_family(title: str | None) -> str | None:
    """The role family ``title`` names (a ``roles/`` slug), None when it names none."""
    if not title:
        return None
    text = unicodedata.normalize("NFKC", title[:MAX_TITLE_CHARS])
    return next((key for key, pattern in FAMILIES if pattern.search(text)), None)
