"""Write prep/content/field_misses.json: the field set's questions that no page answers yet.

The field set (tests/data/field_links/questions.json) labels each question with its page, or
none; the questions labelled none (off-topic ones left out) are what `prep content coverage` and
the instructors' unanswered page list. Run after relabelling the field set:

    .venv/bin/python scripts/field_misses.py
"""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIELD = ROOT / "tests" / "data" / "field_links" / "questions.json"
MISSES = ROOT / "prep" / "content" / "field_misses.json"


def misses(field: dict) -> list[dict]:
    """The questions of ``field`` without a page, off-topic ones left out, as the misses file holds them."""
    return [{"q": item["q"], "topic": item["topic"], "source": item["source"]}
            for item in field["questions"] if not item.get("page") and item["topic"] != "off-topic"]


def render(items: list[dict]) -> str:
    body = ",\n".join("  " + json.dumps(item, ensure_ascii=False) for item in items)
    questions = "[\n" + body + "\n ]" if items else "[]"  # none left once every question has a page
    return ("{\n \"about\": \"Questions real interviews asked (our paraphrases; sources in "
            "tests/data/field_links/SOURCES.md) that no explanation answered when this was written. "
            "Made by scripts/field_misses.py from tests/data/field_links/questions.json.\",\n"
            " \"questions\": " + questions + "\n}\n")


def main() -> None:
    items = misses(json.loads(FIELD.read_text(encoding="utf-8")))
    MISSES.write_text(render(items), encoding="utf-8")
    print(f"{len(items)} questions without a page -> {MISSES.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
