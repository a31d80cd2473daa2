"""Our own documents in the layouts of real interview reports and question lists, as a floor.

The corpus copies the shapes met in real public reports (inline numbering, flattened HTML lists,
block-quoted asker labels, Q&A pages, nested topic labels, English prose) with our own sentences;
its README lists the real sources' addresses and what each taught. First run: F1 0.673.
"""
from __future__ import annotations

from pathlib import Path

from prep.postings.evaluate import evaluate, load_corpus

CORPUS = Path(__file__).parents[1] / "data" / "corpus_field_shapes"
MIN_QUESTION_F1 = 0.90
MIN_SKILL_RECALL = 0.95
MIN_COMPANY_RIGHT = 7  # of the 8 documents that name an employer


def test_field_shapes_stay_above_their_floor() -> None:
    score = evaluate(load_corpus(CORPUS))
    summary = score.summary()
    assert score.f1 >= MIN_QUESTION_F1, summary
    assert score.skill_recall >= MIN_SKILL_RECALL, summary
    assert score.noise_hits == [], score.noise_hits
    right, checked = (int(n) for n in str(summary["company"]).split("/"))
    assert checked == 8 and right >= MIN_COMPANY_RIGHT, summary["company"]
