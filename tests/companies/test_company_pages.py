"""The company pages: counting over the reports a viewer can read, distinct reports and
questions, ranking, filters, "study the top N", and access for every role."""
from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import func, select

from prep.accounts.models import Role
from prep.companies import queries
from prep.companies.filters import Filters, read_filters
from prep.drill.models import Card
from prep.extensions import db
from prep.postings.service import Review, ReviewedQuestion, import_posting
from prep.questions.models import Question
from prep.questions.translations import link
from tests.support.app import PASSWORD
from tests.support.clock import FIXED_NOW
from tests.support.pages import csrf_token_from

TODAY = FIXED_NOW.date()
RING = "请解释 Ring AllReduce 的两个阶段？"
RDMA = "RDMA 与 TCP 相比有何优势？"
KV = "What is a KV cache and why does it grow with the context?"
PAGED = "How does PagedAttention avoid fragmentation?"


def report(user, company, questions, *, title="AI 网络通信库研发", when=FIXED_NOW, text=None, kind="report",
           interview_date=None):
    """Import an interview report of ``company`` asking ``questions`` ((text, kind, round) each)."""
    body = text or f"{company} {title}\n" + "\n".join(f"- {q[0]}" for q in questions)
    posting = import_posting(user, body, when, review=Review(
        company=company, title=title, kind=kind, interview_date=interview_date,
        questions=[ReviewedQuestion(q[0], q[1] if len(q) > 1 else "concept", q[2] if len(q) > 2 else None)
                   for q in questions])).posting
    db.session.commit()
    return posting


@pytest.fixture
def world(app, make_user):
    a, b = make_user("a@example.com"), make_user("b@example.com")
    report(a, "字节", [(RING, "concept", "一面"), (RDMA, "concept", "二面")], when=FIXED_NOW - timedelta(days=30))
    report(a, "ByteDance", [(RING, "concept", "一面"), (KV, "coding", "一面")], title="LLM serving engineer",
           when=FIXED_NOW - timedelta(days=3))
    report(a, "字节跳动", [(RING, "concept", "二面"), (PAGED, "design", "HR面")], when=FIXED_NOW - timedelta(days=1),
           text="another 字节 report\n- x")
    report(a, "腾讯TEG", [(RDMA, "concept", "一面")])
    report(b, "字节跳动", [(PAGED, "design", "一面"), ("B's secret question about NVLink?", "concept", "一面")],
           title="B's private report")
    return a, b


def _index(user):
    return {row.key: row for row in queries.company_index(user.id, lang="en", today=TODAY)}


def test_aliases_are_one_company_and_counts_are_distinct(world):
    a, b = world
    rows = _index(a)
    assert set(rows) == {"bytedance", "tencent"}
    bytedance = rows["bytedance"]
    assert (bytedance.name, bytedance.reports, bytedance.postings, bytedance.questions) == ("ByteDance", 3, 0, 4)
    assert rows["tencent"].reports == 1
    assert _index(b)["bytedance"].reports == 1 and "tencent" not in _index(b)
    zh = queries.company_index(a.id, lang="zh", today=TODAY)
    assert [row.name for row in zh] == ["字节跳动", "腾讯"]


def test_questions_rank_by_distinct_reports_then_recency(world):
    a, _ = world
    page = queries.ranked_questions(a.id, "bytedance", Filters(), lang="en", today=TODAY)
    assert [(q.text, q.reports) for q in page.questions] == [(RING, 3), (PAGED, 1), (KV, 1), (RDMA, 1)]
    assert [q.last_seen for q in page.questions] == [
        TODAY - timedelta(days=1), TODAY - timedelta(days=1), TODAY - timedelta(days=3), TODAY - timedelta(days=30)]
    assert page.total == 4 and page.pages == 1
    assert all("secret" not in q.text for q in page.questions)  # B's report is B's


