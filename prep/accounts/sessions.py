"""Idle and absolute session timeouts, enforced on the server from times kept in the signed session.

``login_at`` is set when a session starts (a login, or a restore from the remember cookie) and
``seen_at`` is refreshed at most once a minute, so most requests do not rewrite the cookie.
A remembered session is not ended by the idle timeout (that is what "keep me logged in" asks
for) but is by the absolute one; the remember cookie itself lives no longer than the absolute
timeout and carries the session version, so logout and a password change refuse it.
"""
from __future__ import annotations

import time

from flask import Flask, Response, current_app, flash, redirect, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user, logout_user, user_loaded_from_cookie
from itsdangerous import BadSignature, URLSafeTimedSerializer

SEEN_EVERY = 60  # seconds between rewrites of seen_at
# Beside Flask-Login's remember cookie: the signed time of the login it remembers, so a session
# restored from it keeps that login time and the absolute timeout still counts from the login.
SINCE_COOKIE = "remember_since"


def _since_signer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="prep.remember-since")


def start_session(remember: bool = False) -> None:
    now = int(time.time())
    session["login_at"] = now
    session["seen_at"] = now
    if remember:
        session["remember"] = True


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
        """A session restored from the remember cookie keeps the time of the login it remembers;
        without that signed time (a cookie from elsewhere, or older than the absolute timeout)
        nothing is restored, so no cookie outlives SESSION_MAX_DAYS."""
        absolute = int(current_app.config["SESSION_MAX_DAYS"]) * 86400
        try:
            since = _since_signer().loads(request.cookies.get(SINCE_COOKIE, ""), max_age=absolute)
        except BadSignature:  # includes SignatureExpired
            since = None
        now = int(time.time())
        if not isinstance(since, int) or isinstance(since, bool) or not now - absolute <= since <= now + 60:
            logout_user()
            session.pop("remember", None)
            return
        start_session(remember=True)
        session["login_at"] = min(since, session["login_at"])

    @app.after_request
    def _remember_since(response: Response) -> Response:
        if session.get("remember") and SINCE_COOKIE not in request.cookies and "login_at" in session:
            response.set_cookie(SINCE_COOKIE, _since_signer().dumps(session["login_at"]),
                                max_age=int(current_app.config["SESSION_MAX_DAYS"]) * 86400,
                                secure=bool(current_app.config.get("REMEMBER_COOKIE_SECURE")),
                                httponly=True, samesite="Lax")
        return response

    @app.before_request
    def _check_timeouts():
        if request.endpoint == "static" or not current_user.is_authenticated:
            return None
        now = int(time.time())
        if _expired(now):
            lang = session.get("lang")
            logout_user()
            session.clear()
            if lang:
                session["lang"] = lang
            flash(_("Your session expired; please log in again."), "info")
            target = request.full_path if request.method == "GET" else request.path
            return redirect(url_for("accounts.login", next=target.rstrip("?")))
        if now - int(session["seen_at"]) >= SEEN_EVERY:
            session["seen_at"] = now
        return None
