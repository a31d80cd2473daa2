"""User accounts and their study settings."""
from __future__ import annotations

import enum
from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import Enum, Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .. import clock
from ..dbtypes import UTCDateTime


class Role(str, enum.Enum):
    candidate = "candidate"
    instructor = "instructor"
    admin = "admin"


class User(UserMixin, db.Model):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    display_name: Mapped[str] = mapped_column(String(80), default="")
    password_hash: Mapped[str] = mapped_column(String(255))
    role: Mapped[Role] = mapped_column(Enum(Role, native_enum=False, length=16), default=Role.candidate)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now)
    # Bumped on logout-everywhere / password change: sessions carrying an older value are refused.
    session_version: Mapped[int] = mapped_column(Integer, default=1)

    # UI language ("en" or "zh"); None follows the browser.
    language: Mapped[str | None] = mapped_column(String(8), default=None)

    # Study settings
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    day_start_hour: Mapped[int] = mapped_column(Integer, default=4)
    new_per_day: Mapped[int] = mapped_column(Integer, default=20)
    reviews_per_day: Mapped[int] = mapped_column(Integer, default=200)
    desired_retention: Mapped[float] = mapped_column(Float, default=0.9)
    learning_steps: Mapped[str] = mapped_column(String(120), default="1m 10m")
    relearning_steps: Mapped[str] = mapped_column(String(120), default="10m")
    maximum_interval: Mapped[int] = mapped_column(Integer, default=36500)
    # FSRS parameters fitted to this user's history (JSON list), or None for the defaults.
    fsrs_parameters: Mapped[str | None] = mapped_column(String(1000), default=None)

    def get_id(self) -> str:
        return f"{self.id}:{self.session_version}"

    @property
    def is_instructor(self) -> bool:
        return self.role in (Role.instructor, Role.admin)

    @property
    def is_admin(self) -> bool:
        return self.role is Role.admin


class AttemptCounter(db.Model):
    """Attempts at a limited action (log in, register) per key in a fixed window, shared by
    every worker and host through the database; see :mod:`prep.accounts.attempts`."""

    __tablename__ = "attempt_counters"

    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(UTCDateTime())
    count: Mapped[int] = mapped_column(Integer, default=0)


class PendingRegistration(db.Model):
    """A registration for an address with no account yet, waiting for its owner to follow the
    emailed link; see :mod:`prep.accounts.registration`. It holds no password: whoever follows the
    link (the address's owner) chooses it then, so registering someone else's address first takes
    nothing over. No account exists (and none can log in) until then, so the answer to a
    registration is the same whether the address has an account."""

    __tablename__ = "pending_registrations"

    id: Mapped[int] = mapped_column(primary_key=True)
    # SHA-256 of the link's random token: the database alone does not give a working link.
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    # The footer language at registration: the account's when the link's page has none chosen.
    language: Mapped[str | None] = mapped_column(String(8), default=None)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=clock.now, index=True)
