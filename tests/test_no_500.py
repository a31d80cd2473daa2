"""No 500 from hostile ids and numbers (issue 16 items 9 and 10): every route with an id in its
URL answers a huge, negative or malformed id with 404 (or 405 for a method it does not take);
page numbers and form ids out of range are 400/404 or ignored; names are matched whole; content
writes refuse symbolic links and paths outside the content folder. SQLite and PostgreSQL."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from prep.accounts.models import Role
from prep.content import editor

HOSTILE_IDS = ["99999999999999999999999", "2147483648", "9223372036854775808", "0", "-1", "1e9", "%00"]
PAGES = ["99999999999999999999", "9223372036854775808", "-5", "0", "x", "1e400"]


@pytest.fixture
def instructor_client(app, make_user, login):
    login(make_user("staff@example.com", role=Role.instructor))
    from flask import current_app  # noqa: F401
    return app


def _id_routes(app) -> list[tuple[str, str]]:
    out = []
    for rule in app.url_map.iter_rules():
        if "int" not in str(rule.rule) and not any(isinstance(c, type(app.url_map.converters["int"]))
                                                   for c in rule._converters.values()):
            continue
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
    check = editor.check_draft("---\ntitle: T\nquestions: ['Q?']\n---\nbody\n", tmp_path, area="gpu\n")
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


def test_the_editor_refuses_a_symlinked_area(app, client, make_user, login):
    login(make_user("teach@example.com", role=Role.instructor))
    root = Path(app.config["CONTENT_DIR"])
    outside = root.parent / "elsewhere"
    root.mkdir(parents=True, exist_ok=True)
    outside.mkdir()
    (root / "gpu").symlink_to(outside, target_is_directory=True)
    text = "---\ntitle: Linked\nquestions: ['What is NCCL?']\n---\nbody\n"
    response = client.post("/explanations/new", data={"area": "gpu", "text": text, "save": "1"})
    assert response.status_code == 400 and "symbolic link" in response.get_data(as_text=True)
    assert list(outside.iterdir()) == []
