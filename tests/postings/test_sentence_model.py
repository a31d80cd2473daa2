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
