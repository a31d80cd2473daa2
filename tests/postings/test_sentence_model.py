"""The question sentence model: its data file, its sentences, its features and how it joins the rules."""
from __future__ import annotations

import json
import time

from prep.postings import sentence_model
from prep.postings.extract import extract_posting


def test_the_model_is_a_plain_json_file_of_weights() -> None:
    data = json.loads(sentence_model.MODEL_PATH.read_text(encoding="utf-8"))
    assert data["dimensions"] == sentence_model.DIMENSIONS
    assert isinstance(data["bias"], float)
    assert data["weights"] and all(0 <= int(k) < sentence_model.DIMENSIONS for k in data["weights"])


def test_feature_hashing_does_not_depend_on_the_process() -> None:
    # CRC-32, not the salted built-in hash: the same feature has the same index in every run
    assert sentence_model.feature_index("open=什么") == 218191
    assert sentence_model.feature_index("w=explain") != sentence_model.feature_index("w=explains")


def test_a_question_and_its_answer_on_one_line_are_two_sentences() -> None:
    line = "2. 缓存穿透和缓存击穿有什么区别？ 这是一个区分度很高的问题。你可以这样回答：“穿透是查不存在的数据。”"
    parts = sentence_model.sentences(line)
    assert parts[0] == "2. 缓存穿透和缓存击穿有什么区别？"
    assert len(parts) == 3
    tail = "What is model parallelism? (Recently asked in ML Engineer interview)"
    assert sentence_model.sentences(tail) == ["What is model parallelism?", "(Recently asked in ML Engineer interview)"]


def test_questions_quoted_inside_narration_are_candidates() -> None:
    line = "问来问去无非是“工具调用失败了你怎么处理？”、“多轮对话的上下文怎么压缩？”这几类。"
    assert sentence_model.quoted_questions(line) == ["工具调用失败了你怎么处理？", "多轮对话的上下文怎么压缩？"]
    assert sentence_model.quoted_questions("“只是一句引用？”") == []


def test_answers_between_questions_are_not_taken() -> None:
    report = ("腾讯后台开发一面面经\n面试问题回顾\n- 进程和线程的区别？\n- 我从资源和调度两个角度说了一下。\n"
              "- 零拷贝？\n- 我讲了 sendfile 和 mmap 两种方式。\n- Raft 的脑裂怎么避免？\n- 我提到了任期号和多数派。\n")
    texts = [q.text for q in extract_posting(report).questions]
    assert texts == ["进程和线程的区别？", "零拷贝？", "Raft 的脑裂怎么避免？"]


def test_a_page_without_interview_in_its_title_is_still_read() -> None:
    page = ("I recently appeared for an interview for an embedded role. The interviewer asked about RTOS.\n"
            "Can you explain the differences between microcontrollers and microprocessors?\n"
            "How do you optimize code for memory-constrained embedded systems?\n"
            "This experience was shared anonymously.\n")
    texts = [q.text for q in extract_posting(page).questions]
    assert "How do you optimize code for memory-constrained embedded systems?" in texts


def test_without_a_model_the_rules_stand(monkeypatch) -> None:
    report = "字节一面面经\n一面\n1. 讲讲 TCP 三次握手？\n2. 实现一个 LRU\n"
    with_model = extract_posting(report).questions
    monkeypatch.setattr(sentence_model, "load_model", lambda: (0.0, {}))
    assert [q.text for q in extract_posting(report).questions] == ["讲讲 TCP 三次握手？", "实现一个 LRU"]
    assert with_model  # and the model keeps them
    assert [q.text for q in with_model] == ["讲讲 TCP 三次握手？", "实现一个 LRU"]


def test_a_long_line_of_sentences_is_bounded() -> None:
    line = "这是什么？" * 50_000
    assert len(sentence_model.sentences(line)) <= sentence_model.MAX_SENTENCES
    started = time.process_time()
    extract_posting("某某一面面经\n" + line + "\n")
    assert time.process_time() - started < 5.0


