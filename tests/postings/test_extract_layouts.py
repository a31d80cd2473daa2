"""Layouts met in documents nobody tuned the engine on (the unseen corpora): each a small
document in, the questions out."""
from __future__ import annotations

from prep.postings.asking import clean_question, judge_line, strip_list_marker
from prep.postings.extract import extract_posting
from prep.postings.rounds import round_line


def _questions(*lines: str) -> list[str]:
    return [q.text for q in extract_posting("\n".join(lines)).questions]


def test_a_pdf_item_wrapped_onto_an_indented_line_is_one_question() -> None:
    assert _questions(
        "Sample interview questions",
        "",
        "   a) Explain the difference between eager and rendezvous protocols in MPI, and where the",
        "      switch-over threshold matters.",
        "   b) What is the role of the Subnet Manager in an InfiniBand fabric?",
    ) == ["Explain the difference between eager and rendezvous protocols in MPI, and where the "
          "switch-over threshold matters.", "What is the role of the Subnet Manager in an InfiniBand fabric?"]


def test_bold_numbered_questions_with_quoted_answers() -> None:
    assert _questions(
        "# 华为 高性能通信 面经",
        "## 技术一面（约 1 小时）",
        "**1）RoCEv2 报文格式说一下，和 IB 原生的区别在哪？**",
        "> 我的回答：RoCEv2 把 IB 传输层封装在 UDP 里。",
        "**2）RC、UC、UD 三种 QP 类型的区别？**",
        "> 回答：RC 可靠连接。",
    ) == ["RoCEv2 报文格式说一下，和 IB 原生的区别在哪？", "RC、UC、UD 三种 QP 类型的区别？"]


def test_steps_of_an_interview_process_are_rounds() -> None:
    result = extract_posting("\n".join([
        "Site Reliability Engineer",
        "▾ Our interview process (no surprises 🙂)",
        "  Step 1 — 30 min chat with the manager. Mostly about you.",
        "  Step 2 — Technical interview (60 min). Examples from past candidates:",
        "      ◦ Explain what happens when a Kubernetes Deployment is rolled out and a pod fails its readiness probe",
        "      ◦ DNS resolution inside the cluster is intermittently slow — where do you look first?",
    ]))
    assert [q.text for q in result.questions] == [
        "Explain what happens when a Kubernetes Deployment is rolled out and a pod fails its readiness probe",
        "DNS resolution inside the cluster is intermittently slow — where do you look first?"]


def test_a_heading_between_rules_and_triangle_bullets() -> None:
    assert _questions(
        "GPU 算子开发工程师",
        "◆ 我们希望你",
        "· 熟练掌握 C++ 和 CUDA",
        "━━━━━━━━━━",
        "面试官想和你聊的",
        "━━━━━━━━━━",
        "▸ 说说 CUDA 里 shared memory 和 L1 cache 的关系",
        "▸ 为什么 Tensor Core 对矩阵的形状有要求",
        "为什么加入澜芯？",
    ) == ["说说 CUDA 里 shared memory 和 L1 cache 的关系", "为什么 Tensor Core 对矩阵的形状有要求"]


def test_application_form_and_company_pitch_are_not_questions() -> None:
    assert _questions(
        "Interview questions",
        "- How would you debug a hang in a multi-node all-reduce?",
        "Why Lumora?",
        "How did you hear about this job?",
        "Are you legally authorized to work in the United States? *",
    ) == ["How would you debug a hang in a multi-node all-reduce?"]


def test_a_thread_comments_and_a_job_list_are_dropped() -> None:
    assert _questions(
        "Meta network infra interview experience",
        "Round 1:",
        "- Walk me through how you would find a slow link in a RoCE fabric.",
        "87 Comments",
        "Did they ask anything about SHARP?",
    ) == ["Walk me through how you would find a slow link in a RoCE fabric."]


def test_a_plain_line_that_introduces_a_list_and_numbered_q_lines() -> None:
    assert _questions(
        "存储开发工程师",
        "任职要求：",
        "1. 精通 C++11/14/17；",
        "聊之前可以先想想这几个问题",
        "- 讲讲 C++ 里移动语义解决了什么问题",
        "- 虚函数表的内存布局是怎样的",
    ) == ["讲讲 C++ 里移动语义解决了什么问题", "虚函数表的内存布局是怎样的"]
    assert _questions(
        "SRE, GPU fleet",
        "What you bring",
        "- 4+ years running Linux at scale",
        "How our engineers will poke at your knowledge",
        "Q1: Explain what an Xid 79 error means and what you would do with the node.",
        "Q2: A job hangs at step 0 during NCCL init. Describe how you'd triage it.",
    ) == ["Explain what an Xid 79 error means and what you would do with the node.",
          "A job hangs at step 0 during NCCL init. Describe how you'd triage it."]


def test_a_label_before_the_question_and_an_answer_in_brackets_come_off() -> None:
    assert _questions(
        "AI Infra 面经",
        "三面",
        "印象最深的两个问题：你觉得未来两年训练系统最大的瓶颈在哪？",
        "- What tools would you use to find where CPU time goes? (I said perf and flame graphs)",
        "- Write a softmax kernel for a [batch, 4096] matrix; then, what changes if the row length is 128k?",
    ) == ["你觉得未来两年训练系统最大的瓶颈在哪？", "What tools would you use to find where CPU time goes?",
          "Write a softmax kernel for a [batch, 4096] matrix; then, what changes if the row length is 128k?"]


def test_markdown_links_read_as_their_words_and_numbered_heading_topics_are_questions() -> None:
    # a question collection whose entries are links to videos: the address's "?" is no question,
    # and a topic heading among asking siblings ("#### 2. C++20 协程的基本用法") is one of the list
    assert _questions(
        "# 校招面试题合集",
        "## 某公司",
        "#### 1. [虚函数表是怎么实现的？](https://video.example.com/v/abc?from=list&p=1)",
        "#### 2. [C++20 协程的基本用法](https://video.example.com/v/def?from=list&p=2)",
        "#### 3. [epoll 的 ET 和 LT 模式有什么区别？](https://video.example.com/v/ghi?from=list)",
        "#### 4. [手撕线程安全的单例](https://video.example.com/v/jkl?from=list)",
        "## 另一家公司",
        "#### 1. [零拷贝有哪些实现方式？](https://video.example.com/v/mno)",
    ) == ["虚函数表是怎么实现的？", "C++20 协程的基本用法", "epoll 的 ET 和 LT 模式有什么区别？",
          "手撕线程安全的单例", "零拷贝有哪些实现方式？"]


def test_a_numbered_item_keeps_its_follow_ups_and_a_restarted_list_on_one_line_is_split() -> None:
    texts = _questions(
        "某厂推理引擎 面经",
        "一面:1. 讲一下 LayerNorm 的计算过程?训练和推理有什么不同?它的目的是什么?2. 算子融合能带来哪些收益?"
        "二面:1. 半精度累加为什么会损失精度?2. 写一个矩阵转置的 CUDA kernel 要注意什么?",
    )
    assert texts == ["讲一下 LayerNorm 的计算过程?训练和推理有什么不同?它的目的是什么?",
                     "算子融合能带来哪些收益?", "半精度累加为什么会损失精度?",
                     "写一个矩阵转置的 CUDA kernel 要注意什么?"]


def test_a_pasted_list_of_questions_without_a_title_is_read_and_the_authors_notes_dropped() -> None:
    texts = _questions(
        "一次 HTTP 请求从输入网址到返回页面经历了哪些步骤?",
        "TCP 和 UDP 的区别",
        "TIME_WAIT 为什么要等 2MSL?",
        "Redis 的持久化方式有哪些? (3次)",
        "MySQL 的 MVCC 是怎么实现的?",
        "B+ 树为什么适合做索引?",
        "如何设计一个短链接服务? (说了哈希加自增 id)",
        "Kafka 怎么保证消息不丢?",
    )
    assert "Redis 的持久化方式有哪些?" in texts and "如何设计一个短链接服务?" in texts
    assert "TCP 和 UDP 的区别" in texts and len(texts) == 8


