"""The shared bank's publication rule: a question candidates write reaches other accounts only
through an instructor's approval. Instructors see the questions candidates imported, most
accounts first (the count ranks the queue and never publishes); "Add to the bank" (wording
editable) publishes, "Keep out" refuses; a published question can be withdrawn (after a
confirmation page, with who/when/why) and restored. Candidates get 403."""
from __future__ import annotations

import re
from datetime import timedelta

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


def test_an_approved_wording_is_tagged_with_what_it_asks(app, client, make_user, instructor):
    outcome = import_posting(make_user("c@example.com"), _posting("Co"), FIXED_NOW)
    db.session.commit()
    [private] = outcome.new_questions
    assert {t.name for t in private.tags} == {"NCCL"}
    fixed = "Why does the RDMA progress thread need a CPU core of its own on a busy host?"
    assert client.post(f"/instructor/pending/{private.id}/approve", data={"text": fixed}).status_code == 302
    assert {t.name for t in find_public_question(fixed).tags} == {"RDMA"}


def test_keep_out_takes_it_out_of_the_queue(app, client, make_user, instructor):
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


# --- three accounts, approval, withdrawal (the publication rule) ------------------------------

EXPLANATION = """---
title: The NCCL proxy thread
skills: [NCCL]
---
Why the NCCL proxy thread needs its own CPU core: on busy hosts the proxy thread polls the network,
and a proxy thread sharing a CPU core with busy work stalls every NCCL transfer.
"""


@pytest.fixture
def explained(app):
    """An explanation the question links to (by the linker, as an import links it)."""
    from pathlib import Path

    from prep.content.sync import sync_tree

    root = Path(app.config["CONTENT_DIR"]) / "collectives"
    root.mkdir(parents=True, exist_ok=True)
    (root / "nccl-proxy.md").write_text(EXPLANATION, encoding="utf-8")
    sync_tree(root.parent)
    db.session.commit()
    return "nccl-proxy"


def _three_importers(make_user):
    importers = [make_user(f"importer{n}@example.com") for n in range(3)]
    outcomes = [import_posting(user, _posting(f"Spam{n}"), FIXED_NOW) for n, user in enumerate(importers)]
    db.session.commit()
    return importers, outcomes


def _likely_texts(user) -> list[str]:
    from prep.postings.service import likely_questions

    posting = import_posting(user, "Acme\nGPU Engineer\nRequirements\n- NCCL collectives, NCCL tuning\n",
                             FIXED_NOW).posting
    db.session.commit()
    return [q.text for q in likely_questions(posting)]


def _seen_by(client, slug: str) -> dict[str, bool]:
    """Whether the question shows on each page another account reads."""
    pages = {"bank": "/questions", "bank search": "/questions?q=proxy+thread", "search": "/search?q=proxy+thread",
             "explanation": f"/explanations/{slug}"}
    return {name: QUESTION in re.sub("</?mark>", "", client.get(url).get_data(as_text=True))
            for name, url in pages.items()}


def test_three_accounts_importing_a_question_do_not_publish_it(app, client, make_user, login, explained):
    importers, _ = _three_importers(make_user)
    import_posting(make_user("solo@example.com"), _posting("Solo", "What is the NCCL proxy's busy-poll loop for?"),
                   FIXED_NOW)
    db.session.commit()
    importer = login(importers[0], app.test_client())
    assert all(_seen_by(importer, explained).values())  # the importer's own copy, linked to the explanation
    other = make_user("other@example.com")
    assert _seen_by(login(other), explained) == dict.fromkeys(["bank", "bank search", "search", "explanation"], False)
    assert QUESTION not in _likely_texts(other)
    assert find_public_question(QUESTION) is None
    staff = login(make_user("teach@example.com", role=Role.instructor), app.test_client())
    html = staff.get("/instructor/pending").get_data(as_text=True)
    assert html.index(QUESTION) < html.index("busy-poll loop")  # ranked by importers, still waiting
    assert "Imported by 3 accounts" in html and "Imported by 1 account" in html


