"""UI languages: catalog completeness, language choice (browser, footer switcher, user setting),
translated pages, flash messages and form errors, locale-aware dates.

When this module's catalog test fails, refresh the catalogs and translate what is new:

    .venv/bin/pybabel extract -F babel.cfg -k _l -o prep/translations/messages.pot .
    .venv/bin/pybabel update -i prep/translations/messages.pot -d prep/translations
    (write the new msgstr in prep/translations/zh/LC_MESSAGES/messages.po, and in en)
"""
from __future__ import annotations

import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from flask_login import login_user
from sqlalchemy import select

from prep.accounts.models import User
from prep.extensions import db
from prep.web.templating import local_time
from tests.support.app import PASSWORD
from tests.support.clock import FIXED_NOW
from tests.support.pages import confirm_registration

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "prep" / "translations"
ZH = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}
EN = {"Accept-Language": "en-US,en;q=0.9"}
_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def _extracted() -> dict[str, tuple[str, int]]:
    """Every msgid in the templates and Python code (the way pybabel extract -k _l sees them)."""
    with (ROOT / "babel.cfg").open() as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    keywords = {**DEFAULT_KEYWORDS, "_l": None}
    found: dict[str, tuple[str, int]] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords):
        msgid = message if isinstance(message, str) else message[0]
        if msgid:
            found.setdefault(msgid, (filename, lineno))
    return found


def _catalog(lang: str):
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        return read_po(fh, locale=lang)


def test_every_ui_string_has_a_chinese_and_an_english_entry():
    extracted = _extracted()
    assert len(extracted) > 200  # the extraction itself works (templates and Python)
    zh, en = _catalog("zh"), _catalog("en")
    problems = []
    for msgid, (filename, lineno) in sorted(extracted.items(), key=lambda kv: kv[1]):
        where = f"{filename}:{lineno}: {msgid!r}"
        z = zh.get(msgid)
        strings = [] if z is None else ([z.string] if isinstance(z.string, str) else list(z.string))
        if z is None or not strings or not all(s.strip() for s in strings) or z.fuzzy:
            problems.append(f"no Chinese translation: {where}")
        elif any(set(_PLACEHOLDER.findall(s)) != set(_PLACEHOLDER.findall(msgid)) for s in strings):
            problems.append(f"Chinese placeholders differ: {where}")
        if en.get(msgid) is None:
            problems.append(f"missing from the English catalog: {where}")
    assert not problems, "\n".join(problems)


def test_anonymous_pages_follow_accept_language(client):
    zh = client.get("/login", headers=ZH).get_data(as_text=True)
    assert '<html lang="zh-CN">' in zh and "<h1>登录</h1>" in zh and "跳到正文" in zh
    en = client.get("/login", headers=EN).get_data(as_text=True)
    assert '<html lang="en">' in en and "<h1>Log in</h1>" in en
    # No header at all: English, the default.
    assert "<h1>Log in</h1>" in client.get("/login").get_data(as_text=True)


def test_logged_in_pages_in_chinese(client, make_user, login):
    login(make_user())
    dashboard = client.get("/dashboard", headers=ZH).get_data(as_text=True)
    assert "<h1>今天</h1>" in dashboard and "现在到期" in dashboard and "我的学习" in dashboard
    assert "Due now" not in dashboard
    settings = client.get("/settings", headers=ZH).get_data(as_text=True)
    assert "跟随浏览器" in settings and "每日新卡片数" in settings


def test_footer_switcher_works_without_an_account(client):
    r = client.post("/language", data={"lang": "zh", "next": "/register"}, headers=EN)
    assert r.status_code == 302 and r.headers["Location"].endswith("/register")
    assert "创建你的账号" in client.get("/register", headers=EN).get_data(as_text=True)
    client.post("/language", data={"lang": "en"}, headers=EN)
    assert "Create your account" in client.get("/register", headers=ZH).get_data(as_text=True)
    # An unknown language or an off-site target changes nothing.
    r = client.post("/language", data={"lang": "fr", "next": "https://evil.example/"})
    assert r.headers["Location"] == "/"


def test_switcher_choice_survives_logging_in_and_registering(client, make_user):
    user = make_user()
    client.post("/language", data={"lang": "zh"})
    client.post("/login", data={"email": user.email, "password": PASSWORD})
    assert "<h1>今天</h1>" in client.get("/dashboard", headers=EN).get_data(as_text=True)
    client.post("/logout")
    assert "<h1>登录</h1>" in client.get("/login", headers=EN).get_data(as_text=True)

    other = type(client)(client.application, client.response_wrapper, use_cookies=True)
    other.post("/language", data={"lang": "zh"})
    other.post("/register", data={"email": "new@example.com"})
    confirm_registration(client.application, other, "new@example.com")  # the account is made by the mailed link
    assert db.session.scalar(select(User.language).where(User.email == "new@example.com")) == "zh"


def test_switcher_saves_the_choice_on_the_account(client, make_user, login):
    user = make_user()
    login(user)
    client.post("/language", data={"lang": "zh"}, headers=EN)
    db.session.refresh(user)
    assert user.language == "zh"
    # On another device (a fresh session, an English browser) the account's language wins.
    other = type(client)(client.application, client.response_wrapper, use_cookies=True)
    login(user, other)
    assert "<h1>今天</h1>" in other.get("/dashboard", headers=EN).get_data(as_text=True)


