"""Password hashing with argon2id (argon2-cffi defaults) and the password policy."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()  # argon2id, RFC 9106 low-memory profile
# Verified against when the email is unknown, so both paths cost the same time: made on the first
# check (a tenth of a second that a process which never checks a password, the CLI, does not pay).
_DUMMY_HASH: str | None = None

MIN_LENGTH = 8
MAX_LENGTH = 1024


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(stored_hash: str | None, password: str) -> bool:
    """True when ``password`` matches; with no stored hash, spend the same time and say no."""
    global _DUMMY_HASH
    if _DUMMY_HASH is None:
        _DUMMY_HASH = _hasher.hash("dummy password for timing equality")
    try:
        return _hasher.verify(stored_hash or _DUMMY_HASH, password) and stored_hash is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored_hash: str) -> bool:
    return _hasher.check_needs_rehash(stored_hash)


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    """The shipped list of the 3,000 most common passwords (casefolded)."""
    path = Path(__file__).with_name("common_passwords.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip().casefold() for line in lines if line.strip() and not line.startswith("#"))


def password_problem(password: str) -> str | None:
    """Why a new password is refused, or None. No composition rules (OWASP ASVS 5)."""
    if len(password) < MIN_LENGTH:
        return f"Use at least {MIN_LENGTH} characters (15 or more is better)."
    if len(password) > MAX_LENGTH:
        return f"Use at most {MAX_LENGTH} characters."
    if password.casefold() in common_passwords():
        return "This password is one of the most commonly used ones; choose another."
    return None
