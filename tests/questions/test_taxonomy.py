"""The skills taxonomy: the shipped file's coverage, alias folding, validation, skill matching."""
from __future__ import annotations

import pytest

from prep.skills import Taxonomy, TaxonomyError, find_skills, load_taxonomy, parse_taxonomy

# The content's canonical skill names (CONTRIBUTING.md), the neighbouring field, and the seed README's skills.
REQUIRED_NAMES = """
NCCL RCCL MPI UCX NVSHMEM OpenSHMEM OpenMP RDMA InfiniBand RoCE iWARP TCP/IP DPDK NVLink NVSwitch
PCIe CUDA HIP Triton TensorRT Valgrind perf C++ Python Linux PyTorch TensorFlow JAX vLLM SGLang
Megatron DeepSpeed FSDP ZeRO DP TP PP EP PagedAttention Collectives Java JavaScript Go Rust
Kubernetes Docker
""".split() + ["GPUDirect RDMA", "GPUDirect P2P", "CUDA Graphs", "Nsight Systems", "Nsight Compute", "KV Cache"]


@pytest.fixture(scope="module")
def taxonomy() -> Taxonomy:
    return load_taxonomy()


@pytest.mark.parametrize("name", REQUIRED_NAMES)
def test_shipped_taxonomy_has_required_skill(taxonomy: Taxonomy, name: str) -> None:
    assert name in taxonomy.names
    assert taxonomy.category(name)


def test_every_skill_has_a_category(taxonomy: Taxonomy) -> None:
    assert all(skill.category and skill.category != "other" for skill in taxonomy.skills.values())


@pytest.mark.parametrize(
    ("term", "canonical"),
    [
        ("nvlink", "NVLink"),
        ("NVLINK", "NVLink"),
        ("cpp", "C++"),
        ("Linux内核", "Linux"),
        ("远程直接内存访问", "RDMA"),
        ("数据并行", "DP"),
        ("张量并行", "TP"),
        ("流水线并行", "PP"),
        ("专家并行", "EP"),
        ("  golang ", "Go"),
        ("集合通信", "Collectives"),
        ("GPU microarchitecture", "GPU Architecture"),  # spellings met in real postings
        ("coalesced loads", "Memory Coalescing"),
        ("lock contention", "Locks"),
        ("kernel fusions", "Kernel Fusion"),
        ("no such skill", None),
    ],
)
def test_canonical_folds_aliases(taxonomy: Taxonomy, term: str, canonical: str | None) -> None:
    assert taxonomy.canonical(term) == canonical


def test_terms_maps_casefolded_surface_forms(taxonomy: Taxonomy) -> None:
    terms = taxonomy.terms()
    assert terms["nccl"] == "NCCL"
    assert terms["k8s"] == "Kubernetes"
    assert all(key == key.casefold() for key in terms)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Java is never found inside JavaScript, in either order or case
        ("JavaScript and TypeScript", ["JavaScript", "TypeScript"]),
        ("JavaScript, then Java", ["JavaScript", "Java"]),
        ("javascript前端", ["JavaScript"]),
        ("高德-JAVA研发工程师", ["Java"]),
        # CJK characters next to a Latin term are a boundary
        ("熟悉CUDA编程", ["CUDA"]),
        ("丰富的Linux使用经验", ["Linux"]),
        ("专家并行EP、张量并行TP", ["EP", "TP"]),
        ("如何用perf定位热点", ["perf"]),
        # Latin letters and digits are not
        ("NVLINKs and CUDAx", []),
        ("MPI3 MPICH", ["MPI"]),
        # short tokens are case-sensitive whole tokens
        ("DP/TP/PP/EP", ["DP", "TP", "PP", "EP"]),
        ("dp tp pp ep", []),
        ("TP-Link router, PP-OCR, EPS", []),
        ("Go to the office and go ahead", []),
        ("services written in Go.", ["Go"]),
        ("golang microservices", ["Go"]),
        ("hip hop, the HIP port", ["HIP"]),
        ("zero copy, ZeRO-3 offload", ["Zero-Copy", "ZeRO"]),  # the concept, then the optimizer
        ("rust belt, Rust services", ["Rust"]),
        # longest term wins at one position
        ("GPUDirect RDMA", ["GPUDirect RDMA"]),
        ("GPUDirect RDMA and RDMA", ["GPUDirect RDMA", "RDMA"]),
        ("TensorRT-LLM and TensorRT", ["TensorRT-LLM", "TensorRT"]),
        ("Fully Sharded Data Parallel", ["FSDP"]),
        ("C++17 and C/C++", ["C++", "C"]),  # "C/C++" names both languages
        ("了解 CPU 多级缓存吗；raft的选举过程；中断和异常的区别", ["CPU Caches", "Raft", "Interrupts"]),
        # separators inside terms
        ("KV-Cache, kv cache, KV缓存", ["KV Cache"]),
        ("Nsight  Systems and nsys", ["Nsight Systems"]),
        # first mention first, each skill once
        ("RDMA, CUDA, RDMA again, NCCL", ["RDMA", "CUDA", "NCCL"]),
        ("", []),
    ],
)
def test_find_skills(text: str, expected: list[str]) -> None:
    assert find_skills(text) == expected


