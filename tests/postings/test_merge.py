"""Merging posting questions into the bank: the pure near-duplicate rules, and the import
service (same text after normalising, near-duplicates, linking, tags, one transaction)."""
from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from prep.content.sync import sync_tree
from prep.extensions import db
from prep.postings.errors import PostingInputError
from prep.postings.merge import (
    Candidate,
    bigrams,
    find_duplicate,
    is_same_question,
    jaccard,
    key_terms,
    similarity,
)
from prep.postings.models import Posting, PostingQuestion
from prep.postings.service import import_posting, posting_hash, postings_asking
from prep.questions.models import LinkOrigin, Question, Source
from prep.questions.service import add_question, find_public_question
from tests.support.clock import FIXED_NOW
from tests.support.data import SEEDS

SAMPLES = Path(__file__).resolve().parents[2] / "prep" / "postings" / "samples"

# --- the pure rules ---------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b"), [
    ("How does ring AllReduce work, step by step?", "how does ring all-reduce work step by step"),
    ("RDMA与TCP/IP相比有何优势？", "RDMA与TCP/IP相比有何优势?"),          # full-width vs ASCII ?
    ("ＲＤＭＡ与ＴＣＰ／ＩＰ相比有何优势？", "RDMA与TCP/IP相比有何优势？"),  # full-width letters
    ("请解释NCCL中AllReduce的Ring算法原理", "请解释一下NCCL中AllReduce的Ring算法原理"),  # near-duplicate
    ("Explain how ring AllReduce works, step by step.", "Explain how ring AllReduce works step-by-step!"),
])
def test_same_question(a, b):
    assert is_same_question(a, b) and is_same_question(b, a)


@pytest.mark.parametrize(("a", "b"), [
    # Similar wording, another subject: the technical terms differ.
    ("RDMA与TCP/IP相比有何优势？", "RoCE与TCP/IP相比有何优势？"),
    ("What limits bus bandwidth on an 8-GPU NVLink system?", "What limits bus bandwidth on a 4-GPU NVLink system?"),
    ("What is the difference between TCP and UDP?", "What is the difference between TCP and RDMA?"),
    # Related but distinct questions.
    ("请解释NCCL中AllReduce的Ring算法原理", "请解释NCCL中AllReduce算法的实现原理及优化策略"),
    ("RDMA与TCP/IP相比有何优势？", "RDMA与TCP/IP相比有什么优势？"),  # under the threshold: kept apart
    # Other language.
    ("What is NCCL?", "什么是NCCL？"),
    # Too short to be a near-duplicate.
    ("What is MPI?", "What is MPIX?"),
    ("", ""),
])
def test_different_questions(a, b):
    assert not is_same_question(a, b)


def test_bigrams_and_jaccard():
    assert bigrams("abcab") == frozenset({"ab", "bc", "ca"})
    assert bigrams("a") == frozenset({"a"}) and bigrams("") == frozenset()
    assert jaccard(frozenset({"ab", "bc"}), frozenset({"bc", "cd"})) == pytest.approx(1 / 3)
    assert jaccard(frozenset(), frozenset()) == 0.0
    assert similarity("Ring AllReduce?", "ring allreduce") == 1.0


def test_key_terms():
    assert key_terms("RDMA与TCP/IP相比有何优势？", "zh") == {"rdma", "tcp", "ip"}
    # A capitalised first word is not a term; acronyms, camel case, numbers and C++ are.
    assert key_terms("What limits an 8-GPU NVLink system in C++ and Python?", "en") == {"8", "gpu", "nvlink", "c++"}


def test_find_duplicate_prefers_exact_then_best_then_lowest_id():
    exact = Candidate(7, "请解释NCCL中AllReduce的Ring算法原理", "zh")
    near = Candidate(3, "请解释一下NCCL中AllReduce的Ring算法原理", "zh")
    assert find_duplicate("请解释NCCL中AllReduce的Ring算法原理。", [near, exact]) is exact
    twin = Candidate(2, "请解释一下NCCL中AllReduce的Ring算法原理！", "zh")
    assert find_duplicate("请解释NCCL中AllReduce的Ring算法原理", [near, twin]) is twin
    english = Candidate(1, "请解释一下NCCL中AllReduce的Ring算法原理", "en")  # stored as another language
    assert find_duplicate("请解释NCCL中AllReduce的Ring算法原理", [english]) is None
    assert find_duplicate("？？", [exact]) is None


