"""XSS: every payload of tests/xss_payloads.py goes through every input that reaches a page, and
the served HTML is checked with a real parser (bs4 + html.parser): no script but the app's own
files under /static/, no on* attribute, no javascript:/vbscript:/data: (non-image) URL, no
iframe/object/embed/base, no <style> in the body, and, where the input is shown back verbatim,
the payload text present (escaped, as text)."""
from __future__ import annotations

import html as html_lib
import io
import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from sqlalchemy import select

from prep.accounts.models import Role
from prep.drill.cards import add_to_study
from prep.drill.models import Card
from prep.extensions import db
from prep.questions.models import Source
from prep.questions.service import add_question
from tests.support.app import PASSWORD
from tests.support.clock import FIXED_NOW
from tests.support.htmlforms import review_and_save
from tests.support.xss_payloads import PAYLOADS

URL_ATTRS = {"href", "src", "action", "formaction", "xlink:href", "data", "poster", "background", "cite",
             "ping", "manifest", "srcset", "lowsrc", "dynsrc", "codebase"}
BAD_TAGS = {"iframe", "object", "embed", "base", "frame", "frameset", "applet", "portal"}
BAD_SCHEMES = ("javascript:", "vbscript:", "livescript:", "data:")
CSP_NONCE = re.compile(r"'nonce-([^']+)'")

# Every input exercised below; tests append (input, payload) pairs as they go, and the last test
# checks the count (a README figure: payloads × inputs).
INPUTS = ["posting paste", "posting upload", "own question text", "own question tags + flash", "card note",
          "question search", "site search", "explanation preview", "explanation editor preview",
          "explanation saved", "settings fields", "reminder settings", "interview date", "register form",
          "login form"]
TRIED: set[tuple[str, int]] = set()


def _scheme(value: str) -> str:
    return re.sub(r"[\x00-\x20]+", "", value).lower()


def assert_safe(html: str, where: str, *, csp: str | None = None) -> BeautifulSoup:
    """The page has nothing a payload could run through; returns the parsed page."""
    soup = BeautifulSoup(html, "html.parser")
    nonce = CSP_NONCE.search(csp or "")
    problems = []
    for tag in soup.find_all(True):
        name = tag.name.lower()
        if name in BAD_TAGS:
            problems.append(f"<{name}> element")
        if name == "meta" and tag.get("http-equiv"):
            problems.append(f"<meta http-equiv={tag.get('http-equiv')}>")
        if name == "script":
            src = tag.get("src") or ""
            if not src.startswith("/static/") or tag.string and tag.string.strip():
                problems.append(f"script not from /static/: {str(tag)[:120]}")
            elif nonce and tag.get("nonce") != nonce.group(1):
                problems.append(f"script without the CSP nonce: {str(tag)[:120]}")
        for attr, value in tag.attrs.items():
            value = " ".join(value) if isinstance(value, list) else str(value)
            if attr.lower().startswith("on"):
                problems.append(f"event handler {attr}= on <{name}>")
            if attr.lower() in URL_ATTRS or attr.lower().endswith(":href"):
                scheme = _scheme(value)
                if scheme.startswith(BAD_SCHEMES) and not (
                        name == "img" and attr == "src" and scheme.startswith("data:image/")
                        and not scheme.startswith("data:image/svg")):
                    problems.append(f"{attr}={value[:80]!r} on <{name}>")
            if attr.lower() == "style" and re.search(r"expression\(|javascript:|url\(", value, re.I):
                problems.append(f"style={value[:80]!r} on <{name}>")
    body = soup.body or soup
    if body.find_all("style"):
        problems.append("<style> element in the body")
    assert not problems, f"{where}: " + "; ".join(problems)
    return soup


def _collapse(text: str) -> str:
    return " ".join(text.split())


def shown_escaped(soup: BeautifulSoup, text: str) -> bool:
    """``text`` is on the page as text (or as a form field's value), not as markup."""
    want = _collapse(text)
    if want in _collapse(soup.get_text("")):
        return True
    return any(want in _collapse(" ".join(v) if isinstance(v, list) else str(v))
               for tag in soup.find_all(True) for v in tag.attrs.values())


def check(response, where: str, *, echo: str | None = None, statuses=(200, 400)) -> BeautifulSoup:
    assert response.status_code in statuses, f"{where}: HTTP {response.status_code}"
    soup = assert_safe(response.get_data(as_text=True), where,
                       csp=response.headers.get("Content-Security-Policy"))
    if echo is not None:
        assert shown_escaped(soup, echo), f"{where}: the input is not shown back as text"
    return soup


