"""Postings on the web and the CLI: import (paste, upload), re-import, bad input, the posting
page, study this posting, delete, privacy, `prep postings import`, samples loaded by `prep init`."""
from __future__ import annotations

import io
import re

import pytest
from sqlalchemy import func, select

from prep.drill.models import Card
from prep.extensions import db
from prep.postings import service
from prep.postings.decode import MAX_FILE_BYTES, MAX_POSTING_CHARS
from prep.postings.models import Posting, PostingQuestion
from prep.questions.models import Question, Tag
from tests.support.pages import csrf_token_from
from tests.support.clock import FIXED_NOW
from tests.support.data import SEEDS
from tests.support.htmlforms import review_and_save


POSTING = """Acme GPU Labs
Collective Communication Engineer
Shanghai

About the role
You will tune NCCL collectives over NVLink and InfiniBand for PyTorch training.

Requirements
- Strong C++ and CUDA.

Interview questions
1. How does ring AllReduce work, step by step?
2. Why is the sky blue on Tuesdays at the seaside?
- Review the alpha-beta model.
"""

ZH_POSTING = """星河科技
分布式训练通信工程师
北京市
职位描述
负责NCCL与RDMA通信优化。
面试指南
- RDMA与TCP/IP相比有何优势？
- 请解释一下NCCL中AllReduce的Ring算法原理
"""


def counts() -> tuple[int, int, int, int, int]:
    """Rows in every table an import may touch."""
    return tuple(db.session.scalar(select(func.count()).select_from(model)) or 0
                 for model in (Posting, PostingQuestion, Question, Tag, Card))  # type: ignore[return-value]


@pytest.fixture
def content(shipped_content):
    """The shipped explanations, so questions get linked."""
    assert not shipped_content.problems
    return shipped_content


@pytest.fixture
def candidate(make_user, login):
    user = make_user("cand@example.com")
    login(user)
    return user


def _closed(response):
    """Read the body, then close the request body: Werkzeug's test client spools a large one to a
    temporary file that it only closes itself when following redirects."""
    response.get_data()
    response.close()
    response.request.environ["wsgi.input"].close()
    return response


def paste(client, text: str):
    """Paste a posting and save what the review checklist shows, unchanged."""
    first = _closed(client.post("/postings/new", data={"text": text}, content_type="multipart/form-data"))
    return _closed(review_and_save(client, first))


def upload(client, data: bytes, name: str = "posting.txt"):
    first = _closed(client.post("/postings/new", data={"file": (io.BytesIO(data), name)},
                                content_type="multipart/form-data"))
    return _closed(review_and_save(client, first))


def posting_id(response) -> int:
    match = re.search(r"/postings/(\d+)$", response.headers["Location"])
    assert match, response.headers.get("Location")
    return int(match.group(1))


# --- list and import ------------------------------------------------------------------------

def test_list_empty_state_says_to_import(client, candidate):
    html = client.get("/postings").get_data(as_text=True)
    assert 'id="no-postings"' in html and "Import one" in html
    assert 'href="/postings/new"' in html


def test_nav_links_to_postings(client, candidate):
    assert 'href="/postings"' in client.get("/dashboard").get_data(as_text=True)


def test_pages_need_login(client):
    assert client.get("/postings").status_code == 302
    assert client.get("/postings/new").status_code == 302