def test_posting_hash_ignores_spacing_and_width():
    assert posting_hash("面试指南\n- 如何？\n") == posting_hash("  面试指南  \r\n\n-  如何？")
    assert posting_hash("ＡＢＣ") == posting_hash("ABC")
    assert posting_hash("面试指南\n- 如何？") != posting_hash("面试指南\n- 如何优化？")


# --- the import service ----------------------------------------------------------------------

RING_DOC = """---
title: Ring AllReduce
tags: [NCCL, AllReduce]
skills: [NCCL]
questions:
  - 请解释NCCL中AllReduce的Ring算法原理
  - How does ring AllReduce work?
---
Ring AllReduce runs a reduce-scatter then an all-gather around a ring of GPUs; each step sends
one chunk to the next rank, so bandwidth use is optimal. NCCL uses it for large messages.
"""

RDMA_DOC = """---
title: RDMA versus TCP/IP
skills: [RDMA]
questions:
  - RDMA与TCP/IP相比有何优势？
---
RDMA bypasses the kernel: zero copy, no CPU on the data path, low latency, verbs, queue pairs.
"""


def posting(company: str, *questions: str, skills: str = "NCCL and RDMA") -> str:
    lines = [company, "Communication Engineer", "Beijing", "", "About the role",
             f"Work on {skills}.", "", "Interview questions"]
    return "\n".join([*lines, *(f"- {q}" for q in questions)]) + "\n"


@pytest.fixture
def bank(app, tmp_path):
    root = tmp_path / "content"
    for name, doc in (("ring-allreduce.md", RING_DOC), ("rdma-vs-tcp.md", RDMA_DOC)):
        (root / "c").mkdir(parents=True, exist_ok=True)
        (root / "c" / name).write_text(doc, encoding="utf-8")
    report = sync_tree(root)
    db.session.commit()
    assert not report.problems
    return report


def question_count() -> int:
    return db.session.scalar(select(func.count(Question.id))) or 0


def test_same_text_after_normalising_merges_into_the_content_question(bank, make_user):
    user = make_user()
    content_q = db.session.scalar(select(Question).where(Question.text == "How does ring AllReduce work?"))
    before = question_count()
    outcome = import_posting(user, posting("Acme", "ＨＯＷ does ring all-reduce work？"), FIXED_NOW)
    db.session.commit()
    assert outcome.created and outcome.new_questions == [] and outcome.merged_questions == [content_q]
    assert question_count() == before
    assert outcome.posting.questions[0].question_id == content_q.id
    assert outcome.posting.questions[0].text == "ＨＯＷ does ring all-reduce work？"  # as written there
    assert content_q.source is Source.content and content_q.text == "How does ring AllReduce work?"


def test_near_duplicates_across_postings_are_one_question(bank, make_user):
    user = make_user()
    first = import_posting(user, posting("Acme", "请解释一下NCCL中AllReduce的Ring算法原理"), FIXED_NOW)
    second = import_posting(user, posting("Zenith", "请解释NCCL中AllReduce的Ring算法原理。"), FIXED_NOW)
    db.session.commit()
    ring = db.session.scalar(select(Question).where(Question.text == "请解释NCCL中AllReduce的Ring算法原理"))
    assert first.merged_questions == [ring] and second.merged_questions == [ring]
    asked = postings_asking([ring.id], user)[ring.id]
    assert [p.company for p in asked] == ["Acme", "Zenith"]


def test_new_posting_questions_merge_with_each_other(app, make_user):
    user = make_user()
    a = import_posting(user, posting("Acme", "How would you overlap computation and communication in FSDP training jobs?"),
                       FIXED_NOW)
    b = import_posting(user, posting("Zenith", "How would you overlap computation and communication in FSDP training job?"),
                       FIXED_NOW)
    db.session.commit()
    assert len(a.new_questions) == 1 and b.new_questions == [] and b.merged_questions == a.new_questions


