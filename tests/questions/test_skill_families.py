"""Skills named the ways postings name them: families and vendor stacks (GPUDirect, ConnectX, DPU,
virtual networking, ISA names, Ascend C), a language in a list ("C and C++"), terms sharing a
word ("tensor/pipeline parallel", "Nsight Systems/Compute"), and never an abbreviation taken out
of an unrelated expansion ("dynamic programming (DP)") or a "C" that is a funding round."""
from __future__ import annotations

import pytest

from prep.skills.taxonomy import find_skills
from tests.support.cpu import least_cpu_seconds


@pytest.mark.parametrize(("text", "skills"), [
    ("expand the GPUDirect technology portfolio", ["GPUDirect"]),
    ("solved with dynamic programming (DP)", ["Dynamic Programming"]),  # the expansion, never data parallelism
    ("GPUDirect RDMA between NICs", ["GPUDirect RDMA"]),
    ("runtimes such as NCCL, UCX, UCC", ["NCCL", "UCX", "UCC"]),
    ("ConnectX 网卡与 DPU 卸载", ["ConnectX", "DPU"]),
    ("支持 vxlan、geneve 隧道,优化 OVN、OVS,熟悉 iptables 与 UDP", ["VXLAN", "Geneve", "OVN", "OVS", "iptables", "UDP"]),
    ("GPU ISAs (PTX/SASS) and SIMD/SIMT", ["PTX", "SASS", "SIMD"]),
    ("熟悉CUDA、Ascend C编程", ["CUDA", "Ascend C"]),
    ("Strong C and C++ programming skills", ["C", "C++"]),
    ("using C, C++ and assembly", ["C", "C++"]),
    ("C/C++/Python", ["C", "C++", "Python"]),
    ("熟悉JAVA/GO/Python中的一种", ["Java", "Go", "Python"]),
    ("tensor/pipeline parallel concepts", ["TP", "PP"]),
    ("data/tensor/pipeline parallelism", ["DP", "TP", "PP"]),
    ("profile with Nsight Systems/Compute", ["Nsight Systems", "Nsight Compute"]),
    ("debug with the GNU Debugger", ["GDB"]),
    ("data parallelism (DP) across nodes", ["DP"]),
    ("How do you write an interrupt service routine in C?", ["Interrupts", "C"]),
    ("storage engines in Rust, C, or C++", ["Rust", "C", "C++"]),
    ("expertise in C (C++ nice), ISRs and DMA", ["C", "C++", "Interrupts", "DMA"]),
    ("时钟、中断、电源管理", ["Interrupts"]),
    ("LSM 树的写放大", ["LSM Tree"]),
    ("IO虚拟化（vfio）, 熟悉Gcc, 在 fpga 仿真平台上验证", ["Virtualization", "VFIO", "GCC", "FPGA"]),
])
def test_skills_as_postings_write_them(text: str, skills: list[str]) -> None:
    assert find_skills(text) == skills


@pytest.mark.parametrize("text", [
    "a document processing (DP) pipeline",
    "大模型独角兽，C 轮融资",
    "a Series C startup",
    "面向C端用户",
    "USB Type-C",
    "a grade C.",
    "Plan C, then the fallback",
    "let's GO to the next round",
])
def test_no_skill_from_an_unrelated_expansion_or_a_letter(text: str) -> None:
    assert find_skills(text) == []


@pytest.mark.parametrize("text", [
    pytest.param("ab/" * 330_000, id="slashes"),
    pytest.param("tensor/" * 140_000 + " parallel", id="one-long-shared-suffix"),
    pytest.param("Nsight a / b " * 70_000, id="shared-prefixes"),
    pytest.param("dynamic programming (DP) " * 40_000, id="bracketed-abbreviations"),
])
def test_the_shared_word_and_expansion_checks_stay_within_the_parser_budget(text: str) -> None:
    assert least_cpu_seconds(lambda: find_skills(text)) <= 3.0  # the hostile-input budget for 1 MB
