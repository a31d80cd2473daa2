"""One secret key for every host on a database: each host records a fingerprint of its key (a
hash, never the key) in ``secret_key_hosts``, and a host whose key came from its own instance
directory refuses to serve when another host recorded a different one.

Without ``PREP_SECRET_KEY`` each instance directory makes its own key
(:func:`prep.config.load_or_create_secret_key`). Two hosts on one database would each sign
sessions, reset and unsubscribe links with their own: a link made on one fails on the other,
silently. One host on its own instance directory (the SQLite default) keeps working without
configuration: it only ever meets its own row.
"""
from __future__ import annotations

import hashlib
import logging
import socket
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import click
from flask import Flask
from sqlalchemy import String, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from .dbtypes import UTCDateTime
from .extensions import db

log = logging.getLogger(__name__)


class SecretKeyHost(db.Model):
    """The fingerprint of the key a host (a machine and instance directory) last started with."""

    __tablename__ = "secret_key_hosts"

    host: Mapped[str] = mapped_column(String(255), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime())


class SecretKeyMismatch(Exception):
    """Another host serves this database with a different secret key, and this one has none set."""

    def __init__(self, host: str, other: str) -> None:
        self.host, self.other = host, other
        super().__init__(
            f"this host ({host}) has no PREP_SECRET_KEY and made its own key, but host {other} uses this database "
            "with a different key: sessions, password-reset and unsubscribe links made on one would fail on the "
            "other. Set PREP_SECRET_KEY to the same value on every host that shares the database "
            "(e.g. the contents of one host's instance/secret_key), then start again.")


@dataclass(frozen=True)
class KeyCheck:
    """What :func:`check_and_record` found: this host's identity and the hosts whose key differs."""

    host: str
    others_differing: tuple[str, ...]


def fingerprint(key: str) -> str:
    """A hash naming a secret key without revealing it (SHA-256 of a labelled key, 32 hex digits)."""
    return hashlib.sha256(b"prep secret key fingerprint\x00" + key.encode("utf-8")).hexdigest()[:32]


def host_identity(instance_path: str | Path) -> str:
    """This host as the table names it: the machine's name and the instance directory."""
    return f"{socket.gethostname()}:{Path(instance_path).resolve()}"[:255]


def _differing(host: str, mark: str) -> tuple[str, ...]:
    return tuple(db.session.scalars(select(SecretKeyHost.host).where(
        SecretKeyHost.host != host, SecretKeyHost.fingerprint != mark).order_by(SecretKeyHost.host)))


def check_and_record(key: str, host: str, now: datetime, *, configured: bool) -> KeyCheck:
    """Record ``host``'s key fingerprint; commits.

    ``configured``: the key was given (``PREP_SECRET_KEY``), so the operator chose it and it is
    recorded whatever the others hold. A key made in the instance directory is refused
    (:class:`SecretKeyMismatch`, nothing recorded) when another host recorded a different one,
    checked again after recording so that two hosts starting at once do not both go on."""
    mark = fingerprint(key)
    others = _differing(host, mark)
    db.session.rollback()
    if others and not configured:
        raise SecretKeyMismatch(host, others[0])
    _record(host, mark, now)
    if not configured:
        others = _differing(host, mark)
        if others:  # another host recorded a different key meanwhile
            db.session.execute(delete(SecretKeyHost).where(SecretKeyHost.host == host))
            db.session.commit()
            raise SecretKeyMismatch(host, others[0])
    return KeyCheck(host=host, others_differing=others)


def _record(host: str, mark: str, now: datetime) -> None:
    row = db.session.get(SecretKeyHost, host)
    if row is None:
        db.session.add(SecretKeyHost(host=host, fingerprint=mark, seen_at=now))
        try:
            db.session.commit()
            return
        except IntegrityError:  # another process of this host inserted it first
            db.session.rollback()
            row = db.session.get(SecretKeyHost, host)
    row.fingerprint, row.seen_at = mark, now
    db.session.commit()


def check_app(app: Flask, now: datetime) -> KeyCheck:
    """:func:`check_and_record` for ``app`` (inside its app context): its key, its instance
    directory, and whether the key was configured or made in the instance directory."""
    return check_and_record(app.config["SECRET_KEY"], host_identity(app.instance_path), now,
                            configured=not app.config.get("SECRET_KEY_FROM_INSTANCE"))


def require_for_command(app: Flask, now: datetime) -> None:
    """For the commands that serve or send (``serve``, ``worker``, ``scheduler``, ``remind``):
    a clear error (exit status 1) naming PREP_SECRET_KEY instead of starting on a key another
    host does not share; a logged warning when the configured key differs from another host's."""
    try:
        found = check_app(app, now)
    except SecretKeyMismatch as err:
        log.error("%s", err)
        raise click.ClickException(str(err)) from None
    if found.others_differing:
        log.warning("PREP_SECRET_KEY differs from the key host(s) %s last started with; set the same "
                    "PREP_SECRET_KEY on every host that shares this database", ", ".join(found.others_differing))
