"""Malformed JSON bodies, at any depth, are a 400 with a JSON error on every route: never a 500
(Python's parser raises RecursionError, which Werkzeug does not catch, on 100,000 ``[``)."""
from __future__ import annotations

import json

import pytest
from flask import Flask, request

from prep.web.json_body import MAX_JSON_DEPTH, nesting_within

BRACKETS = "[" * 100_000
DEEP_VALID = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 50_000 + "1" + "}" * 50_000
#: Parses, but nests one level deeper than a body may.
OVER_LIMIT = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
RATING_SHAPED = '{"card_id": 1, "version": 0, "rating": 3, "ticks": ' + "[" * 100_000 + "]" * 100_000 + "}"
BODIES = {"100k-open-brackets": BRACKETS, "100k-nested-arrays": DEEP_VALID, "50k-nested-objects": DEEP_OBJECT,
          "one-level-too-deep": OVER_LIMIT, "a-rating-with-a-deep-field": RATING_SHAPED,
          "not-json": "{card_id: 1", "truncated": '{"card_id": 1, "rating": '}


@pytest.mark.parametrize("body", BODIES.values(), ids=BODIES.keys())
def test_the_rating_endpoint_answers_400_json(app: Flask, client, login, make_user, body: str) -> None:
    login(make_user())
    response = client.post("/drill/rate.json", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.is_json and response.get_json()["error"]


def _json_routes(app: Flask) -> list[str]:
    """Every rule that takes a POST and answers JSON (named ``*.json``), without arguments."""
    return sorted(rule.rule for rule in app.url_map.iter_rules()
                  if "POST" in (rule.methods or ()) and rule.rule.endswith(".json") and not rule.arguments)


def test_every_json_route_is_covered(app: Flask) -> None:
    assert "/drill/rate.json" in _json_routes(app)


@pytest.mark.parametrize("name", ["100k-open-brackets", "50k-nested-objects", "one-level-too-deep"])
def test_every_post_route_refuses_deep_json_without_a_500(app: Flask, client, login, make_user, name: str) -> None:
    """Whatever a route does with a JSON body it did not expect, deep nesting never makes a 500."""
    login(make_user())
    failures = []
    rules = sorted(app.url_map.iter_rules(), key=lambda r: (not r.rule.endswith(".json"), r.rule))
    for rule in rules:
        if "POST" not in (rule.methods or ()) or rule.arguments or rule.rule == "/logout":
            continue
        response = client.post(rule.rule, data=BODIES[name], content_type="application/json")
        if response.status_code >= 500:
            failures.append(f"{rule.rule}: {response.status_code}")
        if rule.rule in _json_routes(app) and response.status_code != 400:
            failures.append(f"{rule.rule}: {response.status_code}, expected 400")
    assert not failures, failures


def test_get_json_without_silent_raises_a_json_400(app: Flask, client) -> None:
    """A view that calls ``request.get_json()`` gets the app's JSON 400, not an HTML page or a 500."""

    @app.route("/test-only/echo.json", methods=["POST"])
    def echo():
        return {"got": request.get_json()}

    for body in BODIES.values():
        response = client.post("/test-only/echo.json", data=body, content_type="application/json")
        assert response.status_code == 400 and "nests deeper than" in response.get_json()["error"]
    fine = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert client.post("/test-only/echo.json", data=fine, content_type="application/json").status_code == 200
    not_json = client.post("/test-only/echo.json", data="{}", content_type="text/plain")
    assert not_json.status_code == 415


@pytest.mark.parametrize(("data", "within"), [
    (1, True), ([], True), ({"a": [1, {"b": 2}]}, True),
    (json.loads("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH), True),
    (json.loads("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)), False),
    (json.loads('{"a":' * (MAX_JSON_DEPTH + 1) + "1" + "}" * (MAX_JSON_DEPTH + 1)), False),
])
def test_nesting_within(data, within: bool) -> None:
    assert nesting_within(data) is within