def test_an_i_and_me_transcript_gives_the_interviewers_turns_and_the_title_its_employer() -> None:
    result = extract_posting("\n".join([
        "Quillmark Interview - Onsite",
        "I: How would you find the median of a stream of numbers?",
        "Me: Two heaps, rebalanced after each insert.",
        "I: What if most numbers repeat?",
        "Me: Count them in a map keyed by value.",
        "I: Please code the two-heap version.",
        "Me: Done, with one off-by-one fixed.",
    ]))
    assert result.company == "Quillmark" and result.doc_kind == "report"
    assert "How would you find the median of a stream of numbers?" in [q.text for q in result.questions]


def test_q_labelled_items_run_together_on_one_line_are_split_from_the_candidates_answers() -> None:
    from prep.postings.inline_lists import split_line

    parts = split_line("First round: - Q1: Why move the build farm to spot instances: I said cost, then risk. "
                       "- Q2: How do you drain a node safely: I described cordon and drain.")
    assert parts == ["First round:", "- Q1: Why move the build farm to spot instances", "答：I said cost, then risk.",
                     "- Q2: How do you drain a node safely", "答：I described cordon and drain."]
    # a sentence that is no list keeps its colon ("a coding part: I was asked to …")
    line = "He still had a coding part: I was asked to write a parser."
    assert split_line(line) == [line]


def test_a_one_line_list_whose_numbers_skip_is_still_split_at_its_numbers() -> None:
    from prep.postings.inline_lists import split_line

    # an author who left out what they forgot: items 1, 4 and 5 are missing; a follow-up stays with its item
    line = ("问得很细。【面试问题】2. 先自我介绍。3. 讲讲 RDMA 的三种传输模式?6. QP 是怎么建立连接的?要交换哪些信息?"
            "7. 内存注册做了什么?8. 为什么要 pin 住内存?9. 遇到过 CQ 溢出吗?10. 如何排查 RoCE 丢包?")
    assert split_line(line)[1:4] == ["2. 先自我介绍。", "3. 讲讲 RDMA 的三种传输模式?", "6. QP 是怎么建立连接的?要交换哪些信息?"]
    assert len(split_line(line)) == 8
    # a few numbers with holes are figures in a sentence, not a list
    figures = "延迟从 2. 5 微秒降到 1. 2 微秒，再到 0. 9 微秒。"
    assert split_line(figures) == [figures]


def test_ordinal_questions_and_numeral_colon_headings_lose_their_numbering() -> None:
    from prep.postings.asking import strip_list_marker

    assert strip_list_marker("十四问 epoll 的 ET 模式") == "epoll 的 ET 模式"
    assert strip_list_marker("一问题目很简单") == "一问题目很简单"  # "问题" is no ordinal question
    assert strip_list_marker("三:TCP 为什么要四次挥手") == "TCP 为什么要四次挥手"


def test_a_line_of_linked_references_is_no_question() -> None:
    texts = _questions(
        "# C++ 面经整理",
        "1. **虚函数表存在哪里？**",
        "   [虚表的内存布局](https://blog.example.org/a)、[虚函数调用的开销？](https://blog.example.org/b)",
        "   以上引用[为什么虚函数不能是模板？](https://blog.example.org/c)",
        "2. **为什么析构函数要是虚函数？**",
    )
    assert texts == ["虚函数表存在哪里？", "为什么析构函数要是虚函数？"]


def test_hyphenated_and_parenthesised_rounds_and_a_bank_of_heading_questions() -> None:
    from prep.postings.rounds import round_line

    assert round_line("## First-Round (2021-03-04)") == ("First-Round", "")
    assert round_line("Round 1 ) Linux Troubleshooting") == ("Round 1", "Linux Troubleshooting")
    result = extract_posting("\n".join(
        ["## C++"] + [line for n, topic in enumerate(
            ["Copy vs. move", "new vs. malloc", "What is RAII?", "struct vs. class", "Why virtual destructors?",
             "inline vs. macro"], 1)
            for line in (f"### {n}. {topic}", "", "An answer paragraph that explains the difference in a few plain sentences.", "")]))
    assert result.doc_kind == "report"
    assert [q.text for q in result.questions][:5] == ["Copy vs. move", "new vs. malloc", "What is RAII?",
                                                      "struct vs. class", "Why virtual destructors?"]


def test_numbered_problem_headings_under_a_coding_heading_are_tasks_and_said_answers_are_cut() -> None:
    from prep.postings.segment import _asking_heading_runs

    lines = ["## Coding", "### 1. Meeting Rooms", "### 2. Wiggle Sort", "## Notes", "### 1. Lunch was good"]
    assert _asking_heading_runs(lines) == {1, 2}
    from prep.postings.asking import clean_question
    assert clean_question("Java 里的锁了解哪些，说了 Lock 和 synchronized") == "Java 里的锁了解哪些"


def test_a_long_paragraph_that_opens_with_its_round_opens_the_round() -> None:
    from prep.postings.rounds import round_line

    paragraph = ("Second Round (1hr 15 min): This was the programming round. " + "They asked about threads. " * 12).strip()
    assert len(paragraph) > 240
    label, rest = round_line(paragraph)
    assert label == "Second Round" and rest.startswith("This was the programming round.") and rest.endswith("threads.")


def test_a_bank_of_design_and_behavioural_questions_under_a_questions_title_is_read() -> None:
    texts = _questions(
        "System Design Questions (depth and trade-offs)",
        "Design a Distributed Cache:",
        "",
        "How would you keep hot keys from overloading one of the cache servers?",
        "",
        "Design a Log Shipping Pipeline:",
        "",
        "Explain how you'd guarantee at-least-once delivery when a collector in the distributed system restarts.",
        "",
        "Behavioral Questions",
        "Tell me about a time you rolled back a release under pressure.",
        "Describe a situation where you disagreed with your manager about priorities.",
    )
    assert "How would you keep hot keys from overloading one of the cache servers?" in texts
    assert "Tell me about a time you rolled back a release under pressure." in texts


def test_a_markdown_front_matter_gives_its_title_and_nothing_else() -> None:
    result = extract_posting("\n".join([
        "---", "# the page's icon", "icon: page", "title: 字节|推荐架构|春招一面", "category: 面经", "tag:", "- 实习",
        "# you can set a footer", "# footer:", "---", "",
        "1. 进程间通信有哪些方式？", "2. 管道的底层原理是什么？", "3. epoll 为什么比 select 快？",
    ]))
    assert [q.text for q in result.questions] == ["进程间通信有哪些方式？", "管道的底层原理是什么？", "epoll 为什么比 select 快？"]
    assert result.company == "字节跳动"


def test_a_posting_between_rules_is_no_front_matter() -> None:
    result = extract_posting("---\nLocation: Remote (US)\nTeam: Collective Communications\n---\n"
                             "Senior Software Engineer, NCCL\n\nRequirements\n- 5+ years of C++\n- RDMA experience\n")
    assert result.location and "Remote" in result.location


def test_a_table_without_outer_pipes_gives_its_question_column() -> None:
    assert _questions(
        "## Systems interview questions",
        "",
        "No | Question | Level | Asked",
        "--|------------|-------|---",
        "1 | [What does the page cache hold?](https://example.com/page-cache) | Easy | ***",
        "2 | Explain copy-on-write after fork | Medium | **",
        "3 | Cost of a TLB shootdown | Hard | *",
        "",
        "These came up in three onsite loops last year.",
    ) == ["What does the page cache hold?", "Explain copy-on-write after fork", "Cost of a TLB shootdown"]


def test_a_table_whose_header_names_the_questions_gives_that_column_and_not_the_others() -> None:
    assert _questions(
        "# 笔试回顾",
        "| 题号 | 知识点 | 问题形式 |",
        "| --- | --- | --- |",
        "| 1 | 虚拟内存 | 缺页中断发生后内核做了什么 |",
        "| 2 | 网络 | TIME_WAIT 为什么要等 2MSL？ |",
    ) == ["缺页中断发生后内核做了什么", "TIME_WAIT 为什么要等 2MSL？"]


