"""The editor's small frictions: the new-page template shows an editable ``slug:`` made from an
English or pinyin title; a page saved without key points warns (and ``prep content check`` names
it); the link page puts the explanation whose own ``questions:`` say the question first; and a page
written for a question replaces a weak automatic link, so candidates see the new page."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from prep.accounts.models import Role
from prep.content import editor
from prep.content.check import check_tree
from prep.content.cli import content_group
from prep.content.linker import Linker
from prep.content.lookup import explanations_for
from prep.content.models import Explanation
from prep.content.sync import link_question
from prep.extensions import db
from prep.questions.models import LinkOrigin, Question, QuestionExplanation, Source
from prep.questions.service import add_question
from prep.skills import load_taxonomy
from tests.support.pages import textarea_value

ROOT = Path(__file__).resolve().parents[2]

ZERO = """---
title: ZeRO 1/2/3 阶段与 FSDP
slug: zero-fsdp
tags: [ZeRO, FSDP, reduce-scatter, all-gather, 显存, 通信量]
questions:
  - ZeRO 的三个阶段分别切分了什么？
  - FSDP 每一步的通信量是多少？
lang: zh
key_points:
  - 阶段一切优化器状态，阶段二加梯度，阶段三加参数
  - 前向 all-gather 参数，反向 reduce-scatter 梯度
  - 通信量约为 AllReduce 的 1.5 倍
---
ZeRO-3 在前向时 all-gather 参数，反向时 reduce-scatter 梯度，每步通信量约为 AllReduce 的 1.5 倍。
ring allreduce 由 reduce-scatter 和 all-gather 组成。
"""

RING = """---
title: Ring AllReduce
slug: ring-allreduce
tags: [AllReduce, ring]
questions:
  - {question}
lang: zh
key_points:
  - 先 reduce-scatter 再 all-gather，各 N−1 步
  - 每个 rank 发送 2(N−1)/N × S 字节
  - 带宽最优，延迟随 N 线性增长
