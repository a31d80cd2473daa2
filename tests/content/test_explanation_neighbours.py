"""An explanation page lists the questions it answers (only those the reader may see, not rejected
links, their language first) and up to five related explanations (front matter first, then shared
skills), in both languages."""
from __future__ import annotations

import pytest
from flask import Flask

from prep.content.models import Explanation
from prep.extensions import db
from prep.questions.models import LinkOrigin, QuestionExplanation, Source
from prep.questions.service import add_question

ZH = {"Accept-Language": "zh-CN,zh;q=0.9"}


def _explanation(slug: str, lang: str, title: str, *, skills=(), related=()) -> None:
    db.session.add(Explanation(slug=slug, lang=lang, title=title, html="<p>text</p>", path=f"{slug}.{lang}.md",
                               skills=list(skills), related=list(related)))


def _link(question, slug: str, score: float = 1.0, rejected: bool = False) -> None:
    question.links.append(QuestionExplanation(slug=slug, score=score, origin=LinkOrigin.auto, rejected=rejected))


@pytest.fixture
def world(app: Flask, make_user):
    reader, other = make_user("reader@example.com"), make_user("other@example.com")
    _explanation("ring", "en", "Ring all-reduce", skills=["NCCL", "Collectives"], related=["tree", "gone"])
    _explanation("ring", "zh", "环形全归约", skills=["NCCL", "Collectives"], related=["tree"])
    _explanation("tree", "en", "Tree all-reduce", skills=["NCCL"])
    _explanation("tree", "zh", "树形全归约", skills=["NCCL"])
    for i in range(6):
        _explanation(f"nccl-{i}", "en", f"NCCL topic {i}", skills=["NCCL", "Collectives"] if i < 2 else ["NCCL"])
    _explanation("cuda", "en", "CUDA streams", skills=["CUDA"])
    public = add_question("How does ring all-reduce work?", source=Source.content, lang="en")
    chinese = add_question("环形全归约的两个阶段是什么？", source=Source.posting, lang="zh")
    mine = add_question("My own ring question?", source=Source.user, owner_id=reader.id)
    secret = add_question("Someone else's ring question?", source=Source.user, owner_id=other.id)
    wrong = add_question("A question wrongly linked to ring?", source=Source.posting)
    for question in (public, chinese, mine, secret):
        _link(question, "ring")
    _link(wrong, "ring", rejected=True)
    db.session.commit()
    return reader


def test_the_page_lists_the_questions_it_answers_and_related_pages(client, login, world) -> None:
    login(world)
    html = client.get("/explanations/ring").get_data(as_text=True)
    assert "Questions this explanation answers" in html
    assert "How does ring all-reduce work?" in html and "My own ring question?" in html
    assert "环形全归约的两个阶段是什么？" in html
    assert "Someone else&#39;s ring question?" not in html and "Someone else's" not in html  # private to another
    assert "wrongly linked" not in html  # a rejected link
    assert html.index("How does ring all-reduce work?") < html.index("环形全归约的两个阶段是什么？")  # reader's language first
    related = html[html.index("Related explanations"):]
    titles = [t for t in ["Tree all-reduce", "NCCL topic 0", "NCCL topic 1", "NCCL topic 2", "NCCL topic 3",
                          "NCCL topic 4", "CUDA streams"] if t in related]
    assert titles[0] == "Tree all-reduce"                        # named in the front matter first
    assert titles[1:3] == ["NCCL topic 0", "NCCL topic 1"]       # then the most shared skills
    assert len(titles) == 5 and "CUDA streams" not in titles     # at most five; nothing in common: not listed


def test_in_chinese_the_chinese_versions_come_first(client, login, world) -> None:
    login(world)
    html = client.get("/explanations/ring", headers=ZH).get_data(as_text=True)
    assert "这篇讲解回答的问题" in html and "相关讲解" in html and "树形全归约" in html
    assert html.index("环形全归约的两个阶段是什么？") < html.index("How does ring all-reduce work?")