def test_a_table_without_a_question_column_gives_only_the_cell_that_asks() -> None:
    assert _questions(
        "## 面试题",
        "| # | 内容 | 链接 |",
        "|---|---|---|",
        "| 1 | TCP和RDMA的对比？ | 文章 |",
        "| 2 | 参考资料 | 文章 |",
    ) == ["TCP和RDMA的对比？"]


def test_a_round_numbered_with_a_hyphen_is_a_round_and_not_the_company() -> None:
    result = extract_posting("\n".join([
        "Round-1(Coding):",
        "- merge two sorted lists in place",
        "- What is a function pointer used for?",
        "",
        "Round-2 (OS):",
        "- How does the loader resolve symbols?",
    ]))
    assert [q.text for q in result.questions] == [
        "merge two sorted lists in place", "What is a function pointer used for?", "How does the loader resolve symbols?"]
    assert [q.round for q in result.questions] == ["Round-1", "Round-1", "Round-2"]
    assert result.company is None


def test_race_conditions_and_data_races_are_questions_and_a_candidates_race_is_not() -> None:
    assert _questions(
        "## Linux kernel interview questions",
        "1. Explain Linux concurrency and race conditions?",
        "2. How do you find a data race in a driver?",
        "3. What is your race?",
    ) == ["Explain Linux concurrency and race conditions?", "How do you find a data race in a driver?"]


def test_a_fenced_task_written_in_words_is_read_and_fenced_code_is_not() -> None:
    assert _questions(
        "## 二面",
        "1. 进程和线程的区别？",
        "",
        "### 开放题",
        "```",
        "有两个日志文件，A 是待查的请求，B 是黑名单，怎么快速判断 A 中的条目有没有出现在 B 中",
        "```",
        "",
        "### 手撕",
        "```cpp",
        "// 为什么这里会死锁？",
        "std::lock_guard<std::mutex> g(m);",
        "```",
        "```",
        "int main() { return 0; }",
        "```",
    ) == ["进程和线程的区别？", "有两个日志文件，A 是待查的请求，B 是黑名单，怎么快速判断 A 中的条目有没有出现在 B 中"]


def test_an_a_not_a_question_asks_and_a_schedule_question_is_logistics() -> None:
    assert judge_line("ping 能不能探测到端口这一层").verb
    assert judge_line("HashMap 支不支持并发写入").verb
    assert judge_line("了不了解阻塞队列").verb
    assert not judge_line("我们不得不重启服务").verb
    assert judge_line("能不能接受 996 的节奏").dropped == "not a technical question"


def test_a_heading_that_asks_over_a_list_of_questions_keeps_the_questions() -> None:
    found = _questions(
        "## 追问链",
        "### 链 A：为什么 RDMA 快，为什么还会慢",
        "1. **L1：**What does kernel bypass save on each message?",
        "2. **L2：**画出一次 RDMA WRITE 的路径；解释 lkey 和 rkey 各自的作用。",
        "3. **L3：**队列深度调到 1024 后吞吐下降；可能是什么原因？",
        "4. **反例：**MR 注册很慢。列出三个可能的原因。",
    )
    assert "What does kernel bypass save on each message?" in found
    assert "队列深度调到 1024 后吞吐下降；可能是什么原因？" in found
    assert not any(q.startswith("L1") for q in found)


def test_an_answer_under_a_question_heading_stays_an_answer() -> None:
    found = _questions(
        "### 1. What are the four conditions for a deadlock?",
        "1. Mutual exclusion: a resource is held by one thread at a time.",
        "2. Hold and wait: a thread holds one lock while it waits for another.",
        "3. No preemption: a lock is only released by its holder.",
        "4. Circular wait: each waits for the next.",
    )
    assert not any(q.startswith(("Mutual", "Hold", "No preemption", "Circular")) for q in found)


def test_hugo_front_matter_with_camel_case_keys_is_settings_not_text() -> None:
    result = extract_posting("\n".join([
        "---",
        'title: "上周的面试记录"',
        "date: 2023-05-22T00:40:05-04:00",
        "ShowToc: true",
        "TocOpen: false",
        "cover:",
        '    image: "<image path/url>"',
        "---",
        "",
        "## 快手后端面试",
        "### 一面",
        "- 进程和线程有什么区别？",
    ]))
    assert [q.text for q in result.questions] == ["进程和线程有什么区别？"]
    assert result.company == "快手"


def test_a_sample_answers_numbered_points_are_no_questions() -> None:
    assert _questions(
        "# Common Interview Questions",
        "",
        "## Technical Questions",
        "",
        "### Serving",
        "",
        "**Q: How does continuous batching work?**",
        "",
        "**Sample Answer:**",
        "The scheduler admits requests between decode steps. The process involves:",
        "1. **Admission**: Checks free KV cache blocks before a request joins",
        "2. **Step**: Runs one decode step for every running sequence",
        "3. **Eviction**: Preempts a sequence when blocks run out",
        "",
        "The key idea is that no request waits for the slowest one in its batch.",
        "",
        "---",
        "",
        "**Q: What does prefix caching save?**",
        "",
        "**Sample Answer:**",
        "- **Compute**: The prefill of a shared prompt runs once.",
        "- **Memory**: Requests share the same KV blocks.",
    ) == ["How does continuous batching work?", "What does prefix caching save?"]


def test_a_narrated_item_keeps_the_question_and_not_the_narration() -> None:
    found = _questions(
        "## 二面",
        "- 问了线程同步，我又说了synchronized，还是参考那篇博客。",
        "- 算法题：求矩形左上角到右下角的最短路径，只能向右或向下走，这是一道简单的动态规划题。",
    )
    assert found[0] == "线程同步"
    assert "这是一道" not in found[1] and "求矩形左上角到右下角的最短路径" in found[1]


def test_a_collapsible_blocks_summary_is_its_question() -> None:
    found = _questions(
        "# 数据库面试题",
        "",
        "<details>",
        "<summary>可重复读（<strong>Repeatable Read</strong>）和幻读有什么区别？</summary>",
        "",
        "可重复读：事务内多次读取同一数据的结果一致，快照读由 <mark>ReadView</mark> 保证。",
        "",
        "</details>",
        "",
        "<details>",
        "<summary><b>为什么推荐自增主键，而不用 UUID？</b></summary>",
        "",
        "顺序写入避免页分裂，主键更短，二级索引更小，缓冲池命中率更高。",
        "",
        "</details>",
        "",
        "<details><summary>如何定位一条慢查询？</summary>",
        "",
        "先开慢查询日志，再用 EXPLAIN 看执行计划，最后看索引是否被用上。",
        "",
        "</details>",
    )
    assert found == ["可重复读（Repeatable Read）和幻读有什么区别？", "为什么推荐自增主键，而不用 UUID？", "如何定位一条慢查询？"]


def test_a_narrated_ask_is_a_question_and_the_candidates_answer_after_the_comma_is_not() -> None:
    assert _questions(
        "# 某厂客户端二面",
        "- 问了线程同步，我又说了 synchronized 和 ReentrantLock 的区别",
        "- 问了 HTTP 和 HTTPS 的区别，我从证书讲到了对称加密",
    ) == ["线程同步", "HTTP 和 HTTPS 的区别"]


def test_an_address_after_a_question_is_its_reference_not_its_words() -> None:
    assert _questions(
        "#### 字节 后端二面",
        "- 进程占用大量内存如何排查 https://example.org/cn/2020/12/memory-leak/",
        "- 如何保证线上代码质量（单测覆盖率）（http://example.org/gopl/ch11.html）",
        "- 缓存穿透怎么解决？",
    ) == ["进程占用大量内存如何排查", "如何保证线上代码质量（单测覆盖率）", "缓存穿透怎么解决？"]


