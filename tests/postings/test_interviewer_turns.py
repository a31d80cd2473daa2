"""A transcript's quoted interviewer turn ('**Interviewer:** "We … . Why?"') is one question: the
scenario and what it asks, without the speaker label or the quotes."""
from __future__ import annotations

from prep.postings.asking import clean_question
from prep.postings.extract import extract_posting

SCENARIO = ("We train a 20B model with plain data parallelism on 80 GB GPUs. The weights take 40 GB, "
            "yet step one runs out of memory. Why?")
SECOND = "Half our GPUs sit in rack A and half in rack B, and the allreduce across them is slow. What did we miss?"
PAGE = f"""# Distributed training round

### The memory wall · parallelism

**Interviewer:** "{SCENARIO}"

**Common Mistake:** "The batch is too large." That misses the optimizer state.

**Realistic Solution:** Adam keeps two moments and a master copy; shard them with ZeRO or FSDP.

### The slow rack · network

**Interviewer:** "{SECOND}"

**Common Mistake:** "The NICs are misconfigured." The uplinks are oversubscribed.
"""


def test_the_quoted_turn_is_the_question() -> None:
    assert clean_question(f'**Interviewer:** "{SCENARIO}"') == SCENARIO
    assert clean_question(f"Interviewer: “{SCENARIO}”") == SCENARIO


def test_an_unquoted_turn_gives_its_words_without_the_speaker() -> None:
    assert clean_question("面试官：先来道题吧，链表熟吗？") == "先来道题吧，链表熟吗？"
    assert clean_question("Interviewer: What if most keys repeat?") == "What if most keys repeat?"


def test_a_transcript_page_gives_the_whole_turn() -> None:
    """The turn, not only its last sentence ("What did we miss?"). The first turn, which opens with
    "We …", is still judged narration by the sentence model: a known miss."""
    texts = [q.text for q in extract_posting(PAGE).questions]
    assert SECOND in texts


def test_bare_q_and_a_labels_on_their_own_lines_open_the_next_line() -> None:
    """A transcript that puts "Q1" and "A1" on lines of their own over the question and the answer:
    the questions are found, without their labels, and "Q1" is not the document's title."""
    text = ("2nd interview from Northwind Research\n\nMainly about my projects.\n\n"
            "Q1\n\nWhat GPU programming have you done, and with which APIs? I ask because the team writes "
            "kernels every day and we need to know where you would start.\n\n"
            "A1\n\nSome CUDA in a course, mostly reductions, and a bit of OpenCL for a class project on image filters.\n\n"
            "Q2-1\n\nHow would you measure the memory bandwidth a kernel reaches?\n\n"
            "A2-1\n\nCount the bytes moved and divide by the kernel time, then compare with the peak from the data sheet.\n\n"
            "Q2-2\n\nSo what limits it on a GPU?\n\n"
            "A2-2\n\nThe memory clock and the bus width, and how well the accesses coalesce.\n")
    result = extract_posting(text)
    texts = [q.text for q in result.questions]
    assert texts[1:] == ["How would you measure the memory bandwidth a kernel reaches?", "So what limits it on a GPU?"]
    assert texts[0].startswith("What GPU programming have you done")
    assert result.title == "2nd interview from Northwind Research"
