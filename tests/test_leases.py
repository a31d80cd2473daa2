"""The job lease: one holder at a time, renewal, take-over after expiry."""
from __future__ import annotations

from datetime import timedelta

from prep import leases
from tests.conftest import FIXED_NOW

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
