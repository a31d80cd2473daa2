"""A database lease so that one process at a time runs a periodic job (the reminder sweep)
across workers and hosts, with take-over when the holder stops renewing (it died).

Works the same on SQLite and PostgreSQL: a row per job name, claimed by a conditional UPDATE.
"""
from __future__ import annotations

import os
import socket
import uuid
from datetime import datetime, timedelta, timezone

from sqlalchemy import String, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from .extensions import db
from .dbtypes import UTCDateTime

PROCESS_ID = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Lease(db.Model):
    __tablename__ = "leases"

    name: Mapped[str] = mapped_column(String(80), primary_key=True)
    holder: Mapped[str] = mapped_column(String(200))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())


def acquire(name: str, now: datetime, ttl: timedelta, holder: str = PROCESS_ID) -> bool:
    """Take or renew the lease ``name`` until ``now + ttl``; False when another live holder has it.

    Commits its own short transaction, so the claim is visible to other processes at once.
    """
    expires = now + ttl
    result = db.session.execute(
        update(Lease).where(Lease.name == name, (Lease.holder == holder) | (Lease.expires_at <= now))
        .values(holder=holder, expires_at=expires))
    if result.rowcount == 1:
        db.session.commit()
        return True
    db.session.rollback()
    if db.session.get(Lease, name) is not None:
        db.session.rollback()
        return False
    db.session.add(Lease(name=name, holder=holder, expires_at=expires))
    try:
        db.session.commit()
        return True
    except IntegrityError:  # another process inserted it first
        db.session.rollback()
        return False


def release(name: str, holder: str = PROCESS_ID) -> None:
    db.session.execute(update(Lease).where(Lease.name == name, Lease.holder == holder)
                       .values(expires_at=datetime(1970, 1, 1, tzinfo=timezone.utc)))
    db.session.commit()
