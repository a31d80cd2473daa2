"""Likely questions for a posting that asks none: the pure ranking and the CLI."""
from __future__ import annotations

import json
import re

import pytest

from prep.postings.likely import BankQuestion, rank_likely
from tests.support.htmlforms import review_and_save



def _q(id_: int, skills: str, asked: int = 0, slug: str | None = "page") -> BankQuestion:
    return BankQuestion(id_, f"question {id_}", frozenset(skills.split()), asked, slug)


def test_required_skills_weigh_more_than_nice_to_have() -> None:
    weights = {"NCCL": 2.0, "Kafka": 1.0}
    ranked = rank_likely(weights, [_q(1, "Kafka"), _q(2, "NCCL")])
    assert [q.id for q in ranked] == [2, 1]


def test_more_often_asked_ranks_higher_and_sharing_more_skills_counts() -> None:
    weights = {"NCCL": 1.0, "RDMA": 1.0}
    ranked = rank_likely(weights, [_q(1, "NCCL"), _q(2, "NCCL", asked=5), _q(3, "NCCL RDMA")])
    assert [q.id for q in ranked] == [2, 3, 1]
    assert ranked[1].skills == ("NCCL", "RDMA")


def test_without_explanation_excluded_and_asked_ones_excluded() -> None:
    weights = {"CUDA": 1.0}
    bank = [_q(1, "CUDA", slug=None), _q(2, "CUDA"), _q(3, "CUDA"), _q(4, "Go")]
    assert [q.id for q in rank_likely(weights, bank, exclude=[3])] == [2]
    assert rank_likely(weights, bank, limit=0) == []
    assert rank_likely({}, bank) == []


@pytest.fixture
def content_app(app, shipped_content):
    return app