def test_a_task_lists_boxes_are_list_markers() -> None:
    assert _questions(
        "# 最终闭卷 / 面试验收",
        "",
        "对每题先口答，再写代码；看答案不计通过。",
        "",
        "- [ ] 从 `threadIdx/blockIdx` 推导 1D 与 2D global index。",
        "- [ ] 解释 grid、block、warp、SM，以及 block 为什么不能任意互相同步。",
        "- [x] 写 shared tree reduction，再改成 warp shuffle。",
        "- [ ] 解释 occupancy 不是性能目标。",
    ) == ["从 `threadIdx/blockIdx` 推导 1D 与 2D global index。", "解释 grid、block、warp、SM，以及 block 为什么不能任意互相同步。",
          "写 shared tree reduction，再改成 warp shuffle。", "解释 occupancy 不是性能目标。"]


def test_several_first_level_headings_that_ask_are_questions_and_a_tables_rows_are_not() -> None:
    found = _questions(
        "---",
        "title: 某厂 SRE 二面",
        "company: 某厂",
        "---",
        "",
        "# 输入一个URL，到界面显示，这中间发生了什么，越深入越好",
        "",
        "## 准备和大包",
        "",
        "解析URL -> 根据域名获取IP地址 -> 通过TCP发起连接 -> HTTPS握手 -> 发送请求",
        "",
        "| **部分** | **含义** | **浏览器要用来干嘛** |",
        "| --- | --- | --- |",
        "| 协议 | https | 决定用哪套通信规则（是否加密） |",
        "| 路径 | /path | 告诉服务器你要哪个资源 |",
        "",
        "# DNS的解析流程，怎么递归查询的，举个例子",
        "",
        "本地 DNS 服务器先查缓存，没有命中再问根域名服务器。",
    )
    assert found == ["输入一个URL，到界面显示，这中间发生了什么，越深入越好", "DNS的解析流程，怎么递归查询的，举个例子"]


def test_one_first_level_heading_is_the_pages_title() -> None:
    assert "RDMA 为什么快？" not in _questions(
        "# RDMA 为什么快？",
        "",
        "这篇文章讲 RDMA 的原理。内核旁路让网卡直接读写用户内存，省掉了拷贝。",
    )


def test_a_fence_that_names_a_language_but_holds_sentences_is_read() -> None:
    found = _questions(
        "### Interviews",
        "#### Round-1 (Networking, Linux)",
        "```c",
        "Networking: What is a subnet mask, MTU, ARP, the ARP table",
        "Linux: setuid(example), setgid, sticky bit, return value of a command",
        "```",
        "#### Round-2 (Coding)",
        "```c",
        "Q1: Given an employee class, implement a supervisor class and print the employee's name via it.",
        "```",
        "```c",
        "int count(struct node *n) { return n ? 1 + count(n->l) + count(n->r) : 0; }",
        "```",
    )
    assert "Given an employee class, implement a supervisor class and print the employee's name via it." in found
    assert not any("count(" in q for q in found)


def test_a_candidates_turns_in_a_transcript_are_answers() -> None:
    assert _questions(
        "Written by a serving engineer. Follow for more notes on inference.",
        "",
        "### 🚀 INTERVIEW - Paged attention explained: why serving memory runs out",
        "",
        "**Interviewer:** Let's talk about serving memory. Can you break down why a naive KV cache wastes it?",
        "",
        "**Candidate:** Sure. Think of each request as reserving its longest possible sequence up front. When a model "
        "generates text token by token, most of that reservation sits empty for a long time.",
        "",
        "**Interviewer:** So what does paging change?",
        "",
        "**Candidate:** When we allocate blocks on demand, we don't hold memory for tokens that never come. That's the "
        "difference between a handful and hundreds of requests per GPU in production.",
    ) == ["Let's talk about serving memory. Can you break down why a naive KV cache wastes it?",
          "So what does paging change?"]


def test_a_dated_diary_heading_is_no_question_and_a_round_ends_an_answer() -> None:
    found = _questions(
        "## 2021 年2月26日 多云 没出门 不知道有没有风 元宵节",
        "",
        "### 面试公司 -- 某厂",
        "",
        "#### 一面：涉及范围较广",
        "   Q1：一条sql语句执行会经过哪些过程",
        "   A1：连接器、分析器、优化器、执行器。",
        "   Q2：Innodb为啥使用B+树做索引",
        "   A2：B+树更矮，范围查询顺着叶子走。",
    )
    assert "一条sql语句执行会经过哪些过程" in found and "Innodb为啥使用B+树做索引" in found
    assert not any("元宵节" in q for q in found)
    assert not judge_line("不知道有没有风").verb and judge_line("有没有风").verb


def test_a_round_under_a_heading_that_seemed_to_ask_opens_the_round() -> None:
    found = _questions(
        "## 这次面试能不能过呢",
        "",
        "#### 一面",
        "- 进程和线程有什么区别？",
        "- TCP 为什么要三次握手？",
    )
    assert found[-2:] == ["进程和线程有什么区别？", "TCP 为什么要三次握手？"]


def test_a_line_ending_in_the_particle_me_asks() -> None:
    assert judge_line("那 TCP 粘包了会影响应用层么").verb


def test_a_paragraph_under_an_interview_question_title_is_its_questions() -> None:
    """A board's one-paragraph list ("X interview question" over "Design a hash map. Difference
    between …. Serialize a binary tree."): each technical sentence was asked."""
    result = extract_posting("Quorix interview question\n\nThe panel had four people. Difference between mutex and semaphore. "
                             "Explain memory management in depth. Serialize a binary tree. Questions on checkpointing and recovery.\n")
    assert result.doc_kind == "report"
    texts = [q.text for q in result.questions]
    assert "Difference between mutex and semaphore." in texts and "Serialize a binary tree." in texts
    assert not any("panel" in t for t in texts)


def test_an_answer_or_hint_after_a_narrated_question_is_not_asked() -> None:
    found = _questions(
        "# 一面",
        "",
        "问对 LLVM 了解吗，回答不了解。",
        "",
        "问 C++ 里 `A *p = nullptr;`，`A` 里有一个 `foo()`，问 `p->foo()` 的结果是什么。回答了如果是 static 的话没关系。",
        "",
        "他提示可以给链接器提供信息规定谁在前谁在后。",
    )
    assert any(q.endswith("对 LLVM 了解吗") for q in found)
    assert any(q.endswith("`A *p = nullptr;`，`A` 里有一个 `foo()`") for q in found)  # (not cut inside the code)
    assert not any(q.startswith(("回答", "他提示")) or "回答不了解" in q for q in found)


def test_indented_paragraphs_under_a_short_label_item_are_its_items() -> None:
    """ "2. 八股" over blank-separated, indented lines without markers: each line is an item of the
    group; an indented paragraph under an item that asks stays its answer."""
    found = _questions(
        "# 某厂一面",
        "",
        "1. 八股",
        "",
        "    JVM 垃圾回收",
        "",
        "    AQS 队列实现",
        "",
        "2. 什么是 RCU？",
        "",
        "    一种读多写少场景下的同步机制。",
    )
    assert found == ["JVM 垃圾回收", "AQS 队列实现", "什么是 RCU？"]


def test_a_reading_list_section_ends_at_the_next_heading_as_high() -> None:
    found = _questions(
        "# 分布式训练面试题",
        "",
        "## 1. 数据并行",
        "",
        "每张卡持有完整模型，各自处理一部分数据，反向后用 AllReduce 同步梯度。",
        "",
        "## 2. 张量并行",
        "",
        "把一层的矩阵按行或列切到多张卡上，前向和反向各需要一次集合通信。",
        "",
        "## 推荐阅读",
        "",
        "- [某论文](https://example.org/a) — 为什么它重要？",
        "",
        "## 面试高频问法",
        "",
        "- Q: 给你 64 张卡训练一个 70B 模型，怎么配置并行策略？",
        "  A: 节点内 TP，跨节点 FSDP。",
    )
    assert found == ["给你 64 张卡训练一个 70B 模型，怎么配置并行策略？"]


def test_a_bold_topic_described_after_its_colon_is_the_topic() -> None:
    """ "**I/O多路复用**：通过讨论select与epoll的区别…": a summary's topic, then what it covered."""
    assert clean_question("3. **I/O多路复用**：通过讨论 select 与 epoll 的区别，展示了对非阻塞 IO 的理解。") == "I/O多路复用"
    assert clean_question("**L2：**推导 ring AllReduce 的通信量") == "推导 ring AllReduce 的通信量"
    assert clean_question("**答**：数据并行是相同模型、不同数据。") != "答"


