"""Password policy (OWASP ASVS 5) and argon2id hashing."""
from __future__ import annotations

import pytest

from prep.accounts import passwords


@pytest.mark.parametrize("password, ok", [
    ("short", False),
    ("1234567", False),
    ("password", False),          # length 8 but on the common list
    ("baseball", False),
    ("Password1", False),         # the list is compared case-insensitively
    ("SUNSHINE", False),
    ("correct horse battery staple", True),
    ("x" * 64, True),
    ("é" * 100, True),            # long, non-ASCII: accepted, no composition rules
    ("x" * 1025, False),
])
def test_policy(password, ok):
    assert (passwords.password_problem(password) is None) is ok


def test_list_has_3000_entries():
    assert len(passwords.common_passwords()) >= 2900


def test_no_truncation_long_passwords_differ_at_the_end():
    base = "a" * 200
    stored = passwords.hash_password(base + "1")
    assert passwords.verify_password(stored, base + "1")
    assert not passwords.verify_password(stored, base + "2")


def test_hash_is_argon2id_and_unknown_user_is_refused():
    stored = passwords.hash_password("correct horse battery staple")
    assert stored.startswith("$argon2id$")
    assert passwords.verify_password(None, "anything") is False
    assert passwords.verify_password("not a hash", "anything") is False


def test_prep_hashes_with_argon2_cffis_defaults_outside_the_tests():
    """The tests hash cheaply (tests/support/passwords.py); prep itself keeps argon2-cffi's
    defaults (RFC 9106's low-memory profile)."""
    from argon2 import PasswordHasher, Type

    from tests.support.passwords import REAL
    default = PasswordHasher()
    assert (REAL.time_cost, REAL.memory_cost, REAL.parallelism, REAL.type) == (
        default.time_cost, default.memory_cost, default.parallelism, Type.ID)
    assert REAL.memory_cost >= 65536