def test_a_report_imported_twice_and_a_translation_count_once(world):
    a, _ = world
    nvlink = "What is NVLink and how fast is it?"
    sample = report(None, "ByteDance", [(nvlink, "concept", "一面")], text="shared sample 字节\n- nvlink")
    copy = report(a, "ByteDance", [(nvlink, "concept", "一面")], text="shared sample 字节\n- nvlink")
    assert sample.content_hash == copy.content_hash and sample.id != copy.id
    assert {pq.question_id for pq in sample.questions} == {pq.question_id for pq in copy.questions}
    kv = db.session.scalar(select(Question).where(Question.text == KV, Question.owner_id == a.id))
    wording = Question(text="什么是 KV cache，为什么随上下文增长？", norm="什么是kvcache为什么随上下文增长", lang="zh",
                       source=kv.source, owner_id=a.id)
    db.session.add(wording)
    db.session.flush()
    link(kv, wording)
    db.session.commit()
    report(a, "字节", [(wording.text, "coding", "二面")], text="zh wording report\n- kv")
    page = queries.ranked_questions(a.id, "bytedance", Filters(), lang="en", today=TODAY)
    ranked = {q.text: q.reports for q in page.questions}
    assert ranked[nvlink] == 1  # the sample and the candidate's copy are one report
    assert ranked[KV] == 2 and wording.text not in ranked  # the ByteDance report and the Chinese wording's
    assert page.total == 5
    zh = {q.text for q in queries.ranked_questions(a.id, "bytedance", Filters(), lang="zh", today=TODAY).questions}
    assert wording.text in zh and KV not in zh
    assert _index(a)["bytedance"].reports == 5 and _index(a)["bytedance"].questions == 5


@pytest.mark.parametrize(("filters", "expected"), [
    (Filters(round="一面"), [RING, KV]),
    (Filters(round="HR面"), [PAGED]),
    (Filters(kind="design"), [PAGED]),
    (Filters(lang="en"), [PAGED, KV]),
    (Filters(lang="zh"), [RING, RDMA]),
    (Filters(role="llm-inference"), [RING, KV]),
    (Filters(round="三面"), []),
])
def test_filters(world, filters, expected):
    a, _ = world
    page = queries.ranked_questions(a.id, "bytedance", filters, lang="en", today=TODAY)
    assert [q.text for q in page.questions] == expected


def test_filters_from_a_url_drop_what_is_not_allowed():
    assert read_filters({"round": "一面", "kind": "coding", "lang": "zh", "role": "cuda-kernels"}) == Filters(
        "一面", "coding", "zh", "cuda-kernels")
    assert read_filters({"round": "x" * 61, "kind": "poetry", "lang": "fr", "role": "astronaut"}) == Filters()
    assert not Filters().active and Filters(kind="coding").as_args() == {"kind": "coding"}


def test_last_seen_is_the_interview_date_once_it_has_come(world):
    a, _ = world
    report(a, "ByteDance", [(RDMA, "concept", "一面")], text="dated\n- rdma", when=FIXED_NOW - timedelta(days=60),
           interview_date=None)
    summary = queries.company_summary(a.id, "bytedance", lang="en", today=TODAY)
    assert summary.since == TODAY - timedelta(days=60) and summary.latest == TODAY - timedelta(days=1)
    later = TODAY + timedelta(days=10)
    db.session.execute(db.update(queries.Posting).where(queries.Posting.company_key == "tencent")
                       .values(interview_date=later))
    db.session.commit()
    tencent = queries.company_summary(a.id, "tencent", lang="en", today=TODAY)
    assert tencent.latest == TODAY  # a date ahead has not happened: the import day counts
    assert queries.company_summary(a.id, "tencent", lang="en", today=later).latest == later


def test_summary_roles_rounds_and_documents(world):
    a, _ = world
    summary = queries.company_summary(a.id, "bytedance", lang="zh", today=TODAY)
    assert (summary.name, summary.reports, summary.postings, summary.known) == ("字节跳动", 3, 0, True)
    assert summary.roles[0][0] == "gpu-communication" and summary.roles[0][2] == 2
    assert ("llm-inference", "LLM serving engineer", 1) in summary.roles
    assert summary.rounds[0] == "一面" and set(summary.rounds) == {"一面", "二面", "HR面"}
    assert len(summary.documents) == 3


def test_an_unknown_company_is_missing_unless_readable_a_known_one_is_empty(world):
    a, b = world
    report(b, "文远知行", [("What is NCCL?",)])
    assert queries.company_summary(a.id, "wen-yuan-zhi-xing", lang="en", today=TODAY) is None
    assert queries.company_summary(b.id, "wen-yuan-zhi-xing", lang="en", today=TODAY).reports == 1
    nvidia = queries.company_summary(a.id, "nvidia", lang="en", today=TODAY)
    assert nvidia.empty and nvidia.name == "NVIDIA"


def test_the_index_search_finds_any_name(world):
    a, _ = world
    for query in ("字节", "ByteDance", "bytedance", "抖音", "字节跳动"):
        assert [r.key for r in queries.company_index(a.id, lang="en", today=TODAY, query=query)] == ["bytedance"]
    assert queries.company_index(a.id, lang="en", today=TODAY, query="NVIDIA") == []


