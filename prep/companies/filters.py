"""The company page's filters (round, question kind, language, role) and "study the top N",
read from a query string or a form. A value that is not one of the allowed ones is dropped, so
no URL can make the page fail.

Pure module: no Flask, no database.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from ..postings.extract import KINDS
from ..postings.role_family import FAMILY_KEYS

#: Question languages a candidate can filter by.
LANGUAGES = ("en", "zh")
#: The longest round name stored (``PostingQuestion.round``).
MAX_ROUND_CHARS = 60
#: "Study the top N": the bounds of N, and the number the form starts with.
STUDY_MIN, STUDY_MAX, STUDY_DEFAULT = 1, 50, 10


@dataclass(frozen=True)
class Filters:
    """What the question list is narrowed to (None: any)."""

    round: str | None = None
    kind: str | None = None
    lang: str | None = None
    role: str | None = None

    @property
    def active(self) -> bool:
        return any(asdict(self).values())

    def as_args(self) -> dict[str, str]:
        """The filters that are set, as query arguments (for links and the study form)."""
        return {name: value for name, value in asdict(self).items() if value}


def read_filters(args: Mapping[str, str]) -> Filters:
    """The filters ``args`` asks for, each dropped when it is not an allowed value."""
    round_ = (args.get("round") or "").strip()
    kind, lang, role = args.get("kind") or "", args.get("lang") or "", args.get("role") or ""
    return Filters(round=round_ if 0 < len(round_) <= MAX_ROUND_CHARS else None,
                   kind=kind if kind in KINDS else None,
                   lang=lang if lang in LANGUAGES else None,
                   role=role if role in FAMILY_KEYS else None)
