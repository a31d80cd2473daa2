"""Explanations follow the UI locale (account setting, then the footer switcher, then
Accept-Language), falling back to the other language with a visible, translated note: on the
explanation page and in the drill's answer."""
from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from prep.drill.models import Card, CardState
from prep.extensions import db
from prep.questions.models import LinkOrigin, Question, QuestionExplanation, Source
from prep.content.models import Explanation

from tests.support.clock import FIXED_NOW

ZH = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}
EN = {"Accept-Language": "en-US,en;q=0.9"}
NOTE_EN = "This explanation is not available in your language yet; showing the English version."
NOTE_ZH = "此讲解暂无你所用语言的版本；现显示英文版。"


def _explanation(slug: str, lang: str, title: str, html: str) -> None:
    db.session.add(Explanation(slug=slug, lang=lang, title=title, html=html, path=f"{slug}.{lang}.md"))


@pytest.fixture
def content(app: Flask) -> None:
    _explanation("ring-allreduce", "en", "Ring AllReduce", "<p>Reduce-scatter, then all-gather.</p>")
    _explanation("ring-allreduce", "zh", "环形 AllReduce", "<p>先 reduce-scatter，再 all-gather。</p>")
    _explanation("rdma-verbs", "en", "RDMA verbs", "<p>Queue pairs and completion queues.</p>")
    db.session.commit()


def _page(client: FlaskClient, path: str, headers: dict[str, str]) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def test_explanation_page_follows_the_ui_locale(client, make_user, login, content) -> None:
    login(make_user())  # no language set: the browser decides
    both = _page(client, "/explanations/ring-allreduce", ZH)
    assert "环形 AllReduce" in both and "先 reduce-scatter" in both
    assert NOTE_ZH not in both and NOTE_EN not in both

    en_only = _page(client, "/explanations/rdma-verbs", ZH)
    assert "RDMA verbs" in en_only and NOTE_ZH in en_only and NOTE_EN not in en_only

    for slug, title in (("ring-allreduce", "Ring AllReduce"), ("rdma-verbs", "RDMA verbs")):
        page = _page(client, f"/explanations/{slug}", EN)
        assert title in page and NOTE_EN not in page and NOTE_ZH not in page
    assert "环形 AllReduce" not in _page(client, "/explanations/ring-allreduce", EN)
    # An explicit ?lang= (the "Also in" links) shows that version, without a note.
    chosen = _page(client, "/explanations/ring-allreduce?lang=en", ZH)
    assert "Ring AllReduce" in chosen and NOTE_ZH not in chosen


def test_account_setting_and_switcher_win_over_the_browser(client, make_user, login, content) -> None:
    user = make_user(language="zh")
    login(user)
    assert "环形 AllReduce" in _page(client, "/explanations/ring-allreduce", EN)
    assert NOTE_ZH in _page(client, "/explanations/rdma-verbs", EN)
    user.language = None
    db.session.commit()
    client.post("/language", data={"lang": "zh", "next": "/dashboard"}, headers=EN)
    db.session.refresh(user)
    user.language = None  # keep the switcher alone deciding (the switcher also saves it on the account)
    db.session.commit()
    assert "环形 AllReduce" in _page(client, "/explanations/ring-allreduce", EN)


@pytest.fixture
def linked_card(app: Flask, make_user, content):
    user = make_user()
    both = Question(text="Explain ring AllReduce", norm="ring allreduce", source=Source.content)
    en_only = Question(text="What are RDMA verbs?", norm="rdma verbs", source=Source.content)
    db.session.add_all([both, en_only])
    db.session.flush()
    both.links.append(QuestionExplanation(slug="ring-allreduce", score=1.0, origin=LinkOrigin.content))
    en_only.links.append(QuestionExplanation(slug="rdma-verbs", score=1.0, origin=LinkOrigin.content))
    cards = {}
    for key, q in (("both", both), ("en_only", en_only)):
        card = Card(user_id=user.id, question_id=q.id, state=CardState.new,
                    due=FIXED_NOW - timedelta(days=1), added_at=FIXED_NOW - timedelta(days=1))
        db.session.add(card)
        db.session.flush()
        cards[key] = card.id
    db.session.commit()
    return user, cards


def test_drill_answer_follows_the_ui_locale(client, login, linked_card) -> None:
    user, cards = linked_card
    login(user)
    zh_both = _page(client, f"/drill?card={cards['both']}&show=1", ZH)
    assert "环形 AllReduce" in zh_both and NOTE_ZH not in zh_both
    zh_fallback = _page(client, f"/drill?card={cards['en_only']}&show=1", ZH)
    assert "RDMA verbs" in zh_fallback and NOTE_ZH in zh_fallback
    en_both = _page(client, f"/drill?card={cards['both']}&show=1", EN)
    assert "Ring AllReduce" in en_both and "环形" not in en_both and NOTE_EN not in en_both
    en_only = _page(client, f"/drill?card={cards['en_only']}&show=1", EN)
    assert "RDMA verbs" in en_only and NOTE_EN not in en_only