def form_values(html: str, has_field: str) -> dict[str, str]:
    """The current values of the form holding ``has_field`` (as a browser would submit them)."""
    soup = BeautifulSoup(html, "html.parser")
    form = next(f for f in soup.find_all("form") if f.find(attrs={"name": has_field}))
    values: dict[str, str] = {}
    for el in form.find_all(["input", "select", "textarea"]):
        name = el.get("name")
        if not name or el.get("type") in ("submit", "button"):
            continue
        if el.name == "select":
            opt = el.find("option", selected=True) or el.find("option")
            values[name] = opt.get("value", opt.get_text()) if opt else ""
        elif el.name == "textarea":
            values[name] = el.get_text()
        elif el.get("type") == "checkbox":
            if el.has_attr("checked"):
                values[name] = el.get("value", "y")
        else:
            values[name] = el.get("value", "")
    return values


def posting_text(i: int, payload: str) -> str:
    return (f"Acme GPU {i} {payload}\nGPU 通信库工程师 {payload}\n职位详情\n负责 NCCL 与 RDMA 通信优化。{payload}\n"
            f"面试指南\n- 请解释Ring AllReduce的两个阶段 {i} {payload}\n- Explain {payload} in NCCL {i}\n")


@pytest.fixture
def candidate(make_user, login, client):
    user = make_user("xss@example.com")
    login(user)
    return user


def _tried(name: str, i: int) -> None:
    assert name in INPUTS
    TRIED.add((name, i))


def _import(client, data, label):
    """Import through the review checklist: both the checklist and the saved posting's page are checked."""
    review = client.post("/postings/new", data=data, content_type="multipart/form-data")
    check(review, f"{label} (review)")
    saved = review_and_save(client, review)
    return client.get(saved.headers["Location"], follow_redirects=True) if saved.status_code == 302 else saved


def test_posting_paste_and_upload(client, candidate):
    for i, payload in enumerate(PAYLOADS):
        r = _import(client, {"text": posting_text(i, payload)}, f"paste #{i}")
        check(r, f"paste #{i}")
        _tried("posting paste", i)
        page = "<!doctype html><html><head><title>" + payload + "</title></head><body><h1>Acme " + payload + \
               "</h1><pre>" + posting_text(i + 100, payload) + "</pre><script>alert('page')</script></body></html>"
        r = _import(client, {"file": (io.BytesIO(page.encode()), f"posting{i}.html")}, f"upload #{i}")
        check(r, f"upload #{i}")
        r = _import(client, {"file": (io.BytesIO(posting_text(i + 200, payload).encode("utf-16")), f"posting{i}.txt")},
                    f"upload txt #{i}")
        check(r, f"upload txt #{i}")
        _tried("posting upload", i)
    check(client.get("/postings"), "postings list")
    for question_page in ("/questions", "/cards", "/dashboard"):
        check(client.get(question_page), question_page)


def test_interview_date(client, candidate):
    from prep.postings.service import import_posting

    posting = import_posting(candidate, posting_text(0, "plain"), FIXED_NOW).posting
    db.session.commit()
    for i, payload in enumerate(PAYLOADS):
        r = client.post(f"/postings/{posting.id}/interview", data={"interview_date": payload},
                        follow_redirects=True)
        check(r, f"interview date #{i}")
        _tried("interview date", i)


def test_own_question_text_tags_and_flash(client, candidate):
    for i, payload in enumerate(PAYLOADS):
        text = f"Q{i}: {payload}"
        tag = f"t{i}{payload}".replace(",", ";")[:60]
        r = client.post("/questions", data={"text": text, "lang": "auto", "tags": tag}, follow_redirects=True)
        check(r, f"own question #{i}")
        question = db.session.scalar(select(Card).where(Card.user_id == candidate.id)
                                     .order_by(Card.id.desc())).question
        assert question.text == text
        check(client.get(f"/questions/{question.id}"), f"question page #{i}", echo=text)
        check(client.get(f"/cards/{db.session.scalar(select(Card.id).where(Card.question_id == question.id))}"),
              f"card page #{i}", echo=text)
        _tried("own question text", i)
        # The tag is echoed in a flash message and in the tag filter.
        r = client.post("/questions/study-tag", data={"tag": tag}, follow_redirects=True)
        check(r, f"study-tag flash #{i}", echo=tag.strip())
        _tried("own question tags + flash", i)
    soup = check(client.get("/questions"), "questions list")
    assert "{{7*7}}" in soup.get_text() and "49" not in soup.get_text().replace("2049", "")
    check(client.get("/drill"), "drill")


