"""No 500 from hostile ids and numbers: every route with an id in its
URL answers a huge, negative or malformed id with 404 (or 405 for a method it does not take);
page numbers and form ids out of range are 400/404 or ignored; names are matched whole; content
writes refuse symbolic links and paths outside the content folder. SQLite and PostgreSQL."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from prep.accounts.models import Role
from prep.content import editor
from tests.support.app import PASSWORD

HOSTILE_IDS = ["99999999999999999999999", "2147483648", "9223372036854775808", "0", "-1", "1e9", "%00"]
PAGES = ["99999999999999999999", "9223372036854775808", "-5", "0", "x", "1e400"]


@pytest.fixture
def instructor_client(app, make_user, login):
    login(make_user("staff@example.com", role=Role.instructor))
    return app


def _id_routes(app) -> list[tuple[str, str, list[str]]]:
    """(method, rule, names of its id parts) for every route with an ``<int:...>`` part."""
    out = []
    for rule in app.url_map.iter_rules():
        ints = [name for name, conv in rule._converters.items() if conv.__class__.__name__ == "IdConverter"]
        if not ints:
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((method, rule.rule, ints))
    return out


def test_every_id_route_answers_hostile_ids_without_500(app, client, instructor_client):
    routes = _id_routes(app)
    assert len(routes) >= 15  # the walk found the app's routes
    failures = []
    for method, rule, ints in routes:
        for bad in HOSTILE_IDS:
            url = rule
            for name in ints:
                url = re.sub(r"<int:" + name + r">", bad, url)
            url = re.sub(r"<(?:[a-z]+:)?[a-z_]+>", "x", url)  # any other part (slugs, tokens)
            response = client.open(url, method=method, data={})
            if response.status_code >= 500:
                failures.append(f"{method} {url}: {response.status_code}")
    assert not failures, failures


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("path", ["/questions", "/cards", "/search?q=nccl", "/instructor/unanswered",
                                  "/stats/questions", "/postings"])
def test_page_numbers_out_of_range(client, instructor_client, path, page):
    sep = "&" if "?" in path else "?"
    response = client.get(f"{path}{sep}page={page}")
    assert response.status_code < 500, (path, page, response.status_code)


@pytest.mark.parametrize("card_id", ["99999999999999999999", "2147483648", "-1"])
def test_rating_a_hostile_card_id(client, make_user, login, card_id):
    login(make_user())
    response = client.post("/drill/rate", data={"card_id": card_id, "version": "0", "rating": "3"})
    assert response.status_code < 500


def test_area_names_are_matched_whole(tmp_path):
    check = editor.check_draft("---\ntitle: T\nquestions: ['Q?']\n---\nbody\n", [], area="gpu\n")
    assert any("area" in p.message for p in check.problems)


def test_writes_refuse_symbolic_links_and_outside_paths(tmp_path):
    root = tmp_path / "content"
    outside = tmp_path / "outside"
    (root / "gpu").mkdir(parents=True)
    outside.mkdir()
    (root / "linked").symlink_to(outside, target_is_directory=True)
    (root / "gpu" / "file.md").symlink_to(outside / "file.md")
    for rel in ("linked/x.md", "gpu/file.md", "../outside/x.md", "/etc/x.md", "gpu/../../outside/x.md"):
        with pytest.raises(editor.UnsafePathError):
            editor.safe_target(root, rel)
    assert editor.safe_target(root, "gpu/new.md") == root / "gpu" / "new.md"
    assert list(outside.iterdir()) == []


def test_the_editor_writes_nothing_through_a_symlinked_area(app, client, make_user, login):
    """The editor saves to the database: no file is written, so a link in the content
    folder redirects nothing; ``prep content export`` refuses links itself (tests/content/test_export.py)."""
    login(make_user("teach@example.com", role=Role.instructor))
    root = Path(app.config["CONTENT_DIR"])
    outside = root.parent / "elsewhere"
    root.mkdir(parents=True, exist_ok=True)
    outside.mkdir()
    (root / "gpu").symlink_to(outside, target_is_directory=True)
    text = "---\ntitle: Linked\nquestions: ['What is NCCL?']\n---\nbody\n"
    response = client.post("/explanations/new", data={"area": "gpu", "text": text, "save": "1"})
    assert response.status_code == 302
    assert list(outside.iterdir()) == []


# --- every page, every argument, every form ------------------------------------

#: Values no query argument or form field may turn into a 500: NUL (PostgreSQL refuses it in
#: text), digits ``str.isdigit`` accepts but ``int`` does not ('²'), other scripts' digits,
#: numbers past every column, non-finite numbers, zone names that are files but not places.
HOSTILE_VALUES = ["\x00", "a\x00b", "²", "١٢", "99999999999999999999999", "-99999999999999999999", "1e400",
                  "sNaN", "-inf", "%", "\\", "x" * 5000, "../etc", "posixrules", "Factory", "localtime"]
QUERY_ARGS = ["q", "tag", "page", "card", "question", "next", "lang", "show", "area", "sort", "kind"]
FORM_FIELDS = ["card_id", "version", "rating", "duration_ms", "shown_at", "q", "tag", "text", "tags", "area",
               "slug", "existing_slug", "next", "lang", "email", "password", "confirm", "display_name",
               "timezone", "language", "day_start_hour", "new_per_day", "reviews_per_day", "desired_retention",
               "learning_steps", "relearning_steps", "maximum_interval", "company", "title", "interview_date",
               "remind_at", "time", "source", "round", "section", "kind", "note", "enabled"]


def _plain_rules(app, method: str):
    for rule in app.url_map.iter_rules():
        if method in (rule.methods or ()) and not rule.arguments and not rule.rule.startswith("/static") \
                and "logout" not in rule.rule:
            yield rule.rule


def _relogin(client, response, user) -> None:
    if response.status_code == 302 and "/login" in response.headers.get("Location", ""):
        client.post("/login", data={"email": user.email, "password": PASSWORD})


@pytest.fixture
def staff(app, make_user, login):
    user = make_user("staff2@example.com", role=Role.instructor)
    login(user)
    return user


def test_every_page_answers_hostile_query_arguments(app, client, staff):
    pages = list(_plain_rules(app, "GET"))
    assert len(pages) >= 20
    failures = []
    for path in pages:
        for bad in HOSTILE_VALUES:
            response = client.get(path, query_string={arg: bad for arg in QUERY_ARGS})
            if response.status_code >= 500:
                failures.append(f"GET {path} ={bad[:12]!r}: {response.status_code}")
    assert not failures, failures


def test_every_form_answers_hostile_values(app, client, staff):
    forms = list(_plain_rules(app, "POST"))
    assert len(forms) >= 10
    failures = []
    for path in forms:
        for bad in HOSTILE_VALUES:
            response = client.post(path, data={field: bad for field in FORM_FIELDS})
            if response.status_code >= 500:
                failures.append(f"POST {path} ={bad[:12]!r}: {response.status_code}")
            _relogin(client, response, staff)
    assert not failures, failures


HOSTILE_PATH_PARTS = ["%00", "a%00b", "..%2F..%2Fetc", "%C0%AF", "x" * 3000, "%E2%80%AE", "posixrules"]


def test_every_route_answers_hostile_path_strings(app, client, staff):
    failures = []
    for rule in app.url_map.iter_rules():
        strings = [n for n, c in rule._converters.items() if c.__class__.__name__ != "IdConverter"]
        if not strings or rule.rule.startswith("/static"):
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            for bad in HOSTILE_PATH_PARTS:
                url = re.sub(r"<int:[a-z_]+>", "1", rule.rule)
                url = re.sub(r"<(?:[a-z]+:)?[a-z_]+>", bad, url)
                response = client.open(url, method=method, data={})
                if response.status_code >= 500:
                    failures.append(f"{method} {url[:80]}: {response.status_code}")
    assert not failures, failures


def test_a_nul_character_is_refused_with_the_apps_page(client, staff):
    response = client.get("/questions", query_string={"q": "a\x00b"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "NUL" in html and "q" in html and "<html" in html.lower()
    response = client.post("/questions/study-tag", data={"tag": "gpu\x00"})
    assert response.status_code == 400 and "tag" in response.get_data(as_text=True)


@pytest.mark.parametrize("page", ["²", "١", "٣٤", "+5", " 5", "5 "])
def test_page_numbers_in_other_digits(client, staff, page):
    response = client.get("/questions", query_string={"page": page})
    assert response.status_code == 200


# --- settings: numbers and zones -------------------------------------------------------------------

SETTINGS = dict(display_name="", language="", timezone="UTC", day_start_hour="4", new_per_day="20",
                reviews_per_day="200", desired_retention="0.90", learning_steps="1m 10m", relearning_steps="10m",
                maximum_interval="365")


def _settings_of(user):
    from prep.extensions import db

    db.session.refresh(user)
    return (user.timezone, user.day_start_hour, user.new_per_day, user.reviews_per_day, user.desired_retention,
            user.learning_steps, user.relearning_steps, user.maximum_interval)


@pytest.mark.parametrize("field, value", [
    ("desired_retention", "sNaN"), ("desired_retention", "nan"), ("desired_retention", "inf"),
    ("desired_retention", "-Infinity"), ("desired_retention", "1e999999999"), ("desired_retention", "9" * 5000),
    ("maximum_interval", str(10**12)), ("maximum_interval", "9" * 5000), ("maximum_interval", "1e12"),
    ("day_start_hour", "99999999999999999999"), ("new_per_day", "²"),
    ("learning_steps", "9" * 5000 + "m"), ("learning_steps", "99999999999999d"), ("learning_steps", "1m " * 100),
    ("learning_steps", "١m"), ("relearning_steps", "99999999999999999999999999h"),
    ("timezone", "posixrules"), ("timezone", "Factory"), ("timezone", "localtime"), ("timezone", "../etc"),
    ("timezone", "posix/UTC"), ("timezone", "UTC\n"), ("timezone", "\x00"),
])
def test_settings_refuse_hostile_numbers_and_zones(client, make_user, login, field, value):
    user = make_user()
    login(user)
    before = _settings_of(user)
    response = client.post("/settings", data={**SETTINGS, field: value})
    assert response.status_code == 400
    assert "<form" in response.get_data(as_text=True)  # the settings page again, with the error
    assert _settings_of(user) == before


@pytest.mark.parametrize("missing", ["desired_retention", "maximum_interval", "timezone", "learning_steps"])
def test_settings_with_a_field_left_out(client, make_user, login, missing):
    user = make_user()
    login(user)
    data = {k: v for k, v in SETTINGS.items() if k != missing}
    response = client.post("/settings", data=data)
    assert response.status_code in (302, 400)


@pytest.mark.parametrize("zone", ["posixrules", "Factory", "localtime", "../etc", "UTC\n", "posix/Asia/Tokyo"])
def test_registration_never_stores_a_zone_that_is_not_a_place(client, zone):
    from sqlalchemy import select

    from prep.accounts.models import User
    from prep.extensions import db

    from tests.support.pages import confirm_registration

    assert client.post("/register", data={"email": "zone@example.com"}).status_code < 500
    response = confirm_registration(client.application, client, "zone@example.com", timezone=zone)  # the zone is set there
    assert response.status_code < 500
    user = db.session.scalar(select(User).where(User.email == "zone@example.com"))
    assert user is None or user.timezone == "UTC"


@pytest.mark.parametrize("zone", ["../etc", "posixrules", "Factory", "No/Such_Zone", ""])
def test_a_stored_zone_that_is_not_a_place_breaks_no_page(app, client, make_user, login, make_question, zone):
    """Rows written before the zone list existed (or by hand) are read as UTC, never a 500."""
    from prep.extensions import db

    user = make_user("old@example.com")
    question = make_question()
    login(user)
    client.post(f"/questions/{question.id}/study")
    user.timezone = zone
    db.session.commit()
    failures = []
    for path in _plain_rules(app, "GET"):
        response = client.get(path)
        if response.status_code >= 500:
            failures.append(f"GET {path}: {response.status_code}")
    assert not failures, failures


# --- imports: NUL characters ----------------------------------------------------------------------

@pytest.mark.parametrize("where, value", [("cards[0].question.text", "What is a\x00b?"),
                                          ("cards[0].note", "note\x00"),
                                          ("cards[0].question.tags", ["gpu\x00"])])
def test_an_import_with_a_nul_character_names_the_field(app, client, make_user, login, make_question, where, value,
                                                         clock):
    import io
    import json
    from sqlalchemy import func, select

    from prep.drill.models import Card
    from prep.export import dump
    from prep.extensions import db
    from prep.questions.models import Question

    owner = make_user("owner@example.com")
    question = make_question("What does a ring all-reduce send?")
    login(owner)
    client.post(f"/questions/{question.id}/study")
    data = dump.build_export(owner, clock.now)
    card = data["cards"][0]
    if where.endswith("note"):
        card["note"] = value
    elif where.endswith("tags"):
        card["question"]["tags"] = value
    else:
        card["question"]["text"] = value
    client = login(make_user("other@example.com"), app.test_client())
    before = (db.session.scalar(select(func.count(Card.id))), db.session.scalar(select(func.count(Question.id))))
    response = client.post("/export/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "x.json")})
    html = response.get_data(as_text=True)
    assert response.status_code == 400, html[:300]
    assert where in html and "NUL" in html
    assert (db.session.scalar(select(func.count(Card.id))), db.session.scalar(select(func.count(Question.id)))) == before


# --- names matched whole -------------------------------------------------------

@pytest.mark.parametrize("area", ["gpu\n", "gpu\r\n", "\ngpu", "gpu/x", "../gpu", "GPU"])
def test_the_editor_refuses_an_area_with_a_trailing_newline(app, client, make_user, login, area):
    login(make_user("teach2@example.com", role=Role.instructor))
    text = "---\ntitle: Newline\nquestions: ['What is NCCL?']\n---\nbody\n"
    response = client.post("/explanations/new", data={"area": area, "text": text, "save": "1"})
    assert response.status_code == 400
    root = Path(app.config["CONTENT_DIR"])
    assert not root.exists() or not any(p.suffix == ".md" for p in root.rglob("*"))


@pytest.mark.parametrize("steps", ["1m\n", "١m", "1m\n10m\n"])
def test_step_parsing_is_whole_and_ascii(steps):
    from prep.drill.scheduling import SchedulingError, parse_steps

    if steps.strip() != steps and steps.isascii():
        assert parse_steps(steps)  # whitespace between and around steps is a separator, not part of one
        return
    with pytest.raises(SchedulingError):
        parse_steps(steps)


@pytest.mark.parametrize("area, ok", [("gpu", True), ("gpu-2", True), ("gpu\n", False), ("gpu\r\n", False),
                                      ("\ngpu", False), ("Gpu", False), ("gpu/x", False)])
def test_the_area_field_matches_whole(app, area, ok):
    from prep.content.forms import EditorForm

    with app.test_request_context(method="POST", data={"area": area, "text": "x"}):
        form = EditorForm()
        form.validate()
        assert ("area" not in form.errors) is ok, form.errors


# --- content writes: no symbolic links, nothing outside -------------------------

def _tree(tmp_path):
    root, outside = tmp_path / "content", tmp_path / "outside"
    (root / "gpu").mkdir(parents=True)
    outside.mkdir()
    (outside / "victim.md").write_text("precious\n", encoding="utf-8")
    return root, outside


@pytest.mark.parametrize("make_link, rel", [
    (lambda root, out: (root / "linked").symlink_to(out, target_is_directory=True), "linked/x.md"),
    (lambda root, out: (root / "gpu" / "file.md").symlink_to(out / "victim.md"), "gpu/file.md"),
    (lambda root, out: (root / "dangling").symlink_to(out / "new-dir"), "dangling/x.md"),
    (lambda root, out: (root / "gpu" / "new.md").symlink_to(out / "created.md"), "gpu/new.md"),
    (lambda root, out: None, "../outside/x.md"),
    (lambda root, out: None, "gpu/../../outside/x.md"),
    (lambda root, out: None, "/tmp/x.md"),
])
def test_write_inside_refuses_links_and_outside_paths(tmp_path, make_link, rel):
    root, outside = _tree(tmp_path)
    make_link(root, outside)
    with pytest.raises(editor.UnsafePathError):
        editor.write_inside(root, rel, "---\ntitle: X\n---\n")
    assert sorted(p.name for p in outside.iterdir()) == ["victim.md"]
    assert (outside / "victim.md").read_text(encoding="utf-8") == "precious\n"
    assert not [p for p in root.rglob(".*.tmp")]  # no temporary file left


def test_write_inside_writes_a_plain_file(tmp_path):
    root, _outside = _tree(tmp_path)
    path = editor.write_inside(root, "networking/rdma.md", "body")
    assert path == root / "networking" / "rdma.md" and path.read_text(encoding="utf-8") == "body\n"
    assert path.stat().st_mode & 0o044  # readable by the group and others, as a file in a checkout
