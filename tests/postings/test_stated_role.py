"""The role an interview report names in its own sentences, and the post metadata that is not
the start of its comments."""
from __future__ import annotations

import pytest

from prep.postings.extract import extract_posting
from prep.postings.htmltext import html_to_text
from prep.postings.identity import looks_like_role
from prep.postings.names import starts_with_place
from prep.postings.stated_role import interviewed_at, review_heading_role, stated_role, without_level

STATED = [
    ("这次面的是某厂的 SRE 岗，JD 上写的是「稳定性保障工程师」。", "稳定性保障工程师"),
    ("最近面了某公司的「AI Infra 工程师（训练集群方向）」，在等结果。", "AI Infra 工程师（训练集群方向）"),
    ("投的是训练框架组，岗位名是“分布式通信研发工程师”，base 上海。", "分布式通信研发工程师"),
    ("Applied through referral for Senior Software Engineer - Networking, Austin, TX (hybrid).",
     "Senior Software Engineer - Networking"),
    ("Went through the loop for Staff Engineer, Inference Runtime at Acme (remote) last month.",
     "Staff Engineer, Inference Runtime"),
    ("They had an opening for **Senior Engineer, Cluster Scheduling**, so I applied.",
     "Senior Engineer, Cluster Scheduling"),
    ("I interviewed for the Production Engineer role in March.", "Production Engineer"),
    ("Applied through referral for Senior Software Engineer - Collective Communication Libraries, Santa Clara "
     "(remote ok)", "Senior Software Engineer - Collective Communication Libraries"),
    ("Interviewed for Senior Software Engineer, Communication Libraries, Sunnyvale last month.",
     "Senior Software Engineer, Communication Libraries"),
]
NOT_STATED = [
    "我面的是「一面」和「二面」，题目如下。",  # quoted, but not a job
    "Applied for it on a whim. Heard back in a week.",
    "Thanks for reading! Good luck to everyone interviewing for jobs this season.",
    "“为什么选择我们？”是 HR 面必问的。",
]


@pytest.mark.parametrize(("line", "role"), STATED)
def test_a_role_the_report_names_is_found(line: str, role: str) -> None:
    assert stated_role([line], looks_like_role, starts_with_place) == role


@pytest.mark.parametrize("line", NOT_STATED)
def test_no_role_is_made_up(line: str) -> None:
    assert stated_role([line], looks_like_role, starts_with_place) is None


def test_review_heading_and_interviewed_at() -> None:
    lines = ["Acme Cloud", "Acme Cloud Site Reliability Engineer II Interview", "I interviewed at Acme Cloud (Remote)"]
    assert interviewed_at(lines) == "Acme Cloud"
    assert review_heading_role(lines, "Acme Cloud", looks_like_role) == "Site Reliability Engineer II"
    assert review_heading_role(lines, None, looks_like_role) is None
    assert without_level("E5 Production Engineer") == "Production Engineer"
    assert without_level("Engineer E5") == "Engineer E5"


def test_a_comment_count_under_the_title_does_not_hide_the_report() -> None:
    text = ("Forum\nAcme - Senior SWE, Storage - full loop, got the offer\nOct 3 · 2.1K views · 31 comments\n"
            "Applied online for Senior Software Engineer, Storage Systems, Berlin.\n\nRound 1\n"
            "- How does RDMA differ from TCP?\n- Implement an LRU cache\n\n31 comments\nSort by: Top\n"
            "- anyone know the comp range? how many rounds?\n")
    result = extract_posting(text)
    assert result.title == "Senior Software Engineer, Storage Systems"
    texts = [q.text for q in result.questions]
    assert "How does RDMA differ from TCP?" in texts
    assert not any("comp range" in t for t in texts)  # the real comments still are noise


def test_bracket_labels_and_short_names() -> None:
    text = "【岗位】分布式训练框架工程师（资深）\n【公司】衡远智能\n【地点】上海\n\n岗位职责：\n1. 负责 NCCL 通信优化\n"
    result = extract_posting(text)
    assert (result.company, result.title) == ("衡远智能", "分布式训练框架工程师（资深）")
    report = extract_posting("字节 AML 训练框架 一面面经\n\n一面\n1. 讲一下 ring allreduce\n")
    assert report.company == "字节跳动"


def test_the_title_under_a_boards_navigation_bar() -> None:
    text = ("某聘  首页  职位  公司  登录/注册  下载APP\n\n通信库研发工程师（NCCL 方向）\n40-70k·15薪\n"
            "北京-海淀区 | 3-5年 | 本科\n\n岗位职责：\n1. 负责集合通信库的开发与优化\n")
    assert extract_posting(text).title == "通信库研发工程师（NCCL 方向）"


