"""The reminder sweep's rules: plain values in, decisions out (no Flask, no database).

What a due reminder is (:class:`DueUser`: a user, a channel and what they have to study) and what
it says (:class:`ReminderMessage`), the local clocks of a sweep (:class:`ZoneClocks`), who is
claimed fresh and who is retried, when a failed delivery is tried again, the in-app text, the
Message-ID, each user's streak from their review times, and the sweep's report. :mod:`.sweep_query` reads and writes the rows; :mod:`.sweep` runs
a sweep with both.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..drill import queue
from . import timing


@dataclass(frozen=True)
class DueUser:
    """A reminder due now on one channel: the user, what they have to study, where it goes, and
    the claim it holds (a user with two channels on is two of these)."""

    user_id: int
    email: str
    display_name: str
    timezone: str
    remind_minute: int
    local_date: date
    day_end: datetime          # next local midnight (UTC): retries stop there
    learning: int
    reviews: int
    new: int
    channel: str = "email"     # a name of prep.reminders.channels.CHANNELS
    destination: str = ""      # where the channel delivers (the address, the URL)
    #: The channel's own settings (a webhook's format); not part of equality.
    options: Mapping[str, object] | None = field(default=None, compare=False)
    log_id: int | None = None  # an existing claim to retry
    log_status: str | None = None
    attempts: int = 0
    language: str | None = None  # the user's UI language, when set
    #: The user's study day now (zone and day start), as the page query computed it: the day an
    #: interview plan's bookings name. None only in a DueUser made before it was carried.
    study_day: queue.StudyDay | None = None

    @property
    def due_count(self) -> int:
        return self.learning + self.reviews + self.new

    def on_channel(self, channel: str, destination: str, options: Mapping[str, object] | None,
                   log_id: int | None, log_status: str | None, attempts: int) -> DueUser:
        """This user's reminder on ``channel``, with that channel's claim of today (if any)."""
        other = object.__new__(DueUser)
        other.__dict__.update(self.__dict__, channel=channel, destination=destination, options=options,
                              log_id=log_id, log_status=log_status, attempts=attempts)
        return other

    def claimed(self, log_id: int | None, attempts: int) -> DueUser:
        """This user with their claim's log id and attempt number (what ``dataclasses.replace``
        gives, at a tenth of its cost: a sweep makes one per user; every field is a plain value,
        so copying them without ``__init__`` makes the same frozen object)."""
        other = object.__new__(DueUser)
        other.__dict__.update(self.__dict__, log_id=log_id, attempts=attempts)
        return other


@dataclass(frozen=True)
class InterviewLine:
    """An interview ahead as the reminder names it: the posting, the date, the days left, and the
    recall on the day the candidate's last stored plan predicted (None: no plan counts it)."""

    name: str
    day: date
    days_left: int
    recall: float | None = None
    target: float | None = None
    met: bool | None = None

    @property
    def percent(self) -> str:
        return f"{round((self.recall or 0.0) * 100)}"

    @property
    def target_percent(self) -> str:
        return f"{round((self.target or 0.0) * 100)}"

    @property
    def shape(self) -> str:
        """Which sentence names it: ``met``, ``short`` or ``plain`` (no forecast)."""
        return "plain" if self.recall is None else "met" if self.met else "short"


@dataclass(frozen=True)
class ReminderMessage:
    """What a reminder says, whatever the channel: each channel renders it its own way (the
    email's composer, the webhook's JSON)."""

    user: DueUser
    top_questions: tuple[str, ...]
    streak: int
    message_id: str
    interviews: tuple[InterviewLine, ...] = ()


@dataclass
class SweepReport:
    """What one sweep did; each list holds one :class:`DueUser` per (user, channel)."""

    now: datetime
    dry_run: bool = False
    due: list[DueUser] = field(default_factory=list)
    claimed: list[DueUser] = field(default_factory=list)
    sent: list[DueUser] = field(default_factory=list)
    #: Deliveries handed to the job queue (``PREP_REDIS_URL``): a ``prep worker`` sends them later.
    queued: list[DueUser] = field(default_factory=list)
    #: True when the sweep queued its deliveries instead of sending them (even when none were due).
    via_queue: bool = False
    #: Reminders stored with their claim (the in-app notifications).
    stored: list[DueUser] = field(default_factory=list)
    retrying: list[tuple[DueUser, str]] = field(default_factory=list)
    failed: list[tuple[DueUser, str]] = field(default_factory=list)
    #: Users skipped because their own data could not be turned into a reminder (logged; the
    #: rest of the sweep goes on). ``SKIPPED_USERS`` counts them for the process.
    skipped: list[tuple[DueUser, str]] = field(default_factory=list)
    #: Users whose rows made finding or claiming their reminder fail (user id, error): left
    #: out of this sweep (logged, counted in ``SKIPPED_USERS``); the next sweep tries again.
    unreadable: list[tuple[int, str]] = field(default_factory=list)
    expired: int = 0

    def lines(self) -> list[str]:
        """Human-readable lines for the CLI: one per user reminded (with their channels)."""
        out: list[str] = []
        queued = {(u.user_id, u.channel) for u in self.queued}
        users: dict[tuple[int, object], list[DueUser]] = {}
        for u in (self.due if self.dry_run else self.sent + self.queued + self.stored):
            users.setdefault((u.user_id, u.local_date), []).append(u)
        for group in users.values():
            u = group[0]
            verb = ("would remind" if self.dry_run else "queued a reminder for"
                    if any((g.user_id, g.channel) in queued for g in group) else "reminded")
            out.append(f"{verb} {u.email} ({u.timezone}, {timing.format_minute(u.remind_minute)} local, "
                       f"{u.local_date.isoformat()}): {u.due_count} due "
                       f"[{u.learning} learning, {u.reviews} review, {u.new} new] via "
                       f"{', '.join(g.channel for g in group)}" + "".join(_attempt_note(g, self.dry_run) for g in group))
        for u, error in self.retrying:
            out.append(f"{u.channel} to {u.email} failed, will retry: {error}")
        for u, error in self.failed:
            out.append(f"{u.channel} to {u.email} failed for good: {error}")
        for u, error in self.skipped:
            out.append(f"skipped {u.email}: their data could not be used ({error}); see the log")
        for user_id, error in self.unreadable:
            out.append(f"skipped user {user_id}: their reminder could not be found or claimed ({error}); see the log")
        if self.expired:
            out.append(f"{self.expired} undelivered reminder(s) from an ended day marked failed")
        if self.dry_run:
            out.append(f"dry run at {self.now.isoformat()}: {len(self.due)} reminder(s) due, nothing sent")
        else:
            delivered = self.queued if self.via_queue else self.sent
            by_channel = ", ".join(f"{name} {n}" for name, n in _count_channels(delivered))
            messages = (f"queued {len(self.queued)} message(s) for `prep worker` to send" if self.via_queue
                        else f"{len(self.sent)} message(s) sent")
            out.append(f"sweep at {self.now.isoformat()}: {messages}{f' ({by_channel})' if by_channel else ''}, "
                       f"{len(self.stored)} in-app, {len(self.retrying)} to retry, {len(self.failed)} failed")
        return out


