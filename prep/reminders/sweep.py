"""The reminder sweep: find the users due a reminder, claim each (user, local day, channel) once,
deliver.

One sweep reminds every due user, a page at a time (:mod:`.sweep_query` holds the SQL: a
fixed number of statements a page; :mod:`.sweep_rules` the decisions on plain values).

Exactly once, whatever the channel (:mod:`.channels`): a claim row is committed before
anything is delivered; a second sweep (another process, or the same one later) finds the day's
channel claimed. After the channel delivered (the SMTP server or the webhook took the message),
the row is marked 'sent' in the transaction that follows at once. A failed delivery is retried
with back-off and marked 'failed' after :data:`timing.MAX_ATTEMPTS` (or at once when the
channel says retrying cannot help); a 'sending' row whose lease expired (the process died
mid-send) is retried. Each attempt is a row in ``reminder_attempts``. A process that dies after
the message went out but before 'sent' was written sends it again after the lease (the one
window no database can close): each attempt of one reminder carries the same id (the email's
Message-ID, the webhook's Idempotency-Key) so that a receiver can drop the copy.

Functions here never call Flask; the caller supplies the channels, set up for the sweep.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from datetime import datetime

from sqlalchemy.exc import InterfaceError, OperationalError

from ..extensions import db
from .channels import Channel, pushed
from .sweep_claim import claim
from .sweep_query import (BATCH_SIZE, expire_ended_days, find_due, find_due_page, record_failure, record_sent,
                          record_skipped, streaks, top_questions, interviews_ahead, user_ids_after, zone_clocks)
from .sweep_rules import DuePage, DueUser, ReminderMessage, SweepReport, ZoneClocks, describe, message_id

log = logging.getLogger(__name__)

#: The push channels set up for a sweep, by name (:func:`prep.reminders.channels.bound`).
Senders = Mapping[str, Channel]

#: Users skipped by sweeps in this process because of their own bad data (a metric for the
#: process; each sweep's report lists them, and ``prep remind`` and the scheduler's log print it).
SKIPPED_USERS = 0

# Sent messages are recorded (and committed) in groups: at most this many, or this many seconds
# apart. A process that dies between a delivered message and its record leaves the claim
# 'sending': it is retried after the lease with the same id (see the module docstring).
RECORD_EVERY = 100
RECORD_SECONDS = 1.0


def run_sweep(now: datetime, senders: Senders, *, domain: str = "localhost",
              dry_run: bool = False, batch_size: int = BATCH_SIZE,
              clock: Callable[[], datetime] | None = None,
              keep_going: Callable[[], bool] | None = None,
              enqueue: Callable[[datetime, list[DueUser]], None] | None = None) -> SweepReport:
    """One sweep at ``now`` over every due user, a page of ``batch_size`` at a time: find, claim
    (committed), then deliver each push channel's message and record the results.

    ``clock`` gives the time recorded for a finished send (default: ``now``, for a fake clock).
    ``keep_going`` is asked between pages (the scheduler renews its lease there); False stops
    the sweep, and the next one carries on where it left off. ``enqueue`` hands each page's
    claimed push deliveries to a job queue (:mod:`.worker`) instead of sending them here.
    """
    report = SweepReport(now=now, dry_run=dry_run)
    finished = clock or (lambda: now)
    if dry_run:
        report.due = find_due(now, batch_size=batch_size)
        db.session.rollback()
        return report
    report.expired = expire_ended_days(now)
    report.via_queue = enqueue is not None
    zc = zone_clocks(now)
    transports = {name: channel.transport for name, channel in senders.items()}
    push = {c.name for c in pushed()}
    after = 0
    while zc is not None:
        try:
            page = find_due_page(zc, after_id=after, batch_size=batch_size)
            won = claim(page.due, now, transports) if page.due else []
            db.session.commit()  # the claims are visible to every other process before anything is sent
        except Exception:  # noqa: BLE001 - a row broke the page's statements: user by user
            db.session.rollback()
            log.warning("reminder sweep: a page after user %s failed; reading it user by user", after, exc_info=True)
            page, won = _page_user_by_user(zc, after, batch_size, now, transports, report)
        if page.due:
            report.due += page.due
            report.claimed += won
            report.stored += [u for u in won if u.channel not in push]
            deliveries = [u for u in won if u.channel in push]
            if enqueue is not None:
                if deliveries:
                    enqueue(now, deliveries)
                report.queued += deliveries  # handed to the delivery workers (prep worker)
            else:
                send_page(now, deliveries, senders, domain, finished, report)
        db.session.commit()
        if page.last_id is None or (keep_going is not None and not keep_going()):
            break
        after = page.last_id
    db.session.commit()
    return report


def _page_user_by_user(zc: ZoneClocks, after: int, batch_size: int, now: datetime, transports: Mapping[str, str],
                       report: SweepReport) -> tuple[DuePage, list[DueUser]]:
    """The page after ``after`` when its one query or its claim failed: each of the next
    ``batch_size`` users found and claimed on their own (committed one by one), so only the
    users whose rows fail are left out (logged and counted)."""
    global SKIPPED_USERS
    ids = user_ids_after(after, batch_size)
    db.session.rollback()
    due: list[DueUser] = []
    won: list[DueUser] = []
    for user_id in ids:
        try:
            mine = find_due_page(zc, after_id=user_id - 1, batch_size=1, user_id=user_id).due
            claimed = claim(mine, now, transports) if mine else []
            db.session.commit()
        except (OperationalError, InterfaceError):
            raise  # the database itself (gone, locked): not this user's rows; the sweep stops
        except Exception as err:  # noqa: BLE001 - this user's rows: leave them out, serve the rest
            db.session.rollback()
            SKIPPED_USERS += 1
            error = describe(err)
            log.error("reminder sweep: skipped user %s: %s", user_id, error)
            report.unreadable.append((user_id, error))
            continue
        due += mine
        won += claimed
    return DuePage(due=due, last_id=ids[-1] if len(ids) >= batch_size else None), won


def _page_extras(senders: list[DueUser], now: datetime) -> tuple[dict, dict, dict, dict[DueUser, str]]:
    """Top questions, streaks and interviews ahead for a page, in three queries; when a row
    breaks them, the same per user, so only the users whose rows are bad are left out."""
    users = list({u.user_id: u for u in senders}.values())  # a user with two channels is asked once
    try:
        return top_questions(users, now), streaks(users, now), interviews_ahead(users, now), {}
    except Exception:  # noqa: BLE001 - narrowed below to the users it comes from
        db.session.rollback()
        log.warning("reminder sweep: a page's extras failed; retrying user by user", exc_info=True)
    questions: dict = {}
    streak_of: dict = {}
    interviews: dict = {}
    broken: dict[DueUser, str] = {}
    for user in users:
        try:
            questions.update(top_questions([user], now))
            streak_of.update(streaks([user], now))
            interviews.update(interviews_ahead([user], now))
        except Exception as err:  # noqa: BLE001
            db.session.rollback()
            broken[user.user_id] = describe(err)
    return questions, streak_of, interviews, {u: broken[u.user_id] for u in senders if u.user_id in broken}


def _skip(user: DueUser, now: datetime, finished: Callable[[], datetime], error: str, report: SweepReport) -> None:
    """Leave one delivery out of this sweep: logged, counted, its claim marked failed."""
    global SKIPPED_USERS
    SKIPPED_USERS += 1
    log.error("reminder sweep: skipped user %s: %s", user.user_id, error)
    report.skipped.append((user, error))
    try:
        record_skipped(user, error)
        db.session.commit()
    except Exception:  # noqa: BLE001 - the claim's lease expires and it is looked at again
        db.session.rollback()
        log.warning("could not mark user %s's reminder failed", user.user_id, exc_info=True)


def send_page(now: datetime, senders: list[DueUser], channels: Senders, domain: str,
              finished: Callable[[], datetime], report: SweepReport, *, record_every: int = RECORD_EVERY) -> None:
    """Deliver one page's claimed push reminders, each through its channel; record the sent
    ones in groups, each failure at once."""
    if not senders:
        return
    questions, streak_of, interviews, broken = _page_extras(senders, now)
    for user, error in broken.items():
        _skip(user, now, finished, error, report)
    senders = [u for u in senders if u not in broken]
    db.session.commit()
    pending: list[DueUser] = []
    last_record = time.monotonic()

    def record() -> None:
        nonlocal last_record
        if pending:
            record_sent(pending, finished())
            db.session.commit()
            report.sent.extend(pending)
            pending.clear()
        last_record = time.monotonic()

    try:
        for user in senders:
            channel = channels.get(user.channel)
            if channel is None:  # a channel this process does not deliver (not registered here)
                record()
                _skip(user, now, finished, f"no {user.channel} channel in this process", report)
                continue
            message = ReminderMessage(user=user, top_questions=tuple(questions.get(user.user_id, ())),
                                      streak=streak_of.get(user.user_id, 0), message_id=message_id(user, domain),
                                      interviews=tuple(interviews.get(user.user_id, ())))
            try:
                rendered = channel.render(message)
            except Exception as err:  # this user's data: skip them, remind the others
                record()
                _skip(user, now, finished, describe(err), report)
                continue
            outcome = channel.deliver(rendered, user.destination)
            if not outcome.ok:
                error = outcome.error or "failed"
                log.warning("%s reminder to user %s (attempt %s) failed: %s", user.channel, user.user_id,
                            user.attempts, error)
                record()
                retry = record_failure(user, finished(), error, retry=outcome.retry)
                db.session.commit()
                (report.retrying if retry else report.failed).append((user, error))
                continue
            pending.append(user)
            if len(pending) >= record_every or time.monotonic() - last_record >= RECORD_SECONDS:
                record()
    except BaseException:
        # Rendering or delivering raised something unexpected: record what went out, then re-raise.
        try:
            record()
        except Exception:  # the database is the trouble: the leases will bring these back
            db.session.rollback()
            log.warning("could not record %s sent reminder(s)", len(pending), exc_info=True)
        raise
    record()
