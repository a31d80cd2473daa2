"""Shared interview reports through the pages: share (anonymised, pending), an instructor's
approval or return, what other candidates read and count, withdrawal, deletion, duplicates."""
from __future__ import annotations

import re

import pytest
from sqlalchemy import func, select

from prep.accounts.models import Role
from prep.extensions import db
from prep.postings.models import Posting, PostingQuestion, SharedReport, ShareEvent, ShareStatus
from prep.postings.service import import_posting
from prep.sharing import service
from tests.support.clock import FIXED_NOW

REPORT = """字节跳动 GPU 通信库工程师 面经
一面（技术面）
面试官王老师人很好，2024年3月15日下午面的。
1. 请解释Ring AllReduce的两个阶段
2. RDMA与TCP/IP相比有何优势？
有问题加我微信：zhang_san88，电话 138 1234 5678。
"""
SECRETS = ("王老师", "zhang_san88", "138 1234 5678", "15日")


@pytest.fixture
def people(make_user):
    return {"a": make_user("a@example.com"), "b": make_user("b@example.com"),
            "i": make_user("i@example.com", role=Role.instructor)}


def _report(user, text: str = REPORT) -> Posting:
    posting = import_posting(user, text, FIXED_NOW).posting
    db.session.commit()
    assert posting.is_report
    return posting


def _counted(user) -> set[int]:
    """The postings ``user`` reads and counts (their own, samples, approved shares)."""
    return set(db.session.scalars(select(Posting.id).where(Posting.readable_by(user.id))))


def test_share_preview_send_approve_read_withdraw(app, login, people):
    a, b, i = people["a"], people["b"], people["i"]
    report = _report(a)
    client = login(a, app.test_client())
    page = client.get(f"/postings/{report.id}/share").get_data(as_text=True)
    assert "〔微信号〕" in page and "〔电话〕" in page and "2024年3月" in page
    assert not any(secret in page.split('id="share-form"')[1] for secret in SECRETS)
    edited = re.search(r'<textarea[^>]*>\n?(.*?)</textarea>', page, re.S).group(1).replace("&#39;", "'")
    r = client.post(f"/postings/{report.id}/share", data={"text": edited + "\n祝大家顺利！"})
    assert r.status_code == 302
    share = db.session.scalar(select(SharedReport))
    assert share.status == ShareStatus.pending and share.text.endswith("祝大家顺利！")
    assert 'data-status="pending"' in client.get(f"/postings/{report.id}").get_data(as_text=True)

    client = login(b, app.test_client())  # pending: invisible to another candidate, everywhere
    assert report.id not in _counted(b)
    assert client.get(f"/shared/{share.id}").status_code == 404
    assert client.get(f"/postings/{report.id}").status_code == 404
    assert "字节跳动" not in client.get("/shared").get_data(as_text=True)

    client = login(i, app.test_client())  # the instructor's queue lists it, the read page offers the decision
    assert f'data-share-id="{share.id}"' in client.get("/instructor/pending").get_data(as_text=True)
    assert 'id="reject-share-form"' in client.get(f"/shared/{share.id}").get_data(as_text=True)
    assert client.post(f"/instructor/shared/{share.id}/approve").status_code == 302
    assert share.status == ShareStatus.published
    assert [(e.action, e.actor_id) for e in share.events] == [("pending", a.id), ("published", i.id)]

    client = login(b, app.test_client())  # approved: listed, readable, counted; the raw report is not shown
    assert report.id in _counted(b)
    listing = client.get("/shared?company=字节").get_data(as_text=True)
    assert f'data-share-id="{share.id}"' in listing
    read = client.get(f"/shared/{share.id}").get_data(as_text=True)
    assert "请解释Ring AllReduce的两个阶段" in read and "祝大家顺利！" in read
    assert not any(secret in read for secret in SECRETS)
    assert client.get(f"/postings/{report.id}").headers["Location"].endswith(f"/shared/{share.id}")
    for url, data in [(f"/postings/{report.id}/share", {"text": "mine now"}), (f"/postings/{report.id}/share/withdraw", {}),
                      (f"/postings/{report.id}/delete", {}), (f"/postings/{report.id}/study", {}),
                      (f"/postings/{report.id}/interview", {"interview_date": "2026-12-30"})]:
        assert client.post(url, data=data).status_code == 404, url
    assert client.get(f"/drill/cram/{report.id}").status_code == 404

    client = login(a, app.test_client())  # the author confirms, then withdraws: gone for others at once, their report untouched
    confirm = client.get(f"/postings/{report.id}/share/withdraw")
    assert confirm.status_code == 200 and 'id="withdraw-share-form"' in confirm.get_data(as_text=True)
    assert client.post(f"/postings/{report.id}/share/withdraw").status_code == 302
    assert share.status == ShareStatus.withdrawn and db.session.get(Posting, report.id).raw_text == REPORT
    client = login(b, app.test_client())
    assert report.id not in _counted(b)
    assert client.get(f"/shared/{share.id}").status_code == 404
    assert f'data-share-id="{share.id}"' not in client.get("/shared").get_data(as_text=True)

    client = login(a, app.test_client())  # sharing again: pending again, same row
    assert client.post(f"/postings/{report.id}/share", data={"text": "第二次分享"}).status_code == 302
    assert share.status == ShareStatus.pending and share.text == "第二次分享"
    assert db.session.scalar(select(func.count(SharedReport.id))) == 1