def test_a_report_whose_rounds_mention_later_rounds_is_still_a_report() -> None:
    text = ("某书\n搜索 某厂 训练框架 面经\n📍 某厂训练框架实习｜三面速通\n\n————一面（60min）————\n"
            "先自我介绍\n1. ring allreduce 的通信量推导一下\n2. 手撕：LRU 缓存\n\n————二面————\n二面明显压力大了\n"
            "· 讲一下 DDP 的 bucket 机制\n面完感觉凉了一半 结果第二天约三面了\n\n————三面————\n"
            "- 如何定位千卡训练中的慢卡\n最后问了到岗时间\n")
    result = extract_posting(text)
    assert result.doc_kind == "report"
    assert {q.round for q in result.questions} >= {"一面", "二面"}


def test_company_remarks_and_level_notes_are_not_part_of_the_name() -> None:
    posting = extract_posting("【公司】衡远智能（大模型独角兽，C 轮，具体见面聊）\n【岗位】训练框架工程师\n\n岗位职责：\n1. 优化 NCCL\n")
    assert posting.company == "衡远智能"
    report = extract_posting("Company: Acme\nRole: Production Engineer, Networking (E4)\n\nRound 1\n- Explain ECMP\n")
    assert report.title == "Production Engineer, Networking"


def test_code_in_a_report_is_never_a_question() -> None:
    text = ("Phone screen\nThey asked me to implement top-k over a stream with O(k) memory.\n```cpp\n"
            "std::priority_queue<std::pair<float,int>,\n    std::vector<int>> heap;\nheap.emplace(x, i);\n```\n"
            "- How would you make it work for many streams?\n")
    html = ("<html><body><h2>一面</h2><ol><li>手撕：写一个 softmax 的 CUDA kernel</li></ol><pre><code>"
            "__global__ void softmax_row(const float* x, float* y, int n) {\n  extern __shared__ float buf[];\n"
            "  buf[threadIdx.x] = m;\n}</code></pre><ol><li>FP8 和 INT8 量化有什么区别？</li></ol></body></html>")
    for document in (text, html_to_text(html)):
        texts = [q.text for q in extract_posting(document).questions]
        assert texts and not any(mark in t for t in texts for mark in ("heap", "__", "buf[", "std::"))
    assert "FP8 和 INT8 量化有什么区别？" in [q.text for q in extract_posting(html_to_text(html)).questions]


def test_a_note_under_a_sample_question_is_not_a_new_section() -> None:
    text = ("Sample interview questions\nHow would you implement AllGather on top of send/recv?\n"
            "What we're looking for: a clear algorithm and honest arithmetic.\n"
            "When does a tree algorithm beat a ring for AllReduce?\n"
            "What we're looking for: message size, node count and latency.\n")
    texts = [q.text for q in extract_posting(text).questions]
    assert texts == ["How would you implement AllGather on top of send/recv?",
                     "When does a tree algorithm beat a ring for AllReduce?"]


def test_ordinal_rounds_follow_up_labels_and_my_answers() -> None:
    text = ("Role: Senior Software Engineer, Networking\n\n1st: Networking fundamentals\n"
            "Q: How does credit-based flow control differ from PFC?\nMe: credits are per virtual lane.\n"
            "面试官追问：这样每一步发多少数据？\n\n2nd: Coding\nQ: Write a function that returns one shortest path.\n"
            "Me: did it in Python.\n")
    result = extract_posting(text)
    assert result.doc_kind == "report"
    found = {q.text: q.round for q in result.questions}
    assert found == {  # the 追问 after the candidate's answer, on a line of its own: a question of its own
        "How does credit-based flow control differ from PFC?": "1st", "这样每一步发多少数据？": "1st",
        "Write a function that returns one shortest path.": "2nd"}


def test_a_plain_heading_then_an_introducing_sentence_then_the_list() -> None:
    text = ("You might be a fit if\n• you have shipped an inference service\n• you can read a profile\n"
            "Things we like to discuss\nWe don't do trivia, so think about these beforehand:\n"
            " • How would you split a 70B model across 8 GPUs for serving?\n"
            " • Design a request router that keeps the prefix-cache hit rate high\n")
    texts = [q.text for q in extract_posting(text).questions]
    assert texts == ["How would you split a 70B model across 8 GPUs for serving?",
                     "Design a request router that keeps the prefix-cache hit rate high"]


def test_a_place_is_a_city_the_header_rules_know_or_city_and_state() -> None:
    for part in ("Santa Clara (remote ok)", "Santa Clara", "Austin, TX", "Remote", "Tel Aviv", "Cambridge"):
        assert starts_with_place(part), part
    for part in ("Communication Libraries", "Inference Runtime", "Santa", "Sandbox"):
        assert not starts_with_place(part), part