def test_import_by_paste_shows_the_posting(client, candidate, content):
    response = paste(client, POSTING)
    assert response.status_code == 302
    pid = posting_id(response)
    posting = db.session.get(Posting, pid)
    assert posting.user_id == candidate.id
    assert (posting.company, posting.title, posting.location) == ("Acme GPU Labs",
                                                                  "Collective Communication Engineer", "Shanghai")
    assert posting.recognised_sections and posting.raw_text.startswith("Acme GPU Labs")
    assert len(posting.content_hash) == 64
    assert [pq.text for pq in posting.questions] == ["How does ring AllReduce work, step by step?",
                                                      "Why is the sky blue on Tuesdays at the seaside?"]
    page = client.get(f"/postings/{pid}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Acme GPU Labs" in html and "Collective Communication Engineer" in html and "Shanghai" in html
    for skill in ("NCCL", "NVLink", "InfiniBand", "PyTorch", "C++", "CUDA"):
        assert f'class="chip skill" href="/questions?tag={skill.replace("+", "%2B")}">{skill}</a>' in html
    # The ring question links to its explanation; the off-topic one has none (the linker abstains).
    assert 'href="/explanations/ring-allreduce"' in html
    assert html.count("No explanation yet.") == 1
    assert "Study this posting" in html and 'id="no-sections"' not in html
    listing = client.get("/postings").get_data(as_text=True)
    assert f'href="/postings/{pid}"' in listing and 'id="no-postings"' not in listing


def test_import_by_upload(client, candidate, content):
    response = upload(client, ZH_POSTING.encode("gb18030"), "posting.txt")
    assert response.status_code == 302
    posting = db.session.get(Posting, posting_id(response))
    assert posting.company == "星河科技"
    assert [pq.text for pq in posting.questions] == ["RDMA与TCP/IP相比有何优势？", "请解释一下NCCL中AllReduce的Ring算法原理"]
    html = client.get(f"/postings/{posting.id}").get_data(as_text=True)
    assert 'href="/explanations/rdma-vs-tcp"' in html


def test_flash_says_what_the_import_did(client, candidate, content):
    first = client.post("/postings/new", data={"text": POSTING}, content_type="multipart/form-data")
    saved = review_and_save(client, first)
    html = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Imported Acme GPU Labs — Collective Communication Engineer: 2 questions" in html


def test_reimport_creates_nothing_and_says_so(client, candidate, content):
    first = posting_id(paste(client, POSTING))
    before = counts()
    # The same text with other spacing and line endings is the same posting.
    again = paste(client, "\r\n".join("  " + line + "  " for line in POSTING.splitlines()) + "\n\n")
    assert posting_id(again) == first
    assert counts() == before
    html = client.get(f"/postings/{first}").get_data(as_text=True)
    assert "was already imported; nothing new was added." in html
    upload(client, POSTING.encode("utf-16"))
    assert counts() == before


def test_two_candidates_each_store_their_own_copy(client, app, make_user, login, content):
    login(make_user("a@example.com"))
    paste(client, POSTING)
    other = app.test_client()
    login(make_user("b@example.com"), other)
    paste(other, POSTING)
    assert db.session.scalar(select(func.count(Posting.id))) == 2
    # A question the bank already has is shared; a new one stays each candidate's own until
    # enough accounts ask it or an instructor admits it (nothing one account writes reaches others).
    assert db.session.scalar(select(func.count(PostingQuestion.question_id.distinct()))) == 3
    sky = db.session.scalars(select(Question).where(Question.text.like("Why is the sky blue%"))).all()
    assert len(sky) == 2 and all(q.owner_id is not None for q in sky)
    mine, theirs = sorted(sky, key=lambda q: q.id)
    assert other.get(f"/questions/{mine.id}").status_code == 404


# --- bad input --------------------------------------------------------------------------------

BAD_UPLOADS = [
    pytest.param(b"", "The file is empty.", id="empty-file"),
    pytest.param(b"   \n\t\n", "The file is empty.", id="blank-file"),
    pytest.param(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "Not a text file: it looks like a PNG image.",
                 id="png"),
    pytest.param(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" * 20,
                 "Cannot read the file: it looks like a PDF document, but it is damaged or incomplete.", id="pdf"),
    pytest.param(b"x" * (MAX_POSTING_CHARS + 1), "The posting is too long: 1,000,001 characters (at most 1,000,000).",
                 id="over-the-characters"),
    pytest.param(bytes(range(0x80, 0x100)) * 8, "Cannot decode the file", id="undecodable"),
    pytest.param(b"\xff\xfe" + "面试指南".encode("utf-16-le")[:-1], "Cannot decode the file as UTF-16",
                 id="broken-utf16"),
]


@pytest.mark.parametrize(("data", "message"), BAD_UPLOADS)
def test_bad_upload_changes_nothing(client, candidate, data, message):
    before = counts()
    response = upload(client, data, "bad.bin")
    html = response.get_data(as_text=True)
    assert response.status_code == 400
    assert message in html
    assert 'role="alert"' in html  # next to the field
    assert counts() == before


@pytest.mark.parametrize(("text", "message"), [
    pytest.param("", "Paste the posting here, or choose a file", id="nothing"),
    pytest.param("  \n \n", "The posting is empty.", id="blank"),
    pytest.param("<html><body><script>x()</script></body></html>", "The page contains no text.", id="empty-page"),
    pytest.param("面试指南\n" + "如何优化带宽？\n" * 130_000, "The posting is too long: 1,040,005 characters",
                 id="over-the-characters"),
])
def test_bad_paste_changes_nothing(client, candidate, app, text, message):
    before = counts()
    response = paste(client, text)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert counts() == before


@pytest.mark.parametrize(("data", "message"), [
    pytest.param(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "不是文本文件：它看起来是 PNG 图片。", id="png"),
    pytest.param(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" * 20,
                 "无法读取此文件：它看起来是 PDF 文档，但已损坏或不完整。", id="pdf"),
    pytest.param(b"x" * (MAX_POSTING_CHARS + 1), "内容太长：1,000,001 个字符（最多 1,000,000 个）。", id="too-long"),
    pytest.param(b"\xff\xfe" + "面试指南".encode("utf-16-le")[:-1], "无法按 UTF-16 解码此文件：", id="broken-utf16"),
])
def test_a_refused_upload_is_explained_in_the_readers_language(client, candidate, data, message):
    client.post("/language", data={"lang": "zh"})
    html = upload(client, data, "bad.bin").get_data(as_text=True)
    assert message in html and "Not a text file" not in html


def test_the_paste_box_and_the_upload_state_the_limits(client, candidate):
    html = client.get("/postings/new").get_data(as_text=True)
    assert ("A posting or interview report may be at most 1,000,000 characters of text, and a file at most 4 MB."
            in html)
    assert 'data-max-chars="1000000"' in html and 'data-max-bytes="4000000"' in html
    assert "The posting is too long: {length} characters (at most 1,000,000)." in html


def test_text_and_file_together_are_refused(client, candidate):
    response = client.post("/postings/new", data={"text": POSTING, "file": (io.BytesIO(b"hello"), "a.txt")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "not both" in response.get_data(as_text=True)
    assert counts()[0] == 0


def test_a_chinese_text_of_the_full_length_is_taken(client, candidate):
    """The limit is characters: a million Chinese ones (3 MB of UTF-8) are read, from a paste or a file."""
    text = "面试题\n" + ("如何优化带宽？" * 99 + "\n") * 1400
    assert 900_000 < len(text) <= MAX_POSTING_CHARS and len(text.encode()) > 2_700_000
    for sent in ({"text": text}, {"file": (io.BytesIO(text.encode()), "long.txt")}):
        response = _closed(client.post("/postings/new", data=sent, content_type="multipart/form-data"))
        assert response.status_code == 200 and 'id="review-form"' in response.get_data(as_text=True)


def test_request_over_the_body_limit_gets_the_form_back(client, candidate, app):
    before = counts()
    response = upload(client, b"a" * (max(4 * MAX_POSTING_CHARS, MAX_FILE_BYTES) + 300_000))
    html = response.get_data(as_text=True)
    assert response.status_code == 413
    assert "too large" in html and 'id="import-form"' in html
    assert counts() == before


def test_without_csrf_token_nothing_is_stored(csrf_app, make_user, login):
    client = csrf_app.test_client()
    login_page = client.get("/login").get_data(as_text=True)
    user = make_user("csrf@example.com")
    client.post("/login", data={"email": user.email, "password": "correct horse battery staple",
                                "csrf_token": csrf_token_from(login_page)})
    assert paste(client, POSTING).status_code == 400
    assert counts()[0] == 0
    token = csrf_token_from(client.get("/postings/new").get_data(as_text=True))
    review = client.post("/postings/new", data={"text": POSTING, "csrf_token": token},
                         content_type="multipart/form-data")
    assert review.status_code == 200 and counts()[0] == 0  # the checklist; nothing stored yet
    # The review form without its token is refused too, and stores nothing.
    assert review_and_save(client, review, drop=("csrf_token",)).status_code == 400
    assert counts()[0] == 0
    assert review_and_save(client, review).status_code == 302
    assert counts()[0] == 1


def test_no_recognised_sections_is_stored_and_said(client, candidate):
    text = "We are hiring! Come work on CUDA and RDMA with us.\nHow does NCCL pick an algorithm?\n"
    pid = posting_id(paste(client, text))
    posting = db.session.get(Posting, pid)
    assert not posting.recognised_sections and posting.questions == []
    assert posting.skills == ["CUDA", "RDMA", "NCCL"]
    html = client.get(f"/postings/{pid}", follow_redirects=True).get_data(as_text=True)
    assert 'id="no-sections"' in html and "No sections were recognised" in html
    flashed = paste(client, text + "x")
    assert flashed.status_code == 302
    html = client.get(flashed.headers["Location"]).get_data(as_text=True)
    assert "No sections were recognised, so no questions were extracted." in html


def test_markup_in_a_posting_is_shown_as_text(client, candidate):
    payload = """<img src=x onerror=alert(1)> Evil Corp
Engineer <script>alert("title")</script>
面试指南
- 如何防止<script>alert(document.cookie)</script>这样的注入？
- What does <b onmouseover=alert(2)>bold</b> do?
"""
    pid = posting_id(paste(client, payload))
    html = client.get(f"/postings/{pid}").get_data(as_text=True)
    assert "<script>alert" not in html and "<img src=x" not in html and "<b onmouseover" not in html
    assert "&lt;script&gt;alert(document.cookie)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_per_user_cap(client, candidate, monkeypatch):
    from prep.postings import importing

    monkeypatch.setattr(importing, "MAX_POSTINGS_PER_USER", 1)
    paste(client, POSTING)
    before = counts()
    response = paste(client, ZH_POSTING)
    assert response.status_code == 400
    assert "You have reached the limit of 1 postings" in response.get_data(as_text=True)
    assert counts() == before
    # Re-importing one you already have is still fine at the cap.
    assert paste(client, POSTING).status_code == 302


# --- study, delete, privacy -------------------------------------------------------------------

def test_study_this_posting_adds_all_its_questions(client, candidate, content):
    pid = posting_id(paste(client, POSTING))
    question_ids = [pq.question_id for pq in db.session.get(Posting, pid).questions]
    # The likely questions unticked: only the posting's own questions.
    response = client.post(f"/postings/{pid}/study", data={"submit": "1"}, follow_redirects=True)
    html = response.get_data(as_text=True)
    assert "Added 2 questions from this posting to your study." in html
    cards = db.session.scalars(select(Card).where(Card.user_id == candidate.id)).all()
    assert sorted(c.question_id for c in cards) == sorted(question_ids)
    again = client.post(f"/postings/{pid}/study", data={"submit": "1"}, follow_redirects=True).get_data(as_text=True)
    assert "All 2 questions of this posting are already in your study." in again
    dashboard = client.get("/dashboard").get_data(as_text=True)
    assert '<dd data-stat="new">2</dd>' in dashboard


def test_study_counts_only_new_cards(client, candidate, content):
    pid = posting_id(paste(client, POSTING))
    first = db.session.get(Posting, pid).questions[0].question_id
    client.post(f"/questions/{first}/study")
    html = client.post(f"/postings/{pid}/study", data={"submit": "1"}, follow_redirects=True).get_data(as_text=True)
    assert "Added 1 question from this posting to your study (1 already there)." in html


def test_delete_asks_first_and_keeps_questions_and_cards(client, candidate, content):
    pid = posting_id(paste(client, POSTING))
    client.post(f"/postings/{pid}/study")
    before = counts()
    confirm = client.get(f"/postings/{pid}/delete")
    assert confirm.status_code == 200 and "Delete this posting?" in confirm.get_data(as_text=True)
    assert db.session.get(Posting, pid) is not None
    response = client.post(f"/postings/{pid}/delete", follow_redirects=True)
    assert "Deleted the posting" in response.get_data(as_text=True)
    assert db.session.get(Posting, pid) is None
    after = counts()
    assert after[0] == before[0] - 1 and after[1] == 0
    assert after[2:] == before[2:]  # questions, tags and cards stay


def test_other_candidates_postings_are_404(client, app, make_user, login):
    owner = app.test_client()
    login(make_user("owner@example.com"), owner)
    pid = posting_id(paste(owner, POSTING))
    login(make_user("intruder@example.com"))
    for method, url in (("get", f"/postings/{pid}"), ("post", f"/postings/{pid}/study"),
                        ("get", f"/postings/{pid}/delete"), ("post", f"/postings/{pid}/delete")):
        assert getattr(client, method)(url).status_code == 404, url
    assert f"/postings/{pid}" not in client.get("/postings").get_data(as_text=True)
    assert db.session.get(Posting, pid) is not None
    assert db.session.scalar(select(func.count(Card.id))) == 0


def _words(html: str) -> str:
    """The page's text without its tags (a company's name is a link)."""
    return re.sub(r"<[^>]+>", "", html)


def test_asked_in_n_postings_with_companies(client, candidate, content):
    first = posting_id(paste(client, POSTING))
    second = posting_id(paste(client, POSTING.replace("Acme GPU Labs", "Zenith Compute").replace(
        "Shanghai", "Beijing")))
    ring = db.session.get(Posting, first).questions[0].question_id
    assert db.session.get(Posting, second).questions[0].question_id == ring
    html = client.get(f"/postings/{second}").get_data(as_text=True)
    assert "Asked in 2 postings (Acme GPU Labs, Zenith Compute)" in _words(html)
    assert 'href="/companies/acme-gpu-labs"' in html and 'href="/companies/zenith-compute"' in html
    question_page = client.get(f"/questions/{ring}").get_data(as_text=True)
    assert "Asked in 2 postings (Acme GPU Labs, Zenith Compute)" in _words(question_page)
    assert f'href="/postings/{first}"' in question_page and f'href="/postings/{second}"' in question_page


def test_asked_in_does_not_count_other_candidates_postings(client, app, make_user, login, content):
    other = app.test_client()
    login(make_user("other@example.com"), other)
    paste(other, POSTING.replace("Acme GPU Labs", "Secret Employer"))
    login(make_user("me@example.com"))
    pid = posting_id(paste(client, POSTING))
    html = client.get(f"/postings/{pid}").get_data(as_text=True)
    assert "Secret Employer" not in html and "Asked in 1 posting (Acme GPU Labs)" in _words(html)
    ring = db.session.get(Posting, pid).questions[0].question_id
    assert "Secret Employer" not in client.get(f"/questions/{ring}").get_data(as_text=True)


# --- samples ------------------------------------------------------------------------------------

def test_init_loads_the_samples_once(app, runner, client, candidate):
    first = runner.invoke(args=["init"])
    assert first.exit_code == 0, first.output
    assert "sample postings: 3 added, 0 unchanged, 0 removed" in first.output
    before = counts()
    db.session.commit()  # end the test's read transaction: init migrates on its own connection
    second = runner.invoke(args=["init"])
    assert "sample postings: 0 added, 3 unchanged, 0 removed" in second.output
    assert counts() == before
    samples = db.session.scalars(select(Posting).where(Posting.user_id.is_(None))).all()
    assert {p.company for p in samples} == {"云帆智算", "墨子算力", "Northwind AI"}
    assert all(p.questions for p in samples)
    # Every candidate can read and study a sample, nobody can delete one.
    listing = client.get("/postings").get_data(as_text=True)
    assert "Sample postings" in listing and 'id="no-postings"' in listing
    sample = samples[0]
    assert client.get(f"/postings/{sample.id}").status_code == 200
    assert client.post(f"/postings/{sample.id}/study").status_code == 302
    assert db.session.scalar(select(func.count(Card.id))) == len(sample.questions)
    assert client.post(f"/postings/{sample.id}/delete").status_code == 404


def test_changed_sample_replaces_the_old_one(app, tmp_path):
    folder = tmp_path / "samples"
    folder.mkdir()
    (folder / "a.txt").write_text(POSTING, encoding="utf-8")
    assert service.load_sample_postings(folder, now=FIXED_NOW)[-1] == "sample postings: 1 added, 0 unchanged, 0 removed"
    (folder / "a.txt").write_text(POSTING.replace("Shanghai", "Shenzhen"), encoding="utf-8")
    assert service.load_sample_postings(folder, now=FIXED_NOW)[-1] == "sample postings: 1 added, 0 unchanged, 1 removed"
    db.session.commit()
    assert [p.location for p in db.session.scalars(select(Posting))] == ["Shenzhen"]


# --- CLI ------------------------------------------------------------------------------------------

def test_cli_import_for_a_user(runner, make_user, tmp_path, content):
    user = make_user("cli@example.com")
    make_user("someone@example.com")
    path = tmp_path / "p.txt"
    path.write_text(POSTING, encoding="utf-8")
    result = runner.invoke(args=["postings", "import", str(path), "--user", "CLI@example.com"])
    assert result.exit_code == 0, result.output
    assert "Imported Acme GPU Labs" in result.output
    posting = db.session.scalar(select(Posting))
    assert posting.user_id == user.id and len(posting.questions) == 2
    again = runner.invoke(args=["postings", "import", str(path), "--user", "cli@example.com"])
    assert again.exit_code == 0 and "already imported" in again.output
    assert db.session.scalar(select(func.count(Posting.id))) == 1


def test_cli_default_user_is_the_only_account(runner, make_user, tmp_path):
    user = make_user("only@example.com")
    path = tmp_path / "p.txt"
    path.write_text(ZH_POSTING, encoding="utf-8")
    result = runner.invoke(args=["postings", "import", str(path)])
    assert result.exit_code == 0, result.output
    assert db.session.scalar(select(Posting.user_id)) == user.id


@pytest.mark.parametrize(("data", "message"), [
    pytest.param(b"", "the file is empty", id="empty"),
    pytest.param(b"\x89PNG\r\n\x1a\n\x00\x00", "not a text file: it looks like a PNG image", id="png"),
    pytest.param(b"%PDF-1.4\n", "it looks like a PDF document, but it is damaged", id="pdf"),
    pytest.param(b"y" * (MAX_POSTING_CHARS + 1), "the posting is too long: 1,000,001 characters (at most 1,000,000)",
                 id="too-long"),
    pytest.param(b"y" * (MAX_FILE_BYTES + 1), "the file is too large: 4,000,001 bytes (at most 4 MB)",
                 id="too-large"),
    pytest.param(bytes(range(0x80, 0x100)) * 8, "cannot decode the file", id="undecodable"),
])
def test_cli_bad_input_exits_2_and_stores_nothing(runner, make_user, tmp_path, data, message):
    make_user("cli@example.com")
    good = tmp_path / "good.txt"
    good.write_text(POSTING, encoding="utf-8")
    bad = tmp_path / "bad.bin"
    bad.write_bytes(data)
    before = counts()
    result = runner.invoke(args=["postings", "import", str(good), str(bad), "--user", "cli@example.com"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("prep postings import: ") and message in lines[0]
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception,
                                                                                        SystemExit)
    assert counts() == before


@pytest.mark.parametrize(("args", "message"), [
    (["--user", "nobody@example.com"], "no account with the e-mail nobody@example.com"),
    ([], "name the candidate with --user EMAIL"),
])
def test_cli_user_problems_exit_2(runner, make_user, tmp_path, args, message):
    make_user()
    make_user()
    path = tmp_path / "p.txt"
    path.write_text(POSTING, encoding="utf-8")
    result = runner.invoke(args=["postings", "import", str(path), *args])
    assert result.exit_code == 2 and message in result.stderr
    assert counts()[0] == 0


def test_cli_missing_file_exits_2(runner, make_user, tmp_path):
    make_user()
    result = runner.invoke(args=["postings", "import", str(tmp_path / "nope.txt")])
    assert result.exit_code == 2 and "cannot read the file" in result.stderr


# --- seeds (tests/data/seeds) ---------------------------------------------------------------------

SEED_QUESTIONS = {
    "000_97fc3cec54768f54.txt": ("百度", [
        "请解释NCCL中AllReduce的Ring算法原理", "如何优化GPU通信中的带宽利用率？", "描述你使用CUDA编程解决的一个性能问题",
        "RDMA与TCP/IP相比有何优势？", "在分布式训练中，如何定位通信瓶颈？"]),
    "002_f799f6b96215417c.txt": ("英伟达", [
        "请解释NCCL中AllReduce算法的实现原理及优化策略", "如何在Linux环境下进行C++程序的内存泄漏检测和性能剖析?",
        "描述你对GPU内存层次结构及PCIe/NVLink带宽瓶颈的理解"]),
}


@pytest.mark.parametrize("name", sorted(SEED_QUESTIONS))
def test_seed_posting_imports_with_its_questions_linked(client, candidate, content, name):
    company, questions = SEED_QUESTIONS[name]
    response = upload(client, (SEEDS / name).read_bytes(), name)
    posting = db.session.get(Posting, posting_id(response))
    assert posting.company == company
    assert [pq.text for pq in posting.questions] == questions
    assert "Java" not in posting.skills
    html = client.get(f"/postings/{posting.id}").get_data(as_text=True)
    # Every seed question is answered by a shipped explanation.
    assert "No explanation yet." not in html
    assert html.count('href="/explanations/') >= len(questions)
    client.post(f"/postings/{posting.id}/study", data={"submit": "1"})  # likely ones unticked
    assert db.session.scalar(select(func.count(Card.id))) == len(questions)
