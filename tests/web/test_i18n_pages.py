"""The posting, statistics, optimise and export pages (and their flash messages) in Chinese."""
from __future__ import annotations

import io
import re

from sqlalchemy import select

from prep.drill import rating
from prep.drill.models import Card
from prep.extensions import db
from prep.postings.service import import_posting

ZH = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}
POSTING = ("Acme GPU\nGPU 通信工程师\n职位详情\n负责 NCCL 优化。\n面试指南\n"
           "- 请解释Ring AllReduce的两个阶段\n- RDMA与TCP/IP相比有何优势？\n")


def _studied_posting(client, user, clock):
    """A posting whose two questions are studied, one of them reviewed twice (readiness counts a
    question once it was recalled at least twice)."""
    posting = import_posting(user, POSTING, clock.now).posting
    db.session.commit()
    r = client.post(f"/postings/{posting.id}/study", follow_redirects=True)
    card = db.session.scalars(select(Card).where(Card.user_id == user.id)).first()
    rating.rate(user, rating.Answer(card.id, card.version, 4), clock.now)
    db.session.commit()
    db.session.refresh(card)
    rating.rate(user, rating.Answer(card.id, card.version, 4), clock.now)  # again at once (as cram-style re-study would)
    db.session.commit()
    return posting, r.get_data(as_text=True)


def test_posting_page_in_chinese(client, make_user, login, clock):
    user = make_user(language="zh")
    login(user)
    posting, flashed = _studied_posting(client, user, clock)
    assert "已将这个职位的 2 道题目添加到你的学习。" in flashed
    page = client.get(f"/postings/{posting.id}").get_data(as_text=True)
    for text in ("这个职位列出的题目", "全部已在你的学习中", "导入于", "准备程度", "1 道尚未复习。", "面试日期", "保存日期",
                 "导入时的职位原文", "删除职位"):
        assert text in page, text
    assert "1 个职位问过（Acme GPU）" in re.sub(r"<[^>]+>", "", page)  # the company's name links to its page
    assert "<strong>50%</strong> 已就绪" in page
    assert "Asked in this posting" not in page and "Readiness" not in page
    r = client.post(f"/postings/{posting.id}/interview", data={"interview_date": "not a date"}, follow_redirects=True)
    assert "请按 YYYY-MM-DD 格式输入日期。" in r.get_data(as_text=True)


def test_posting_page_stays_english_for_english_users(client, make_user, login, clock):
    user = make_user()
    login(user)
    posting, flashed = _studied_posting(client, user, clock)
    assert "Added 2 questions from this posting to your study." in flashed
    page = client.get(f"/postings/{posting.id}").get_data(as_text=True)
    assert "Asked in this posting" in page and "1 of 2" in page and "这个职位列出的题目" not in page


def test_stats_and_optimise_pages_in_chinese(client, make_user, login, clock):
    user = make_user()
    login(user)
    _studied_posting(client, user, clock)
    stats = client.get("/stats", headers=ZH).get_data(as_text=True)
    for text in ("<h1>统计</h1>", "每日复习次数", "未来 30 天到期", "每周真实记忆保持率", "各状态卡片数",
                 "每日学习时长", "顽固卡片", "优化我的排程", "导出或导入我的数据", "以表格查看预测"):
        assert text in stats, text
    assert re.search(r">\d{1,2}月\d{1,2}日</text>", stats)  # axis labels in Chinese date order
    assert "Reviews per day" not in stats and "Dec</text>" not in stats
    english = client.get("/stats").get_data(as_text=True)
    assert "Reviews per day" in english and re.search(r">\d\d [A-Z][a-z]{2}</text>", english)

    optimise = client.get("/stats/optimize", headers=ZH).get_data(as_text=True)
    assert "<h1>优化我的排程</h1>" in optimise and "你正在使用 FSRS 默认参数。" in optimise
    assert "优化至少需要" in optimise and "Optimising needs" not in optimise
    r = client.post("/stats/optimize/rollback", headers=ZH, follow_redirects=True)
    assert "没有可以回滚的优化。" in r.get_data(as_text=True)


def test_export_page_and_import_flash_in_chinese(app, make_user, login, clock):
    a = app.test_client()
    owner = make_user()
    login(owner, a)
    _studied_posting(a, owner, clock)
    data = a.get("/export/prep-export.json").data

    b = app.test_client()
    newcomer = make_user(language="zh")
    login(newcomer, b)
    page = b.get("/export").get_data(as_text=True)
    assert "你的数据" in page and "Your data" not in page
    r = b.post("/export/import", data={"file": (io.BytesIO(data), "prep-export.json")}, follow_redirects=True)
    text = r.get_data(as_text=True)
    assert "已导入 2 张卡片，含复习 2 次。" in text, text[-2000:]
