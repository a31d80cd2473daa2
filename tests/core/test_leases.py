"""The job lease: one holder at a time, renewal, take-over after expiry."""
from __future__ import annotations

from datetime import timedelta

from prep import leases
from tests.support.clock import FIXED_NOW

TTL = timedelta(minutes=10)


def test_one_holder_at_a_time_and_takeover(app):
    assert leases.acquire("sweep", FIXED_NOW, TTL, holder="a")
    assert not leases.acquire("sweep", FIXED_NOW + timedelta(minutes=1), TTL, holder="b")
    assert leases.acquire("sweep", FIXED_NOW + timedelta(minutes=5), TTL, holder="a")  # renew
    assert not leases.acquire("sweep", FIXED_NOW + timedelta(minutes=14), TTL, holder="b")
    # a stopped renewing (died): b takes over after expiry.
    assert leases.acquire("sweep", FIXED_NOW + timedelta(minutes=16), TTL, holder="b")
    assert not leases.acquire("sweep", FIXED_NOW + timedelta(minutes=17), TTL, holder="a")


def test_release_lets_another_take_it(app):
    assert leases.acquire("job", FIXED_NOW, TTL, holder="a")
    leases.release("job", holder="a")
    assert leases.acquire("job", FIXED_NOW, TTL, holder="b")


def test_sweep_job_runs_only_while_holding_the_lease(app, monkeypatch, clock):
    from prep.reminders import scheduler, service

    calls = []
    monkeypatch.setattr(service, "sweep", lambda now: calls.append(now) or _EmptyReport())
    job = scheduler.sweep_job(app, minutes=5)
    job()
    assert len(calls) == 1
    # Another live process takes the lease (ours expired long ago in its clock): we skip.
    far = clock.now + timedelta(days=1)
    assert leases.acquire(scheduler.LEASE_NAME, far, TTL, holder="other-host")
    job()
    assert len(calls) == 1


class _EmptyReport:
    claimed = retrying = failed = expired = skipped = unreadable = ()

    def lines(self):
        return []