def test_skill_spans_give_offsets(taxonomy: Taxonomy) -> None:
    text = "熟悉CUDA与NCCL"
    assert taxonomy.skill_spans(text) == [(2, 6, "CUDA"), (7, 11, "NCCL")]


def test_custom_taxonomy_matching() -> None:
    taxonomy = parse_taxonomy(
        {"skills": [{"name": "Foo", "category": "x", "aliases": ["福"], "case_sensitive": ["FO"]}]}
    )
    assert taxonomy.find_skills("福 and FO and fo and foo") == ["Foo"]
    assert [name for _, _, name in taxonomy.skill_spans("福 FO fo foo")] == ["Foo", "Foo", "Foo"]


def test_empty_taxonomy_finds_nothing() -> None:
    assert parse_taxonomy({"skills": []}).find_skills("CUDA NCCL") == []


def test_parse_taxonomy_collects_every_problem() -> None:
    with pytest.raises(TaxonomyError) as info:
        parse_taxonomy(
            {
                "skills": [
                    {"name": "A", "category": "x", "aliases": ["shared"]},
                    {"name": "B", "category": "", "aliases": ["Shared"]},
                    {"name": "A", "category": "x"},
                    {"category": "x"},
                    {"name": "C", "category": "x", "aliases": "not a list"},
                ]
            }
        )
    problems = info.value.problems
    assert len(problems) == 5
    assert isinstance(info.value, ValueError)
    assert "invalid taxonomy" in str(info.value)


@pytest.mark.parametrize("data", [None, [], {"skills": "x"}, {"other": []}])
def test_parse_taxonomy_rejects_bad_structure(data: object) -> None:
    with pytest.raises(TaxonomyError):
        parse_taxonomy(data)


def test_load_taxonomy_is_cached() -> None:
    assert load_taxonomy() is load_taxonomy()


def test_the_tries_searched_apart_find_what_one_alternation_finds() -> None:
    """The matcher searches its three tries (Latin terms, short case-sensitive ones, the rest) apart
    for speed; what it finds is what one regex of the three would: the leftmost match, and at one
    position the first trie's."""
    import re
    from pathlib import Path

    taxonomy = load_taxonomy()
    branches = taxonomy._compiled()
    combined = re.compile("|".join(branch.pattern for branch, _ in branches), re.IGNORECASE)
    root = Path(__file__).parents[2]
    texts = [path.read_text(encoding="utf-8") for path in sorted((root / "tests" / "data" / "corpus").glob("*.txt"))]
    texts += ["DP和TP、EP，RDMA over RoCEv2；用CUDA写GEMM", "zero copy, ZeRO-3 offload; C/C++ and Go", "x" * 50 + "NCCL"]
    for text in texts:
        expected = [(m.start(), m.end(), taxonomy._group_skill[m.lastindex - 1]) for m in combined.finditer(text)
                    if m.lastindex]
        assert list(taxonomy._matches(text)) == expected