def test_the_page_shows_the_ranking_and_states(world, client, login):
    a, _ = world
    login(a)
    html = client.get("/companies/bytedance").get_data(as_text=True)
    assert "ByteDance" in html and "Questions from 3 interview reports, since" in html
    assert html.index(RING) < html.index(PAGED) < html.index(RDMA)
    assert "asked in 3 reports" in html and "Not studying" in html and "secret" not in html
    assert client.get("/companies").status_code == 200
    assert "/companies/bytedance" in client.get("/companies?q=字节").get_data(as_text=True)
    zh = client.get("/companies/bytedance", headers={"Accept-Language": "zh"}).get_data(as_text=True)
    assert "字节跳动" in zh


def test_study_the_top_n_adds_cards_and_checks_n(world, client, login):
    a, _ = world
    login(a)
    response = client.post("/companies/bytedance/study", data={"n": "2"})
    assert response.status_code == 302 and response.headers["Location"].endswith("/companies/bytedance")
    studied = set(db.session.scalars(select(Question.text).join(Card, Card.question_id == Question.id)
                                     .where(Card.user_id == a.id)))
    assert studied == {RING, PAGED}
    html = client.get("/companies/bytedance").get_data(as_text=True)
    assert 'data-state="new"' in html
    client.post("/companies/bytedance/study", data={"n": "3", "kind": "coding"})
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == a.id)) == 3  # KV only was new
    for bad in ("0", "51", "-1", "ten", ""):
        response = client.post("/companies/bytedance/study", data={"n": bad})
        assert response.status_code == 400
        assert "Choose between 1 and 50 questions." in response.get_data(as_text=True) or \
            "Say how many questions to study." in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == a.id)) == 3
    assert client.post("/companies/Not_A_Key/study", data={"n": "2"}).status_code == 404


def test_the_study_form_needs_its_csrf_token(world, csrf_app):
    a, _ = world
    client = csrf_app.test_client()
    client.post("/login", data={"email": a.email, "password": PASSWORD,
                                "csrf_token": csrf_token_from(client.get("/login").get_data(as_text=True))})
    assert client.post("/companies/bytedance/study", data={"n": "5"}).status_code == 400
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == a.id)) == 0
    token = csrf_token_from(client.get("/companies/bytedance").get_data(as_text=True))
    assert client.post("/companies/bytedance/study", data={"n": "5", "csrf_token": token}).status_code == 302
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == a.id)) == 4


@pytest.mark.parametrize("role", ["anonymous", Role.candidate, Role.instructor, Role.admin])
def test_access_for_every_role(world, client, login, make_user, role):
    a, _ = world
    for url in ("/companies", "/companies/bytedance"):
        if role == "anonymous":
            response = client.get(url)
            assert response.status_code == 302 and "/login" in response.headers["Location"]
    if role == "anonymous":
        assert client.post("/companies/bytedance/study", data={"n": "5"}).status_code == 302
        return
    viewer = make_user(f"{role.value}@example.com", role=role)
    login(viewer)
    index = client.get("/companies").get_data(as_text=True)
    assert "bytedance" not in index and "No companies yet" in index  # A's and B's reports are theirs
    page = client.get("/companies/bytedance")
    assert page.status_code == 200 and "You have no interview reports or postings of ByteDance yet." in page.get_data(
        as_text=True)
    assert RING not in page.get_data(as_text=True)
    assert client.get("/companies/tencent").status_code == 200  # a known company: an empty page, not A's
    report(a, "文远知行", [("What is NCCL?",)])
    assert client.get("/companies/wen-yuan-zhi-xing").status_code == 404  # A's private company: like a missing one


def test_a_get_never_writes_and_queries_are_bounded(world, client, login):
    a, _ = world
    login(a)
    from tests.support.queries import count_statements

    with count_statements() as few:
        client.get("/companies/bytedance")
    for n in range(12):
        report(a, "ByteDance", [(f"Question number {n} about NVLink bandwidth?", "concept", "一面")],
               text=f"report {n}\n- q")
    with count_statements() as many:
        assert client.get("/companies/bytedance").status_code == 200
        assert client.get("/companies").status_code == 200
    with count_statements() as index:
        client.get("/companies")
    assert many["n"] - index["n"] <= few["n"] + 2  # the same statements, however many reports
    assert not [s for s in many["statements"] if s.upper().startswith(("INSERT", "UPDATE", "DELETE"))]