def test_an_interviewers_guide_keeps_its_questions_not_its_rubric() -> None:
    found = _questions(
        "# Scenario: LLM serving interview guide",
        "",
        "## Deep Dive Discussion Topics",
        "",
        "### 1. Batching",
        "",
        "**Initial Question:**",
        '"How does continuous batching differ from static batching?"',
        "",
        "**Expected Discussion Points:**",
        "- **Trade-offs:** Complexity vs. performance",
        "- **Implementation:** How to handle variable sequence lengths",
        "",
        "**Follow-up Questions:**",
        '1. "How would you prioritize urgent requests?"',
        "",
        "**Red Flags:**",
        "- Can't explain memory implications",
        "",
        "**Green Flags:**",
        "- Mentions iteration-level batching",
    )
    assert found == ["How does continuous batching differ from static batching?", "How would you prioritize urgent requests?"]


def test_an_english_narration_gives_the_task_and_a_quote_after_a_colon_is_the_question() -> None:
    assert clean_question("- Finally, I was asked to write a lambda function.") == "write a lambda function."
    assert judge_line("Then he asked me about RCU.").asks
    assert clean_question('- A memory question came up: "How is -2 stored in memory?"') == "How is -2 stored in memory?"
    assert clean_question('He said: "Good. Next question?" and left.') == 'He said: "Good. Next question?" and left.'


def test_a_one_paragraph_report_is_a_report_and_the_candidates_doing_is_no_question() -> None:
    result = extract_posting("The interview started with a resume deep dive. In the first round I struggled with C++ basics. "
                             "The second round was more backend-focused, covering messaging systems and SQL optimization. "
                             "I was able to explain some high-level ideas. The interviewer pushed me to make my code readable.")
    assert result.doc_kind == "report"
    assert not judge_line("I was able to explain some high-level ideas.").asks
    assert judge_line("I have a table of users; how would you find duplicates?").asks


def test_a_sub_questions_number_is_a_list_marker() -> None:
    assert strip_list_marker("1-1.介绍一下中断") == "介绍一下中断"
    assert strip_list_marker("3-5年经验") == "3-5年经验"


def test_numbered_parts_opening_a_bold_questions_answer_are_asked() -> None:
    found = _questions(
        "# 某厂客户端一面",
        "",
        "## C++基础",
        "",
        "1. **谈一下程序的编译和链接过程，每个阶段做了什么**",
        "    1. 编译阶段做了什么",
        "    2. 静态库和动态库有什么区别",
        "",
        "2. **谈一下栈和堆的区别**",
        "    栈由编译器管理，堆由程序员申请和释放。",
    )
    assert "编译阶段做了什么" in found and "静态库和动态库有什么区别" in found
    assert not any("编译器管理" in q for q in found)


def test_a_heading_saying_what_was_asked_heads_the_questions() -> None:
    found = _questions(
        "# How I prepared for my SRE interviews",
        "",
        "I had five rounds over three weeks; most of this post is advice.",
        "",
        "## Topics used in the interviews",
        "",
        "- Designing a rate limiter",
        "- Consistent hashing",
    )
    assert "Designing a rate limiter" in found


def test_a_page_that_lost_its_line_breaks_gives_each_question() -> None:
    # (a forum post copied as one line: questions run together after "?" with no space)
    found = _questions("整理一下二面被问到的:进程和线程有什么区别?协程又是什么?虚函数表存在哪里?"
                       "为什么析构函数要是虚函数?shared_ptr是线程安全的吗?epoll和select的区别?"
                       "TCP为什么要三次握手?页表是怎么查的?")
    assert "虚函数表存在哪里?" in found and "TCP为什么要三次握手?" in found and len(found) >= 7


def test_a_question_and_its_follow_ups_on_one_line_stay_one_question() -> None:
    assert _questions("一面", "- BN在推理和训练时如何做的?具体的公式?momentum有什么用?他的目的是什么?") == [
        "BN在推理和训练时如何做的?具体的公式?momentum有什么用?他的目的是什么?"]


def test_a_bulleted_list_written_on_one_line_gives_its_items_not_its_labels() -> None:
    found = _questions("面试复盘:**1. 语言*** 你平时主要写 C++ 吗?* 说说 C++17 里你常用的新特性?"
                       "* 移动构造之后原对象还能用吗?* 如何写一个可变参数模板?"
                       "**2. 系统*** 线程之间怎么通信?* 原子变量一定无锁吗?")
    assert "说说 C++17 里你常用的新特性?" in found and "原子变量一定无锁吗?" in found
    assert not any("系统" in q and len(q) < 12 for q in found)


def test_an_address_in_a_long_line_is_not_cut_at_its_question_mark() -> None:
    line = ("See https://example.com/search?q=rdma&page=2 for the list. " * 8).strip()
    assert [part for part in extract_posting(line).questions] == []


def test_bullets_on_lines_of_their_own_open_items_whose_words_run_over_several_lines() -> None:
    # (text taken out of a page element by element: the bullet, then the item's words and emphasis)
    assert _questions(
        "Interview questions",
        "1. Locks",
        "-",
        "What is a",
        "spinlock",
        "and when is it better than a sleeping lock?",
        "-",
        "How does a",
        "futex",
        "avoid a system call when there is no contention?",
    ) == ["What is a spinlock and when is it better than a sleeping lock?",
          "How does a futex avoid a system call when there is no contention?"]


def test_questions_quoted_inside_a_text_diagram_are_read_without_its_frame() -> None:
    found = _questions(
        "Interview question patterns",
        "┌──────────────────────────────────────────┐",
        "│  1. CONCEPTUAL                           │",
        "│     \"Explain how copy-on-write works\"    │",
        "│     \"What happens when you call mmap?\"   │",
        "└──────────────────────────────────────────┘",
    )
    assert any("Explain how copy-on-write works" in q for q in found)
    assert any("What happens when you call mmap?" in q for q in found)
    assert not any("│" in q or "─" in q for q in found)


def test_a_question_tables_answer_column_names_skills_but_asks_nothing() -> None:
    result = extract_posting("\n".join([
        "## 面试题",
        "| 面试题 | 参考答案 |",
        "|---|---|",
        "| 如何排查训练变慢？ | 先看 NCCL 日志和 RDMA 网卡计数，再用 Nsight Systems 看时间线 |",
        "| 推理服务怎么提高吞吐？ | 用 vLLM 的 PagedAttention 管理 KV Cache |",
    ]))
    assert [q.text for q in result.questions] == ["如何排查训练变慢？", "推理服务怎么提高吞吐？"]
    assert {"NCCL", "RDMA", "vLLM", "KV Cache"} <= set(result.skills)


def test_a_headline_that_opens_with_why_or_how_is_no_question() -> None:
    for headline in ("Why Kernel Depth Decides Systems Interviews", "How Chipmakers Test GPU Skills in Interviews"):
        assert judge_line(headline).asks is False
    for question in ("Why does false sharing slow a program down", "How Does Virtual Memory Work",
                     "How to reverse a linked list", "How virtual memory works"):
        assert judge_line(question).asks is True


def test_a_question_cards_answer_paragraph_under_a_questions_title_is_not_asked() -> None:
    cards = [("What does fsync guarantee?", "It returns once the file's data and metadata reached stable storage. "
              "A rename needs an fsync of the directory too. Without it a crash can lose the new name."),
             ("Why is random I/O slow on a disk?", "Each request waits for the head to move and the platter to turn. "
              "Sequential requests share that wait. Flash has no head, so the gap is smaller there."),
             ("What is a write-ahead log?", "Changes are appended to a log before the data pages change. "
              "Recovery replays the log. Checkpoints bound how much of it must be replayed.")]
    lines = ["Storage Interview Questions"]
    for number, (question, answer) in enumerate(cards, 1):
        lines += [str(number), question, "Medium", answer, "View full answer"]
    assert _questions(*lines) == [question for question, _answer in cards]


