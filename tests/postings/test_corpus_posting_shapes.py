"""Our own postings in the layouts of real careers pages and boards, as a floor.

The corpus copies where real postings put the employer and the role (glued to the title, after
"作为", as a sentence's subject or a possessive, under a board's buttons, in a scraped table) with
our own sentences; its README lists the real sources' addresses and what each taught. Before the
whole-document rules: company 0/8, title 0/7, skill recall 0.77.
"""
from __future__ import annotations

from pathlib import Path

from prep.postings.evaluate import evaluate, load_corpus

CORPUS = Path(__file__).parents[1] / "data" / "corpus_posting_shapes"


def test_posting_shapes_name_employer_role_and_skills() -> None:
    score = evaluate(load_corpus(CORPUS))
    summary = score.summary()
    assert summary["company"] == "8/8", summary
    assert summary["title"] == "7/7", summary
    assert score.skill_recall == 1.0, summary
    assert summary["questions_found"] == 0 and score.noise_hits == [], summary
