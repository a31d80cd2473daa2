"""No untranslated user-visible English in the sources.

tests/codebase/test_i18n.py compares the extracted msgids with the catalogs; it cannot see a string that was
never wrapped in ``_()``. These tests look for such strings where they hide:

* templates: text between tags and visible attributes (title, placeholder, aria-label, alt, a
  button's value) outside ``{{ _() }}`` and ``{% trans %}``;
* forms (``prep/*/forms.py``): field labels, descriptions, validator messages, choice labels and
  errors added by hand must be lazy translations (``_l``), evaluated per request;
* ``flash()`` anywhere in prep, and the problems an import reports, must not be bare literals;
* static/js: no English sentence in a script (pages pass translated text in ``data-`` attributes).

Each has a small allow-list for brand names, code and deliberately untranslated text (a language's
own name in the switcher is marked ``lang="en"``, and text in an element with a ``lang`` attribute is
left alone)."""
from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from datetime import timedelta
from pathlib import Path

import pytest
from flask_login import login_user
from sqlalchemy import select

from prep.drill import rating
from prep.drill.models import Card
from prep.extensions import db
from prep.postings.service import import_posting
from prep.reminders import service as reminders
from prep.web.templating import local_date
from tests.support.clock import FIXED_NOW

ROOT = Path(__file__).resolve().parents[2]
WORD = re.compile(r"[A-Za-z]{2,}")
# Brand and product names, and code-ish tokens, that stay as they are in every language.
ALLOWED_WORDS = {"prep", "Anki", "FSRS", "JSON", "CSV", "NCCL", "GPU", "RDMA", "Markdown", "KaTeX", "Tab", "Esc",
                 "Enter", "Space", "Ctrl", "Shift", "Alt", "Cmd", "iCal", "ics", "Slack", "Webhook"}


# --- templates -------------------------------------------------------------------------------

_TRANS_BLOCK = re.compile(r"\{%-?\s*trans\b.*?\{%-?\s*endtrans\s*-?%\}", re.S)
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_VISIBLE_ATTRS = {"title", "placeholder", "aria-label", "alt", "aria-description", "aria-roledescription",
                  "aria-valuetext", "label"}
