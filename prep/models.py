"""Imports every feature's models so the metadata knows all tables (for create_all and Alembic)."""
from .accounts.models import AttemptCounter, Role, User  # noqa: F401
from .content.models import Explanation, ExplanationRevision  # noqa: F401
from .drill.models import Card, CardState, PlannedReview, ReviewLog  # noqa: F401
from .interview.models import InterviewOutcome, InterviewSettings  # noqa: F401
from .leases import Lease  # noqa: F401
from .optimize.models import OptimizationRun
from .postings.models import (BankDecision, BankEvent, Posting, PostingForecast, PostingQuestion, ShareEvent,  # noqa: F401
                              SharedReport)
from .reminders.models import Notification, ReminderAttempt, ReminderLog, ReminderSettings  # noqa: F401
from .secret_keys import SecretKeyHost  # noqa: F401
from .questions.models import LinkOrigin, Question, QuestionExplanation, Source, Tag

__all__ = [
    "Card", "CardState", "Explanation", "LinkOrigin", "OptimizationRun", "Question", "QuestionExplanation",
    "ReviewLog", "Role", "Source", "Tag", "User",
]