def test_returned_with_a_reason_the_author_reads(app, login, people):
    a, b, i = people["a"], people["b"], people["i"]
    share = service.share(_report(a), "text", FIXED_NOW)
    db.session.commit()
    client = login(i, app.test_client())
    r = client.post(f"/instructor/shared/{share.id}/reject", data={"reason": "  "})
    assert r.status_code == 400 and 'id="reason-error"' in r.get_data(as_text=True)
    assert share.status == ShareStatus.pending
    assert client.post(f"/instructor/shared/{share.id}/reject", data={"reason": "第三段有公司内部代号"}).status_code == 302
    assert share.status == ShareStatus.rejected
    assert client.post(f"/instructor/shared/{share.id}/approve").status_code == 302  # not pending: nothing changes
    assert share.status == ShareStatus.rejected
    history = client.get(f"/shared/{share.id}").get_data(as_text=True)
    assert "第三段有公司内部代号" in history and "i@example.com" in history
    client = login(b, app.test_client())
    assert client.get(f"/shared/{share.id}").status_code == 404
    client = login(a, app.test_client())
    assert "第三段有公司内部代号" in client.get(f"/postings/{share.posting_id}").get_data(as_text=True)


@pytest.mark.parametrize(("text", "message"), [("   \n ", "the text is empty"),
                                               ("x" * (service.MAX_SHARE_CHARS + 1), "longer than")])
def test_refused_text_is_said_next_to_the_field_and_changes_nothing(app, login, people, text, message):
    report = _report(people["a"])
    client = login(people["a"], app.test_client())
    r = client.post(f"/postings/{report.id}/share", data={"text": text})
    assert r.status_code == 400 and message in r.get_data(as_text=True) and 'id="text-error"' in r.get_data(as_text=True)
    assert db.session.scalar(select(func.count(SharedReport.id))) == 0


def test_a_job_posting_or_a_sample_cannot_be_shared(app, login, people):
    posting = import_posting(people["a"], "Acme\nGPU 工程师\n职位详情\n负责 NCCL 通信优化。\n", FIXED_NOW).posting
    db.session.commit()
    assert not posting.is_report
    client = login(people["a"], app.test_client())
    assert client.get(f"/postings/{posting.id}/share").status_code == 404
    assert client.post(f"/postings/{posting.id}/share", data={"text": "x"}).status_code == 404


def test_a_published_report_must_be_withdrawn_before_its_text_changes(people):
    share = service.share(_report(people["a"]), "text", FIXED_NOW)
    service.approve(share, people["i"].id, FIXED_NOW)
    with pytest.raises(service.AlreadyPublished):
        service.share(share.posting, "other text", FIXED_NOW)
    assert share.text == "text" and share.status == ShareStatus.published


def test_deleting_the_report_withdraws_it_and_keeps_the_history(app, login, people):
    a, b = people["a"], people["b"]
    share = service.share(_report(a), "text", FIXED_NOW)
    service.approve(share, people["i"].id, FIXED_NOW)
    db.session.commit()
    posting_id = share.posting_id
    client = login(a, app.test_client())
    assert client.post(f"/postings/{posting_id}/delete").status_code == 302
    db.session.expire_all()
    share = db.session.get(SharedReport, share.id)
    assert share.posting_id is None and share.status == ShareStatus.withdrawn
    assert [e.action for e in share.events] == ["pending", "published", "withdrawn"]
    client = login(b, app.test_client())
    assert client.get(f"/shared/{share.id}").status_code == 404
    assert f'data-share-id="{share.id}"' not in client.get("/shared").get_data(as_text=True)
    client = login(people["i"], app.test_client())  # nothing left to decide: said, not a server error
    assert client.post(f"/instructor/shared/{share.id}/approve").status_code == 302
    assert client.post(f"/instructor/shared/{share.id}/reject", data={"reason": "late"}).status_code == 400
    assert client.get(f"/shared/{share.id}").status_code == 404
    assert share.status == ShareStatus.withdrawn


def test_the_same_report_shared_twice_counts_once(app, login, people, make_user):
    a, b, i = people["a"], people["b"], people["i"]
    c = make_user("c@example.com")
    first, second = _report(a), _report(b)  # two accounts imported the same report
    assert first.content_hash == second.content_hash
    for posting in (first, second):
        service.approve(service.share(posting, "text", FIXED_NOW), i.id, FIXED_NOW)
    db.session.commit()
    counted = _counted(c)
    assert len(counted & {first.id, second.id}) == 1
    assert _counted(a) & {first.id, second.id} == {first.id}  # the author's own copy, not the other one too
    questions = db.session.scalar(select(func.count(PostingQuestion.id)).join(Posting)
                                  .where(Posting.readable_by(c.id), Posting.user_id.is_not(None)))
    assert questions == len(first.questions)
    client = login(c, app.test_client())
    assert client.get("/shared").get_data(as_text=True).count("data-share-id=") == 1
    service.withdraw(db.session.scalar(select(SharedReport).where(SharedReport.posting_id == first.id)), a.id, FIXED_NOW)
    db.session.commit()
    assert _counted(c) & {first.id, second.id} == {second.id}  # the other share counts now