def test_cli_import_json_lists_likely_questions_with_explanations(content_app, runner, make_user, tmp_path):
    assert runner.invoke(args=["init"]).exit_code == 0
    make_user("cand@example.com")
    posting = tmp_path / "posting.txt"
    posting.write_text(
        "Orbital AI\nGPU Communication Engineer\nSeattle, WA\n"
        "Responsibilities\n- Build the collective communication layer of our training stack on NCCL.\n"
        "- Tune RDMA transport over RoCE and InfiniBand.\n"
        "Requirements\n- Strong CUDA and C++.\n- Experience with NCCL, RDMA and CUDA streams.\n"
        "Benefits\n- Equity and a great team.\n", encoding="utf-8")
    result = runner.invoke(args=["postings", "import", str(posting), "--user", "cand@example.com", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["company"] == "Orbital AI" and data["kind"] == "posting"
    assert data["questions"] == []
    likely = data["likely_questions"]
    assert len(likely) >= 8, likely
    assert all(q["explanation"] for q in likely)
    assert len({q["question_id"] for q in likely}) == len(likely)
    assert {"NCCL", "RDMA", "CUDA"} <= {s for q in likely for s in q["skills"]}


def test_cli_import_json_refuses_bad_input(content_app, runner, make_user, tmp_path):
    make_user("cand@example.com")
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    result = runner.invoke(args=["postings", "import", str(empty), "--json"])
    assert result.exit_code == 2
    assert "empty" in result.output


def test_posting_page_shows_likely_questions_and_studies_them(content_app, runner, client, make_user, login):
    from prep.drill.models import Card
    from prep.extensions import db
    from prep.postings.models import Posting

    assert runner.invoke(args=["init"]).exit_code == 0
    user = make_user("cand@example.com")
    login(user)
    text = "Orbital AI\nGPU Communication Engineer\nRequirements\n- NCCL, RDMA and CUDA in production.\n"
    review = client.post("/postings/new", data={"text": text}, content_type="multipart/form-data")
    assert review.status_code == 200 and 'id="review-empty"' in review.get_data(as_text=True)
    saved = review_and_save(client, review)
    assert saved.status_code == 302
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert 'id="likely"' in page and page.count('class="likely-question"') >= 8, page
    posting_id = db.session.scalar(db.select(Posting.id).where(Posting.user_id == user.id))
    studied = client.post(f"/postings/{posting_id}/study-likely", follow_redirects=True)
    assert studied.status_code == 200
    assert len(db.session.scalars(db.select(Card).where(Card.user_id == user.id)).all()) >= 8
    other = login(make_user("other@example.com"), content_app.test_client())
    assert other.post(f"/postings/{posting_id}/study-likely").status_code == 404
    assert other.post(f"/postings/{posting_id}/study").status_code == 404


def test_study_this_posting_takes_both_and_readiness_counts_them(content_app, runner, client, make_user, login):
    from prep.drill.models import Card
    from prep.extensions import db
    from prep.postings.models import Posting

    assert runner.invoke(args=["init"]).exit_code == 0
    user = make_user("both@example.com")
    login(user)
    text = ("Orbital AI\nGPU Communication Engineer\nRequirements\n- NCCL, RDMA and CUDA in production.\n"
            "Interview questions\n1. How does a ring all-reduce split the buffer?\n")
    saved = review_and_save(client, client.post("/postings/new", data={"text": text}, content_type="multipart/form-data"))
    posting = db.session.scalar(db.select(Posting).where(Posting.user_id == user.id))
    assert len(posting.questions) == 1
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    likely = page.count('class="likely-question"')
    assert likely >= 8
    # The study form, as the page shows it (likely questions ticked by default).
    from tests.support.htmlforms import read_form
    action, data = read_form(page, "study-posting")
    assert data.get("with_likely") == "y"
    client.post(action, data=data)
    cards = db.session.scalars(db.select(Card).where(Card.user_id == user.id)).all()
    assert len(cards) == 1 + likely
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert f"of {1 + likely} questions" in page  # readiness counts what was chosen


def test_a_second_posting_page_view_reads_the_bank_from_the_cache_and_a_content_change_is_seen(
        content_app, runner, client, make_user, login):
    """The explanations and the explained bank questions are read once (cached per database like
    the merge candidates), not on every view; a content change reads them again."""
    from datetime import timedelta

    from sqlalchemy import event

    from prep.content.models import Explanation
    from prep.extensions import db
    from prep.postings import service
    from prep.postings.models import Posting

    assert runner.invoke(args=["init"]).exit_code == 0
    user = make_user("cache@example.com")
    login(user)
    text = "Orbital AI\nGPU Communication Engineer\nRequirements\n- NCCL, RDMA and CUDA in production.\n"
    saved = review_and_save(client, client.post("/postings/new", data={"text": text},
                                                content_type="multipart/form-data"))
    url = saved.headers["Location"]
    service._LIKELY_CACHE.clear()

    def view() -> tuple[str, list[str]]:
        """The page, and the statements of that view which read the bank's explanations."""
        statements: list[str] = []

        def record(conn, cursor, statement, *rest) -> None:
            statements.append(" ".join(statement.split()))

        event.listen(db.engine, "before_cursor_execute", record)
        try:
            page = client.get(url).get_data(as_text=True)
        finally:
            event.remove(db.engine, "before_cursor_execute", record)
        return page, [s for s in statements if "explanations.skills" in s or "questions.text, question_explanations.slug" in s]

    first, reads = view()
    assert len(reads) == 2 and first.count('class="likely-question"') >= 8
    second, reads = view()
    likely = re.compile(r'class="likely-question">([^<]*)<')
    assert reads == [] and likely.findall(second) == likely.findall(first)

    posting = db.session.scalar(db.select(Posting).where(Posting.user_id == user.id))
    before = [q.id for q in service.likely_questions(posting, limit=1000)]
    for row in db.session.scalars(db.select(Explanation)):  # a content sync stamps what it changes
        row.skills = []
        row.updated_at = row.updated_at + timedelta(seconds=1)
    db.session.commit()
    _, reads = view()
    assert len(reads) == 2
    after = [q.id for q in service.likely_questions(posting, limit=1000)]
    service._LIKELY_CACHE.clear()
    assert after != before and after == [q.id for q in service.likely_questions(posting, limit=1000)]


RDMA_POSTING = """Northwind Fabric
RDMA Network Engineer
Requirements
- RDMA verbs programming (QP, CQ, MR) in production.
- GPUDirect RDMA between GPUs and NICs.
- RoCE v2 congestion control: PFC, ECN and DCQCN tuning.
- NCCL over RoCE.
"""


def test_spread_over_skills_by_weight() -> None:
    weights = {"RDMA": 3.0, "PFC": 1.0, "DCQCN": 1.0}
    bank = [_q(i, "RDMA", asked=3, slug=f"rdma-{i}") for i in range(1, 9)]
    bank += [_q(20, "PFC", slug="pfc"), _q(30, "DCQCN", slug="dcqcn")]
    ids = [q.id for q in rank_likely(weights, bank, limit=6)]
    assert 20 in ids and 30 in ids and len(ids) == 6       # the lesser skills get a place
    assert sum(1 for i in ids if i < 20) == 4               # the central one most of them


def test_one_wording_per_question() -> None:
    weights = {"NCCL": 1.0}
    bank = [BankQuestion(1, "What is the difference between NCCL and MPI?", frozenset({"NCCL"}), 0, "a", 1, "en"),
            BankQuestion(2, "NCCL 和 MPI 有什么区别？", frozenset({"NCCL"}), 0, "a", 1, "zh"),
            BankQuestion(3, "NCCL 与 MPI 的区别是什么？", frozenset({"NCCL"}), 0, "b", 3, "zh"),
            BankQuestion(4, "How does NCCL pick ring or tree?", frozenset({"NCCL"}), 0, "c", 4, "en")]
    zh = [q.id for q in rank_likely(weights, bank, lang="zh")]
    assert zh == [2, 4]  # one of the group, in Chinese; its unlinked translation (3) skipped
    assert [q.id for q in rank_likely(weights, bank, exclude_texts=["NCCL vs MPI: what is the difference?"])] == [4]


def test_an_rdma_posting_gets_questions_on_its_skills_and_no_two_wordings(content_app, make_user):
    from prep.extensions import db
    from prep.postings.service import import_posting, likely_questions
    from prep.questions.matcher import default_matcher
    from prep.questions.models import Question
    from tests.support.clock import FIXED_NOW

    outcome = import_posting(make_user(), RDMA_POSTING, FIXED_NOW)
    db.session.commit()
    likely = likely_questions(outcome.posting)
    slugs = {q.slug for q in likely}
    assert len(likely) == 12
    assert "roce-congestion-control" in slugs
    assert slugs & {"rdma-verbs", "qp-transport-types", "memory-registration-odp"}  # RDMA's own
    assert slugs & {"pfc-deadlock-headroom", "roce-ai-fabric-numbers"}
    assert any("gpudirect" in s for s in slugs)
    groups = [db.session.get(Question, q.id).group_id for q in likely]
    assert len(set(groups)) == len(groups)
    matcher = default_matcher()
    assert not any(matcher.same(a.text, b.text) for i, a in enumerate(likely) for b in likely[i + 1:])
