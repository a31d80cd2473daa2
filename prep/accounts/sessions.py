"""Idle and absolute session timeouts, enforced on the server from times kept in the signed session.

``login_at`` is set when a session starts (a login, or a restore from the remember cookie) and
``seen_at`` is refreshed at most once a minute, so most requests do not rewrite the cookie.
A remembered session is not ended by the idle timeout (that is what "keep me logged in" asks
for) but is by the absolute one.

The identity a session and its remember cookie carry is ``"<user id>:<session version>:<login
time>"`` (see :func:`start_session`). Flask-Login signs the remember cookie over that identity, so
the token itself carries its issue time: a session restored from it keeps that login time, and a
token older than the absolute timeout (or one without a time, or from the future) restores
nothing. The session version in it lets logout and a password change refuse it.
"""
from __future__ import annotations

from flask import Flask, Response, current_app, flash, redirect, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user, logout_user, user_loaded_from_cookie

from .. import clock

SEEN_EVERY = 60  # seconds between rewrites of seen_at
CLOCK_SKEW = 60  # seconds a login time may lie ahead of this host's clock (several hosts)
# The separate signed cookie that carried a remembered login's time before the token did;
# no longer read, and deleted when a browser still sends it.
OLD_SINCE_COOKIE = "remember_since"


def _epoch_seconds() -> int:
    """The clock's time in whole seconds since the epoch (what the session stores)."""
    return int(clock.now().timestamp())


def parse_identity(ident: str) -> tuple[int, int, int | None] | None:
    """``"id:version"`` or ``"id:version:login_at"`` → (id, version, login_at or None); None when
    malformed (ASCII digits only)."""
    parts = ident.split(":") if isinstance(ident, str) else []
    if len(parts) not in (2, 3) or not all(p.isascii() and p.isdigit() and len(p) <= 19 for p in parts):
        return None
    return int(parts[0]), int(parts[1]), (int(parts[2]) if len(parts) == 3 else None)


def login_time_valid(login_at: int, now: int) -> bool:
    """A login time within the absolute session lifetime (and not ahead of the clock)."""
    absolute = int(current_app.config["SESSION_MAX_DAYS"]) * 86400
    return now - absolute <= login_at <= now + CLOCK_SKEW


def start_session(remember: bool = False, since: int | None = None) -> None:
    """Call right after ``login_user``: stamps the login time on the session and on the identity
    the remember cookie will carry (``since``: the time of the login a remember cookie restores)."""
    now = _epoch_seconds()
    login_at = now if since is None else since
    session["login_at"] = login_at
    session["seen_at"] = now
    if remember:
        session["remember"] = True
    ident = session.get("_user_id")
    parsed = parse_identity(ident) if isinstance(ident, str) else None
    if parsed is not None and parsed[2] is None:
        session["_user_id"] = f"{parsed[0]}:{parsed[1]}:{login_at}"


def _expired(now: int) -> bool:
    idle = int(current_app.config["SESSION_IDLE_MINUTES"]) * 60
    absolute = int(current_app.config["SESSION_MAX_DAYS"]) * 86400
    login_at, seen_at = session.get("login_at"), session.get("seen_at")
    if not isinstance(login_at, int) or not isinstance(seen_at, int):
        return True  # a session from before timeouts, or tampered with: start again
    if now - login_at > absolute:
        return True
    return not session.get("remember") and now - seen_at > idle


def init_sessions(app: Flask) -> None:
    @user_loaded_from_cookie.connect_via(app)
    def _restored(sender, user) -> None:  # noqa: ARG001
        """A session restored from the remember cookie keeps the login time the token carries
        (the user loader has already refused a time outside the absolute lifetime); a token
        without one (issued before tokens carried it, or forged) restores nothing."""
        parsed = parse_identity(session.get("_user_id", ""))
        if parsed is None or parsed[2] is None or not login_time_valid(parsed[2], _epoch_seconds()):
            logout_user()  # also clears the remember cookie
            session.pop("remember", None)
            return
        start_session(remember=True, since=parsed[2])

    @app.after_request
    def _drop_old_since_cookie(response: Response) -> Response:
        if OLD_SINCE_COOKIE in request.cookies:
            response.delete_cookie(OLD_SINCE_COOKIE)
        return response

    @app.before_request
    def _check_timeouts():
        if request.endpoint == "static" or not current_user.is_authenticated:
            return None
        now = _epoch_seconds()
        if _expired(now):
            lang = session.get("lang")
            logout_user()
            remember = session.get("_remember")  # "clear": the remember cookie goes too
            session.clear()
            if lang:
                session["lang"] = lang
            if remember:
                session["_remember"] = remember
            flash(_("Your session expired; please log in again."), "info")
            target = request.full_path if request.method == "GET" else request.path
            return redirect(url_for("accounts.login", next=target.rstrip("?")))
        if now - int(session["seen_at"]) >= SEEN_EVERY:
            session["seen_at"] = now
        return None
