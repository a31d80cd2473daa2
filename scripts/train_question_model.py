"""Train the sentence model of question extraction from our own labelled corpora.

Every sentence the extractor considers in each document of ``tests/data/corpus*`` and
``tests/data/postings`` (documents with a golden JSON beside them) is an example: positive when it
matches a golden question the way ``prep extract --eval`` matches them. A logistic regression
(scikit-learn, L2) over the hashed features of :mod:`prep.postings.sentence_model` is fitted and
written as plain JSON (bias and the non-zero weights), which the extractor reads at run time
without scikit-learn. Deterministic: the same corpora give the same file.

    pip install -e '.[train]'
    python scripts/train_question_model.py            # writes prep/postings/question_model.json
    python scripts/train_question_model.py --check    # cross-validated figures, writes nothing
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from prep.postings import sentence_model  # noqa: E402
from prep.postings.evaluate import load_corpus, texts_match  # noqa: E402
from prep.postings.extract import document_lines  # noqa: E402
from prep.postings.interview_questions import find_questions  # noqa: E402
from prep.postings.reports import read_as  # noqa: E402
from prep.postings.segment import segment  # noqa: E402

CORPORA = sorted(p for p in (ROOT / "tests" / "data").glob("corpus*") if p.is_dir()) + [ROOT / "tests" / "data" / "postings"]
#: Inverse regularisation strength (chosen by --check over the corpora).
C = 0.5


def examples(folders: list[Path]) -> tuple[list[tuple[str, ...]], list[int], list[str]]:
    """Features, labels and the document each example came from."""
    feats: list[tuple[str, ...]] = []
    labels: list[int] = []
    groups: list[str] = []
    for folder in folders:
        for document in load_corpus(folder):
            golden = [q["text"] for q in document.golden.get("questions", [])]
            lines, _tail = document_lines(document.text)
            blocks, _recognised = segment(lines)
            report, listing = read_as(lines, blocks)
            origins: dict[str, tuple[int, int]] = {}
            found, _truncated = find_questions(blocks, report, listing=listing, origins=origins)
            for candidate in sentence_model.candidates(blocks, report, listing, found, origins):
                feats.append(candidate.features)
                labels.append(int(any(texts_match(candidate.text, g) for g in golden)))
                groups.append(f"{folder.name}/{document.name}")
    return feats, labels, groups


def matrix(feats: list[tuple[str, ...]]):
    from scipy.sparse import csr_matrix

    rows, cols = [], []
    for row, features in enumerate(feats):
        for index in sorted({sentence_model.feature_index(f) for f in features}):
            rows.append(row)
            cols.append(index)
    return csr_matrix(([1.0] * len(rows), (rows, cols)), shape=(len(feats), sentence_model.DIMENSIONS))


def fit(x, y, c: float = C):
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=c, solver="liblinear", max_iter=2000, random_state=0)
    model.fit(x, y)
    return model


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="cross-validate by document group, write nothing")
    parser.add_argument("--out", type=Path, default=sentence_model.MODEL_PATH)
    args = parser.parse_args()
    feats, labels, groups = examples(CORPORA)
    x = matrix(feats)
    print(f"{len(labels)} sentences, {sum(labels)} questions, {len(set(groups))} documents")
    if args.check:
        from sklearn.model_selection import GroupKFold

        for c in (0.1, 0.3, 0.5, 1.0, 3.0):
            tp = fp = fn = 0
            for train, test in GroupKFold(n_splits=5).split(x, labels, groups):
                model = fit(x[train], [labels[i] for i in train], c)
                for i, p in zip(test, model.predict_proba(x[test])[:, 1]):
                    tp += p >= sentence_model.THRESHOLD and labels[i]
                    fp += p >= sentence_model.THRESHOLD and not labels[i]
                    fn += p < sentence_model.THRESHOLD and labels[i]
            print(f"C={c}: precision {tp / max(1, tp + fp):.3f} recall {tp / max(1, tp + fn):.3f}")
        return 0
    model = fit(x, labels)
    weights = {str(i): round(float(w), 4) for i, w in enumerate(model.coef_[0]) if abs(w) >= 1e-4}
    args.out.write_text(json.dumps({"about": "prep question sentence model: logistic regression over hashed features "
                                    "(see prep/postings/sentence_model.py); written by scripts/train_question_model.py",
                                    "dimensions": sentence_model.DIMENSIONS,
                                    "bias": round(float(model.intercept_[0]), 4), "weights": weights},
                                   sort_keys=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(weights)} weights)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