@pytest.mark.parametrize("setting, header, expected", [
    ("en", ZH, "<h1>Today</h1>"),
    ("zh", EN, "<h1>今天</h1>"),
    (None, ZH, "<h1>今天</h1>"),
    (None, EN, "<h1>Today</h1>"),
])
def test_the_users_setting_wins_over_the_browser(client, make_user, login, setting, header, expected):
    login(make_user(language=setting))
    assert expected in client.get("/dashboard", headers=header).get_data(as_text=True)


def test_language_in_settings(client, make_user, login):
    user = make_user()
    login(user)
    form = {"display_name": "", "timezone": "UTC", "day_start_hour": "4", "new_per_day": "20",
            "reviews_per_day": "200", "desired_retention": "0.9", "learning_steps": "1m 10m",
            "relearning_steps": "10m", "maximum_interval": "36500"}
    r = client.post("/settings", data={**form, "language": "zh"}, headers=EN, follow_redirects=True)
    assert "设置已保存。" in r.get_data(as_text=True)  # the flash is already in the new language
    db.session.refresh(user)
    assert user.language == "zh"
    page = client.get("/settings", headers=EN).get_data(as_text=True)
    assert re.search(r'<option selected value="zh"', page) or re.search(r'<option[^>]*selected[^>]*value="zh"', page)
    # "Follow the browser" clears both the account's and the footer's choice.
    client.post("/language", data={"lang": "zh"})
    client.post("/settings", data={**form, "language": ""}, headers=EN)
    db.session.refresh(user)
    assert user.language is None
    assert "<h1>Today</h1>" in client.get("/dashboard", headers=EN).get_data(as_text=True)
    assert "<h1>今天</h1>" in client.get("/dashboard", headers=ZH).get_data(as_text=True)


def test_flash_messages_are_translated(client, make_user, login):
    login(make_user(language="zh"))
    r = client.post("/drill/undo", follow_redirects=True)
    assert "没有可撤销的评分。" in r.get_data(as_text=True)
    client.post("/logout")
    r = client.get("/login", headers=ZH)
    assert "你已退出登录。" in r.get_data(as_text=True)


def test_form_errors_are_translated(client, make_user):
    make_user("taken@example.com")
    page = client.post("/register", data={"email": ""}, headers=ZH).get_data(as_text=True)
    assert "该字段是必填字段。" in page  # WTForms' own messages, from its Chinese catalog
    page = client.post("/register", data={"email": "taken@example.com"}, headers=ZH).get_data(as_text=True)
    assert "请查收邮件" in page  # the same answer as for a new address
    client.post("/register", data={"email": "new@example.com"}, headers=ZH)
    page = confirm_registration(client.application, client, "new@example.com", "short", confirm="x",
                                headers=ZH).get_data(as_text=True)  # the password is chosen on the link's page
    assert "至少使用 8 个字符（15 个以上更好）。" in page
    assert "两次输入的密码不一致。" in page
    page = client.post("/login", data={"email": "taken@example.com", "password": "wrong password"},
                       headers=ZH).get_data(as_text=True)
    assert "邮箱或密码错误。" in page
    # English stays as it was.
    page = client.post("/login", data={"email": "taken@example.com", "password": "wrong password"},
                       headers=EN).get_data(as_text=True)
    assert "Wrong email or password." in page


def test_error_pages_are_translated(client):
    page = client.get("/no-such-page", headers=ZH).get_data(as_text=True)
    assert "页面不存在" in page and "返回首页" in page


def test_drill_in_chinese_uses_ankis_names_and_local_intervals(client, make_user, make_question, login):
    user = make_user(language="zh")
    login(user)
    client.post(f"/questions/{make_question('环形AllReduce分为哪两个阶段？').id}/study")
    page = client.get("/drill?show=1").get_data(as_text=True)
    for name in ("重来", "困难", "良好", "简单"):
        assert f'<span class="rating-name">{name}</span>' in page
    assert "分钟" in page  # the learning step as 10分钟, not 10m
    assert 'class="button rating rating-good"' in page  # the CSS hooks stay English
    assert "键盘快捷键" in page and 'id="shortcuts-dialog"' in page


@pytest.mark.parametrize("lang, zone, expected", [
    ("en", "UTC", "Mar 10, 2026, 12:00 PM"),
    ("zh", "UTC", "2026年3月10日 12:00"),
    ("en", "Asia/Shanghai", "Mar 10, 2026, 8:00 PM"),
    ("zh", "Asia/Shanghai", "2026年3月10日 20:00"),
    ("zh", "America/New_York", "2026年3月10日 08:00"),  # EDT since 8 March
])
def test_local_time_formats_for_the_locale_and_the_users_zone(app, make_user, lang, zone, expected):
    user = make_user(language=lang, timezone=zone)
    with app.test_request_context("/"):
        login_user(user)
        assert local_time(FIXED_NOW) == expected
        assert local_time(FIXED_NOW, "%H:%M") == FIXED_NOW.astimezone(ZoneInfo(zone)).strftime("%H:%M")
        assert local_time(None) == ""


@pytest.mark.parametrize("header", [ZH, EN])
def test_numbers_are_formatted_for_the_locale(app, header):
    with app.test_request_context("/", headers=header):
        rendered = app.jinja_env.from_string("{{ 12345|numberformat }} {{ 0.85|decimalformat('0.00') }}").render()
    assert rendered == "12,345 0.85"  # zh_Hans and en group digits the same way


def test_catalogs_are_compiled_at_start_up(app):
    for lang in ("zh", "en"):
        assert (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo").exists()
