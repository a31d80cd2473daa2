"""Features that react to a rating subscribe with ``prep.drill.rating.on_rated``: the hook runs
once per recorded rating, in the rating's transaction, and what it returns comes back with the
rating; a rating that is not recorded (a resubmit, another tab) calls no hook."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from prep.drill import rating
from prep.drill.cards import add_to_study
from prep.drill.models import Card, ReviewLog
from prep.extensions import db
from prep.interview import service as interview
from tests.support.clock import FIXED_NOW


@pytest.fixture
def heard(app):
    """A hook subscribed for the test: the (user id, status, log id) of each call."""
    calls: list[tuple[int, str, int | None]] = []

    def hook(user, rated, now):
        assert now == FIXED_NOW and rated.card.version == rated.review.card_version + 1
        assert db.session.get(ReviewLog, rated.review.id) is not None  # in the rating's transaction
        calls.append((user.id, rated.status, rated.review.id))
        return len(calls)

    rating.on_rated("test", hook)
    yield calls
    rating._ON_RATED.pop("test", None)


def _card(make_user, make_question):
    user = make_user()
    add_to_study(user, [make_question("How does NCCL pick between ring and tree all-reduce?").id], FIXED_NOW)
    db.session.commit()
    return user, db.session.scalar(select(Card).where(Card.user_id == user.id))


def test_a_recorded_rating_calls_each_hook_once(heard, make_user, make_question):
    user, card = _card(make_user, make_question)
    rated = rating.rate(user, rating.Answer(card.id, card.version, 3, request_id="r-1"), FIXED_NOW)
    db.session.commit()
    assert rated.recorded and heard == [(user.id, rating.RECORDED, rated.review.id)]
    assert rated.reactions["test"] == 1


def test_a_rating_not_recorded_calls_no_hook(heard, make_user, make_question):
    user, card = _card(make_user, make_question)
    answer = rating.Answer(card.id, card.version, 3, request_id="r-1")
    assert rating.rate(user, answer, FIXED_NOW).recorded
    db.session.commit()
    again = rating.rate(user, answer, FIXED_NOW)  # the same request, resent
    other_tab = rating.rate(user, rating.Answer(card.id, answer.version, 1, request_id="r-2"), FIXED_NOW)
    assert (again.status, other_tab.status) == (rating.DUPLICATE, rating.CONFLICT)
    assert again.reactions == other_tab.reactions == {} and len(heard) == 1


def test_the_app_subscribes_interview_mode(app):
    """create_app wires interview mode's reaction (the plan after the session's end or the budget stop)."""
    assert rating._ON_RATED[interview.RATING_HOOK] is interview.react_to_rating


def test_a_rating_without_an_interview_ahead_plans_nothing(make_user, make_question):
    user, card = _card(make_user, make_question)
    rated = rating.rate(user, rating.Answer(card.id, card.version, 3), FIXED_NOW)
    assert rated.reactions[interview.RATING_HOOK] is None