def test_a_shared_report_counts_once_an_instructor_approved_it(world, client, login, make_user):
    from prep.postings.models import Posting
    from prep.sharing import service as sharing

    a, b = world
    instructor = make_user("i@example.com", role=Role.instructor)
    theirs = db.session.scalar(select(Posting).where(Posting.user_id == b.id))
    row = sharing.share(theirs, "字节跳动 report\n- How does PagedAttention avoid fragmentation?", FIXED_NOW)
    db.session.commit()
    assert _index(a)["bytedance"].reports == 3  # pending: nobody else counts it
    sharing.approve(row, instructor.id, FIXED_NOW + timedelta(days=2))
    db.session.commit()
    assert _index(a)["bytedance"].reports == 4
    summary = queries.company_summary(a.id, "bytedance", lang="en", today=TODAY + timedelta(days=5))
    shared = [d for d in summary.documents if d.share_id == row.id]
    assert len(shared) == 1 and shared[0].seen == TODAY + timedelta(days=2)  # published, not the author's days
    login(a)
    html = client.get("/companies/bytedance").get_data(as_text=True)
    assert f"/shared/{row.id}" in html and "secret" not in html  # B's own questions stay B's


@pytest.mark.parametrize("query", ["字节", "ByteDance", "bytedance", "字节跳动", "抖音"])
def test_the_header_search_finds_the_company_by_any_name(world, client, login, query):
    a, _ = world
    login(a)
    html = client.get("/search", query_string={"q": query}).get_data(as_text=True)
    assert 'data-company="bytedance"' in html and 'href="/companies/bytedance"' in html
    assert "3 interview reports" in html


def test_the_header_search_names_a_known_company_and_a_role(world, app, client, login, make_user):
    a, _ = world
    newcomer = login(make_user("new@example.com"), app.test_client())
    html = newcomer.get("/search", query_string={"q": "NVIDIA"}).get_data(as_text=True)
    assert 'href="/companies/nvidia"' in html and "no reports of it yet" in html
    login(a)
    html = client.get("/search", query_string={"q": "LLM serving"}).get_data(as_text=True)
    assert 'data-role="llm-inference"' in html and 'href="/companies/bytedance?role=llm-inference"' in html
    roles = client.get("/companies", query_string={"role": "llm-inference"}).get_data(as_text=True)
    assert 'data-company="bytedance"' in roles and 'data-company="tencent"' not in roles
    html = client.get("/search", query_string={"q": "腾讯"}).get_data(as_text=True)
    assert 'data-company="tencent"' in html and 'data-company="bytedance"' not in html


def test_the_posting_page_and_asked_in_link_to_the_company(world, client, login):
    from prep.postings.models import Posting

    a, _ = world
    login(a)
    posting = db.session.scalar(select(Posting).where(Posting.user_id == a.id, Posting.company == "字节"))
    html = client.get(f"/postings/{posting.id}").get_data(as_text=True)
    assert 'href="/companies/bytedance"' in html
    ring = db.session.scalar(select(Question).where(Question.text == RING))
    question_page = client.get(f"/questions/{ring.id}").get_data(as_text=True)
    assert 'class="company-link" href="/companies/bytedance">ByteDance</a>' in question_page
    assert question_page.count('class="company-link"') == 1  # 字节, ByteDance, 字节跳动: one company


def test_the_questions_are_paged_in_rank_order(world, client, login):
    a, _ = world
    for n in range(queries.QUESTIONS_PER_PAGE + 2):
        report(a, "ByteDance", [(f"Question number {n} about NVLink bandwidth?", "concept", "一面")],
               text=f"paged report {n}\n- q")
    first = queries.ranked_questions(a.id, "bytedance", Filters(), lang="en", today=TODAY)
    second = queries.ranked_questions(a.id, "bytedance", Filters(), lang="en", today=TODAY, page=2)
    assert (first.total, first.pages, second.page, second.offset) == (36, 2, 2, queries.QUESTIONS_PER_PAGE)
    assert first.questions[0].text == RING and len(second.questions) == 6
    assert not {q.id for q in first.questions} & {q.id for q in second.questions}
    assert queries.ranked_questions(a.id, "bytedance", Filters(), lang="en", today=TODAY, page=99).page == 2
    login(a)
    html = client.get("/companies/bytedance?page=2&kind=concept").get_data(as_text=True)
    assert f'start="{queries.QUESTIONS_PER_PAGE + 1}"' in html and 'rel="prev"' in html


def test_the_index_search_for_a_known_company_without_reports_links_its_page(world, client, login):
    a, _ = world
    login(a)
    html = client.get("/companies", query_string={"q": "英伟达"}).get_data(as_text=True)
    assert "No company you can read about matches" in html and 'href="/companies/nvidia"' in html
    zh = client.get("/companies", query_string={"q": "Nvidia"}, headers={"Accept-Language": "zh"}).get_data(
        as_text=True)
    assert "你还没有可查看的英伟达面经或职位。" in zh
    assert 'id="named-company"' not in client.get("/companies", query_string={"q": "zzz"}).get_data(as_text=True)
