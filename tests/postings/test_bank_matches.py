"""An import proposes a question that rewords or translates a bank question as that question:
the review page shows the match, saving keeps it (one question, one card) unless the candidate
keeps it separate."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from prep.extensions import db
from prep.postings.models import Posting
from prep.questions.models import LinkOrigin, Question, QuestionExplanation
from tests.support.htmlforms import read_form

#: Three questions that say bank questions in other words or the other language, and one new.
REPORT = """某厂 AI Infra 一面面经
1. 介绍一下 ZeRO 的三个 stage 分别切分了什么
2. 怎么判断分布式训练作业的瓶颈是不是在通信上？
3. Megatron 的序列并行跟上下文并行区别在哪？
4. 如何设计一个多租户 GPU 集群的配额系统？
"""
BANK = {  # the explanation whose listed question each of the three is
    "ZeRO": "zero-fsdp",
    "瓶颈": "nsight-systems-comm-bottlenecks",
    "序列并行": "sequence-context-parallelism",
}


@pytest.fixture
def candidate(make_user, login, shipped_content):
    user = make_user("matches@example.com")
    login(user)
    return user


def _review(client) -> tuple[str, str, dict]:
    response = client.post("/postings/new", data={"text": REPORT}, content_type="multipart/form-data")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    action, data = read_form(html, "review-form")
    return html, action, data


def _row(data: dict, word: str) -> int:
    return next(int(name.split("-")[1]) for name, value in data.items()
                if name.endswith("-text") and word in (value or ""))


def _bank_group(slug: str) -> set[int]:
    """The shared questions the explanation lists, and their other wordings."""
    listed = db.session.scalars(select(Question).join(QuestionExplanation).where(
        QuestionExplanation.slug == slug, QuestionExplanation.origin == LinkOrigin.content,
        Question.owner_id.is_(None))).all()
    assert listed, slug
    return {q.id for question in listed for q in question.group()}


def test_the_review_page_shows_the_three_matches_and_saving_keeps_them(client, candidate):
    html, action, data = _review(client)
    assert html.count('class="review-match"') == 3
    for word, bank_text in BANK.items():
        match = data[f"questions-{_row(data, word)}-match"]
        assert int(match) in _bank_group(bank_text), word
    assert data[f"questions-{_row(data, '配额')}-match"] == ""
    response = client.post(action, data=data)
    assert response.status_code == 302
    posting = db.session.scalar(select(Posting).where(Posting.user_id == candidate.id))
    by_text = {pq.text: pq.question_id for pq in posting.questions}
    for word, bank_text in BANK.items():
        asked = next(t for t in by_text if word in t)
        assert by_text[asked] in _bank_group(bank_text), word
    new = db.session.get(Question, by_text[next(t for t in by_text if "配额" in t)])
    assert new.owner_id == candidate.id


def _save_with(client, candidate, change: tuple[str, str], word: str):
    """Review the report, change one field of the ZeRO row, save; the posting question with ``word``."""
    _html, action, data = _review(client)
    data[f"questions-{_row(data, 'ZeRO')}-{change[0]}"] = change[1]
    assert client.post(action, data=data).status_code == 302
    posting = db.session.scalar(select(Posting).where(Posting.user_id == candidate.id))
    return next(pq for pq in posting.questions if word in pq.text)


def test_a_question_kept_separate_is_the_candidates_own(client, candidate):
    asked = _save_with(client, candidate, ("separate", "y"), "ZeRO")
    own = db.session.get(Question, asked.question_id)
    assert own.owner_id == candidate.id and own.text == asked.text


def test_a_match_that_no_longer_fits_the_edited_wording_is_not_kept(client, candidate):
    asked = _save_with(client, candidate, ("text", "RDMA 的 RC 和 UD 有什么区别？"), "RDMA")
    assert asked.question_id not in _bank_group(BANK["ZeRO"])


def test_a_forged_match_to_a_question_the_user_cannot_see_is_ignored(client, candidate, make_user):
    other = make_user("other@example.com")
    hidden = Question(text="别人的私有问题", norm="别人的私有问题", lang="zh", source="posting", owner_id=other.id)
    db.session.add(hidden)
    db.session.commit()
    _html, action, data = _review(client)
    data[f"questions-{_row(data, '配额')}-match"] = str(hidden.id)
    assert client.post(action, data=data).status_code == 302
    posting = db.session.scalar(select(Posting).where(Posting.user_id == candidate.id))
    assert hidden.id not in {pq.question_id for pq in posting.questions}


def test_the_chinese_page_shows_the_match_in_chinese(client, candidate):
    candidate.language = "zh"
    db.session.commit()
    html, _action, data = _review(client)
    assert html.count('class="review-match"') == 3
    assert "What is the difference between Megatron sequence parallelism" not in html  # its Chinese wording
    assert "已在题库中" in html or "题库" in html
