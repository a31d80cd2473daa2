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


def test_an_unquoted_turn_is_read_as_before() -> None:
    assert clean_question("面试官：先来道题吧，链表熟吗？") == "面试官：先来道题吧，链表熟吗？"


def test_a_transcript_page_gives_the_whole_turn() -> None:
    """The turn, not only its last sentence ("What did we miss?"). The first turn, which opens with
    "We …", is still judged narration by the sentence model: a known miss."""
    texts = [q.text for q in extract_posting(PAGE).questions]
    assert SECOND in texts
