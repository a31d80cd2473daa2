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
from ..mail import has_mail_server
from ..web.access import signed_in_user
from ..web.redirects import safe_local_target
from ..zones import is_user_zone
from . import registration, throttle
from .attempts import account_key
from .forms import (ConfirmRegistrationForm, ForgotPasswordForm, LoginForm, PasswordChangeForm, RegisterForm,
                    ResetPasswordForm, SettingsForm)
from .models import User
from .passwords import hash_password, verify_password
from .reset import TokenExpired, TokenInvalid, send_reset_email, spend_like_send, user_for_token
from .service import AccountError, authenticate, find_user, normalize_email, user_by_id
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
    prep.accounts.registration): a new address gets a link whose page sets the password and
    creates the account, a known one a mail saying so. Past the mails one address may get, the
    same page says one was sent a short while ago (prep.accounts.throttle)."""
    if current_user.is_authenticated:
        return redirect(url_for("drill.dashboard"))
    form = RegisterForm()
    if form.validate_on_submit():
        now = clock.now()
        if not throttle.admit_request("register", _client_address(), now):
            abort(429)
        page = {"email": normalize_email(form.email.data), "hours": registration.max_age() // 3600 or 1,
                "mail_server": has_mail_server()}
        if not throttle.may_mail("register", account_key(form.email.data), now):
            return render_template("accounts/register_sent.html", recent=True, **page)
        try:  # the language chosen in the footer, for the mail and the account
            started = registration.start(form.email.data, language=_session_language(), now=now)
        except AccountError as err:
            db.session.rollback()
            form.email.errors.append(str(err.message))
        else:
            db.session.commit()
            registration.send(started, str(get_locale() or "en"))
            return render_template("accounts/register_sent.html", recent=False, **page)
    return render_template("accounts/register.html", form=form), (400 if form.errors else 200)


@bp.route("/register/confirm/<token>", methods=["GET", "POST"])
def confirm_registration(token: str):
    """The emailed link: a page where the address's owner chooses the password; sending it
    creates the account, logs its owner in and opens the first screen (a POST, so a mail scanner
    that follows links creates nothing)."""
    form = ConfirmRegistrationForm()
    try:
        pending = registration.pending_for(token, clock.now())
        user = registration.confirm(token, form.password.data, display_name=form.display_name.data or "",
                                    timezone=_valid_zone(form.timezone.data), language=_session_language(),
                                    now=clock.now()) if form.validate_on_submit() else None
    except registration.LinkExpired:
        return _link_problem(_("This link has expired. Register again to get a new one."))
    except registration.LinkInvalid:
        return _link_problem(_("This link is not valid (it may have been used already). If you have an account, "
                               "log in."))
    if user is None:
        return render_template("accounts/register_confirm.html", form=form, problem=None, email=pending.email), (
            400 if form.errors else 200)
    _clear_session()
    login_user(user)
    start_session()
    # The first screen is what to bring: a posting, an interview report, or a target role.
    flash(_("Welcome to prep! Bring a job posting or an interview report, or start from a target role."), "success")
    return _known_device(redirect(url_for("postings.new")), user)


def _known_device(response, user: User):
    """The response with a device cookie for ``user``'s account (prep.accounts.throttle): set where
    the password was just proven or chosen."""
    throttle.remember_device(response, account_key(user.email))
    return response


def _link_problem(problem: str):
    db.session.rollback()
    return render_template("accounts/register_confirm.html", problem=problem), 400


def _session_language() -> str | None:
    return session.get("lang") if session.get("lang") in LANGUAGES else None


def _client_address() -> str:
    return get_remote_address() or "unknown"


@bp.route("/login", methods=["GET", "POST"])
def login():
    if current_user.is_authenticated:
        return redirect(url_for("drill.dashboard"))
    form = LoginForm()
    if form.validate_on_submit():
        account, address = account_key(form.email.data), _client_address()
        device = throttle.known_device(request.cookies.get(throttle.device_cookie_name()), account)
        # Counted before the password is checked, atomically: concurrent tries cannot slip past.
        if not throttle.admit_login(account, address, device, clock.now()):
            abort(429)
        user = authenticate(form.email.data, form.password.data)
        if user is None:
            form.password.errors.append(_("Wrong email or password."))
        else:
            throttle.login_succeeded(account, address, device)
            db.session.commit()
            next_url = safe_local_target(request.args.get("next"), url_for("drill.dashboard"))
            _clear_session()  # a fresh session at login
            login_user(user, remember=form.remember.data)
            start_session(remember=bool(form.remember.data))
            return _known_device(redirect(next_url), user)  # its logins no longer share others' limits
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
    """Always the same answer, whether or not an account exists for the address. Never refused
    for the address's sake: past the mails it may get, nothing new is sent and the answer says a
    link sent a short while ago still works (prep.accounts.throttle)."""
    form = ForgotPasswordForm()
    if form.validate_on_submit():
        now = clock.now()
        if not throttle.admit_request("reset", _client_address(), now):
            abort(429)
        if not throttle.may_mail("reset", account_key(form.email.data), now):
            flash(_("If an account exists for that address, a link to choose a new password was sent to it in the "
                    "last %(minutes)d minutes, and it still works. Look in your inbox and spam folder.",
                    minutes=throttle.mail_window_minutes("reset")), "info")
            return redirect(url_for("accounts.login"))
        user = find_user(form.email.data)
        if user is not None:
            send_reset_email(user)
        else:
            spend_like_send()  # similar timing either way
        flash(_("If an account exists for that address, we sent a link to choose a new password."), "info")
        if not has_mail_server():
            flash(_("This prep server has no mail server set up: the link is printed in the console (terminal) "
                    "where prep serve runs, and the message is saved in the outbox folder of the instance "
                    "directory."), "info")
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
        return _known_device(redirect(url_for("drill.dashboard")), user)
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
