"""The field set: questions real interviews for these roles asked (our paraphrases of public
reports), and which of them no explanation answers yet.

``prep content coverage`` and the instructors' unanswered page read it. The shipped file,
``field_misses.json`` next to this module, holds the field questions no page answered when it was
written (made from tests/data/field_links/questions.json by scripts/field_misses.py); each is
checked again against the current explanations, so a page that lands takes its questions off the
list at once. ``prep content coverage --field FILE`` reads any file of the same shape (the whole
field set, or a new batch of questions).
"""
from __future__ import annotations

import json
from pathlib import Path

from flask import current_app

from .coverage import FieldQuestion, TopicMiss, field_misses
from .errors import FieldSetError
from .sync import current_linker

#: The field questions without a page, shipped with prep.
SHIPPED_MISSES = Path(__file__).with_name("field_misses.json")
#: Topics marked so are not questions for these roles (databases, RPC, consensus).
OFF_TOPIC = "off-topic"


def load_field_questions(path: str | Path) -> list[FieldQuestion]:
    """The questions of a field-set file: ``{"questions": [{"q": ..., "topic": ..., "source": n}]}``
    (other keys are ignored). Raises :class:`FieldSetError` naming the file when it is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        items = data["questions"]
        return [FieldQuestion(str(item["q"]), str(item.get("topic") or "?"), item.get("source"))
                for item in items if str(item.get("topic")) != OFF_TOPIC and str(item["q"]).strip()]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        raise FieldSetError(path, err) from None


def misses_now(path: str | Path | None = None) -> list[TopicMiss]:
    """The field questions (by default the shipped misses) that the current explanations do not
    answer confidently (under ``LINK_MIN_SCORE``), by topic, most asked first."""
    questions = load_field_questions(path or SHIPPED_MISSES)
    linker = current_linker()
    return field_misses(questions, lambda text: linker.rank(text, limit=1), current_app.config["LINK_MIN_SCORE"])
