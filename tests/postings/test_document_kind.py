"""A document is a posting or an interview report: a list of interview questions is a report unless
its title names a job (a posting that lists the topics its interviews cover)."""
from __future__ import annotations

from prep.postings.extract import extract_posting

QUESTIONS = """1. How does ring allreduce split the work between GPUs?
2. When would NCCL choose a tree algorithm instead of a ring?
3. Explain the difference between RC and UD queue pairs.
"""


def test_a_question_list_under_a_title_that_names_no_job_is_a_report() -> None:
    for title in ("GPU Interview Prep – Full Transcript", "NCCL and RDMA interview questions", "集合通信 面试问答（附答案）"):
        result = extract_posting(f"# {title}\n\n{QUESTIONS}")
        assert len(result.questions) == 3, title
        assert result.doc_kind == "report", title


def test_a_posting_whose_title_names_a_job_stays_a_posting_with_its_interview_topics() -> None:
    text = ("Distributed Training Engineer\nOrion Labs\n\nThe work\nYou will scale training across "
            f"thousands of GPUs.\n\nInterview topics\n{QUESTIONS}")
    result = extract_posting(text)
    assert result.title == "Distributed Training Engineer"
    assert len(result.questions) == 3
    assert result.doc_kind == "posting"


def test_a_review_heading_with_a_level_and_narrated_questions_is_a_report() -> None:
    text = ("Kestrel SWE Interview (L4)\n\nFour rounds over two weeks. First round was an online assessment - "
            "first problem was a bandwidth limiter with one token bucket per client. Then the interviewer "
            "asked what happens to the buckets after a restart.\n")
    result = extract_posting(text)
    assert result.doc_kind == "report"
    assert "what happens to the buckets after a restart" in [q.text for q in result.questions]
