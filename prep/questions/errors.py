"""The question bank's errors: ``str(error)`` in English (CLI, logs), ``error.message`` in the UI
language (a lazy translation, for a form)."""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l


class QuestionError(ValueError):
    """A user-facing problem with a question."""

    def __init__(self, english: str, message: Any = None) -> None:
        super().__init__(english)
        self.message = message if message is not None else english


class EmptyQuestion(QuestionError):
    """The question has no words once normalised."""

    def __init__(self) -> None:
        super().__init__("The question has no words in it.", _l("The question has no words in it."))
