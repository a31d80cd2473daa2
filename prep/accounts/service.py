"""Account operations used by the views and the CLI."""
from __future__ import annotations

from sqlalchemy import bindparam, func, select

from ..extensions import db
from .errors import AccountError, EmailTaken, InvalidEmail, PasswordRefused  # noqa: F401 (AccountError: callers catch it here)
from .models import Role, User
from .passwords import hash_password, needs_rehash, password_problem, verify_password


def normalize_email(email: str) -> str:
    return email.strip().lower()


#: Built once: flask-login loads the signed-in user with it on every request, and a prebuilt
#: statement skips ``Session.get``'s identity-key and loader set-up (about half its Python work).
_USER_BY_ID = select(User).where(User.id == bindparam("user_id"))


def user_by_id(user_id: int) -> User | None:
    """The user with this id, or None."""
    return db.session.execute(_USER_BY_ID, {"user_id": user_id}).scalar_one_or_none()


def find_user(email: str) -> User | None:
    return db.session.scalar(select(User).where(func.lower(User.email) == normalize_email(email)))


def create_user(email: str, password: str, *, role: Role = Role.candidate, display_name: str = "",
                timezone: str = "UTC") -> User:
    """Add a user to the session (the caller commits)."""
    email = normalize_email(email)
    if not email or "@" not in email:
        raise InvalidEmail()
    if password_problem(password):
        raise PasswordRefused(password)
    if find_user(email) is not None:
        raise EmailTaken()
    user = User(email=email, password_hash=hash_password(password), role=role,
                display_name=display_name.strip(), timezone=timezone)
    db.session.add(user)
    db.session.flush()
    return user


def authenticate(email: str, password: str) -> User | None:
    """The user for these credentials, or None; rehashes the password when parameters changed."""
    user = find_user(email)
    if not verify_password(user.password_hash if user else None, password):
        return None
    assert user is not None
    if needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
    return user