def test_an_interviewers_outline_keeps_its_questions_not_its_focus_notes_or_rubric_levels() -> None:
    assert _questions(
        "# 存储方向面试大纲",
        "## 一、基础（20分钟）",
        "**考核重点：** 理解页缓存在读写路径中的作用",
        "**核心问题：**",
        "- 页缓存的脏页什么时候回写？",
        "- O_DIRECT 绕过了什么？",
        "## 评分标准",
        "### 优秀（85-100分）",
        "- 能说清回写的触发条件和代价",
        "- 理解直接 I/O 的适用场景",
        "### 合格（60-69分）",
        "- 了解页缓存的基本作用",
    ) == ["页缓存的脏页什么时候回写？", "O_DIRECT 绕过了什么？"]


def test_a_numbered_answer_running_into_the_next_numbered_question_is_cut_there() -> None:
    assert _questions(
        "Interview Question Bank",
        "- Q1. What does the page cache hold?",
        "A1. Recently read and written file pages, kept in memory until reclaimed. - Q2. What is a dirty page?",
        "A2. A cached page changed in memory and not yet written back. - Q3. What does fsync wait for?",
        "A3. The file's dirty pages and metadata reaching the device.",
    ) == ["What does the page cache hold?", "What is a dirty page?", "What does fsync wait for?"]


def test_question_cards_with_a_show_answer_button_are_a_list_of_questions_whatever_the_title() -> None:
    assert _questions(
        "Storage¶",
        "12 cards",
        "1. What is the difference between RAID 1 and RAID 6?",
        "Show answer",
        "RAID 1 mirrors two disks. RAID 6 stripes with two parities and survives two failures.",
        "2. When would you pick XFS over ext4?",
        "Show answer",
        "For large files and parallel writers; ext4 is the safer default for small volumes.",
    ) == ["What is the difference between RAID 1 and RAID 6?", "When would you pick XFS over ext4?"]


def test_a_bold_answer_label_opens_an_answer_not_a_question() -> None:
    assert _questions(
        "## 一面",
        "- 链表的中点怎么找？",
        "  - **Approach 1 (Optimized):** Using slow and fast pointers.",
        "  - **参考答案：** 快慢指针，快指针走两步。",
        "- 什么是 KMP？",
    ) == ["链表的中点怎么找？", "什么是 KMP？"]


def test_numbered_phone_and_onsite_rounds_under_their_letters_open_rounds() -> None:
    from prep.postings.rounds import round_line

    assert round_line("B. Phone 2 - Coding interview") == ("Phone 2", "Coding interview")
    assert round_line("Onsite 3: system design") == ("Onsite 3", "system design")
    assert round_line("Phone 2:30 pm call") is None and round_line("A. Introduction") is None


def test_an_answer_written_after_the_questions_colon_is_no_part_of_it() -> None:
    assert judge_line("- 进程间通信方式有哪些：管道、消息队列、共享内存").text == "进程间通信方式有哪些"
    assert judge_line("linux做过什么:webserver").text == "linux做过什么"
    # a label, a requirement or a follow-up after the colon stays
    for line in ("场景题：如何设计一个秒杀系统", "设计一个LRU：要求O(1)"):
        assert judge_line(line).text.endswith(line[-4:])


def test_a_name_ending_in_a_before_a_colon_is_no_answer_label() -> None:
    assert judge_line("什么是RDMA：给定一个场景如何选择").text == "什么是RDMA：给定一个场景如何选择"
    assert judge_line("什么是锁？A：互斥").text == "什么是锁？"


def test_a_numbered_item_its_author_answers_below_was_asked_though_it_names_only_a_topic() -> None:
    assert _questions(
        "腾讯 网络工程师 面经",
        "  1. OSPF和BGP有什么区别?",
        "    答:一个是内部网关协议,一个是外部网关协议。",
        "  2. OSPF邻居建立的过程",
        "    答:我把几个状态都说了。",
        "  3. ARP的作用",
        "    答:从IP地址解析出MAC地址。",
    ) == ["OSPF和BGP有什么区别?", "OSPF邻居建立的过程", "ARP的作用"]


def test_the_choices_of_a_multiple_choice_question_are_no_questions() -> None:
    assert _questions(
        "存储面试题 08",
        "08.把一个文件系统同时通过NFS和SMB共享给多个主机时,以下哪些说法是错误的:(多选)",
        "A. 不可能同时用两种协议共享同一个文件系统。",
        "B. 一个主机通过NFS创建的文件,另一个主机不能通过SMB删除。",
        "C. 两个主机在同一目录下看到的同名文件是同一个文件。",
        "D. 两个主机都可以通过本地缓存提升访问性能。",
    ) == ["把一个文件系统同时通过NFS和SMB共享给多个主机时,以下哪些说法是错误的"]  # (its remark "(多选)" set aside)


def test_a_page_whose_line_breaks_came_as_escapes_is_read_line_by_line() -> None:
    # (a report copied out of a page's JSON: its breaks are the two characters "\" and "n")
    assert _questions(
        "某厂推理加速面经 2025-03-02",
        r"一面\n1. 讲一下 PagedAttention 的原理\n2. continuous batching 和静态 batch 的区别？"
        r"\n3. 手撕 LayerNorm\n反问\n二面\n1. NCCL 的 ring allreduce 通信量是多少？",
    ) == ["讲一下 PagedAttention 的原理", "continuous batching 和静态 batch 的区别？", "手撕 LayerNorm",
          "NCCL 的 ring allreduce 通信量是多少？"]


def test_a_code_line_with_an_escaped_break_stays_one_line() -> None:
    assert _questions(
        "C 语言笔试题",
        "1. 下面的代码输出什么？ printf(\"%d\\n\", x);",
        "2. volatile 关键字有什么作用？",
    ) == ["下面的代码输出什么？ printf(\"%d\\n\", x);", "volatile 关键字有什么作用？"]


def test_numbered_items_run_together_with_commas_after_their_numbers() -> None:
    assert _questions(
        "嵌入式驱动面试题",
        "1,字符设备的设备文件是怎么创建的?2,写一个中断服务需要注意哪些?如果中断要做很多事怎么办?"
        "3,原子操作你怎么理解?4,linux中RCU原理?",
    ) == ["字符设备的设备文件是怎么创建的?", "写一个中断服务需要注意哪些?如果中断要做很多事怎么办?",
          "原子操作你怎么理解?", "linux中RCU原理?"]


def test_lettered_items_run_together_on_one_line() -> None:
    assert _questions(
        "Round 2 (kernel)",
        "a) What happens when two devices share one interrupt line? b) Difference between spinlock and mutex. "
        "c) Which is better: level-triggered or edge-triggered? d) Explain watchdog.",
    ) == ["What happens when two devices share one interrupt line?", "Difference between spinlock and mutex.",
          "Which is better: level-triggered or edge-triggered?", "Explain watchdog."]


def test_a_rounds_bullets_keep_their_bare_topics_but_not_the_small_talk() -> None:
    # (most of the round's items name a technical thing; the bare ones among them were asked too)
    assert _questions(
        "字节跳动 C++ 后端面经",
        "",
        "一面:",
        "- 自我介绍",
        "- 系统:",
        "- 项目中的进程/线程",
        "- IPC",
        "- 网络:",
        "- TCP/UDP",
        "- 拥塞避免",
        "- HTTPS",
        "- 语言:",
        "- 虚函数、纯虚函数",
    ) == ["项目中的进程/线程", "IPC", "TCP/UDP", "拥塞避免", "HTTPS", "虚函数、纯虚函数"]


def test_a_heading_that_only_numbers_a_question_stands_over_it() -> None:
    assert _questions(
        "# Questions I like to ask in interviews",
        "",
        "## Question 1 (covers operating systems)",
        "",
        "> What happens between a page fault and the faulting instruction running again?",
        "",
        "A good answer walks through the trap, the lookup and the retry. Why does it matter? Latency.",
        "",
        "## Question 2: *Ring buffer*",
        "**Description:**",
        "- Write a lock-free ring buffer for one producer and one consumer.",
        "- Example: capacity 8",
    ) == ["What happens between a page fault and the faulting instruction running again?",
          "Write a lock-free ring buffer for one producer and one consumer."]


