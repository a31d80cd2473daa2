"""The question tagger on the labelled questions (tests/data/question_skills): precision and
recall of the skill tags against the skills each question is about, over every tag (micro
averages). ``labelled.yaml`` was written before the tagger; ``heldout.yaml`` after its method was
settled, and never used to tune it.

The tagger runs as an import runs it: on the question's text, with the lead skills of the
shipped explanations the linker links it to with at least ``LINK_MIN_SCORE``."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from prep.config import defaults
from prep.content.check import check_tree
from prep.content.linker import Linker
from prep.skills import load_taxonomy
from prep.skills.question_skills import question_skills

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "question_skills"
#: The floors: precision is the promise (a tag shown is a skill the question is about); recall sits
#: a margin under what the tagger measured when this test was written (0.967 and 0.960).
FLOORS = {"labelled.yaml": (0.90, 0.93), "heldout.yaml": (0.90, 0.90)}


def load(name: str) -> list[dict]:
    return yaml.safe_load((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tag():
    taxonomy = load_taxonomy()
    docs = check_tree(ROOT / "content", taxonomy).all_docs
    linker = Linker(docs, taxonomy)
    leads = {}
    for doc in docs:
        if doc.skills:
            leads.setdefault(doc.slug, doc.skills[0])
    min_score = defaults(ROOT)["LINK_MIN_SCORE"]

    def tag(text: str) -> list[str]:
        linked = [link.slug for link in linker.rank(text, limit=3) if link.score >= min_score]
        return question_skills(text, [leads[slug] for slug in linked if slug in leads])
    return tag


def test_the_set_is_large_bilingual_and_a_third_held_out():
    labelled, heldout = load("labelled.yaml"), load("heldout.yaml")
    everything = labelled + heldout
    assert len(everything) >= 150 and len(heldout) * 3 >= len(everything)
    chinese = sum(any("\u4e00" <= ch <= "\u9fff" for ch in item["q"]) for item in everything)
    assert 0.3 <= chinese / len(everything) <= 0.8
    assert sum(not item["skills"] for item in everything) >= 30  # coding, HR and off-taxonomy questions
    names = load_taxonomy().names
    assert all(set(item["skills"]) <= names for item in everything)
    assert len({item["q"] for item in everything}) == len(everything)


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_precision_and_recall(tag, name):
    counts: Counter[tuple[str, str]] = Counter()
    misses = []
    for item in load(name):
        gold, found = set(item["skills"]), set(tag(item["q"]))
        for skill in found | gold:
            counts[skill, "tp" if skill in found & gold else "fp" if skill in found else "fn"] += 1
        if found != gold:
            misses.append(f"{item['q']}: expected {sorted(gold)}, tagged {sorted(found)}")
    tp, fp, fn = (sum(n for (_, kind), n in counts.items() if kind == k) for k in ("tp", "fp", "fn"))
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    floor_p, floor_r = FLOORS[name]
    detail = f"{name}: precision {precision:.3f}, recall {recall:.3f}\n" + "\n".join(misses)
    assert precision >= floor_p, detail
    assert recall >= floor_r, detail
