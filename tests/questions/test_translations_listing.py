"""The bank and the search list a question once, whatever number of wordings it has: the
wording in the reader's language when there is one (translations are one
question to a candidate)."""
from __future__ import annotations

import pytest

from prep.drill.cards import add_to_study
from prep.extensions import db
from prep.questions import translations
from prep.search.service import search
from tests.support.clock import FIXED_NOW

EN = "What does an RDMA queue pair consist of?"
ZH = "RDMA 的队列对（QP）由哪几部分组成？"
LONE = "What is GPUDirect RDMA?"


@pytest.fixture
def linked(make_question):
    en, zh = make_question(EN, lang="en"), make_question(ZH, lang="zh")
    lone = make_question(LONE, lang="en")
    translations.link(en, zh)
    db.session.commit()
    return en, zh, lone


@pytest.mark.parametrize(("language", "shown", "hidden"), [("en", EN, ZH), ("zh", ZH, EN)])
def test_the_bank_lists_one_wording_in_the_readers_language(client, login, make_user, linked,
                                                            language, shown, hidden):
    user = make_user(language=language)
    add_to_study(user, [linked[0].id], FIXED_NOW)
    db.session.commit()
    login(user)
    page = client.get("/questions").get_data(as_text=True)
    assert shown in page and hidden not in page
    assert LONE in page  # a question without translations is listed as before
    # The card is on the English wording; the listed wording says it is in study either way.
    assert page.count({"en": "in study", "zh": "已在学习中"}[language]) == 1


def test_the_bank_search_finds_the_other_wording_when_only_it_matches(client, login, make_user, linked):
    login(make_user(language="zh"))
    page = client.get("/questions?q=consist").get_data(as_text=True)
    assert EN in page and ZH not in page  # the English words match only the English wording
    page = client.get("/questions?q=RDMA").get_data(as_text=True)
    assert ZH in page and EN not in page and LONE in page  # both match: the reader's wording, once


def test_an_unlinked_pair_is_still_two_questions(client, login, make_user, make_question):
    make_question(EN, lang="en"), make_question(ZH, lang="zh")
    login(make_user(language="en"))
    page = client.get("/questions").get_data(as_text=True)
    assert EN in page and ZH in page


@pytest.mark.parametrize(("language", "shown", "hidden"), [("en", EN, ZH), ("zh", ZH, EN)])
def test_search_lists_one_wording(app, make_user, linked, language, shown, hidden):
    user = make_user(language=language)
    results = search(user.id, "RDMA", language=language)
    texts = [q.text for g in results.page.groups for q in g.questions]
    assert texts.count(shown) == 1 and hidden not in texts and LONE in texts
    assert results.page.total_questions == 2
    only_en = [q.text for g in search(user.id, "consist", language=language).page.groups for q in g.questions]
    assert only_en == [EN]
