"""Security headers on every response, and HTTPS-only settings when behind a TLS proxy."""
from __future__ import annotations

from datetime import timedelta

from flask import Flask, Response
from werkzeug.middleware.proxy_fix import ProxyFix

from .accounts.sessions import init_sessions

# No inline scripts anywhere: every script is a file under /static. KaTeX writes inline
# style attributes when it typesets, hence 'unsafe-inline' for styles only.
CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


def init_security(app: Flask) -> None:
    max_days = int(app.config.get("SESSION_MAX_DAYS") or 14)
    app.config.setdefault("SESSION_MAX_DAYS", max_days)
    app.config.setdefault("SESSION_IDLE_MINUTES", 120)
    # No cookie outlives the absolute session timeout. Flask always sets a 31-day default, so
    # setdefault would be a no-op here: assign.
    app.config["PERMANENT_SESSION_LIFETIME"] = timedelta(days=max_days)
    app.config.setdefault("REMEMBER_COOKIE_DURATION", timedelta(days=max_days))
    if app.config.get("BEHIND_HTTPS"):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]
        app.config.update(SESSION_COOKIE_SECURE=True, REMEMBER_COOKIE_SECURE=True,
                          SESSION_COOKIE_NAME="__Host-session", PREFERRED_URL_SCHEME="https")

    init_sessions(app)

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if app.config.get("BEHIND_HTTPS"):
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        if response.mimetype == "text/html":
            response.headers.setdefault("Cache-Control", "no-store")
        return response