def test_a_question_whose_second_sentence_asks_stays_whole() -> None:
    text = "说一下进程的地址空间分成哪几个段?哪些段由编译器安排,哪些段在运行时分配。"
    assert sentence_model._without_explanation(text) == text
    answered = "如何在CUDA中进行显存管理? 显存管理是通过 cudaMalloc 和 cudaFree 完成的,还有统一内存。"
    assert sentence_model._without_explanation(answered) == "如何在CUDA中进行显存管理?"


def test_a_hint_bullet_under_each_numbered_question_is_not_a_question() -> None:
    page = ("Interview questions on GPU programming\n\nBasic Questions\n\n"
            + "".join(f"  {i}. {q}\n\n    • {hint}\n\n" for i, (q, hint) in enumerate([
                ("What is a warp?", "Explain how threads are grouped and scheduled."),
                ("What is shared memory?", "Describe its scope and lifetime."),
                ("What is occupancy?", "Discuss what limits it on a real kernel."),
                ("What is a stream?", "Describe how streams overlap copies and kernels.")], 1))
            + "These questions should give you a solid start.\n")
    texts = [q.text for q in extract_posting(page).questions]
    assert texts == ["What is a warp?", "What is shared memory?", "What is occupancy?", "What is a stream?"]


def test_a_question_page_under_an_overview_heading_is_read() -> None:
    page = ("Overview\nDistributed training interview practice\nAnswer each question out loud first.\n"
            "01Why does data parallel training all-reduce gradients rather than weights?\nShort Answer\n"
            "Every rank holds a replica and averages gradients so each applies the same update.\n"
            "02What is gradient bucketing in data parallel training?\nShort Answer\n"
            "Fewer, larger all-reduce calls that overlap with the backward pass.\n")
    texts = [q.text for q in extract_posting(page).questions]
    assert len(texts) == 2 and "gradient bucketing" in texts[1]


def test_a_list_of_other_reports_titles_is_not_this_reports_questions() -> None:
    report = ("腾讯校招 C++ 一面面经\n面试官问了 30 道题。\n"
              "更多大厂面试题: 阿里2面:分库分表之后怎么做跨库分页?\n字节C++一面:虚析构函数什么时候需要?\n"
              "C++ 八股文合集(二)\n米哈游C++面试:智能指针循环引用怎么办?\n网易 C++ 二面:epoll 和 select 的区别?\n"
              "Q1自我介绍\n面试官好,我是某某,计算机专业大四学生。\n"
              "Q2你对右值引用是怎么理解的?\n右值引用让移动语义成为可能,避免不必要的拷贝。\n")
    texts = [q.text for q in extract_posting(report).questions]
    assert texts == ["你对右值引用是怎么理解的?"]
    own = "美团一面:为什么有 KV Cache 没有 Q Cache?\n美团一面:为什么有 KV Cache 没有 Q Cache?\n" \
          "美团一面:为什么有 KV Cache 没有 Q Cache?\n这是一道常见的面试题,下面详细解析。\n"
    assert sentence_model._title_run(own.splitlines()) == []


def test_past_its_budget_the_model_keeps_the_unread_questions_not_those_it_rejected(monkeypatch) -> None:
    """Past MAX_CANDIDATES sentences the rules' questions not yet read are kept as the rules found
    them; a question the model read and rejected before the budget ran out stays rejected."""
    text = ("Zeta Labs interview experience\nRound 1\n1. What is a zebrafish cache?\n2. How does RDMA work?\n"
            "3. Explain NCCL rings.\n4. What is a warp?\n")
    real = sentence_model.probability
    monkeypatch.setattr(sentence_model, "probability",
                        lambda features, model=None: 0.0 if "w=zebrafish" in features else real(features, model))
    monkeypatch.setattr(sentence_model, "MAX_CANDIDATES", 4)
    texts = [q.text for q in extract_posting(text).questions]
    assert "What is a zebrafish cache?" not in texts
    assert {"Explain NCCL rings.", "What is a warp?"} <= set(texts)