def test_card_note(client, candidate):
    q = add_question("What is a queue pair?", source=Source.content)
    add_to_study(candidate, [q.id], FIXED_NOW)
    db.session.commit()
    card_id = db.session.scalar(select(Card.id).where(Card.user_id == candidate.id))
    for i, payload in enumerate(PAYLOADS):
        r = client.post(f"/cards/{card_id}/note", data={"note": payload}, follow_redirects=True)
        check(r, f"note #{i}", echo=payload)
        check(client.get(f"/cards/{card_id}"), f"card page #{i}", echo=payload)
        # The note is shown with the answer in the drill.
        check(client.get("/drill?reveal=1"), f"drill with note #{i}")
        _tried("card note", i)


def test_search_queries(app, client, candidate):
    add_question("What is a queue pair?", source=Source.content)
    db.session.commit()
    has_site_search = any(rule.rule == "/search" for rule in app.url_map.iter_rules())
    for i, payload in enumerate(PAYLOADS):
        r = client.get("/questions", query_string={"q": payload})
        check(r, f"question search #{i}", echo=payload[:200].strip())
        r = client.get("/questions", query_string={"tag": payload})
        check(r, f"question tag filter #{i}")
        check(client.get("/explanations", query_string={"q": payload}), f"explanation search #{i}",
              echo=payload[:200].strip())
        _tried("question search", i)
        if has_site_search:
            check(client.get("/search", query_string={"q": payload}), f"site search #{i}")
            _tried("site search", i)
    if not has_site_search:
        pytest.skip("no /search route in this build (question and explanation search were checked)")


@pytest.fixture
def instructor(make_user, login, client):
    user = make_user("teach-xss@example.com", role=Role.instructor)
    login(user)
    return user


def explanation_doc(i: int, payload: str) -> str:
    return (f"---\ntitle: {json.dumps(f'XSS {i} {payload}')}\nslug: xss-{i}\nskills: [RDMA]\n"
            f"questions:\n  - {json.dumps(f'What is payload {i}?')}\n---\n"
            f"## Heading {payload}\n\nText {payload} more.\n\n{payload}\n\n"
            f"* item {payload}\n\n> quote {payload}\n\n[link]({payload}) and <{payload}>\n\n"
            f"```{payload[:20].replace(chr(96), '')}\ncode {payload}\n```\n\n"
            f"| a | b |\n|---|---|\n| {payload.replace('|', '&#124;')} | x |\n\n"
            f"!!! note \"{payload}\"\n    admonition {payload}\n\nFootnote[^1]\n\n[^1]: {payload}\n")


def test_explanation_markdown_preview_and_saved(app, client, instructor):
    Path(app.config["CONTENT_DIR"]).mkdir(parents=True, exist_ok=True)
    saved = 0
    for i, payload in enumerate(PAYLOADS):
        doc = explanation_doc(i, payload)
        r = client.post("/explanations/preview", data={"text": doc, "area": "xss"})
        assert r.status_code == 200, f"preview #{i}: HTTP {r.status_code}"
        data = r.get_json()
        assert_safe(data["html"], f"preview html #{i}")
        # The problems are shown with textContent by editor.js; they are plain strings.
        assert all(isinstance(p, str) for p in data["problems"])
        _tried("explanation preview", i)
        r = client.post("/explanations/new", data={"area": "xss", "text": doc, "preview": "1"})
        check(r, f"editor preview #{i}")
        _tried("explanation editor preview", i)
        r = client.post("/explanations/new", data={"area": "xss", "text": doc, "save": "1"}, follow_redirects=True)
        check(r, f"explanation save #{i}")
        if r.request.path.startswith("/explanations/xss-"):
            saved += 1
            check(client.get(f"/explanations/xss-{i}"), f"explanation page #{i}")
            check(client.get(f"/explanations/xss-{i}/edit"), f"explanation edit #{i}")
        _tried("explanation saved", i)
    assert saved >= len(PAYLOADS) - 2, f"only {saved} of {len(PAYLOADS)} explanations were saved"
    check(client.get("/explanations"), "explanations list")
    check(client.get("/instructor/unanswered"), "unanswered")
    # A candidate's drill shows the explanations with the answer.
    q = add_question("What is payload 0?", source=Source.content)
    add_to_study(instructor, [q.id], FIXED_NOW)
    db.session.commit()
    check(client.get("/drill?reveal=1"), "drill with explanation")


