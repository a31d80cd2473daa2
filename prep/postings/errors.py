"""Domain errors of the postings feature.

Every problem with a posting a user brings (empty, binary, too large, undecodable) is a
:class:`PostingInputError` whose message is one line, fit to show as is in the CLI or a form.
"""
from __future__ import annotations


class PostingError(Exception):
    """Base class of the postings feature's errors."""


class PostingInputError(PostingError, ValueError):
    """The posting file or text cannot be used; ``str(error)`` is a one-line explanation."""

    def __init__(self, message: str) -> None:
        self.message = " ".join(message.split())
        super().__init__(self.message)

    @property
    def sentence(self) -> str:
        """The message as a form shows it: a capital first letter and one final full stop."""
        message = self.message.strip()
        return (message[:1].upper() + message[1:]).rstrip(".") + "."
