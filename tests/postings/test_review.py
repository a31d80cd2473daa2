"""Import review: what was found is shown as an editable checklist and nothing
is stored until the candidate saves it; interview reports are stored as such, with rounds and
kinds, and question pages tell postings from interview reports."""
from __future__ import annotations

import pytest
from sqlalchemy import func, select

from prep.extensions import db
from prep.postings.models import Posting, PostingQuestion
from prep.questions.models import Question
from tests.support.htmlforms import read_form
from tests.support.pages import csrf_token_from
from tests.support.postings import GUESSED

REPORT = """字节跳动 AI Infra 实习 一面二面面经
发个面经攒人品
一面（60min）
1. 自我介绍
2. 讲一下NCCL的ring allreduce是怎么切分数据的
3. 说说RDMA的RC和UD有什么区别
4. 手撕：实现一个线程安全的队列
二面
1. 聊项目，分布式训练里通信瓶颈怎么定位的
2. 设计一个多机多卡的梯度同步方案
3. 反问：组里主要做什么
已oc，祝大家好运
"""

NO_QUESTIONS = """Orbital AI
GPU Communication Engineer
About the job
We build the collective communication layer of our training stack.
Requirements
- NCCL, RDMA and CUDA in production.
- Strong C++.
"""


@pytest.fixture
def candidate(make_user, login):
    user = make_user("review@example.com")
    login(user)
    return user


def _counts() -> tuple[int, int, int]:
    return tuple(db.session.scalar(select(func.count()).select_from(m)) or 0
                 for m in (Posting, PostingQuestion, Question))  # type: ignore[return-value]


def _review(client, text: str):
    response = client.post("/postings/new", data={"text": text}, content_type="multipart/form-data")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'id="review-form"' in html
    return html


def _rows(data: dict) -> dict[int, dict[str, str]]:
    rows: dict[int, dict[str, str]] = {}
    for name, value in data.items():
        if name.startswith("questions-"):
            _prefix, index, field = name.split("-", 2)
            rows.setdefault(int(index), {})[field] = value
    return rows


def test_review_shows_the_checklist_and_stores_nothing(client, candidate):
    before = _counts()
    html = _review(client, REPORT)
    assert _counts() == before  # nothing stored before the save
    _action, data = read_form(html, "review-form")
    assert data["doc_kind"] == "report" and data["company"] == "字节跳动"
    texts = [row["text"] for row in _rows(data).values() if row.get("text")]
    assert any("ring allreduce" in t for t in texts) and any("线程安全的队列" in t for t in texts)
    assert not any("自我介绍" in t or "反问" in t or "已oc" in t for t in texts)
    kinds = {row["text"]: row["kind"] for row in _rows(data).values() if row.get("text")}
    assert kinds[next(t for t in texts if "线程安全" in t)] == "coding"
    assert kinds[next(t for t in texts if "梯度同步方案" in t)] == "design"
    assert "一面" in html and "二面" in html  # rounds shown