def test_filters_by_company_role_and_round(app, login, people):
    a, i = people["a"], people["i"]
    other = _report(a, REPORT.replace("字节跳动", "Acme").replace("一面（技术面）", "二面"))
    alias = _report(a, REPORT.replace("字节跳动", "ByteDance").replace("RDMA", "NVLink"))
    for posting in (_report(a), other, alias):
        service.approve(service.share(posting, "text", FIXED_NOW), i.id, FIXED_NOW)
    db.session.commit()
    client = login(people["b"], app.test_client())
    every = client.get("/shared").get_data(as_text=True)
    assert every.count("data-share-id=") == 3 and '<option value="一面">' in every
    assert '<option value="bytedance">ByteDance</option>' in every  # one company, whichever name the report gave
    assert client.get("/shared?company=acme").get_data(as_text=True).count("data-share-id=") == 1
    for name in ("bytedance", "字节", "ByteDance"):
        assert client.get(f"/shared?company={name}").get_data(as_text=True).count("data-share-id=") == 2, name
    assert client.get("/shared?round=二面").get_data(as_text=True).count("data-share-id=") == 1
    assert client.get("/shared?role=" + "x" * 5000).get_data(as_text=True).count("data-share-id=") == 0
    empty = client.get("/shared?company=nobody").get_data(as_text=True)
    assert 'id="no-shared"' in empty


def test_the_empty_list_says_what_to_do(app, login, people):
    client = login(people["b"], app.test_client())
    page = client.get("/shared").get_data(as_text=True)
    assert 'id="no-shared"' in page and "/postings/new?kind=report" in page


def test_an_instructor_takes_a_published_report_down_with_a_reason(app, login, people):
    a, b, i = people["a"], people["b"], people["i"]
    share = service.share(_report(a), "text", FIXED_NOW)
    service.approve(share, i.id, FIXED_NOW)
    db.session.commit()
    assert share.posting_id in _counted(b)
    client = login(i, app.test_client())
    assert 'id="reject-share-form"' in client.get(f"/shared/{share.id}").get_data(as_text=True)
    assert client.post(f"/instructor/shared/{share.id}/reject", data={"reason": "含有内部代号"}).status_code == 302
    assert share.status == ShareStatus.rejected and share.posting_id not in _counted(b)
    assert login(b, app.test_client()).get(f"/shared/{share.id}").status_code == 404


def test_question_wordings_are_anonymised_in_the_preview_and_for_readers(app, login, people):
    from prep.postings.service import Review, ReviewedQuestion

    a, b, i = people["a"], people["b"], people["i"]
    asked = "王老师问：NCCL 的拓扑发现怎么做？加我微信 zhang_san88 细聊"
    posting = import_posting(a, REPORT, FIXED_NOW, review=Review(
        company="字节跳动", title="GPU 通信库工程师", kind="report",
        questions=[ReviewedQuestion(asked, "concept", "一面")])).posting
    db.session.commit()
    preview = login(a, app.test_client()).get(f"/postings/{posting.id}/share").get_data(as_text=True)
    assert "〔姓名〕老师问：NCCL 的拓扑发现怎么做？" in preview and "zhang_san88" not in preview
    service.approve(service.share(posting, "text", FIXED_NOW), i.id, FIXED_NOW)
    db.session.commit()
    page = login(b, app.test_client()).get(f"/shared/{service.share_of(posting).id}").get_data(as_text=True)
    assert "〔姓名〕老师问：NCCL 的拓扑发现怎么做？" in page and "王老师" not in page and "zhang_san88" not in page


def test_a_reader_studies_the_questions_the_shared_bank_has(app, login, people, make_question):
    from prep.drill.models import Card

    a, b, i = people["a"], people["b"], people["i"]
    make_question("请解释Ring AllReduce的两个阶段")  # in the bank: the report's first question merges into it
    share = service.share(_report(a), "text", FIXED_NOW)
    db.session.commit()
    client = login(b, app.test_client())
    assert client.post(f"/shared/{share.id}/study").status_code == 404  # pending: not b's to read
    service.approve(share, i.id, FIXED_NOW)
    db.session.commit()
    r = client.post(f"/shared/{share.id}/study", follow_redirects=True)
    page = r.get_data(as_text=True)
    assert "Added 1 question to your study." in page and "1 question is not in the shared bank yet" in page
    cards = db.session.scalars(select(Card).where(Card.user_id == b.id)).all()
    assert [c.question.text for c in cards] == ["请解释Ring AllReduce的两个阶段"]
    assert all(c.question.owner_id is None for c in cards)  # never the author's own question
