"""The shared bank's review queue (issue 19 item 6): instructors see the questions candidates
imported privately, most accounts first; "Add to the bank" (wording editable) makes a public
question, "Keep out" stops the account threshold from admitting it. Candidates get 403."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from prep.accounts.models import Role
from prep.extensions import db
from prep.postings.service import import_posting
from prep.questions.service import find_public_question
from tests.support.clock import FIXED_NOW

QUESTION = "Why does the NCCL proxy thread need its own CPU core on busy hosts?"


def _posting(company: str, question: str = QUESTION) -> str:
    return f"{company}\nEngineer\nInterview questions\n1. {question}\n"


@pytest.fixture
def instructor(app, make_user, login, client):
    user = make_user("teach@example.com", role=Role.instructor)
    login(user)
    return user


def test_pending_questions_listed_most_accounts_first(app, client, make_user, instructor):
    for n in range(2):
        import_posting(make_user(f"c{n}@example.com"), _posting(f"Co{n}"), FIXED_NOW)
    import_posting(make_user("solo@example.com"), _posting("Solo", "What is the NCCL proxy's busy-poll loop for?"),
                   FIXED_NOW)
    db.session.commit()
    html = client.get("/instructor/pending").get_data(as_text=True)
    assert html.index(QUESTION) < html.index("busy-poll loop")
    assert "Imported by 2 accounts" in html and "Imported by 1 account" in html


def test_approve_with_edited_wording_makes_a_public_question(app, client, make_user, instructor):
    outcome = import_posting(make_user("c@example.com"), _posting("Co"), FIXED_NOW)
    db.session.commit()
    [private] = outcome.new_questions
    fixed = "Why does the NCCL proxy thread need a CPU core of its own on a busy host?"
    response = client.post(f"/instructor/pending/{private.id}/approve", data={"text": fixed})
    assert response.status_code == 302
    public = find_public_question(fixed)
    assert public is not None and public.owner_id is None
    assert 'id="pending"' not in client.get("/instructor/pending").get_data(as_text=True)  # nothing waits


def test_keep_out_stops_the_threshold(app, client, make_user, instructor):
    first = import_posting(make_user("a@example.com"), _posting("A"), FIXED_NOW)
    db.session.commit()
    assert client.post(f"/instructor/pending/{first.new_questions[0].id}/reject").status_code == 302
    for name in ("b", "c", "d"):
        import_posting(make_user(f"{name}@example.com"), _posting(name.upper()), FIXED_NOW)
    db.session.commit()
    assert find_public_question(QUESTION) is None
    assert 'id="pending"' not in client.get("/instructor/pending").get_data(as_text=True)


def test_candidates_cannot_review_and_public_ids_are_404(app, client, make_user, login):
    outcome = import_posting(make_user("c@example.com"), _posting("Co"), FIXED_NOW)
    db.session.commit()
    login(make_user("other@example.com"))
    assert client.get("/instructor/pending").status_code == 403
    assert client.post(f"/instructor/pending/{outcome.new_questions[0].id}/approve").status_code == 403
    staff = login(make_user("teach2@example.com", role=Role.instructor), app.test_client())
    assert staff.post("/instructor/pending/99999/approve").status_code == 404


def test_the_forms_need_csrf(csrf_app, make_user):
    from tests.support.app import PASSWORD
    from tests.support.pages import csrf_token_from

    outcome = import_posting(make_user("c@example.com"), _posting("Co"), FIXED_NOW)
    db.session.commit()
    staff = make_user("staff@example.com", role=Role.instructor)
    client = csrf_app.test_client()
    token = csrf_token_from(client.get("/login").get_data(as_text=True))
    client.post("/login", data={"email": staff.email, "password": PASSWORD, "csrf_token": token})
    assert client.post(f"/instructor/pending/{outcome.new_questions[0].id}/approve").status_code == 400
    assert find_public_question(QUESTION) is None
