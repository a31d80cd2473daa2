"""Shared reports' errors: ``str(error)`` in English (logs, tests), ``error.message`` in the UI
language (a lazy translation, shown next to the field or in a flash)."""
from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l


class ShareError(ValueError):
    """A user-facing problem with sharing a report; nothing was changed."""

    def __init__(self, english: str, message: Any = None) -> None:
        super().__init__(english)
        self.message = message if message is not None else english


class NotAReport(ShareError):
    def __init__(self) -> None:
        super().__init__("Only interview reports can be shared.", _l("Only interview reports can be shared."))


class EmptyShare(ShareError):
    def __init__(self) -> None:
        super().__init__("The shared text is empty.", _l("Write what others will read: the text is empty."))


class ShareTooLong(ShareError):
    def __init__(self, limit: int) -> None:
        super().__init__(f"The shared text is longer than {limit} characters.",
                         _l("The shared text is longer than %(limit)s characters.", limit=f"{limit:,}"))


class AlreadyPublished(ShareError):
    def __init__(self) -> None:
        super().__init__("This report is already shared; withdraw it first to change it.",
                         _l("This report is already shared: withdraw it first to change what others read."))


class NotPending(ShareError):
    def __init__(self) -> None:
        super().__init__("This shared report is no longer waiting for review.",
                         _l("This shared report is no longer waiting for review."))


class ReasonMissing(ShareError):
    def __init__(self) -> None:
        super().__init__("Say why the report is returned.", _l("Say why the report is returned: its author reads it."))
