"""Shapes of plain text and Markdown sources: paragraphs hard-wrapped at the page's width, rules
between questions, "Bonus:" follow-ups, a panel's initials in a transcript, "1- " items and front
matter with camel-case keys."""
from __future__ import annotations

from prep.postings.extract import extract_posting


def _texts(text: str) -> list[str]:
    return [q.text for q in extract_posting(text).questions]


def test_wrapped_paragraphs_between_rules_and_bonus_follow_ups() -> None:
    text = ("# Interview questions for network engineers\n\n"
            "I use these on loops for people who will run our edge fleet. None\n"
            "has one right answer.\n\n- - -\n\n"
            "A TCP connection between two data centres stalls for exactly\n"
            "200 milliseconds now and then. What would you look at first?\n\n"
            "Bonus: Explain how delayed acknowledgements and Nagle's algorithm\n"
            "can combine into such a stall.\n\n- - -\n\n"
            "Why might a load balancer that hashes on the five-tuple send most\n"
            "traffic to one backend?\n\n- - -\n\n"
            "Describe how you would find which process holds a port open on a\n"
            "host where you cannot install new tools.\n\n"
            "Bonus bonus: Explore what you could still learn from outside a host\n"
            "that has no shell at all.\n")
    assert _texts(text) == [
        "A TCP connection between two data centres stalls for exactly 200 milliseconds now and then. "
        "What would you look at first?",
        "Explain how delayed acknowledgements and Nagle's algorithm can combine into such a stall.",
        "Why might a load balancer that hashes on the five-tuple send most traffic to one backend?",
        "Describe how you would find which process holds a port open on a host where you cannot install new tools.",
        "Explore what you could still learn from outside a host that has no shell at all.",
    ]


def test_a_panel_by_initials_asks_and_me_answers() -> None:
    text = ("# Research interview, systems group\n\n"
            "KR : What is a page fault, and who handles it?\n\n"
            "Me: The MMU raises it and the kernel handles it.\n\n"
            "SD : Walk me through what happens on fork when the parent has a large heap.\n\n"
            "Me: Pages are shared copy-on-write.\n\n"
            "SD : Why is copy-on-write cheaper here?\n\nMe: Few pages are written.\n")
    assert _texts(text) == ["What is a page fault, and who handles it?",
                            "Walk me through what happens on fork when the parent has a large heap.",
                            "Why is copy-on-write cheaper here?"]


def test_front_matter_with_camel_case_keys_and_dash_numbered_items() -> None:
    text = ("---\ntitle: \"推理面试题整理\"\npubDate: 2026-03-02\ninterviewType: \"技术面\"\n---\n\n"
            "1️⃣ 显存\n1- KV cache 占用的显存怎么估算？\n2- 手写一个 safe softmax 的 CUDA kernel\n")
    result = extract_posting(text)
    assert [q.text for q in result.questions] == ["KV cache 占用的显存怎么估算？", "手写一个 safe softmax 的 CUDA kernel"]
    assert result.company is None