def test_labelled_questions_and_answers_run_together_on_one_line() -> None:
    assert _questions(
        "2025年存储面试题及答案",
        "存储面试题及答案Q1:请对比 NVMe 2.0 与 1.4 的核心差异?A:2.0 引入了命名空间组。Q2:分布式块存储如何平衡一致性与可用性?"
        "A:通常用 Raft 做复制。Q3:写放大是怎么产生的?A:垃圾回收搬运有效页。",
    ) == ["请对比 NVMe 2.0 与 1.4 的核心差异?", "分布式块存储如何平衡一致性与可用性?", "写放大是怎么产生的?"]


def test_a_chinese_round_says_how_it_was_held_without_a_separator() -> None:
    assert round_line("第一轮电话面试") == ("第一轮", "")
    assert round_line("二面视频面 45min") == ("二面", "")
    assert round_line("第一轮是算法") is None


def test_a_rounds_bare_topics_stay_though_the_model_doubts_them() -> None:
    # (a round held "电话约" with no separator, over bullets that name topics: the round's items were asked)
    assert _questions(
        "# 某芯片公司面试体验|第三篇(社招)", "", "在深圳参加的面试，整体体验不错", "", "我面的是驱动工程师，问题如下。", "",
        "**第一轮电话约(30 分钟至 1 小时)难度一般。**", "",
        "*   关于你的论文", "*   关于项目和它怎么落地的许多问题", "*   中断处理的概念和例子", "*   优先级反转(原因、解决)",
        "*   硬件定时器", "*   Linux 调度器和策略", "*   驱动中的错误码、日志等", "*   页表概念", "*   自旋锁/读写锁/信号量",
        "*   DMA 控制器、缓存一致性和总线", "*   2 个编码问题(数组、位运算)。", "", "注:问得很细，需要一直讲到他满意。",
    ) == ["关于你的论文", "关于项目和它怎么落地的许多问题", "中断处理的概念和例子", "优先级反转(原因、解决)", "硬件定时器",
          "Linux 调度器和策略", "驱动中的错误码、日志等", "页表概念", "自旋锁/读写锁/信号量", "DMA 控制器、缓存一致性和总线",
          "2 个编码问题(数组、位运算)。"]


def test_numbered_lines_with_a_comma_after_the_number() -> None:
    assert strip_list_marker("3,网络编程是否熟悉") == "网络编程是否熟悉"
    assert strip_list_marker("1,000 人的团队") == "1,000 人的团队"
    assert _questions(
        "某厂后台开发实习一面",
        "",
        "一、基础知识",
        "1,多线程和多进程的区别。",
        "2,守护进程怎么实现。",
        "3,TCP的time-wait状态和作用。",
        "4,同一台机器上的进程怎么通信。",
    ) == ["多线程和多进程的区别。", "守护进程怎么实现。", "TCP的time-wait状态和作用。", "同一台机器上的进程怎么通信。"]


def test_bracketed_numbers_run_together_on_one_line() -> None:
    assert _questions(
        "某芯片公司操作系统岗一面面经",
        "根据简历一个一个问,只记得大概。(1) 进程切换时内核保存了什么(页表、寄存器)(2) 时间片轮转是怎么实现的(定时器中断)"
        "(3) 写时复制的实现细节 (4) 内核崩溃了怎么调试(core 文件)",
    ) == ["进程切换时内核保存了什么", "时间片轮转是怎么实现的(定时器中断)", "写时复制的实现细节",
          "内核崩溃了怎么调试(core 文件)"]


def test_a_narrated_series_of_topics_is_one_question_per_topic() -> None:
    assert _questions(
        "Firmware engineer interview at Acme Robotics",
        "",
        "The first round was with a senior engineer. We had a discussion about my CV, OS concepts, DMA, RTOS "
        "scheduling and the volatile keyword. Then he asked me to write a ring buffer in C.",
        "",
        "In the second round they asked about my experience with databases, message queues and payments.",
    )[:5] == ["OS concepts", "DMA", "RTOS scheduling", "the volatile keyword", "write a ring buffer in C"]
    from prep.postings.prose import prose_questions  # the series is the object of "my experience with"
    assert prose_questions("In the second round they asked about my experience with databases, message queues "
                           "and payments.") == [("my experience with databases, message queues and payments", "cue")]


def test_topics_discussed_after_a_question_follow_it_up() -> None:
    found = _questions(
        "My NVIDIA NCCL team onsite interview",
        "",
        "1. Design a fault-tolerant collective layer for 10k GPUs where any node can die mid-job. "
        "We talked about communicator shrinking, checkpoint interplay, timeouts.",
        "2. Explain how ring allreduce works.",
    )
    assert "Design a fault-tolerant collective layer for 10k GPUs where any node can die mid-job" in found[0]
    assert not {"communicator shrinking", "checkpoint interplay", "timeouts"} & set(found)


def test_a_series_is_not_cut_inside_code_or_brackets() -> None:
    from prep.postings.prose import prose_questions
    assert prose_questions("Then he asked me to parse a log of `(timestamp, switch, port, drops)` lines and return "
                           "the top-k ports by drop rate.") == [
        ("parse a log of `(timestamp, switch, port, drops)` lines and return the top-k ports by drop rate", "cue")]


def test_an_answer_label_on_its_own_line_opens_the_answer() -> None:
    assert _questions(
        "# 嵌入式面试题",
        "### Q1: 消息总线",
        "**题目**: 设计一个高性能消息总线，需要支持高频数据流和紧急信号。请说明核心组件。",
        "**答案提示**:",
        "- **分层架构**：应用层 → 消息总线 → 硬件抽象层",
        "| 组件 | 职责 |",
        "| 状态机 | 控制逻辑管理 |",
        "",
        "- 紧急信号应绕过队列",
        "- 订阅者数量是否固定？",
        "### Q2: 耦合度",
        "**题目**: 发布者和订阅者之间的耦合度如何设计？有哪些权衡？",
        "**答案提示**:",
        "- 强耦合：直接函数调用，简单但难扩展",
    ) == ["设计一个高性能消息总线，需要支持高频数据流和紧急信号。请说明核心组件。", "发布者和订阅者之间的耦合度如何设计？有哪些权衡？"]


def test_a_question_heading_over_its_question_in_bold_quotes() -> None:
    assert _questions(
        "# Mock interview questions",
        "## Question 1: Hard vs Soft Real-Time",
        '**"Explain the difference between hard real-time and soft real-time systems."**',
        "### Model Answer (60 seconds):",
        '> "Hard real-time systems have absolute deadlines."',
        "## Question 2: Priority Inversion",
        '**"What is priority inversion and how do you prevent it?"**',
        "### Model Answer (60 seconds):",
        '> "A high-priority task waits on a lock held by a low-priority one."',
        "# Questions to ask the interviewer (pick 3-4)",
        "## Technical questions:",
        "- What RTOS does your team use?",
        "- How do you balance agile with certification?",
        "# Tips and tricks for interview preparation",
        "- **Research the company:**",
        "  - Look into their recent projects and culture.",
    ) == ["Explain the difference between hard real-time and soft real-time systems.",
          "What is priority inversion and how do you prevent it?"]


def test_a_postings_list_item_introduces_no_questions() -> None:
    result = extract_posting("\n".join([
        "# Senior Embedded Engineer",
        "## Essential Functions",
        "- Conduct technical research on new technologies.",
        "- Provide solutions to complex problems using sound techniques.",
        "- Define product features and conduct system tradeoff analysis.",
        "- Debug and resolve complex embedded system issues.",
        "### Desired Qualifications",
        "- Experience developing and debugging BLE software.",
    ]))
    assert result.questions == []
    assert "Desired Qualifications" in result.sections


