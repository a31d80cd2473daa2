"""The question matcher on labelled pairs (tests/data/question_pairs/pairs.yaml): same question
reworded, translated zh <-> en, or different but close."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from prep.questions.matcher import MATCH_THRESHOLD, MAX_CHARS, Matcher, concepts, default_matcher, stem

_DATA = Path(__file__).resolve().parents[1] / "data" / "question_pairs"
PAIRS = yaml.safe_load((_DATA / "pairs.yaml").read_text(encoding="utf-8"))["pairs"]
#: Written after the word list and the threshold were set; only the technical-term rule of the
#: substitution test was added after seeing them (it removed both false matches: GPU/CPU).
HELD_OUT = yaml.safe_load((_DATA / "heldout.yaml").read_text(encoding="utf-8"))["pairs"]


def _figures(pairs, matcher: Matcher, threshold: float) -> tuple[float, float, dict[str, float]]:
    """(precision, recall, recall by label) of 'the same question' at ``threshold``."""
    said = [(p, matcher.score(p["a"], p["b"]) >= threshold) for p in pairs]
    tp = sum(1 for p, yes in said if yes and p["label"] != "different")
    fp = sum(1 for p, yes in said if yes and p["label"] == "different")
    by_label = {}
    for label in ("same", "translation"):
        group = [yes for p, yes in said if p["label"] == label]
        by_label[label] = sum(group) / len(group)
    positives = sum(1 for p in pairs if p["label"] != "different")
    return tp / max(1, tp + fp), tp / positives, by_label


def test_the_labelled_set_is_large_and_mixed():
    labels = [p["label"] for p in PAIRS]
    assert len(PAIRS) >= 150
    assert {"same", "translation", "different"} == set(labels)
    assert labels.count("different") >= 50 and labels.count("translation") >= 40


def test_precision_and_recall_at_the_threshold():
    precision, recall, by_label = _figures(PAIRS, default_matcher(), MATCH_THRESHOLD)
    assert precision >= 0.95                      # 1.00 when written
    assert recall >= 0.85                         # 0.89
    assert by_label["translation"] >= 0.95 and by_label["same"] >= 0.8   # 0.98 and 0.84


def test_held_out_pairs_keep_the_precision():
    precision, recall, _by_label = _figures(HELD_OUT, default_matcher(), MATCH_THRESHOLD)
    assert len(HELD_OUT) >= 40
    assert precision >= 0.95                      # 1.00 when written
    assert recall >= 0.55                         # 0.63: words the list does not know yet miss


@pytest.mark.parametrize(("a", "b"), [
    ("What is the difference between Megatron sequence parallelism and context parallelism?",
     "序列并行和上下文并行有什么区别？"),
    ("介绍一下 ZeRO 的三个 stage 分别做了什么？", "谈谈ZeRO的三个阶段分别切分了什么？"),
    ("How do you find out whether communication is the bottleneck of a distributed training job?",
     "怎么判断一个分布式训练作业的瓶颈是不是通信？"),
    ("怎么判断一个分布式训练作业的瓶颈是不是通信？", "在分布式训练中，如何定位通信瓶颈？"),
])
def test_the_wordings_of_one_question_match(a, b):
    assert default_matcher().same(a, b)


@pytest.mark.parametrize(("a", "b"), [
    ("What is the difference between Megatron sequence parallelism and context parallelism?",
     "What is the difference between tensor parallelism and pipeline parallelism?"),
    ("序列并行和上下文并行有什么区别？", "张量并行和流水线并行有什么区别？"),
    ("What does ZeRO stage 2 shard?", "What does ZeRO stage 3 shard?"),   # a number swapped
    ("RoCE v1 和 RoCE v2 有什么区别？", "InfiniBand 和 RoCE 有什么区别？"),
    ("GPU 的内存层次结构是怎样的？", "CPU 的缓存层次结构是怎样的？"),          # a term swapped
])
def test_close_but_different_questions_do_not(a, b):
    assert not default_matcher().same(a, b)


def test_a_text_is_its_own_match_and_nothing_matches_an_empty_one():
    m = default_matcher()
    assert m.score("How does ring AllReduce work?", "How does ring AllReduce work?") == 1.0
    assert m.score("", "How does ring AllReduce work?") == 0.0
    assert m.score("？？", "!!") == 0.0


def test_the_reachable_bound_never_leaves_out_a_match():
    """:meth:`Matcher.reachable` (a search scores only what it keeps) keeps every pair that scores
    at or above the threshold, across every text of the labelled sets, in both orders."""
    m = default_matcher()
    texts = sorted({p[side] for p in PAIRS + HELD_OUT for side in ("a", "b")})
    weighed = [m.weigh(text) for text in texts]
    kept = scored = 0
    for mine in weighed:
        for other, reachable in zip(weighed, m.reachable(mine, weighed)):
            if m.score(mine, other) >= m.threshold:
                scored += 1
                assert reachable, (mine.concepts, other.concepts)
            kept += reachable
    assert scored > len(texts)  # more than each text with itself
    assert kept < len(weighed) ** 2 / 2  # and it does leave most pairs out


def test_concepts_fold_spellings_and_languages():
    assert {"sequenc", "parallel", "differ"} <= concepts("序列并行和上下文并行有什么区别？").shared
    assert concepts("all-reduce").shared >= concepts("AllReduce").shared
    assert "2" in concepts("Why 2MSL?").shared and "2" in concepts("two MSL").shared
    assert stem("parallelisation") == stem("parallelization")


def test_long_input_is_cut():
    long = "NCCL " * (MAX_CHARS * 10)
    assert len(concepts(long).shared) == 1