def test_two_phrasings_in_one_posting_make_one_row(app, make_user):
    user = make_user()
    outcome = import_posting(user, posting("Acme", "What is a NCCL communicator and how is it created?",
                                           "What is an NCCL communicator and how is it created?"), FIXED_NOW)
    db.session.commit()
    assert len(outcome.new_questions) == 1
    assert len(outcome.posting.questions) == 1


def test_new_questions_are_private_tagged_and_linked(bank, make_user):
    user = make_user()
    outcome = import_posting(user, posting("Acme", "Why does ring AllReduce reach optimal bandwidth on a ring of GPUs?",
                                           "Why is the sky blue on Tuesdays at the seaside?"), FIXED_NOW)
    db.session.commit()
    ring_q, sky_q = outcome.new_questions
    for q in (ring_q, sky_q):  # the candidate's own until the bank admits them
        assert q.owner_id == user.id and q.source is Source.posting
    assert outcome.posting.skills[:2] == ["NCCL", "RDMA"]
    assert sky_q.tags == []  # about nothing in the taxonomy: not filed under the posting's skills
    assert {t.name for t in ring_q.tags} == {"Collectives"}  # what it asks about, not NCCL or RDMA
    assert [(lk.slug, lk.origin) for lk in ring_q.links] == [("ring-allreduce", LinkOrigin.auto)]
    assert sky_q.links == []  # the linker abstains on an off-topic question


def test_a_private_import_does_not_retag_shared_questions(bank, make_user):
    """A candidate's import must not change what other users see."""
    rdma = db.session.scalar(select(Question).where(Question.text == "RDMA与TCP/IP相比有何优势？"))
    before = {t.name for t in rdma.tags}
    user = make_user()
    import_posting(user, posting("Acme", "RDMA与TCP/IP相比有何优势？", skills="RoCE and InfiniBand"), FIXED_NOW)
    db.session.commit()
    db.session.refresh(rdma)
    assert {t.name for t in rdma.tags} == before


def test_a_shared_sample_merges_what_the_question_is_about_into_it(bank):
    import_posting(None, posting("Acme", "RDMA与TCP/IP相比有何优势？", skills="RoCE and InfiniBand"), FIXED_NOW)
    db.session.commit()
    rdma = db.session.scalar(select(Question).where(Question.text == "RDMA与TCP/IP相比有何优势？"))
    names = {t.name for t in rdma.tags}
    assert {"RDMA", "TCP/IP"} <= names and not names & {"RoCE", "InfiniBand"}


def test_a_candidates_own_question_is_reused(bank, make_user):
    user = make_user()
    own = add_question("What does the NCCL_ALGO variable choose exactly?", source=Source.user, owner_id=user.id)
    db.session.commit()
    outcome = import_posting(user, posting("Acme", "What does the NCCL_ALGO variable choose exactly?"), FIXED_NOW)
    db.session.commit()
    assert outcome.new_questions == [] and [q.id for q in outcome.merged_questions] == [own.id]


PLANTED = "=HYPERLINK(\"http://evil.example\", \"Why is the sky green on NCCL rings?\")"


def test_a_planted_question_stays_private_however_many_accounts_ask_it(bank, make_user):
    """What candidates import reaches the shared bank only through an instructor's approval: the
    number of accounts asking it ranks the review queue and never publishes it."""
    first, second, third, fourth = make_user(), make_user(), make_user(), make_user()
    outcome = import_posting(first, posting("Spam", PLANTED), FIXED_NOW)
    db.session.commit()
    [planted] = outcome.new_questions
    assert planted.owner_id == first.id
    for n, user in enumerate((second, third, fourth)):
        import_posting(user, posting(f"Spam{n}", PLANTED), FIXED_NOW)
        db.session.commit()
    assert find_public_question(PLANTED) is None  # invisible to everyone else
    # Each candidate has their own copy (and their cards on it).
    assert db.session.scalar(select(func.count(Question.id)).where(Question.norm == planted.norm)) == 4


