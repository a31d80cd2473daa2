"""Every skill that at least two of the project's own test postings name has an explanation
: the postings, the labelled corpus and the seed postings, as extracted."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import yaml

from prep.postings.decode import read_posting_file
from prep.postings.extract import extract_posting

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("postings", "corpus", "seeds")
SUFFIXES = (".txt", ".md", ".html", ".htm")


def _asked() -> Counter[str]:
    asked: Counter[str] = Counter()
    for folder in FOLDERS:
        for path in sorted((ROOT / "tests" / "data" / folder).iterdir()):
            if path.suffix in SUFFIXES:
                asked.update(set(extract_posting(read_posting_file(path)).skills))
    return asked


def _covered() -> set[str]:
    covered: set[str] = set()
    for path in (ROOT / "content").rglob("*.md"):
        front = yaml.safe_load(path.read_text(encoding="utf-8").split("---", 2)[1]) or {}
        covered.update(front.get("skills") or [])
    return covered


def test_every_skill_two_postings_ask_for_has_an_explanation() -> None:
    asked = _asked()
    assert len(asked) >= 40  # the corpus is really read
    covered = _covered()
    missing = sorted(skill for skill, n in asked.items() if n >= 2 and skill not in covered)
    assert missing == [], missing