def test_a_narration_before_its_cue_is_no_question() -> None:
    assert _questions(
        "联发科 一面",
        "面试官首先让我自我介绍下，然后开始看我的简历。介绍完了直接问项目。",
        "你自己做了哪部分？是不是在师兄师姐基础上做的？",
        "不是，我做的是硬件设计和代码移植。",
    ) == ["你自己做了哪部分？是不是在师兄师姐基础上做的？"]


def test_questions_named_after_a_comma_and_like() -> None:
    assert "how you can delete a file starting with a dash" in " ".join(_questions(
        "How I failed an SRE interview",
        "",
        "The coding exercise was fun. There were also some basic UNIX questions, like how you can delete a file "
        "starting with a dash. I was rejected a week later.",
    ))


def test_a_list_of_topics_each_with_its_answer_gives_the_topics() -> None:
    assert _questions(
        "某厂大模型推理一面面经",
        "",
        "1. 双向mamba vs 因果注意力:因果注意力平方复杂度，mamba线性复杂度，双向需要两次扫描。",
        "2. KV cache原理:推理时缓存历史token的K和V，避免重复计算。",
        "3. PagedAttention:把KV cache按块管理，类似操作系统分页，减少碎片。",
        "4. FlashAttention为什么快:分块计算，减少HBM读写。",
        "5. 项目:讲了推理服务的调度，问得很细。",
    ) == ["双向mamba vs 因果注意力", "KV cache原理", "PagedAttention", "FlashAttention为什么快"]


def test_a_title_cased_topic_after_a_question_number_names_it() -> None:
    assert _questions(
        "# Mock interview",
        "## Question 16: Code Quality",
        '**"How have you ensured code quality in critical systems?"**',
        "### Model Answer (2-3 minutes):",
        '> "I integrated static analysis into the CI pipeline."',
        "> When a build failed the gate, the merge was blocked until the report was clean.",
    ) == ["How have you ensured code quality in critical systems?"]


def test_inline_code_on_lines_of_its_own_joins_its_sentence() -> None:
    assert _questions(
        "某厂嵌入式驱动一面面经",
        "涉及到的问题包括:",
        "- Linux内核的模块机制,",
        "insmod",
        "、modprobe",
        "、rmmod",
        "的区别。 - 字符设备和块设备的区别,以及如何注册一个字符设备。",
        "- 内核空间和用户空间的区别,以及",
        "copy_from_user",
        "、copy_to_user",
        "的使用注意点。",
    ) == ["Linux内核的模块机制,insmod、modprobe、rmmod的区别。", "字符设备和块设备的区别,以及如何注册一个字符设备。",
          "内核空间和用户空间的区别,以及copy_from_user、copy_to_user的使用注意点。"]


def test_a_word_processors_bullets_and_numbers_on_lines_of_their_own() -> None:
    assert _questions(
        "Embedded Linux interview questions",
        "",
        "§ How would you debug kernel code?",
        "",
        "§ Difference between macro & micro Kernel.",
    ) == ["How would you debug kernel code?", "Difference between macro & micro Kernel."]
    assert _questions(
        "Top SRE Interview Questions",
        "1",
        "What are SLAs, and how do they differ from SLOs?",
        "Reference answer",
        "An SLA is a contract; an SLO is a target within it.",
        "2",
        "What is toil and how do you reduce it?",
        "Reference answer",
        "Toil is manual, repetitive work that grows with the service.",
    ) == ["What are SLAs, and how do they differ from SLOs?", "What is toil and how do you reduce it?"]


def test_chinese_narration_cues_and_the_remarks_after_a_question() -> None:
    from prep.postings.prose import prose_questions
    assert [text for text, _how in prose_questions(
        "第四轮:当时太累了,跟他聊不起来了,一开始也是问我memory为什么stack是往下,heap是往上增长,"
        "我们可不可以改变他们的增长方向,这个题目没回答出来,问了我C++里面的storage class有哪些")] == [
        "memory为什么stack是往下,heap是往上增长,我们可不可以改变他们的增长方向", "C++里面的storage class有哪些"]
    assert [text for text, _how in prose_questions(
        "第三轮:问了thread和process的不同,blabla后面忘了。代码题是two sum,要求O(n),简单的用two pointer就好了")] == [
        "thread和process的不同", "two sum,要求O(n)"]


def test_a_question_opening_with_duiyu_asks() -> None:
    assert judge_line("对于临界区有什么保护方法,以什么标准去选择这些方法").dropped is None
    assert judge_line("对于基础知识,建议提前复习").dropped == "advice"


def test_a_title_that_ends_with_its_interview_is_a_report() -> None:
    result = extract_posting("\n".join([
        "2014某公司实习生面试",
        "面了大概一小时。大致的问题如下:",
        "①进程间的通信方式有哪些,各自是以什么方式实现的",
        "非常基础,曾经做过消息队列的,还是容易回答的",
        "②对于临界区有什么保护方法,以什么标准去选择这些方法",
    ]))
    assert result.doc_kind == "report"
    assert [q.text for q in result.questions] == ["进程间的通信方式有哪些,各自是以什么方式实现的",
                                                  "对于临界区有什么保护方法,以什么标准去选择这些方法"]


def test_a_sentence_naming_the_hires_duties_heads_them() -> None:
    result = extract_posting("\n".join([
        "Kernel engineer (Shanghai)",
        "The candidate will be reponsible for the following tasks",
        "1. Port the Linux kernel to the SoC and bring up the system",
        "2. Optimize the Linux kernel for maximum system performance",
        "3. Optimize DRAM performance, stability and power consumption",
    ]))
    assert result.questions == [] and "The candidate will be reponsible for the following tasks" in result.sections


def test_a_review_in_prose_with_glued_labels_and_no_subject() -> None:
    found = _questions(
        "Two phone interviews for the same job position. First interview-asked me questions on my project. "
        "OS concepts-what is mutual exclusion? Asked me to code (in C) a function which toggles one bit of a port.",
        "Second interview-Did not discuss my resume at all. How does a debugger work? Asked me to write a program "
        "to remove duplicate characters in a string.",
    )
    assert "what is mutual exclusion?" in found
    assert "code (in C) a function which toggles one bit of a port" in found
    assert "write a program to remove duplicate characters in a string" in found


def test_a_self_check_list_after_a_bank_is_no_question() -> None:
    assert _questions(
        "# 存储面试题",
        "### Q1: WAL",
        "**题目**: 为什么写入前要先写 WAL？",
        "**答案提示**:",
        "- 顺序写比随机写快",
        "## 附录：自查清单",
        "- [ ] 是否清楚 fsync 与 fdatasync 的区别？",
        "- [ ] 是否能画出一次写入的完整路径？",
    ) == ["为什么写入前要先写 WAL？"]


def test_a_remark_in_brackets_after_a_question_does_not_make_it_narration() -> None:
    assert _questions(
        "某数据库内核岗 一面",
        "1. 数据库的隔离级别有哪些?",
        "2. arp协议在哪一层?干了什么?是什么播?确定是广播吗?(问这个是因为我自己给它起了个名字叫mac协议,我忘了它叫arp了)",
        "3. 你的数据库的各个隔离级别是怎么具体实现的?",
    )[1].startswith("arp协议在哪一层?干了什么?是什么播?确定是广播吗?")


def test_a_qa_pages_questions_over_their_answer_counts() -> None:
    assert _questions(
        "# Design verification engineer Interview Questions",
        "Interview questions shared by candidates### Create an 8 input AND gate using three 4:1 muxes",
        "8 Answers↳",
        "Without an enable bit the maximum is 7. Less",
        "↳",
        "Are we allowed to use an AND gate?",
        "### You have seven stones and a scale. How will you find the lighter one?",
        "5 Answers↳",
        "Two weighings at most. Less",
    ) == ["Create an 8 input AND gate using three 4:1 muxes",
          "You have seven stones and a scale. How will you find the lighter one?"]


def test_an_items_closing_semicolon_and_a_series_of_inclusions() -> None:
    assert judge_line("- 介绍一下你的项目;").dropped == "project talk without a topic"
    from prep.postings.prose import _enumerated_tasks
    assert _enumerated_tasks("polymorphism in detail, including types, examples, and code samples") == [
        "polymorphism in detail, including types, examples, and code samples"]
