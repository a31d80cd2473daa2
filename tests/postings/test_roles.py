"""A candidate with no posting starts from a target role: a posting named after the role, whose
page proposes the bank's likely questions (each with its explanation)."""
from __future__ import annotations


import pytest
from sqlalchemy import func, select

from prep.extensions import db
from prep.postings.models import Posting
from prep.postings.service import role_choices
from tests.support.htmlforms import read_form




@pytest.fixture
def content_app(app, runner, shipped_content):
    assert runner.invoke(args=["init"]).exit_code == 0  # the sample postings (the content is there already)
    return app


def test_every_shipped_role_is_offered(content_app, client, make_user, login):
    login(make_user("r@example.com"))
    html = client.get("/postings/new").get_data(as_text=True)
    roles = role_choices()
    assert len(roles) >= 5
    for slug, title in roles:
        assert f'value="{slug}"' in html and title in html


def test_starting_from_a_role_gives_likely_questions(content_app, client, make_user, login):
    user = make_user("role@example.com")
    login(user)
    action, data = read_form(client.get("/postings/new").get_data(as_text=True), "role-form")
    data["role"] = "gpu-communication"
    response = client.post(action, data=data)
    assert response.status_code == 302 and response.headers["Location"].endswith("#likely")
    page = client.get(response.headers["Location"].split("#")[0]).get_data(as_text=True)
    assert "GPU communication engineer" in page
    assert page.count('class="likely-question"') >= 8
    posting = db.session.scalar(select(Posting).where(Posting.user_id == user.id))
    assert posting.company is None and posting.questions == []
    # The same role again goes to the same posting.
    again = client.post(action, data=data)
    assert again.headers["Location"] == response.headers["Location"]
    assert db.session.scalar(select(func.count(Posting.id)).where(Posting.user_id == user.id)) == 1


@pytest.mark.parametrize("role", ["../etc/passwd", "nope", "", "gpu-communication\n"])
def test_an_unknown_role_is_a_form_error(content_app, client, make_user, login, role):
    login(make_user("bad@example.com"))
    response = client.post("/postings/from-role", data={"role": role})
    assert response.status_code == 400 and 'id="role-error"' in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count(Posting.id)).where(Posting.user_id.is_not(None))) == 0
