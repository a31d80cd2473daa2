"""Domain errors of the postings feature.

Every problem with a posting a user brings (empty, binary, too large, undecodable) is a
:class:`PostingInputError` whose message is one line, fit to show as is in the CLI or a form.
"""
from __future__ import annotations

from datetime import date


class PostingError(Exception):
    """Base class of the postings feature's errors."""


def N_(message: str) -> str:
    """Marks an English message for translation (pybabel's extractor knows ``N_``) where none can
    be made (pure modules): the web layer translates it by its ``template``."""
    return message


class PostingInputError(PostingError, ValueError):
    """The posting file or text cannot be used; ``str(error)`` is a one-line explanation in English
    (the CLI's), made of ``template`` (marked with :func:`N_`) and ``params``, which a page
    translates instead (``gettext(err.template, **err.params)``)."""

    def __init__(self, message: str, **params: object) -> None:
        self.template, self.params = message, params
        self.message = " ".join((message % params if params else message).split())
        super().__init__(self.message)

    @property
    def sentence(self) -> str:
        """The message as a form shows it: a capital first letter and one final full stop."""
        return as_sentence(self.message)


def as_sentence(message: str) -> str:
    """``message`` with a capital first letter and one final full stop (a Chinese one kept)."""
    message = message.strip()
    message = message[:1].upper() + message[1:]
    return message if message.endswith("。") else message.rstrip(".") + "."


class InterviewDateError(PostingInputError):
    """An interview date outside today..a year ahead (:mod:`prep.postings.interview_dates`);
    ``day``, ``first`` and ``last`` say which date and which fit (a form words its own message)."""

    def __init__(self, day: date, first: date, last: date) -> None:
        self.day, self.first, self.last = day, first, last
        super().__init__(f"the interview date {day.isoformat()} is outside {first.isoformat()} to "
                         f"{last.isoformat()} (today to a year ahead)")


class ScannedDocumentError(PostingInputError):
    """A document whose pages hold no text (a scanned PDF): there is nothing to read without
    OCR, so the candidate is asked to paste the text (a form words its own message)."""

    def __init__(self) -> None:
        super().__init__("the PDF document has no text layer (it looks like a scan): "
                         "copy its text and paste it instead")
