"""What a question is about (prep.skills.question_skills): names, cues, explanations, vetoes."""
from __future__ import annotations

import pytest

from prep.skills import load_taxonomy
from prep.skills import TaxonomyError
from prep.skills.question_skills import MAX_QUESTION_SKILLS, load_cues, parse_cues, question_skills


@pytest.mark.parametrize(("question", "expected"), [
    ("RDMA 和 TCP 相比为什么延迟低？", ["RDMA", "TCP/IP"]),          # the names, in order of mention
    ("What does NVSwitch add on top of NVLink?", ["NVSwitch", "NVLink"]),
    ("手撕：实现一个 LRU cache", ["LRU Cache"]),                       # a coding task names its concept
    ("Reverse a linked list in place.", []),                          # a coding task about no skill
    ("Tell me about a time you disagreed with your manager.", []),
    ("Go through your resume, please.", []),                         # "Go" the verb is not the language
])
def test_named_skills(question, expected):
    assert question_skills(question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("什么是 warp divergence，怎么避免？", ["Warps", "CUDA"]),           # the concept named, then CUDA implied
    ("虚函数表存在哪里", ["Virtual Functions", "C++"]),
    ("服务器上大量 TIME_WAIT 怎么处理", ["TCP/IP"]),
    ("Python 的 GIL 是什么", ["Python"]),                               # named and implied: once
    ("DDP 和 FSDP 有什么区别", ["DP", "FSDP", "PyTorch"]),                # DDP names DP and implies PyTorch
    ("Walk me through ncclAllReduce across two nodes.", ["NCCL", "Collectives"]),
])
def test_strong_cues_imply_skills_the_question_does_not_name(question, expected):
    assert question_skills(question) == expected


def test_a_weak_cue_counts_only_when_a_linked_explanation_leads_with_the_skill():
    question = "一个 block 最多多少线程，受什么限制"
    assert question_skills(question) == []
    assert question_skills(question, ["CUDA"]) == ["CUDA"]
    assert question_skills(question, ["Linux"]) == []  # an explanation's skill the question does not hint at
    assert question_skills("介绍一下你自己", ["Linux", "NCCL"]) == []  # a confident link alone is no evidence


def test_a_word_that_gives_a_short_spelling_another_meaning_vetoes_it():
    assert question_skills("这题用DP做，状态转移方程怎么写") == []
    assert question_skills("DP 和 TP 分别在什么时候通信") == ["DP", "TP"]
    assert question_skills("How does data parallelism cope with the longest sequence in a batch?") == ["DP"]


def test_the_posting_is_no_evidence():
    """The tagger takes no posting: what it returns depends on the question alone."""
    assert question_skills("Reverse a linked list in place.") == []


def test_at_most_max_skills():
    many = " ".join(sorted(load_taxonomy().names)[:30])
    assert len(question_skills(many)) == MAX_QUESTION_SKILLS


def test_shipped_cues_load_and_name_taxonomy_skills():
    cues = load_cues()
    names = load_taxonomy().names
    assert cues and all(set(cue.skills) <= names for cue in cues)


def test_malformed_cues_are_refused_with_every_problem():
    taxonomy = load_taxonomy()
    with pytest.raises(TaxonomyError) as err:
        parse_cues({"cues": [{"skills": ["NoSuchSkill"], "strong": ["x"]}, {"skills": ["CUDA"], "strong": "warp"},
                             {"skills": ["CUDA"], "strong": ["warp"], "weak": ["Warp"]}]}, taxonomy)
    problems = " ".join(err.value.problems)
    assert "NoSuchSkill" in problems and "'strong' must be a list" in problems and "already belongs" in problems
    with pytest.raises(TaxonomyError):
        parse_cues(["not", "a", "mapping"], taxonomy)