_CODE_TAGS = {"script", "style", "code", "pre", "kbd", "samp", "var"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def _english(text: str) -> list[str]:
    return [w for w in WORD.findall(text) if w not in ALLOWED_WORDS]


class _BareText(HTMLParser):
    """Collects text nodes and visible attribute values with English words in them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, exempt: code or an element with its own lang)
        self.hits: list[tuple[int, str]] = []

    def _exempt(self) -> bool:
        return any(exempt for _tag, exempt in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if not self._exempt():
            for name, value in attrs:
                visible = name in _VISIBLE_ATTRS or (
                    name == "value" and tag in ("input", "button") and a.get("type") in ("submit", "button", "reset"))
                if visible and value and _english(value):
                    self.hits.append((self.getpos()[0], f"<{tag} {name}={value!r}>"))
        if tag not in _VOID:
            self.stack.append((tag, tag in _CODE_TAGS or "lang" in a or "translate" in a))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if not self._exempt() and _english(data):
            self.hits.append((self.getpos()[0], repr(data.replace("\x00", " ").strip())))


def bare_template_text(source: str) -> list[tuple[int, str]]:
    """(line, text) of English outside gettext in one Jinja template."""
    keep_lines = lambda m, fill="": fill + "\n" * m.group(0).count("\n")  # noqa: E731
    source = _TRANS_BLOCK.sub(keep_lines, source)
    source = _JINJA.sub(lambda m: keep_lines(m, "\x00" if m.group(0).startswith("{{") else ""), source)
    parser = _BareText()
    parser.feed(source)
    parser.close()
    return parser.hits


def test_templates_have_no_bare_english_text():
    problems = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for line, text in bare_template_text(path.read_text(encoding="utf-8")):
            problems.append(f"{path.relative_to(ROOT)}:{line}: {text} is not in _() or {{% trans %}}")
    assert not problems, "\n".join(problems)


def test_the_template_scan_finds_what_it_should():
    hits = bare_template_text('<p>{{ _("Fine") }} Not fine</p><button title="Close it">{{ x }}</button>'
                              '<code>x = y</code><span lang="en">English</span><a>prep</a>'
                              '{% trans %}Also fine <b>here</b>{% endtrans %}<input type="submit" value="Go on">')
    assert [text for _line, text in hits] == ["'Not fine'", "<button title='Close it'>", "<input value='Go on'>"]


# --- Python: forms, flash messages, import problems ------------------------------------------

_GETTEXT = {"_", "_l", "gettext", "lazy_gettext", "ngettext", "lazy_ngettext", "pgettext", "npgettext"}
_VALIDATORS = {"DataRequired", "InputRequired", "Optional", "Length", "NumberRange", "Email", "EqualTo", "Regexp",
               "AnyOf", "NoneOf", "URL", "FileRequired", "FileAllowed", "FileSize", "ValidationError",
               "StopValidation"}
# Positional arguments that are not text: EqualTo(fieldname), Regexp(pattern), AnyOf/NoneOf(values),
# FileAllowed(extensions), NumberRange(min, max), Length(min, max), FileSize(max, min).
_NOT_TEXT_POSITIONS = {"EqualTo": {0}, "Regexp": {0, 1}, "AnyOf": {0}, "NoneOf": {0}, "FileAllowed": {0},
                       "NumberRange": {0, 1}, "Length": {0, 1}, "FileSize": {0, 1}}
_TEXT_KEYWORDS = {"label", "message", "description"}
_USER_PROBLEMS = {"flash", "ImportProblem", "fail"}  # flash(msg); ImportProblem([msg]); check.fail(where, msg)


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _bare_strings(node: ast.AST) -> list[ast.AST]:
    """String literals (plain or f-strings) in ``node`` that are not inside a gettext call."""
    if isinstance(node, ast.Call) and _name(node) in _GETTEXT:
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node] if _english(node.value) else []
    if isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        return [node] if _english(text) else []
    if isinstance(node, ast.Call):  # str(err), ", ".join(...): look at the arguments only
        return [s for a in [*node.args, *(k.value for k in node.keywords)] for s in _bare_strings(a)]
    return [s for child in ast.iter_child_nodes(node) for s in _bare_strings(child)]


def untranslated_python(source: str, *, is_form: bool) -> list[tuple[int, str]]:
    tree = ast.parse(source)
    found: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node)
            if name in _USER_PROBLEMS:
                args = node.args[1:] if name == "fail" else node.args[:1]
                found += [s for a in args for s in _bare_strings(a)]
            own_language = any(k.arg == "render_kw" and "'lang'" in ast.unparse(k.value) for k in node.keywords)
            if is_form and not own_language and (name.endswith("Field") or name in _VALIDATORS
                                                 or name == "SelectChoice"):
                skip = _NOT_TEXT_POSITIONS.get(name, set()) | ({0} if name == "SelectChoice" else set())
                found += [s for i, a in enumerate(node.args) if i not in skip for s in _bare_strings(a)]
                found += [s for k in node.keywords if k.arg in _TEXT_KEYWORDS for s in _bare_strings(k.value)]
        elif is_form and isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Attribute) and t.attr == "errors" for t in node.targets):
            found += _bare_strings(node.value)
    return sorted({(s.lineno, ast.unparse(s)) for s in found})


def test_forms_flashes_and_import_problems_are_translated():
    problems = []
    for path in sorted((ROOT / "prep").rglob("*.py")):
        if path.name == "cli.py" or "migrations" in path.parts:
            continue  # the command line speaks English
        for line, text in untranslated_python(path.read_text(encoding="utf-8"), is_form=path.name == "forms.py"):
            problems.append(f"{path.relative_to(ROOT)}:{line}: {text} is shown to users untranslated")
    assert not problems, "\n".join(problems)


def test_the_python_scan_finds_what_it_should():
    source = '''
class F(FlaskForm):
    a = StringField("Name", validators=[DataRequired(message="Say it"), EqualTo("b"), Regexp(r"[a-z]+")])
    b = StringField(_l("Fine"), description="Help text", validators=[Length(max=3, message=_l("Short"))])
    c = SelectField(_l("Pick"), choices=[SelectChoice("x", "Ex"), SelectChoice("y", _l("Why")),
                                      SelectChoice("en", "English", render_kw={"lang": "en"})])
    def validate(self):
        self.a.errors = [*self.a.errors, "Wrong"]
        flash("Saved." if ok else _("Not saved."))
        raise ImportProblem([f"line {n} is bad"])
'''
    found = [text for _line, text in untranslated_python(source, is_form=True)]
    assert found == ["'Name'", "'Say it'", "'Help text'", "'Ex'", "'Wrong'", "'Saved.'", "f'line {n} is bad'"]


# --- static/js --------------------------------------------------------------------------------

_JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\\])//[^\n]*", re.S)
_JS_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`')
_JS_ALLOWED = {"use strict"}
_SENTENCE = re.compile(r"[A-Za-z]{2,}[,.:;!?]? +[A-Za-z]{2,}")


def english_in_script(source: str) -> list[str]:
    source = _JS_COMMENT.sub("", source)
    out = []
    for m in _JS_STRING.finditer(source):
        text = next(g for g in m.groups() if g is not None)
        code_like = re.search(r"^[#.\[]|[#\[\]=>(]|\.[a-z]|^[a-z-]+ [a-z-]+$", text)  # selectors, class lists
        if text not in _JS_ALLOWED and _SENTENCE.search(text) and not code_like:
            out.append(text)
    return out


def test_scripts_show_no_english_of_their_own():
    problems = [f"{path.relative_to(ROOT)}: {text!r} (pass it from the page in a data- attribute)"
                for path in sorted((ROOT / "static" / "js").glob("*.js"))
                for text in english_in_script(path.read_text(encoding="utf-8"))]
    assert not problems, "\n".join(problems)


def test_the_script_scan_finds_what_it_should():
    assert english_in_script('// Show the answer\nx.textContent = "Answer shown."; y = "Press space to go";'
                             ' q("#a .b"); "use strict"; el.className = "nav-toggle button";') == [
        "Answer shown.", "Press space to go"]


# --- the pages themselves, rendered in Chinese ------------------------------------------------

_SKIP_ELEMENTS = re.compile(r"<(script|style|code|pre|kbd|svg|textarea)\b.*?</\1>", re.S | re.I)
# Data, not UI: the time zone list (IANA names), skill and tag chips (content's own names), file names.
_NOT_UI = re.compile(r'<select[^>]*name="timezone".*?</select>|<span class="chip[^"]*">[^<]*</span>'
                     r'|<a class="chip[^"]*"[^>]*>.*?</a>|[\w-]*\.(?:csv|json|apkg|zip|md|ics)\b', re.S)
_OWN_LANG = re.compile(r'<(\w+)\b[^>]*\blang="en"[^>]*>.*?</\1>', re.S)
_PAGE_ALLOWED = ALLOWED_WORDS | {"Acme", "AllReduce", "Ring", "TCP", "IP", "YYYY", "MM", "DD", "UTC", "ISO",
                                 "GMT", "Asia", "Shanghai", "English", "MB", "URL", "ICS"}
ZH = {"Accept-Language": "zh-CN,zh;q=0.9"}
POSTING = "Acme GPU\nGPU 通信工程师\n职位详情\n负责 NCCL 优化。\n面试指南\n- 请解释Ring AllReduce的两个阶段\n- RDMA与TCP/IP相比有何优势？\n"


def visible_text(html: str) -> str:
    """What a Chinese reader sees on a rendered page (text, titles, placeholders, labels), less code and data."""
    html = _OWN_LANG.sub(" ", _SKIP_ELEMENTS.sub(" ", html))
    html = _NOT_UI.sub(" ", html)
    attrs = " ".join(v for _k, v in re.findall(r'\b(title|placeholder|aria-label|alt|data-msg-[\w-]+)="([^"]*)"', html))
    return re.sub(r"<[^>]+>", " ", re.split(r"<body[^>]*>", html, maxsplit=1)[-1]) + " " + attrs


def english_on_page(html: str) -> list[str]:
    return sorted({w for w in WORD.findall(visible_text(html)) if w not in _PAGE_ALLOWED and not w.isupper()})


def test_the_main_pages_in_chinese_show_no_english(client, make_user, login, clock):
    user = make_user(language="zh")
    user.created_at = clock.now - timedelta(days=30)  # an established user: reminders are due (not a newcomer)
    db.session.commit()
    login(user)
    posting = import_posting(user, POSTING, clock.now).posting
    db.session.commit()
    client.post(f"/postings/{posting.id}/study")
    client.post(f"/postings/{posting.id}/interview", data={"interview_date": "2026-04-01"})
    card = db.session.scalars(select(Card).where(Card.user_id == user.id)).first()
    rating.rate(user, rating.Answer(card.id, card.version, 3), clock.now)
    db.session.commit()
    reminders.sweep(clock.now + timedelta(hours=1))  # a reminder: the log, the banner, a notification
    db.session.expire_all()
    assert client.get("/settings/reminders").get_data(as_text=True).count('id="reminder-log"') == 1
    problems = []
    for path in ("/dashboard", "/drill", "/drill?show=1", "/questions", "/postings", f"/postings/{posting.id}",
                 "/explanations", "/search?q=RDMA", "/stats", "/settings", "/settings/reminders", "/export",
                 "/notifications", "/cards", f"/cards/{card.id}"):
        r = client.get(path, headers=ZH)
        assert r.status_code == 200, path
        html = r.get_data(as_text=True)
        words = english_on_page(html)
        if words:
            problems.append(f"{path}: {words}")
        iso = re.findall(r"\b20\d\d-\d\d-\d\d\b", visible_text(html))
        if iso:
            problems.append(f"{path}: dates printed as ISO, not in the reader's locale: {iso[:3]}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang, zone, expected", [
    ("en", "UTC", "Mar 10, 2026"),
    ("zh", "UTC", "2026年3月10日"),
    ("zh", "Pacific/Kiritimati", "2026年3月11日"),  # UTC+14: already the next day there
    ("en", "Pacific/Pago_Pago", "Mar 10, 2026"),   # UTC-11: 01:00 the same day
])
def test_local_date_is_the_users_day_in_the_users_language(app, make_user, lang, zone, expected):
    with app.test_request_context("/"):
        login_user(make_user(language=lang, timezone=zone))
        assert local_date(FIXED_NOW) == expected
        assert local_date(None) == ""