def test_the_same_account_twice_does_not_count_twice(bank, make_user):
    user = make_user()
    for company in ("A", "B", "C"):
        import_posting(user, posting(company, "Why is the sky green on NCCL rings at noon?"), FIXED_NOW)
    db.session.commit()
    assert find_public_question("Why is the sky green on NCCL rings at noon?") is None


def test_reimport_returns_the_stored_posting(bank, make_user):
    user = make_user()
    first = import_posting(user, posting("Acme", "How does ring AllReduce work?"), FIXED_NOW)
    db.session.commit()
    again = import_posting(user, posting("Acme", "How does ring AllReduce work?").encode("utf-8"), FIXED_NOW)
    assert not again.created and again.posting.id == first.posting.id
    assert again.new_questions == [] and again.merged_questions == []
    assert db.session.scalar(select(func.count(Posting.id))) == 1


@pytest.mark.parametrize("data", [b"", b"%PDF-1.5\n", "   ", b"\xff\xfe\x00"])
def test_bad_input_raises_before_writing(app, make_user, data):
    user = make_user()
    with pytest.raises(PostingInputError):
        import_posting(user, data, FIXED_NOW)
    assert not db.session.new and not db.session.dirty
    assert db.session.scalar(select(func.count(Posting.id))) == 0


def test_samples_share_questions_with_the_content(app, shipped_content):
    """The shipped samples merge their questions into the shipped explanations' questions."""
    for path in sorted(SAMPLES.glob("*.txt")):
        import_posting(None, path.read_text(encoding="utf-8"), FIXED_NOW)
    db.session.commit()
    rdma = db.session.scalar(select(Question).where(Question.text == "RDMA与TCP/IP相比有何优势？"))
    assert rdma.source is Source.content
    assert db.session.scalar(select(func.count(PostingQuestion.id)).where(PostingQuestion.question_id == rdma.id)) == 1
    ring_en = db.session.scalar(select(Question).where(Question.norm == "howdoesringallreduceworkstepbystep"))
    assert ring_en is not None and ring_en.source is Source.content


def test_seed_and_sample_share_a_question(app, make_user):
    user = make_user()
    import_posting(user, (SEEDS / "000_97fc3cec54768f54.txt").read_bytes(), FIXED_NOW)
    import_posting(user, (SAMPLES / "01_yunfan_llm_comm_zh.txt").read_bytes(), FIXED_NOW)
    db.session.commit()
    q = db.session.scalar(select(Question).where(Question.text == "在分布式训练中，如何定位通信瓶颈？"))
    assert [p.company for p in postings_asking([q.id], user)[q.id]] == ["百度", "云帆智算"]


def test_candidate_index_finds_what_the_full_scan_finds():
    """find_duplicate over a CandidateIndex (the import's: only the candidates whose size allows
    a match) answers as the scan over every candidate does."""
    from prep.postings.merge import Candidate, CandidateIndex, find_duplicate

    texts = ["请解释NCCL中AllReduce的Ring算法原理", "How does ring AllReduce work, step by step?",
             "What limits bus bandwidth on an 8-GPU NVLink system?", "What is MPI?", "RDMA与TCP/IP相比有何优势？",
             "Explain how ring AllReduce works step-by-step!", "How does ring AllReduce work, step by step, in NCCL?"]
    texts += [f"How would you shard a {n}-billion parameter model across 64 GPUs with FSDP?" for n in range(1, 40)]
    candidates = [Candidate(id=i + 1, text=t, lang="zh" if any(ord(c) > 0x2E80 for c in t) else "en")
                  for i, t in enumerate(texts)]
    index = CandidateIndex(candidates)
    asked = texts + ["请解释一下NCCL中AllReduce的Ring算法原理", "how does ring all-reduce work step by step",
                     "How would you shard a 7-billion parameter model across 64 GPUs using FSDP?", "What is MPIX?",
                     "ＲＤＭＡ与ＴＣＰ／ＩＰ相比有何优势？", "Something else entirely, about kernels and caches?"]
    for text in asked:
        assert find_duplicate(text, index) == find_duplicate(text, candidates), text
