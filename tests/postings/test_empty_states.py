"""A posting with no questions is not a dead end (it says so, shows the likely questions
and offers to paste the interview report); the interview date can be set on import."""
from __future__ import annotations

from datetime import date

from prep.extensions import db
from prep.postings.models import Posting
from tests.support.htmlforms import review_and_save

EMPTY_HEADING = """Senior GPU Engineer
Acme AI

Responsibilities
- Optimise CUDA kernels for training
- Work with NCCL and RDMA collectives

Requirements
- 5 years of C++ and CUDA

Interview questions we often ask
"""


def _import(client, text, changes=None, kind=None):
    data = {"text": text, **({"kind": kind} if kind else {})}
    response = review_and_save(client, client.post("/postings/new", data=data), changes or {})
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    return int(response.headers["Location"].rsplit("/", 1)[-1])


def test_an_empty_questions_heading_says_what_to_do_next(client, login, make_user, clock):
    login(make_user())
    posting_id = _import(client, EMPTY_HEADING)
    page = client.get(f"/postings/{posting_id}").get_data(as_text=True)
    assert 'id="no-questions"' in page and "No interview questions were found in this posting." in page
    assert 'href="/postings/new?kind=report"' in page and "Paste the interview report" in page
    report = client.get("/postings/new?kind=report").get_data(as_text=True)
    assert "Paste an interview report" in report and 'name="kind" value="report"' in report


def test_a_report_import_starts_as_a_report(client, login, make_user, clock):
    login(make_user())
    response = client.post("/postings/new", data={"text": EMPTY_HEADING, "kind": "report"})
    html = response.get_data(as_text=True)
    assert '<option selected value="report">' in html or 'value="report" selected' in html


def test_the_interview_date_can_be_set_on_import(client, login, make_user, clock):
    login(make_user())
    posting_id = _import(client, EMPTY_HEADING, {"interview_date": "2026-04-02"})
    assert db.session.get(Posting, posting_id).interview_date == date(2026, 4, 2)


def test_a_bad_interview_date_on_import_is_one_message_and_nothing_saved(client, login, make_user, clock):
    login(make_user())
    response = review_and_save(client, client.post("/postings/new", data={"text": EMPTY_HEADING}),
                               {"interview_date": "soon"})
    assert response.status_code == 400
    assert 'id="interview_date-error"' in response.get_data(as_text=True)
    assert db.session.query(Posting).count() == 0