---
N 个 rank 成环，先 reduce-scatter 再 all-gather。
"""

RING_QUESTION = "ring allreduce 每个 rank 发多少数据"


@pytest.fixture
def instructor(make_user, login, client):
    user = make_user("teach@example.com", role=Role.instructor)
    login(user)
    return user


# --- the slug -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("title", "taken", "slug"), [
    ("Ring AllReduce", (), "ring-allreduce"),
    ("环形AllReduce的两个阶段", (), "huan-xing-allreduce-de-liang-ge-jie-duan"),
    ("C++ 智能指针", (), "cpp-zhi-neng-zhi-zhen"),
    ("Ring AllReduce", ("ring-allreduce", "ring-allreduce-2"), "ring-allreduce-3"),
    ("How does the NCCL ring algorithm split a large AllReduce into chunks across many ranks?", (),
     "how-does-the-nccl-ring-algorithm-split-a-large-allreduce"),  # cut between words
    ("🙂 ？", (), ""),
])
def test_a_slug_from_an_english_or_pinyin_title(title, taken, slug):
    assert editor.suggested_slug(title, taken) == slug
    assert len(slug) <= editor.SUGGESTED_SLUG_CHARS


def test_the_new_page_shows_a_slug_line_to_edit(client, instructor):
    db.session.add(Explanation(slug="huan-xing-allreduce-fen-wei-na-liang-ge-jie-duan", lang="en", title="x",
                               path="c/x.md", area="c"))
    question = add_question("环形AllReduce分为哪两个阶段？", source=Source.posting)
    db.session.commit()
    page = client.get(f"/explanations/new?question={question.id}").get_data(as_text=True)
    text = textarea_value(page, "text")
    assert text.splitlines()[2] == "slug: huan-xing-allreduce-fen-wei-na-liang-ge-jie-duan-2"  # a free one
    # A Chinese title over a slug that is used: the problem names the slug line, which the
    # instructor edits; then it saves.
    db.session.add(Explanation(slug="ring-allreduce", lang="zh", title="环形", path="c/ring-allreduce.zh.md", area="c"))
    db.session.commit()
    taken = text.replace("slug: huan-xing-allreduce-fen-wei-na-liang-ge-jie-duan-2", "slug: ring-allreduce")
    r = client.post("/explanations/new", data={"area": "collectives", "text": taken, "save": "1"})
    assert r.status_code == 400
    assert "Line 3: slug &#39;ring-allreduce&#39; is already used by c/ring-allreduce.zh.md" in r.get_data(as_text=True)
    r = client.post("/explanations/new", data={"area": "collectives", "save": "1",
                                               "text": taken.replace("slug: ring-allreduce", "slug: ring-allreduce-phases")})
    assert r.status_code == 302 and r.headers["Location"].startswith("/explanations/ring-allreduce-phases")


# --- key points -----------------------------------------------------------------------------------

def test_saving_without_key_points_warns_and_the_check_names_the_file(client, instructor, tmp_path):
    text = RING.format(question="环形 AllReduce 分几个阶段？").replace(
        "key_points:\n  - 先 reduce-scatter 再 all-gather，各 N−1 步\n  - 每个 rank 发送 2(N−1)/N × S 字节\n"
        "  - 带宽最优，延迟随 N 线性增长\n", "")
    assert "key_points" not in text
    preview = client.post("/explanations/preview", data={"text": text, "area": "collectives"}).get_json()
    assert preview["problems"] == [] and preview["warnings"] == [
        "Line 1: no key_points: add 3 to 6 short points a full answer must cover (the drill's checklist to grade "
        "an answer by)"]
    r = client.post("/explanations/new", data={"area": "collectives", "text": text, "save": "1"})
    assert r.status_code == 302  # saved, but not silently
    shown = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Saved. The explanation is live for candidates." in shown and "Check line 1: no key_points" in shown
    (tmp_path / "collectives").mkdir()
    (tmp_path / "collectives" / "ring-allreduce.zh.md").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(content_group, ["check", str(tmp_path)])
    assert result.exit_code == 1
    assert f"{(tmp_path / 'collectives' / 'ring-allreduce.zh.md').as_posix()}:1: missing key_points" in result.output


# --- links ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shipped_linker() -> Linker:
    taxonomy = load_taxonomy()
    return Linker(check_tree(ROOT / "content", taxonomy).all_docs, taxonomy)


def test_the_page_whose_questions_say_it_comes_first_and_alone(shipped_linker):
    """Real cases: the NCCL hang page lists "怎么用 py-spy 或 gdb 抓卡住进程的调用栈？"; a page on
    finding a busy thread's stack shares the words. Asked tersely, the other page scores higher;
    either way the page written for the question is the link, and the only one."""
    taxonomy = load_taxonomy()
    by_score = Linker(check_tree(ROOT / "content", taxonomy).all_docs, taxonomy, listed_likeness=2.0)
    for question in ("怎么用 py-spy 或 gdb", "怎么用 py-spy 或 gdb 抓调用栈"):
        assert "high-cpu-thread-stack" in [link.slug for link in by_score.rank(question)]
        links = shipped_linker.rank(question)
        assert [(link.slug, link.listed) for link in links] == [("nccl-hang-debugging", True)]
    assert by_score.rank("怎么用 py-spy 或 gdb")[0].slug == "high-cpu-thread-stack"


def _save(client, text: str):
    r = client.post("/explanations/new", data={"area": "collectives", "text": text, "save": "1"})
    assert r.status_code == 302, r.get_data(as_text=True)


def test_a_page_written_for_the_question_replaces_the_topic_links(client, instructor, shipped_content):
    """The reduction kernel's page is written (again) while a posting's question about block
    reduction is linked only to pages that share its words: saving the page relinks the question
    to it alone, and that is what candidates see."""
    for row in db.session.scalars(select(Explanation).where(Explanation.slug == "cuda-reduction-kernel")).all():
        db.session.delete(row)
    db.session.execute(QuestionExplanation.__table__.delete().where(QuestionExplanation.slug == "cuda-reduction-kernel"))
    question = add_question("说说 block 内归约(reduce)怎么实现", source=Source.posting)
    link_question(question)
    db.session.commit()
    before = [link.slug for link in question.accepted_links]
    assert before and "cuda-reduction-kernel" not in before and "sharp-nvls" in before
    html = client.get(f"/instructor/questions/{question.id}/links").get_data(as_text=True)
    assert 'data-slug="sharp-nvls"' in html and "data-listed" not in html

    page = (ROOT / "content" / "coding" / "cuda-reduction-kernel.zh.md").read_text(encoding="utf-8")
    r = client.post("/explanations/new", data={"area": "coding", "text": page, "save": "1"})
    assert r.status_code == 302, r.get_data(as_text=True)
    db.session.expire_all()
    question = db.session.get(Question, question.id)
    assert [link.slug for link in question.accepted_links] == ["cuda-reduction-kernel"]
    assert [e.slug for e in explanations_for(question, lang="zh")] == ["cuda-reduction-kernel"]  # candidates
    html = client.get(f"/instructor/questions/{question.id}/links").get_data(as_text=True)
    assert 'data-slug="cuda-reduction-kernel"' in html and "its page lists this question" in html
    assert 'data-slug="sharp-nvls"' not in html


def test_a_page_listing_the_question_word_for_word_drops_the_weak_link(app, client, instructor):
    _save(client, ZERO)
    question = add_question(RING_QUESTION, source=Source.posting)
    link_question(question)
    db.session.commit()
    assert [link.slug for link in question.accepted_links] == ["zero-fsdp"]
    _save(client, RING.format(question=RING_QUESTION))
    db.session.expire_all()
    question = db.session.scalar(select(Question).where(Question.id == question.id))
    assert [(link.slug, link.origin) for link in question.accepted_links] == [("ring-allreduce", LinkOrigin.content)]
    html = client.get(f"/instructor/questions/{question.id}/links").get_data(as_text=True)
    assert html.index('data-slug="ring-allreduce"') and 'data-slug="zero-fsdp"' not in html