def test_approval_publishes_and_withdrawal_hides_with_history(app, client, make_user, login, explained, clock):
    from prep.postings.service import history, withdrawn_questions

    importers, outcomes = _three_importers(make_user)
    other = make_user("other@example.com")
    viewer = login(other)
    staff_user = make_user("teach@example.com", role=Role.instructor, display_name="Teacher Tao")
    staff = login(staff_user, app.test_client())
    private = outcomes[0].new_questions[0]
    assert staff.post(f"/instructor/pending/{private.id}/approve", data={"text": QUESTION}).status_code == 302
    assert all(_seen_by(viewer, explained).values())
    assert QUESTION in _likely_texts(other)
    public = find_public_question(QUESTION)
    assert public.owner_id is None and 'id="pending"' not in staff.get("/instructor/pending").get_data(as_text=True)

    confirm = staff.get(f"/questions/{public.id}")
    assert f"/instructor/questions/{public.id}/withdraw" in confirm.get_data(as_text=True)
    page = staff.get(f"/instructor/questions/{public.id}/withdraw").get_data(as_text=True)
    assert QUESTION in page and 'id="withdraw-form"' in page  # the confirmation step
    assert find_public_question(QUESTION).publication.value == "published"  # a GET withdraws nothing
    withdrawn_at = clock.shift(timedelta(hours=1))
    response = staff.post(f"/instructor/questions/{public.id}/withdraw", data={"reason": "Spam link <b>here</b>"})
    assert response.status_code == 302
    assert _seen_by(viewer, explained) == dict.fromkeys(["bank", "bank search", "search", "explanation"], False)
    assert viewer.get(f"/questions/{public.id}").status_code == 404
    assert viewer.post(f"/questions/{public.id}/study").status_code == 404
    assert QUESTION not in _likely_texts(other)
    owner = login(importers[0], app.test_client())
    assert _seen_by(owner, explained)["bank"]  # the owners keep their own copies (and cards)
    listed = staff.get("/instructor/withdrawn").get_data(as_text=True)
    assert QUESTION in listed and "Teacher Tao" in listed and "Spam link &lt;b&gt;here&lt;/b&gt;" in listed
    [row], _ = withdrawn_questions()
    assert (row.by, row.at, row.reason) == ("Teacher Tao", withdrawn_at, "Spam link <b>here</b>")
    assert 'id="pending"' not in staff.get("/instructor/pending").get_data(as_text=True)  # not back in the queue

    assert staff.post(f"/instructor/questions/{public.id}/restore").status_code == 302
    assert all(_seen_by(viewer, explained).values())
    assert 'id="withdrawn"' not in staff.get("/instructor/withdrawn").get_data(as_text=True)
    assert [(e.action, e.by) for e in history(public.id)] == [
        ("published", "Teacher Tao"), ("withdrawn", "Teacher Tao"), ("published", "Teacher Tao")]


def test_a_withdrawn_question_is_not_reused_by_a_new_import(app, make_user, instructor):
    from prep.postings.service import approve, withdraw

    outcome = _three_importers(make_user)[1][0]
    public = approve(outcome.new_questions[0], QUESTION, instructor.id, FIXED_NOW)
    withdraw(public, instructor.id, "spam", FIXED_NOW)
    db.session.commit()
    later = import_posting(make_user("later@example.com"), _posting("Later"), FIXED_NOW)
    db.session.commit()
    [own] = later.new_questions
    assert own.owner_id is not None and own.id != public.id


def test_withdraw_and_restore_are_for_instructors(app, client, make_user, login, make_question):
    question = make_question("What is a queue pair in RDMA?")
    login(make_user("c@example.com"))
    assert client.get(f"/instructor/questions/{question.id}/withdraw").status_code == 403
    assert client.post(f"/instructor/questions/{question.id}/withdraw", data={"reason": "x"}).status_code == 403
    assert client.post(f"/instructor/questions/{question.id}/restore").status_code == 403
    assert client.get("/instructor/withdrawn").status_code == 403
    db.session.refresh(question)
    assert question.publication.value == "published"


def test_a_too_long_reason_is_refused_next_to_the_field(app, client, make_user, login, make_question):
    question = make_question("What is a queue pair in RDMA?")
    login(make_user("teach@example.com", role=Role.instructor))
    response = client.post(f"/instructor/questions/{question.id}/withdraw", data={"reason": "x" * 501})
    assert response.status_code == 400 and 'class="error"' in response.get_data(as_text=True)
    db.session.refresh(question)
    assert question.publication.value == "published"
