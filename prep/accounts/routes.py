"""Register, log in, log out, settings and password change."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_limiter.util import get_remote_address
from flask_login import current_user, login_required, login_user, logout_user

from .. import clock
from ..extensions import db, limiter, login_manager
from ..i18n import LANGUAGES
from ..web.access import signed_in_user
from ..web.redirects import safe_local_target
from ..zones import is_user_zone
from . import registration
from .attempts import account_key, forget, give_back, parse_limit, take
from .forms import ForgotPasswordForm, LoginForm, PasswordChangeForm, RegisterForm, ResetPasswordForm, SettingsForm
from .models import User
from .passwords import hash_password, verify_password
from .reset import TokenExpired, TokenInvalid, send_reset_email, spend_like_send, user_for_token
from .service import AccountError, authenticate, find_user, user_by_id
from .sessions import login_time_valid, parse_identity, start_session

bp = Blueprint("accounts", __name__)

def _clear_session(lang: str | None = None) -> None:
    """A fresh session (at login, logout, registration) that keeps the language chosen in the footer
    (or ``lang``: at logout the account's language, so the pages after it stay in that language)."""
    lang = lang or session.get("lang")
    session.clear()
    if lang in LANGUAGES:
        session["lang"] = lang


@login_manager.user_loader
def load_user(user_key: str) -> User | None:
    """Sessions and remember cookies carry "id:session_version:login_time" (see
    prep.accounts.sessions); a bumped version logs the old sessions out, and a login time outside
    the absolute session lifetime is refused."""
    parsed = parse_identity(user_key)
    if parsed is None:
        return None
    user_id, version, login_at = parsed
    if login_at is not None and not login_time_valid(login_at, int(clock.now().timestamp())):
        return None
    user = user_by_id(user_id)
    if user is None or user.session_version != version:
        return None
    return user


def _valid_zone(name: str | None) -> str:
    return name if is_user_zone(name) else "UTC"


@bp.route("/")
def index():
    if current_user.is_authenticated:
        return redirect(url_for("drill.dashboard"))
    return render_template("index.html")


@bp.route("/register", methods=["GET", "POST"])
def register():
    """The same page and status whether or not the address has an account (see
    prep.accounts.registration): a new address gets a link that creates the account, a known one
    a mail saying so."""
    if current_user.is_authenticated:
        return redirect(url_for("drill.dashboard"))
    form = RegisterForm()
    if form.validate_on_submit():
        if not _take("register-address", _client_address(), "REGISTER_LIMIT_IP", "10 per hour") or \
                not _take("register-account", account_key(form.email.data), "REGISTER_LIMIT_ACCOUNT", "3 per hour"):
            abort(429)
        language = session.get("lang") if session.get("lang") in LANGUAGES else None  # chosen in the footer
        try:
            started = registration.start(form.email.data, form.password.data,
                                         display_name=form.display_name.data or "",
                                         timezone=_valid_zone(form.timezone.data), language=language, now=clock.now())
        except AccountError as err:
            db.session.rollback()
            form.email.errors.append(str(err.message))
        else:
            db.session.commit()
            registration.send(started, str(get_locale() or "en"))
            return render_template("accounts/register_sent.html", email=started.email,
                                   hours=registration.max_age() // 3600 or 1)
    return render_template("accounts/register.html", form=form), (400 if form.errors else 200)


@bp.route("/register/confirm/<token>", methods=["GET", "POST"])
def confirm_registration(token: str):
    """The emailed link: a button that creates the account, logs its owner in and opens the
    first screen (a POST, so a mail scanner that follows links creates nothing)."""
    try:
        if request.method == "POST":  # CSRF is checked for every POST (CSRFProtect)
            user = registration.confirm(token, clock.now())
        else:
            pending = registration.pending_for(token, clock.now())
    except registration.LinkExpired:
        problem = _("This link has expired. Register again to get a new one.")
    except registration.LinkInvalid:
        problem = _("This link is not valid (it may have been used already). If you have an account, log in.")
    else:
        problem = None
    if problem:
        db.session.rollback()
        return render_template("accounts/register_confirm.html", problem=problem), 400
    if request.method == "GET":
        return render_template("accounts/register_confirm.html", problem=None, email=pending.email)
    _clear_session()
    login_user(user)
    start_session()
    # The first screen is what to bring: a posting, an interview report, or a target role.
    flash(_("Welcome to prep! Bring a job posting or an interview report, or start from a target role."), "success")
    return redirect(url_for("postings.new"))


def _client_address() -> str:
    return get_remote_address() or "unknown"


def _take(kind: str, key: str, setting: str, default: str) -> bool:
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return True
    limit, seconds = parse_limit(current_app.config.get(setting, default))
    return take(kind, key, limit=limit, seconds=seconds, now=clock.now())


@bp.route("/login", methods=["GET", "POST"])
def login():
    if current_user.is_authenticated:
        return redirect(url_for("drill.dashboard"))
    form = LoginForm()
    if form.validate_on_submit():
        account, address = account_key(form.email.data), _client_address()
        # Counted before the password is checked, atomically: concurrent tries cannot slip past.
        if not _take("login-address", address, "LOGIN_LIMIT_IP", "20 per 15 minutes") or \
                not _take("login-account", account, "LOGIN_LIMIT_ACCOUNT", "5 per 15 minutes"):
            abort(429)
        user = authenticate(form.email.data, form.password.data)
        if user is None:
            form.password.errors.append(_("Wrong email or password."))
        else:
            forget("login-account", account)
            give_back("login-address", address)  # a success does not count against a shared address
            db.session.commit()
            next_url = safe_local_target(request.args.get("next"), url_for("drill.dashboard"))
            _clear_session()  # a fresh session at login
            login_user(user, remember=form.remember.data)
            start_session(remember=bool(form.remember.data))
            return redirect(next_url)
    return render_template("accounts/login.html", form=form), (400 if form.errors else 200)


@bp.route("/logout", methods=["GET", "POST"])
def logout():
    if request.method == "GET":
        # Logging out changes state, so it is a POST; GET shows a confirmation button.
        return render_template("accounts/logout.html")
    if current_user.is_authenticated:
        current_user.session_version += 1  # ends this user's sessions everywhere
        db.session.commit()
    lang = getattr(current_user, "language", None)
    logout_user()
    _clear_session(lang)
    flash(_("You are logged out."), "info")
    return redirect(url_for("accounts.login"))


@bp.route("/settings", methods=["GET", "POST"])
@login_required
def settings():
    user = signed_in_user()
    form = SettingsForm(obj=user)
    if request.method == "GET":
        form.show(user)
    if form.validate_on_submit():
        form.apply_to(user)
        if user.language is None:
            session.pop("lang", None)  # "follow the browser" means the browser, not the last footer choice
        db.session.commit()
        flash(_("Settings saved."), "success")
        return redirect(url_for("accounts.settings"))
    db.session.rollback()
    return render_template("accounts/settings.html", form=form, password_form=PasswordChangeForm()), (
        400 if form.errors else 200)


@bp.route("/settings/password", methods=["GET", "POST"])
@login_required
def change_password():
    form = PasswordChangeForm()
    if form.validate_on_submit():
        user = signed_in_user()
        if not verify_password(user.password_hash, form.current.data):
            form.current.errors.append(_("This is not your current password."))
        else:
            user.password_hash = hash_password(form.password.data)
            user.session_version += 1  # other sessions end; this one is renewed below
            db.session.commit()
            _clear_session()
            login_user(user)
            start_session()
            flash(_("Password changed. Other devices have been logged out."), "success")
            return redirect(url_for("accounts.settings"))
    return render_template("accounts/password.html", form=form), (400 if form.errors else 200)


@bp.route("/password/forgot", methods=["GET", "POST"])
def forgot_password():
    """Always the same answer, whether or not an account exists for the address."""
    form = ForgotPasswordForm()
    if form.validate_on_submit():
        if not _take("reset-address", _client_address(), "RESET_LIMIT_IP", "10 per 15 minutes") or \
                not _take("reset-account", account_key(form.email.data), "RESET_LIMIT_ACCOUNT", "3 per 15 minutes"):
            abort(429)
        user = find_user(form.email.data)
        if user is not None:
            send_reset_email(user)
        else:
            spend_like_send()  # similar timing either way
        flash(_("If an account exists for that address, we sent a link to choose a new password."), "info")
        return redirect(url_for("accounts.login"))
    return render_template("accounts/forgot.html", form=form), (400 if form.errors else 200)


@bp.route("/password/reset/<token>", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config.get("RESET_LIMIT_IP", "10 per 15 minutes"), methods=["POST"])
def reset_password(token: str):
    form = ResetPasswordForm()
    try:
        user = user_for_token(token)
    except TokenExpired:
        problem = _("This reset link has expired.")
    except TokenInvalid:
        problem = _("This reset link is not valid (it may have been used already).")
    else:
        problem = None
    if problem:
        return render_template("accounts/reset.html", form=form, problem=problem), 400
    if form.validate_on_submit():
        user.password_hash = hash_password(form.password.data)
        user.session_version += 1  # every session and remember cookie ends; the token dies with the hash
        db.session.commit()
        _clear_session(user.language)
        login_user(user)
        start_session()
        flash(_("Your password has been changed and you are logged in."), "success")
        return redirect(url_for("drill.dashboard"))
    return render_template("accounts/reset.html", form=form, problem=None), (400 if form.errors else 200)


@bp.route("/language", methods=["POST"])
def set_language():
    """The footer's language switcher: remembered in the session, and on the account when logged in."""
    lang = request.form.get("lang", "")
    if lang in LANGUAGES:
        session["lang"] = lang
        if current_user.is_authenticated:
            current_user.language = lang
            db.session.commit()
    return redirect(safe_local_target(request.form.get("next"), url_for("accounts.index")))
