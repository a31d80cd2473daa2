"""Write prep/questions/matcher_weights.json: each concept's weight for the question matcher,
its inverse document frequency over the shipped explanations (content/): each listed question
and each paragraph of a body is a document, so the words of plain English ("last", "held")
weigh little and a subject's terms much. Run it after the word list (prep/questions/lexicon.yaml) or many questions
changed; the output is deterministic (sorted keys, 3 decimals).

    .venv/bin/python scripts/matcher_weights.py [--check]
"""
from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path

from prep.content.document import parse_document
from prep.questions.matcher import UNSEEN, WEIGHTS_PATH, concepts

ROOT = Path(__file__).resolve().parent.parent


def content_documents(root: Path = ROOT / "content") -> list[str]:
    """Every question the explanations list (each once) and every paragraph of their bodies."""
    seen: dict[str, None] = {}
    for path in sorted(root.rglob("*.md")):
        parsed = parse_document(path.read_text(encoding="utf-8"), str(path.relative_to(root)), lenient=True)
        if parsed.doc is not None:
            for text in [*parsed.doc.questions, *parsed.doc.body.split("\n\n")]:
                if text.strip():
                    seen.setdefault(text.strip(), None)
    return list(seen)


def weights(questions: list[str]) -> dict[str, float]:
    """Each concept's idf over these documents."""
    df: Counter[str] = Counter()
    for question in questions:
        df.update(concepts(question).all)
    n = len(questions)
    # A concept met once weighs like an unseen one (the file's UNSEEN entry): not listed.
    out = {c: round(math.log(1.0 + (n - d + 0.5) / (d + 0.5)), 3) for c, d in sorted(df.items()) if d > 1}
    out[UNSEEN] = round(math.log(1.0 + (n - 0.5) / 1.5), 3)
    return dict(sorted(out.items()))


def main(argv: list[str]) -> int:
    text = json.dumps(weights(content_documents()), ensure_ascii=False, sort_keys=True, indent=0) + "\n"
    if "--check" in argv:
        current = WEIGHTS_PATH.read_text(encoding="utf-8") if WEIGHTS_PATH.exists() else ""
        if current != text:
            print(f"{WEIGHTS_PATH.name} is out of date: run scripts/matcher_weights.py", file=sys.stderr)
            return 1
        return 0
    WEIGHTS_PATH.write_text(text, encoding="utf-8")
    print(f"{WEIGHTS_PATH.name}: {text.count(chr(10)) - 2} concepts")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
