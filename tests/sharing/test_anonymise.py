"""The anonymiser: what others read of a shared report (Chinese and English)."""
from __future__ import annotations

import time
from datetime import date

import pytest

from prep.sharing.anonymise import anonymise, month_of


@pytest.mark.parametrize(("text", "expected", "found"), [
    # Chinese: names by title and by cue, WeChat, QQ, phones, e-mail, links, dates.
    ("面试官王老师人很好", "面试官〔姓名〕老师人很好", {"name": 1}),
    ("二面是李总面的", "二面是〔姓名〕总面的", {"name": 1}),
    ("本文为博主「运维小陈同学」的原创", "本文为博主「运维小〔姓名〕同学」的原创", {"name": 1}),
    ("我叫李明，本科双非。", "我叫〔姓名〕，本科双非。", {"name": 1}),
    ("HR 小张约的面试", "HR 〔姓名〕约的面试", {"name": 1}),
    ("内推人：刘洋。", "内推人：〔姓名〕。", {"name": 1}),
    ("面试官老王问了RDMA", "面试官〔姓名〕问了RDMA", {"name": 1}),
    ("加我微信：zhang_san88 交流", "加我微信：〔微信号〕 交流", {"wechat": 1}),
    ("vx: abc12345", "vx: [WeChat id]", {"wechat": 1}),
    ("联系@zhangsan_01", "联系〔账号〕", {"handle": 1}),
    ("QQ 12345678，扣扣：87654321", "QQ 〔QQ号〕，扣扣：〔QQ号〕", {"qq": 2}),
    ("电话 138 1234 5678。", "电话 〔电话〕。", {"phone": 1}),
    ("手机+86-13812345678", "手机〔电话〕", {"phone": 1}),
    ("座机 010-12345678", "座机 〔电话〕", {"phone": 1}),
    ("邮箱 zs@qq.com。", "邮箱 〔邮箱〕。", {"email": 1}),
    ("主页 https://github.com/zhangsan 欢迎", "主页 〔个人链接〕 欢迎", {"link": 1}),
    ("知乎 zhihu.com/people/abc-12", "知乎 〔个人链接〕", {"link": 1}),
    ("2024年3月15日一面，3月20号二面", "2024年3月一面，3月二面", {}),
    # English.
    ("My interviewer was John Smith, a senior engineer.", "My interviewer was [name], a senior engineer.", {"name": 1}),
    ("Then a call with Dr. Lee.", "Then a call with Dr. [name].", {"name": 1}),
    ("Recruiter: Jane, from the GPU team.", "Recruiter: [name], from the GPU team.", {"name": 1}),
    ("The recruiter was Jane and she asked about my visa.", "The recruiter was [name] and she asked about my visa.",
     {"name": 1}),
    ("Interviewer: Wei Zhang\nMe: hello", "Interviewer: [name]\nMe: hello", {"name": 1}),
    ("Call +1 (415) 555-0134 or +44 20 7946 0958.", "Call [phone] or [phone].", {"phone": 2}),
    ("Or 415-555-0134.", "Or [phone].", {"phone": 1}),
    ("Mail me: jane.doe@example.co.uk", "Mail me: [email]", {"email": 1}),
    ("From: Dana Whitfield <dana.w@example.com>", "From: [name] <[email]>", {"name": 1, "email": 1}),
    ("linkedin.com/in/jane-doe and @janedoe", "[personal link] and [handle]", {"link": 1, "handle": 1}),
    ("Onsite on March 15, 2024, phone screen 2024-02-28, offer 3rd of April.",
     "Onsite on March 2024, phone screen 2024-02, offer April.", {}),
])
def test_replaces_what_says_who_people_are(text, expected, found):
    result = anonymise(text)
    assert result.text == expected
    assert result.found == found


@pytest.mark.parametrize("text", [
    # Words that look like names or ids, and are not.
    "和同学一起准备，高工资，施工队，王总结了一下，面试官是个小姐姐",
    "The interviewer: Asked about NCCL. wxWidgets is a library. I'm Looking for work.",
    "See leetcode.com/problems/two-sum and https://docs.nvidia.com/cuda/ for details.",
    "Ring AllReduce moves 2(N-1)/N of the data; tested on 8 GPUs in 2024.",
    "HR 小姐姐人很好，面试官人也很好。",
    "本章汇总 AI 基础设施领域的面试题",  # 章 is a surname, 汇总 is not a name
    "猎头顾问推荐的岗位，和同学一起面的",
    "Interviewer: Callback is one way to do it.\nInterviewer: Why?",  # a transcript's lines
])
def test_leaves_other_text_alone(text):
    assert anonymise(text).text == text


def test_placeholders_follow_the_text_or_the_language_asked_for():
    assert anonymise("Call 138 1234 5678").text == "Call [phone]"
    assert anonymise("Call 138 1234 5678", lang="zh").text == "Call 〔电话〕"


def test_the_interview_date_keeps_its_month():
    assert month_of(date(2024, 3, 15)) == "2024-03"
    assert month_of(None) is None


@pytest.mark.parametrize("unit", ["a" * 50 + "@", "1" * 60 + " ", "面试官" + "王" * 40, "Interviewer " + "Ab " * 30,
                                  "+1 " + "12 " * 40, "微信 " + "a" * 40 + " "])
def test_linear_in_the_text(unit):
    """Adversarial repeats take time in proportion to their length (no backtracking blow-up)."""
    def seconds(n: int) -> float:
        text = unit * n
        start = time.process_time()
        anonymise(text)
        return time.process_time() - start
    small, large = seconds(200), seconds(1600)
    assert large < max(small, 0.002) * 8 * 3, (small, large)