def test_settings_fields(client, candidate):
    base = form_values(client.get("/settings").get_data(as_text=True), "display_name")
    for i, payload in enumerate(PAYLOADS):
        name = payload[:80]
        r = client.post("/settings", data={**base, "display_name": name}, follow_redirects=True)
        check(r, f"display name #{i}", echo=name.strip())
        for field in ("learning_steps", "relearning_steps", "timezone", "language", "desired_retention",
                      "new_per_day"):
            r = client.post("/settings", data={**base, field: payload[:120]}, follow_redirects=True)
            check(r, f"settings {field} #{i}")
        _tried("settings fields", i)
    check(client.get("/dashboard"), "dashboard")


def test_reminder_settings(client, candidate):
    base = form_values(client.get("/settings/reminders").get_data(as_text=True), "remind_at")
    for i, payload in enumerate(PAYLOADS):
        for field in ("remind_at", "enabled", "email"):
            r = client.post("/settings/reminders", data={**base, field: payload}, follow_redirects=True)
            check(r, f"reminder {field} #{i}")
        _tried("reminder settings", i)
    check(client.get("/notifications"), "notifications")


def test_register_and_login_forms(app):
    client = app.test_client()
    for i, payload in enumerate(PAYLOADS):
        r = client.post("/register", data={"email": payload, "display_name": payload[:80], "password": payload,
                                           "confirm": payload, "timezone": payload})
        check(r, f"register #{i}")
        _tried("register form", i)
        r = client.post("/login", data={"email": payload[:254], "password": PASSWORD})
        check(r, f"login #{i}", statuses=(200, 400, 429))  # the per-IP limit may answer first
        r = client.get("/login", query_string={"next": payload})
        check(r, f"login next #{i}")
        _tried("login form", i)


def _raw_contexts(payload: str) -> list[str]:
    """``payload`` dropped unescaped into the places a template puts input (as ``|safe`` would),
    and, for Markdown link payloads, their URL as a link's href (as a renderer without URL
    validation would)."""
    pages = [f"<p>{payload}</p>", f"<input value=\"{payload}\">", f"<input value='{payload}'>",
             f"<textarea>{payload}</textarea>", f"<title>{payload}</title>"]
    link = re.search(r"\]\((.*)\)$", payload) or re.fullmatch(r"<(\w+:.*)>", payload)
    if link:
        url = html_lib.unescape(link.group(1).strip())
        pages.append(f"<a href=\"{url}\">x</a>" if not payload.startswith("!") else f"<img src=\"{url}\">")
    return [f"<html><head></head><body><main>{p}</main></body></html>" for p in pages]


# Payloads that are inert even unescaped (they test that nothing evaluates or re-assembles them).
INERT_RAW = {"{{7*7}} {{ config }} ${7*7} {% raw %}",
             "<scr<script>ipt>alert(2)</scr</script>ipt>"}  # harmful only after a filter strips <script>


def test_the_checker_catches_every_payload_left_raw():
    """The checks above can fail: each payload left unescaped in some context is caught, and its
    escaped form passes and is found as text."""
    from markupsafe import escape

    missed = []
    for i, payload in enumerate(PAYLOADS):
        caught = 0
        for page in _raw_contexts(payload):
            try:
                assert_safe(page, "raw")
            except AssertionError:
                caught += 1
        if not caught and payload not in INERT_RAW:
            missed.append(payload)
        escaped = f"<html><body><main><p>{escape(payload)}</p><input value=\"{escape(payload)}\"></main></body></html>"
        soup = assert_safe(escaped, f"escaped #{i}")
        assert shown_escaped(soup, payload)
    assert not missed, missed


def test_zz_every_payload_went_through_every_input():
    """Runs last in this file: the figure for the README (payloads × inputs actually tried)."""
    if len(TRIED) < len(PAYLOADS):
        pytest.skip("run the whole file to count")
    inputs = {name for name, _ in TRIED}
    print(f"\nXSS: {len(PAYLOADS)} payloads x {len(inputs)} inputs = {len(TRIED)} combinations tried")
    for name in inputs:
        assert {i for n, i in TRIED if n == name} == set(range(len(PAYLOADS))), name
