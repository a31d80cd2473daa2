"""Linking questions to explanations: exact matches, mixed-language ranking, abstention,
speed, and `prep link`."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from prep.content.check import check_tree
from prep.content.cli import link_command
from prep.content.document import ExplanationDoc
from prep.content.linker import Analyzer, Link, Linker, normalize_question
from prep.skills.taxonomy import Taxonomy, load_taxonomy

DATA = Path(__file__).parents[1] / "data" / "content"


@pytest.fixture(scope="module")
def taxonomy() -> Taxonomy:
    return load_taxonomy(DATA / "taxonomy.yaml")


@pytest.fixture(scope="module")
def docs(taxonomy: Taxonomy) -> list[ExplanationDoc]:
    report = check_tree(DATA / "good", taxonomy)
    assert report.ok
    return report.docs


@pytest.fixture(scope="module")
def linker(docs: list[ExplanationDoc], taxonomy: Taxonomy) -> Linker:
    return Linker(docs, taxonomy)


@pytest.mark.parametrize(
    ("question", "slug"),
    [
        ("请解释NCCL中AllReduce的Ring算法原理", "ring-allreduce"),
        ("请解释 NCCL 中 AllReduce 的 Ring 算法原理。", "ring-allreduce"),  # spacing, punctuation
        ("ＲＤＭＡ与ＴＣＰ／ＩＰ相比有何优势?", "rdma-vs-tcp"),  # full width
        ("环形AllReduce分为哪两个阶段？", "ring-allreduce"),  # from the zh translation
        ("how does RING allreduce work step by step", "ring-allreduce"),
    ],
)
def test_exact_question_match_scores_1_and_comes_first(linker: Linker, question: str, slug: str) -> None:
    links = linker.rank(question)
    assert links[0] == Link(slug, 1.0, listed=True)
    assert all(link.score < 1.0 for link in links[1:])


@pytest.mark.parametrize(
    ("question", "slug"),
    [
        ("ring allreduce 的两个阶段是什么", "ring-allreduce"),
        ("Why is RDMA faster than TCP?", "rdma-vs-tcp"),
        ("怎么用 Nsight Systems 找通信瓶颈", "nsight-systems-comm-bottlenecks"),
        ("远程直接内存访问为什么比TCP快", "rdma-vs-tcp"),  # Chinese alias folded to RDMA
        ("NVLINK 和 PCIe 带宽差多少", "pcie-vs-nvlink"),  # alias case folded to NVLink
        ("How do I detect memory leaks in C++ on Linux?", "cpp-leak-detection-profiling"),
        ("What is PagedAttention?", "kv-cache-pagedattention"),
        ("解释一下KV缓存", "kv-cache-pagedattention"),
        ("tree vs ring in NCCL for small messages", "nccl-algorithms-protocols"),
        ("GPU 显存层次有哪些", "gpu-memory-hierarchy"),
        ("nsys 时间线上怎么看 NCCL kernel 是否和计算重叠", "nsight-systems-comm-bottlenecks"),
        ("LL128 和 Simple 协议有什么区别", "nccl-algorithms-protocols"),
    ],
)
def test_on_topic_paraphrases_link_to_the_right_doc(linker: Linker, question: str, slug: str) -> None:
    links = linker.rank(question)
    assert links, f"abstained on {question!r}: {linker.scores(question)}"
    assert links[0].slug == slug
    assert 0 < links[0].score < 1.0


@pytest.mark.parametrize(
    "question",
    [
        "如何设计一个高并发的秒杀系统？",
        "What is your favourite sorting algorithm for linked lists?",
        "怎么排查 Java 服务的 GC 停顿？",
        "How would you design a URL shortener?",
        "MySQL 索引的底层数据结构是什么？",
        "What is the time complexity of quicksort?",
        "介绍一下你的项目经验",
        "",
        "？？？",
    ],
)
def test_off_topic_questions_abstain(linker: Linker, question: str) -> None:
    assert linker.rank(question) == []


def test_scores_are_normalised_and_sorted(linker: Linker) -> None:
    links = linker.rank("RDMA InfiniBand RoCE TCP", limit=10)
    assert links == sorted(links, key=lambda link: -link.score)
    assert all(0.0 <= link.score <= 1.0 for link in links)
    assert len(linker.rank("RDMA InfiniBand RoCE TCP", limit=1)) == 1
    assert linker.rank("RDMA", limit=0) == []


def test_translations_are_one_explanation(linker: Linker) -> None:
    assert linker.slugs.count("ring-allreduce") == 1


def test_threshold_is_configurable(docs: list[ExplanationDoc], taxonomy: Taxonomy) -> None:
    strict = Linker(docs, taxonomy, threshold=1.0)  # lexical scores stop at 0.99: exact matches only
    assert Linker(docs, taxonomy).rank("Why is RDMA faster than TCP?")
    assert strict.rank("Why is RDMA faster than TCP?") == []
    assert strict.rank("RDMA与TCP/IP相比有何优势？") == [Link("rdma-vs-tcp", 1.0, listed=True)]


def test_analyzer_terms_for_mixed_text(taxonomy: Taxonomy) -> None:
    terms = {t for t, _w in Analyzer(taxonomy).terms("熟悉NVLINK与远程直接内存访问, TCP/IP 和 C++ 的 all-reduce")}
    assert {"§nvlink", "§rdma", "§tcp/ip", "§c++"} <= terms
    assert {"nvlink", "tcp/ip", "tcp", "ip", "c++", "all-reduce", "allreduce"} <= terms
    assert {"远程", "内存"} <= terms
    assert "熟悉" not in terms  # framing ("familiar with"), as in a posting's 熟悉NCCL
    assert "与远" not in terms  # no bigram across a function character


@pytest.mark.parametrize(
    ("asked", "plain"),
    [
        ("讲讲TIME_WAIT了解吗", "TIME_WAIT"),
        ("说一下 TIME_WAIT", "TIME_WAIT"),
        ("介绍一下TIME_WAIT", "TIME_WAIT"),
        ("I was asked about TIME_WAIT", "TIME_WAIT"),
        ("they asked me to explain SO_REUSEADDR", "SO_REUSEADDR"),
        ("面试官问了 Ring AllReduce", "Ring AllReduce"),
        ("KV cache 你熟悉吗?", "KV cache"),
        ("用 shared memory 要注意什么?", "用 shared memory"),
        ("Tensor Core 为什么能加速?", "Tensor Core 加速"),  # the modal goes with 为什么
        ("讲一下 map 的实现", "map"),  # 实现 (its implementation) frames like 原理
        ("TCP 和 UDP 有什么不同,各自用在哪里?", "TCP 和 UDP"),
        ("What is the difference between TCP and UDP?", "TCP and UDP"),
    ],
)
def test_question_framing_carries_no_terms(asked: str, plain: str) -> None:
    analyzer = Analyzer(None)
    assert set(analyzer.terms(asked)) == set(analyzer.terms(plain))


def test_terms_joined_by_underscore_or_colons_stay_one_term() -> None:
    terms = {t for t, _w in Analyzer(None).terms("TIME_WAIT, SO_REUSEADDR and std::move")}
    assert {"time_wait", "so_reuseaddr", "std::move"} <= terms
    assert {"time", "wait", "reuseaddr", "move"} <= terms  # the parts, as weaker terms


def test_traditional_characters_read_as_simplified() -> None:
    analyzer = Analyzer(None)
    assert set(analyzer.terms("說說電腦訪問網頁的過程")) == set(analyzer.terms("说说电脑访问网页的过程"))


def test_british_and_american_spellings_are_one_term() -> None:
    analyzer = Analyzer(None)
    for british, american in [("vectorised loads", "vectorized loads"), ("optimisation", "optimization"),
                              ("analyse the utilisation", "analyze the utilization")]:
        assert set(analyzer.terms(british)) == set(analyzer.terms(american))


def test_forms_of_an_ize_verb_are_one_term() -> None:
    analyzer = Analyzer(None)
    forms = [set(analyzer.terms(w)) for w in ("quantize", "quantizing", "quantised", "quantization", "quantizer")]
    assert all(form == forms[0] for form in forms)
    assert set(analyzer.terms("size")) != set(analyzer.terms("sizing"))  # too short a stem to fold


def test_a_pair_ending_in_an_auxiliary_spans_two_words() -> None:
    terms = {t for t, _w in Analyzer(None).terms("什么变量会落到 local memory，需要会话吗")}
    assert "量会" not in terms and "变量" in terms
    assert "会话" in terms  # a pair starting with one is a word


def test_a_pair_joining_two_commoner_words_is_a_bridge() -> None:
    # 性能 and 分析 are each used by many shipped explanations; 能分 between them is no word.
    shipped = load_taxonomy()
    linker = Linker(check_tree(Path(__file__).parents[2] / "content", shipped).all_docs, shipped)
    assert "能分" in linker._bridging_bigrams([["平时", "时怎"], ["做性", "性能", "能分", "分析"]])
    assert not {"性能", "分析"} & linker._bridging_bigrams([["平时", "时怎"], ["做性", "性能", "能分", "分析"]])


def test_a_joined_spelling_of_a_skills_name_is_that_skill() -> None:
    # "KV-cache" is the skill KV cache, not a rare word that only the pages spelling it so would
    # share; "all-reduce" (the skill Collectives) stays a word of its own.
    analyzer = Analyzer(load_taxonomy())
    terms = {t for t, _w in analyzer.terms("What is KV-Cache? And all-reduce?")}
    assert {"§kv cache", "kv", "cache", "all-reduce", "allreduce"} <= terms
    assert not {"kv-cache", "kvcache"} & terms


@pytest.mark.parametrize(("question", "slug"), [("nsight_sys 怎么找通信瓶颈", "nsight-systems-comm-bottlenecks"),
                                             ("How do I detect memory_leaks in C++ on Linux?", "cpp-leak-detection-profiling")])
def test_an_unseen_joined_spelling_of_seen_words_does_not_sink_the_question(linker: Linker, question: str,
                                                                             slug: str) -> None:
    links = linker.rank(question)
    assert links and links[0].slug == slug and links[0].score >= 0.65


def test_three_spaced_words_find_the_hyphenated_term(docs: list[ExplanationDoc], taxonomy: Taxonomy) -> None:
    doc = dataclasses.replace(docs[0], slug="copy-on-write", title="Copy-on-write after fork", tags=["copy-on-write"],
                              skills=[], questions=["What is copy-on-write?"], body="Pages are shared until written.")
    linker = Linker([*docs, doc], taxonomy)
    assert linker.rank("I was asked about copy on write")[0].slug == "copy-on-write"
    assert linker._compounds("c-o-p-y on write") == []  # letters joined by hyphens are no spaced words


def test_a_question_several_pages_answer_alike_is_no_confident_link(docs: list[ExplanationDoc],
                                                                    taxonomy: Taxonomy) -> None:
    twins = [dataclasses.replace(docs[0], slug=f"twin-{i}", title="Warps and the SIMT model", tags=["warp"],
                                 skills=[], questions=[], body="A warp is 32 threads.") for i in range(2)]
    alone = Linker([*docs, twins[0]], taxonomy).rank("What is a warp?")
    both = Linker([*docs, *twins], taxonomy).rank("What is a warp?")
    assert alone[0].slug == "twin-0"
    assert both and both[0].score < alone[0].score - 0.2


def test_analyzer_without_taxonomy_and_with_the_shipped_one() -> None:
    assert not any(t.startswith("§") for t, _ in Analyzer(None).terms("RDMA NCCL"))
    shipped = {t for t, _ in Analyzer(load_taxonomy()).terms("远程直接内存访问 and Nsight Systems")}
    assert {"§rdma", "§nsight systems"} <= shipped


@pytest.mark.parametrize(
    ("a", "b"),
    [("RDMA与TCP/IP相比有何优势？", "rdma 与 tcp/ip 相比有何优势"), ("Ｃ＋＋ leak?", "c++ leak"),
     ("What is  RDMA ?", "what is rdma")],
)
def test_normalize_question(a: str, b: str) -> None:
    assert normalize_question(a) == normalize_question(b)


def test_empty_corpus_abstains(taxonomy: Taxonomy) -> None:
    assert Linker([], taxonomy).rank("RDMA") == []


# --------------------------------------------------------------------------- CLI


def test_link_cli_prints_json_using_only_the_directory() -> None:
    result = CliRunner().invoke(link_command, [
        "--content", str(DATA / "good"), "--json",
        "请解释NCCL中AllReduce的Ring算法原理", "如何设计一个高并发的秒杀系统？"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [item["question"] for item in data] == ["请解释NCCL中AllReduce的Ring算法原理", "如何设计一个高并发的秒杀系统？"]
    assert data[0]["links"][0] == {"slug": "ring-allreduce", "score": 1.0}
    assert data[1]["links"] == []
    assert "请解释" in result.output  # ensure_ascii=False


def test_link_cli_text_output() -> None:
    result = CliRunner().invoke(link_command, ["--content", str(DATA / "good"), "What is PagedAttention?", "秒杀系统"])
    assert result.exit_code == 0
    assert "kv-cache-pagedattention" in result.output and "(no link)" in result.output


@pytest.mark.parametrize(
    "args",
    [[], ["--content", "/no/such/dir", "q"], ["--json"], ["--limit", "0", "q"], ["--bogus", "q"]],
)
def test_link_cli_bad_arguments_exit_2(args: list[str]) -> None:
    result = CliRunner().invoke(link_command, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "Error:" in result.output