def _count_channels(deliveries: Iterable[DueUser]) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for u in deliveries:
        counts[u.channel] = counts.get(u.channel, 0) + 1
    return sorted(counts.items())


def _attempt_note(u: DueUser, dry_run: bool) -> str:
    if dry_run:
        return f" ({u.channel} retry, attempt {u.attempts + 1})" if u.log_id else ""
    return f" ({u.channel} attempt {u.attempts})" if u.attempts > 1 else ""


# --- the local clocks of a sweep ---------------------------------------------------------------

def valid_zone(name: str) -> bool:
    """True when ``name`` is a time zone this machine knows."""
    try:
        ZoneInfo(name)
        return True
    except (ZoneInfoNotFoundError, ValueError):
        return False


@dataclass(frozen=True)
class ZoneClocks:
    """The local clocks at ``now`` of every (time zone, day start) pair with reminders wanted:
    computed once per sweep (query 1), used by every page."""

    now: datetime
    pairs: tuple[tuple[str, int], ...]
    zones: tuple[str, ...]
    clocks: dict[str, timing.ZoneClock]
    days: dict[tuple[str, int], queue.StudyDay]


def clocks_at(now: datetime, pairs: Iterable[tuple[str, int]]) -> ZoneClocks | None:
    """The local clocks at ``now`` of the (time zone, day start hour) pairs this machine knows;
    None when there are none."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    known = tuple((z, h) for z, h in pairs if valid_zone(z))
    if not known:
        return None
    zones = tuple(sorted({z for z, _ in known}))
    return ZoneClocks(now=now, pairs=known, zones=zones, clocks={z: timing.zone_clock(now, z) for z in zones},
                      days={(z, h): queue.study_day(now, z, h) for z, h in known})


@dataclass(frozen=True)
class DuePage:
    """One page of candidates: the due users among them, and where the next page starts."""

    due: list[DueUser]
    last_id: int | None  # the last candidate's user id; None when this was the last page

    @property
    def more(self) -> bool:
        return self.last_id is not None


# --- claiming and retrying ---------------------------------------------------------------------

def split_claims(due: Sequence[DueUser]) -> tuple[list[DueUser], list[DueUser]]:
    """The reminders to claim for the first time today, and the claims to try again (a stored
    channel's claim is done when made, so only a push channel's comes back)."""
    fresh = [u for u in due if u.log_id is None]
    again = [u for u in due if u.log_id is not None]
    return fresh, again


def next_attempt(user: DueUser, now: datetime) -> datetime | None:
    """When a delivery to ``user`` that failed at ``now`` is tried again; None when it is not (too
    many attempts, or the retry would fall after the user's local day)."""
    retry_at = now + timing.backoff(user.attempts)
    return retry_at if user.attempts < timing.MAX_ATTEMPTS and retry_at < user.day_end else None


# --- what a reminder says ----------------------------------------------------------------------

def notification_text(due_count: int) -> str:
    return f"You have {due_count} card{'' if due_count == 1 else 's'} to review today."


def message_id(user: DueUser, domain: str) -> str:
    """Stable for one user and local day: every attempt carries the same Message-ID."""
    return f"<reminder-{user.user_id}-{user.local_date.isoformat()}@{domain}>"


def streak(reviewed_at: Iterable[datetime], now: datetime, tz: str, day_start_hour: int) -> int:
    """A user's current streak at ``now`` from the times of their reviews (their study days in
    ``tz``, starting at ``day_start_hour``)."""
    days = {(when.astimezone(ZoneInfo(tz)) - timedelta(hours=day_start_hour)).date() for when in reviewed_at}
    return queue.streak(days, queue.study_day(now, tz, day_start_hour).day)


def describe(err: BaseException) -> str:
    """An error as recorded and reported: its type and message, at most 1,000 characters."""
    text = f"{type(err).__name__}: {err}"
    return text[:1000]
