"""Our own documents in the shapes of real reports that the sentence model learns from, as a floor.

The corpus (tests/data/corpus_sentences) is also training data, so this floor guards against a
retrained model or a rule change losing what it already reads, not against overfitting; the
figures on real documents are measured outside the repository.
"""
from __future__ import annotations

from pathlib import Path

from prep.postings.evaluate import evaluate, load_corpus

CORPUS = Path(__file__).parents[1] / "data" / "corpus_sentences"
MIN_QUESTION_F1 = 0.80
MIN_PRECISION = 0.85


def test_sentence_shapes_stay_above_their_floor() -> None:
    score = evaluate(load_corpus(CORPUS))
    assert score.f1 >= MIN_QUESTION_F1, score.summary()
    assert score.precision >= MIN_PRECISION, score.summary()