def test_candidate_edits_drops_and_adds_then_saves(client, candidate):
    html = _review(client, REPORT)
    action, data = read_form(html, "review-form")
    rows = _rows(data)
    by_text = {row["text"]: i for i, row in rows.items() if row.get("text")}
    queue = by_text[next(t for t in by_text if "线程安全" in t)]
    rdma = by_text[next(t for t in by_text if "RDMA" in t)]
    data.pop(f"questions-{queue}-keep", None)                      # drop one
    data[f"questions-{rdma}-text"] = "RDMA 的 RC、UC、UD 三种传输服务有什么区别？"  # fix the wording
    data["new_question"] = "GPUDirect RDMA 是怎么绕过主机内存的？"  # add a missed one
    added = client.post("/postings/review/add", data={**data, "add": "Add to the list"})
    assert added.status_code == 200, added.get_data(as_text=True)
    action, data = read_form(added.get_data(as_text=True), "review-form")
    assert data["new_question"] == ""
    response = client.post(action, data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    posting = db.session.scalar(select(Posting))
    texts = [pq.text for pq in posting.questions]
    assert "RDMA 的 RC、UC、UD 三种传输服务有什么区别？" in texts
    assert "GPUDirect RDMA 是怎么绕过主机内存的？" in texts
    assert not any("线程安全" in t for t in texts)
    assert posting.kind == "report" and posting.rounds == ["一面", "二面"]
    design = next(pq for pq in posting.questions if "梯度同步" in pq.text)
    assert design.kind == "design" and design.round == "二面"
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert 'id="posting-kind"' in page and "Interview report" in page
    question_page = client.get(f"/questions/{design.question_id}").get_data(as_text=True)
    assert "Asked in 1 interview report" in question_page


def test_each_question_says_where_it_was_found(client, candidate):
    html = _review(client, REPORT)
    _action, data = read_form(html, "review-form")
    rows = _rows(data)
    ring = next(row for row in rows.values() if "ring allreduce" in row["text"])
    assert ring["origin"] == "numbered" and ring["section"].startswith("一面")
    assert "numbered list under “一面”" in html
    assert 'class="review-row guessed"' not in html  # the rules listed every one of these


@pytest.mark.parametrize(("lang", "says"), [("en", "guessed from the wording ("), ("zh", "根据措辞推测（")])
def test_a_guess_is_marked_apart_in_the_document_order(client, candidate, lang, says):
    client.post("/language", data={"lang": lang})
    html = _review(client, GUESSED)
    _action, data = read_form(html, "review-form")
    texts = [row["text"] for _i, row in sorted(_rows(data).items())]
    assert texts.index("Suggest a way to send a large file faster over a lossy link") == 1
    assert html.count('class="review-row guessed"') == 1 and says in html


def _review_with(client, text: str, added: str):
    action, data = read_form(_review(client, text), "review-form")
    data["new_question"] = added
    return client.post("/postings/review/add", data={**data, "add": "Add to the list"}), data


def test_adding_keeps_every_row_as_left_and_saves_exactly_the_chosen(client, candidate):
    before = _counts()
    action, data = read_form(_review(client, REPORT), "review-form")
    rows = _rows(data)
    dropped = next(i for i, row in rows.items() if "线程安全" in row["text"])
    data.pop(f"questions-{dropped}-keep")
    data["company"] = "ByteDance"
    data["new_question"] = "  NCCL 的 tree   算法什么时候比 ring 快？ "
    response = client.post("/postings/review/add", data={**data, "add": "Add to the list"})
    assert response.status_code == 200 and _counts() == before  # nothing stored by adding
    html = response.get_data(as_text=True)
    action, again = read_form(html, "review-form")
    rows_again = _rows(again)
    assert again["company"] == "ByteDance" and f"questions-{dropped}-keep" not in again
    new = rows_again[max(rows_again)]
    assert new["text"] == "NCCL 的 tree 算法什么时候比 ring 快？" and again[f"questions-{max(rows_again)}-keep"] == "y"
    assert new["origin"] == "added" and "added by you" in html
    assert 'id="review-summary"' in html  # the summary is shown again
    chosen = [row["text"] for i, row in sorted(rows_again.items()) if f"questions-{i}-keep" in again]
    assert client.post(action, data=again).status_code == 302
    posting = db.session.scalar(select(Posting))
    assert sorted(pq.text for pq in posting.questions) == sorted(chosen)
    assert posting.company == "ByteDance"


@pytest.mark.parametrize(("added", "lang", "message"), [
    ("   ", "en", "Write the question first, then add it."),
    ("   ", "zh", "先写下问题，再添加。"),
    ("为什么" * 400, "en", "A question may be at most 1,000 characters; this one has 1,200."),
    ("为什么" * 400, "zh", "问题最多 1,000 个字符；这个有 1,200 个。"),
    ("讲一下NCCL的ring allreduce是怎么切分数据的！", "en", "This is question 1 in the list already."),
    ("讲一下 nccl 的 ring allreduce 是怎么切分数据的", "zh", "这已是列表中的第 1 个问题。"),
])
def test_an_added_question_that_cannot_join_is_refused_next_to_the_field(client, candidate, added, lang, message):
    client.post("/language", data={"lang": lang})
    before = _counts()
    response, data = _review_with(client, REPORT, added)
    assert response.status_code == 400 and _counts() == before
    html = response.get_data(as_text=True)
    assert f'<div class="error" id="new_question-error" role="alert"><p>{message}</p></div>' in html
    _action, again = read_form(html, "review-form")
    assert len(_rows(again)) == len(_rows(data))  # the list is as it was


def test_adding_an_unticked_one_again_says_to_tick_it(client, candidate):
    action, data = read_form(_review(client, REPORT), "review-form")
    rows = _rows(data)
    queue = next(i for i, row in rows.items() if "线程安全" in row["text"])
    data.pop(f"questions-{queue}-keep")
    data["new_question"] = rows[queue]["text"]
    response = client.post("/postings/review/add", data={**data, "add": "Add to the list"})
    assert response.status_code == 400
    assert f"This is question {queue + 1} in the list, unticked: tick it to keep it." in response.get_data(as_text=True)


def test_saving_with_a_question_written_but_not_added_saves_it_too(client, candidate):
    action, data = read_form(_review(client, REPORT), "review-form")
    data["new_question"] = "GPUDirect RDMA 是怎么绕过主机内存的？"
    assert client.post(action, data=data).status_code == 302
    posting = db.session.scalar(select(Posting))
    assert "GPUDirect RDMA 是怎么绕过主机内存的？" in [pq.text for pq in posting.questions]


def test_saving_with_a_duplicate_written_in_the_add_field_stores_nothing(client, candidate):
    before = _counts()
    action, data = read_form(_review(client, REPORT), "review-form")
    first = _rows(data)[min(_rows(data))]["text"]
    data["new_question"] = first
    response = client.post(action, data=data)
    assert response.status_code == 400 and _counts() == before
    assert 'id="new_question-error"' in response.get_data(as_text=True)


def test_adding_needs_the_csrf_token(csrf_app, make_user):
    client = csrf_app.test_client()
    user = make_user("csrf-add@example.com")
    client.post("/login", data={"email": user.email, "password": "correct horse battery staple",
                                "csrf_token": csrf_token_from(client.get("/login").get_data(as_text=True))})
    token = csrf_token_from(client.get("/postings/new").get_data(as_text=True))
    assert client.post("/postings/review/add", data={"source": REPORT, "new_question": "Why?"}).status_code == 400
    response = client.post("/postings/review/add", data={"source": REPORT, "new_question": "Why?", "add": "Add",
                                                         "csrf_token": token})
    assert response.status_code == 200 and "Why?" in response.get_data(as_text=True)


def test_posting_and_report_counted_apart_on_the_question_page(client, candidate):
    _, data = read_form(_review(client, REPORT), "review-form")
    client.post("/postings/save", data=data)
    posting = ("Acme GPU Labs\nCommunication Engineer\nInterview questions\n"
               "1. 说说RDMA的RC和UD有什么区别\n")
    _, data = read_form(_review(client, posting), "review-form")
    assert data["doc_kind"] == "posting"
    client.post("/postings/save", data=data)
    pq = db.session.scalar(select(PostingQuestion).join(Posting).where(Posting.kind == "posting"))
    page = client.get(f"/questions/{pq.question_id}").get_data(as_text=True)
    assert "Asked in 1 posting · 1 interview report" in page


def test_no_questions_found_says_what_to_do_next(client, candidate):
    html = _review(client, NO_QUESTIONS)
    assert 'id="review-empty"' in html and "likely questions" in html


def test_a_too_long_question_is_refused_next_to_it_and_nothing_is_stored(client, candidate):
    before = _counts()
    action, data = read_form(_review(client, REPORT), "review-form")
    first = min(_rows(data))
    data[f"questions-{first}-text"] = "为什么" * 400
    response = client.post(action, data=data)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert f'id="questions-{first}-text-error"' in html
    assert "<p>{}</p>" not in html  # the rows' errors are not listed again over the list
    assert _counts() == before


@pytest.mark.parametrize("name", ["questions-" + "9" * 5000 + "-text", "questions-x-text", "questions--1-text"])
def test_hostile_row_names_do_not_500(client, candidate, name):
    action, data = read_form(_review(client, REPORT), "review-form")
    data[name] = "hello"
    response = client.post(action, data=data)
    assert response.status_code in (302, 400)


def test_the_text_cannot_be_dropped(client, candidate):
    before = _counts()
    action, data = read_form(_review(client, REPORT), "review-form")
    data["source"] = "   "
    response = client.post(action, data=data)
    assert response.status_code == 400 and 'id="source-error"' in response.get_data(as_text=True)
    assert _counts() == before


def test_already_imported_goes_to_the_posting(client, candidate):
    action, data = read_form(_review(client, REPORT), "review-form")
    first = client.post(action, data=data)
    again = client.post("/postings/new", data={"text": REPORT}, content_type="multipart/form-data")
    assert again.status_code == 302 and again.headers["Location"] == first.headers["Location"]
    assert _counts()[0] == 1


def test_a_checklist_of_two_hundred_questions_is_saved_as_the_browser_sends_it(client, candidate):
    """Every row carries its fields (wording, kind, round, section, match, origin, confidence …):
    the whole checklist, sent as the page sends it (multipart), fits the request's limits."""
    report = "Big report\n\nRound 1\n" + "".join(f"{i}. What does the {i}th NCCL tuning knob change?\n"
                                                 for i in range(1, 201))
    action, data = read_form(_review(client, report), "review-form")
    assert len(_rows(data)) == 200
    boundary = "----BrowserFormBoundary7MA4YWxkTrZu0gW"  # as a browser encodes it (the test client's
    body = "".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'  # encoder
                   for name, value in data.items()) + f"--{boundary}--\r\n"  # drops a CRLF after some empty values)
    response = client.post(action, data=body.encode(), content_type=f"multipart/form-data; boundary={boundary}")
    assert response.status_code == 302, response.status_code
    assert len(db.session.scalar(select(Posting)).questions) == 200
