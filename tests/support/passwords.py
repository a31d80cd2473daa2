"""Cheap password hashing for the test process: argon2id with the smallest parameters.

prep hashes with argon2-cffi's defaults (RFC 9106's low-memory profile), about 0.1 s a hash and
as much a check: by design, and a large share of the suite's time when every test creates users
and logs them in. The tests swap in a hasher of the same kind with the smallest cost; servers the
tests start in other processes keep the real one (tests/accounts/test_passwords.py checks its defaults)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest
from argon2 import PasswordHasher

from prep.accounts import passwords


#: The hasher prep itself uses (what the swap replaced).
REAL = passwords._hasher


@pytest.fixture(autouse=True, scope="session")
def cheap_password_hashing() -> Iterator[None]:
    saved = passwords._hasher, passwords._DUMMY_HASH
    passwords._hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    passwords._DUMMY_HASH = passwords._hasher.hash("dummy password for timing equality")
    yield
    passwords._hasher, passwords._DUMMY_HASH = saved
