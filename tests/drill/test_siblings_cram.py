"""Drill additions of 1cd7401: sibling burying (and its undo), the load balancer inside fsrs's fuzz
range, and cramming a posting (kind='cram', FSRS state untouched). Fixed clocks throughout."""
from __future__ import annotations

import random
import types
from dataclasses import replace
from datetime import timedelta, timezone

import fsrs
import pytest
from sqlalchemy import func, select, update

from prep.drill import cramming, queue, queue_queries, rating, scheduling
from prep.drill.cards import add_to_study, bury
from prep.drill.models import Card, CardState, ReviewLog
from prep.drill.siblings import BURIED_SIBLINGS
from prep.extensions import db
from prep.optimize import service as optimize_service
from prep.postings.models import Posting, PostingQuestion
from prep.questions.models import LinkOrigin, QuestionExplanation
from tests.support.app import PASSWORD
from tests.support.clock import FIXED_NOW
from tests.support.pages import csrf_token_from

UTC = timezone.utc


def _cards(user, questions) -> list[Card]:
    add_to_study(user, [q.id for q in questions], FIXED_NOW)
    db.session.commit()
    by_question = {c.question_id: c for c in db.session.scalars(select(Card).where(Card.user_id == user.id))}
    return [by_question[q.id] for q in questions]


def _link(question, slug: str, rejected: bool = False) -> None:
    db.session.add(QuestionExplanation(question_id=question.id, slug=slug, origin=LinkOrigin.manual,
                                       rejected=rejected, created_at=FIXED_NOW))
    db.session.commit()


def _as_review(card: Card, due, stability: float = 10.0, last_review=None) -> None:
    card.state, card.step, card.stability, card.difficulty = CardState.review, None, stability, 5.0
    card.due = due
    card.last_review = last_review or due - timedelta(days=round(stability))
    card.reps = 3
    db.session.commit()


# --- siblings -------------------------------------------------------------------------------------

@pytest.fixture
def family(make_user, make_question):
    """One user's cards: ``rated`` and its siblings (same accepted slug), plus cards that are not
    siblings or not due today, and another user's card on a sibling question."""
    user = make_user()
    q = {name: make_question(f"What is the {name} question about consensus?") for name in
         ("rated", "new_sib", "due_sib", "later_sib", "rejected", "other_slug", "unlinked")}
    _link(q["rated"], "raft")
    _link(q["rated"], "leader-election")
    for name in ("new_sib", "due_sib", "later_sib"):
        _link(q[name], "raft")
    _link(q["rejected"], "raft", rejected=True)
    _link(q["other_slug"], "paxos")
    cards = dict(zip(q, _cards(user, list(q.values()))))
    _as_review(cards["due_sib"], FIXED_NOW - timedelta(hours=2))
    _as_review(cards["later_sib"], FIXED_NOW + timedelta(days=3))
    stranger = make_user()
    (foreign,) = _cards(stranger, [q["new_sib"]])
    return user, cards, foreign


def _buried(card: Card):
    db.session.refresh(card)
    return card.buried_until


def test_rating_buries_siblings_due_today_until_the_next_day(family, clock):
    user, cards, foreign = family
    day = queue_queries.study_day(user, FIXED_NOW)
    result = rating.rate(user, rating.Answer(cards["rated"].id, cards["rated"].version, 3), FIXED_NOW)
    db.session.commit()
    assert result.recorded
    siblings = sorted([cards["new_sib"].id, cards["due_sib"].id])
    assert result.review.card_before[BURIED_SIBLINGS] == siblings
    assert _buried(cards["new_sib"]) == day.end and _buried(cards["due_sib"]) == day.end
    # Not due today, a rejected link, another slug, no link, another user's card: untouched.
    for name in ("later_sib", "rejected", "other_slug", "unlinked"):
        assert _buried(cards[name]) is None, name
    assert _buried(foreign) is None

    # Today the queue never shows them; at the next day start they are back.
    shown = set()
    now = FIXED_NOW + timedelta(minutes=1)
    while (card := queue_queries.next_card(user, now)) is not None:
        shown.add(card.id)
        bury(card, user, now)
        db.session.commit()
    assert not shown & set(siblings)
    assert cards["rejected"].id in shown and cards["unlinked"].id in shown
    db.session.execute(update(Card).where(Card.id.notin_(siblings)).values(suspended=True))
    db.session.commit()
    assert queue_queries.next_card(user, day.end - timedelta(seconds=1)) is None
    assert queue_queries.next_card(user, day.end).id in siblings
    assert queue_queries.counts(user, day.end).reviews_today == 1


def test_a_sibling_sharing_two_links_is_buried_and_logged_once(family, clock):
    """The siblings are read with the card from its links: one sharing both of the rated card's
    slugs is one sibling, not two."""
    user, cards, _foreign = family
    question = db.session.get(Card, cards["new_sib"].id).question
    _link(question, "leader-election")
    result = rating.rate(user, rating.Answer(cards["rated"].id, cards["rated"].version, 3), FIXED_NOW)
    db.session.commit()
    assert result.review.card_before[BURIED_SIBLINGS] == sorted([cards["new_sib"].id, cards["due_sib"].id])


def test_a_card_without_siblings_logs_none(family, clock):
    user, cards, _foreign = family
    result = rating.rate(user, rating.Answer(cards["unlinked"].id, cards["unlinked"].version, 3), FIXED_NOW)
    db.session.commit()
    assert BURIED_SIBLINGS not in result.review.card_before
    assert all(_buried(c) is None for c in cards.values())


def test_undo_unburies_the_siblings(family, clock, client, login):
    user, cards, _foreign = family
    rated = cards["rated"]
    before = scheduling.snapshot(rated)
    rating.rate(user, rating.Answer(rated.id, rated.version, 3), FIXED_NOW)
    db.session.commit()
    assert _buried(cards["new_sib"]) is not None
    login(user)
    assert client.post("/drill/undo").status_code == 302
    db.session.expire_all()
    assert all(c.buried_until is None for c in cards.values())
    assert scheduling.snapshot(rated) == before
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 0


def test_undo_leaves_a_sibling_buried_by_hand_later_alone(family, clock):
    """Undo unburies only what the rating buried: a card buried again since (another day's
    burying) keeps its own burial."""
    user, cards, _foreign = family
    rated = cards["rated"]
    rating.rate(user, rating.Answer(rated.id, rated.version, 3), FIXED_NOW)
    db.session.commit()
    later = FIXED_NOW + timedelta(days=1)
    bury(cards["new_sib"], user, later)
    db.session.commit()
    kept = _buried(cards["new_sib"])
    assert rating.undo_last(user).id == rated.id
    db.session.commit()
    assert _buried(cards["new_sib"]) == kept and _buried(cards["due_sib"]) is None


# --- load balancer: pure --------------------------------------------------------------------------

def _fsrs_fuzz_range(maximum_interval: int):
    """fsrs's own bounds: the helper nested inside ``Scheduler._get_fuzzed_interval``."""
    scheduler = fsrs.Scheduler(maximum_interval=maximum_interval)
    code = next(c for c in fsrs.Scheduler._get_fuzzed_interval.__code__.co_consts
                if isinstance(c, types.CodeType) and c.co_name == "_get_fuzz_range")
    assert code.co_freevars == ("self",)
    import fsrs.scheduler as module

    fn = types.FunctionType(code, vars(module), code.co_name, None, (types.CellType(scheduler),))
    return lambda days: fn(interval_days=days)


@pytest.mark.parametrize("maximum_interval", [36500, 365, 45, 10, 3])
def test_fuzz_range_equals_fsrs_bounds(maximum_interval):
    theirs = _fsrs_fuzz_range(maximum_interval)
    intervals = list(range(3, 400)) + list(range(400, 36501, 37))
    for days in intervals:
        if days > maximum_interval:
            continue
        assert scheduling.fuzz_range(days, maximum_interval) == theirs(days), days


def test_fsrs_fuzz_lands_where_fuzz_range_says(monkeypatch):
    """fsrs's random draw at its lowest gives the low bound, and its draws cover the range."""
    import fsrs.scheduler as module

    scheduler = fsrs.Scheduler()
    for days in (3, 7, 20, 50, 90, 365):
        low, high = scheduling.fuzz_range(days, scheduler.maximum_interval)
        monkeypatch.setattr(module, "random", lambda: 0.0)
        assert scheduler._get_fuzzed_interval(interval=timedelta(days=days)).days == low
        draws = iter(x / 100 for x in range(100))
        monkeypatch.setattr(module, "random", lambda: next(draws))
        got = {scheduler._get_fuzzed_interval(interval=timedelta(days=days)).days for _ in range(100)}
        assert min(got) == low and set(range(low, high + 1)) <= got
        # fsrs 6.3.2 rounds random() * (high - low + 1) + low, so its draw can overshoot its own
        # bound by a day; the balancer keeps to the bounds.
        assert max(got) <= high + 1


def _window(target: int, maximum_interval: int = 36500) -> scheduling.BalanceWindow:
    low, high = scheduling.fuzz_range(target, maximum_interval)
    return scheduling.BalanceWindow(target=target, low=low, high=high)


def test_choose_interval_takes_the_emptiest_day():
    w = _window(20)  # 17..23 with fsrs 6's fuzz factors
    assert len(w.days) >= 5
    counts = [5] * len(w.days)
    counts[0] = 1
    assert scheduling.choose_interval(w, counts, random.Random(0)) == w.low
    counts[-1] = 0
    assert scheduling.choose_interval(w, counts, random.Random(0)) == w.high


def test_choose_interval_ties_go_to_the_nearest_then_earlier():
    w = _window(20)
    flat = [3] * len(w.days)
    assert scheduling.choose_interval(w, flat, random.Random(0)) == 20
    crowded_target = list(flat)
    crowded_target[20 - w.low] = 9
    assert scheduling.choose_interval(w, crowded_target, random.Random(0)) == 19  # 19 and 21 tie: earlier
    counts = [9] * len(w.days)
    assert w.high > 21
    counts[21 - w.low] = counts[-1] = 0  # 21 and the high end are empty: 21 is nearer fsrs's 20
    assert scheduling.choose_interval(w, counts, random.Random(0)) == 21


def test_choose_interval_never_leaves_the_fuzz_range():
    rng = random.Random(7)
    for target in list(range(3, 91)) + [91, 120, 400, 5000]:
        for maximum in (36500, target):
            w = _window(target, maximum)
            for _ in range(20):
                counts = [rng.randrange(4) for _ in w.days]
                day = scheduling.choose_interval(w, counts if w.balanced else [], random.Random(rng.random()))
                assert scheduling.fuzz_range(target, maximum)[0] <= day <= scheduling.fuzz_range(target, maximum)[1]
                assert day <= maximum


def test_choose_interval_wants_one_count_per_day():
    w = _window(20)
    with pytest.raises(ValueError):
        scheduling.choose_interval(w, [0] * (len(w.days) - 1), random.Random(0))


def test_long_intervals_get_seeded_fuzz_not_balancing():
    w = _window(200)
    assert not w.balanced and _window(90).balanced
    picks = [scheduling.choose_interval(w, [], random.Random(f"5:{v}")) for v in range(60)]
    assert picks == [scheduling.choose_interval(w, [], random.Random(f"5:{v}")) for v in range(60)]
    assert len(set(picks)) > 1 and all(w.low <= p <= w.high for p in picks)


def test_short_or_learning_outcomes_are_not_moved():
    outcome = scheduling.ReviewOutcome(state=CardState.review, step=None, stability=2.0, difficulty=5.0,
                                       due=FIXED_NOW + timedelta(days=2), last_review=FIXED_NOW, lapsed=False)
    assert scheduling.balance_window(outcome, FIXED_NOW, 36500) is None
    learning = replace(outcome, state=CardState.learning, due=FIXED_NOW + timedelta(days=5))
    assert scheduling.balance_window(learning, FIXED_NOW, 36500) is None
    window = scheduling.balance_window(replace(outcome, due=FIXED_NOW + timedelta(days=10)), FIXED_NOW, 36500)
    assert (window.target, window.low, window.high) == (10, *scheduling.fuzz_range(10, 36500))


# --- load balancer: on the database ---------------------------------------------------------------

@pytest.fixture
def review_card(make_user, make_question):
    """A review card due now (stability 10), its fsrs window for Good, and a helper that puts
    other review cards of the same user on given days after now."""
    user = make_user()
    questions = [make_question() for _ in range(1 + 40)]
    card, *others = _cards(user, questions)
    _as_review(card, FIXED_NOW, stability=10.0)
    settings = replace(scheduling.settings_for_user(user), enable_fuzzing=False)
    plain = scheduling.review(scheduling.make_scheduler(settings), card, 3, FIXED_NOW)
    window = scheduling.balance_window(plain, FIXED_NOW, user.maximum_interval)
    assert window is not None and window.balanced and len(window.days) >= 3

    def crowd(per_day: dict[int, int]) -> None:
        pool = iter(others)
        for day, n in per_day.items():
            for _ in range(n):
                _as_review(next(pool), FIXED_NOW + timedelta(days=day, hours=1))

    return user, card, window, crowd


def _interval_after_good(user, card) -> int:
    result = rating.rate(user, rating.Answer(card.id, card.version, 3), FIXED_NOW)
    db.session.commit()
    assert result.recorded
    return (result.card.due - FIXED_NOW).days


def test_rating_on_an_empty_calendar_keeps_fsrs_interval(review_card):
    user, card, window, _crowd = review_card
    assert _interval_after_good(user, card) == window.target


def test_rating_avoids_a_crowded_day_in_range(review_card):
    user, card, window, crowd = review_card
    # Every day of the window has cards due but one, the far end: the rating lands there.
    crowd({d: 3 for d in window.days if d != window.high})
    assert rating.due_per_day(user, card.id, FIXED_NOW, window.days) == [3] * (len(window.days) - 1) + [0]
    assert _interval_after_good(user, card) == window.high


def test_crowded_target_day_moves_to_the_nearest_emptier_one(review_card):
    user, card, window, crowd = review_card
    crowd({window.target: 4, window.target - 1: 2, window.target + 1: 2})
    assert window.low <= window.target - 2
    assert _interval_after_good(user, card) == window.target - 2  # empty at +-2: the earlier one


# --- cram -----------------------------------------------------------------------------------------

def _posting(user, questions) -> Posting:
    posting = Posting(user_id=user.id, company="Acme", title="GPU engineer", raw_text=f"posting {user.id}",
                      content_hash=f"{user.id:064d}", sections={}, skills=[], created_at=FIXED_NOW)
    posting.questions = [PostingQuestion(question_id=q.id, position=i, text=q.text) for i, q in enumerate(questions)]
    db.session.add(posting)
    db.session.commit()
    return posting


@pytest.fixture
def cram_setup(make_user, make_question):
    user = make_user()
    questions = [make_question() for _ in range(2)]
    card, due_today = _cards(user, questions)
    _as_review(card, FIXED_NOW + timedelta(days=6), stability=12.0)
    _as_review(due_today, FIXED_NOW - timedelta(hours=1))
    posting = _posting(user, questions)
    return user, card, posting


STATE_FIELDS = ("state", "step", "due", "stability", "difficulty", "reps", "lapses", "last_review")


def _fields(card: Card) -> dict:
    db.session.refresh(card)
    return {f: getattr(card, f) for f in STATE_FIELDS}


def test_cram_logs_kind_cram_and_leaves_the_card_alone(cram_setup, client, login, clock):
    user, card, posting = cram_setup
    before = _fields(card)
    login(user)
    page = client.get(f"/drill/cram/{posting.id}")
    assert page.status_code == 200 and f'data-card="{card.id}"' in page.get_data(as_text=True)
    response = client.post(f"/drill/cram/{posting.id}/rate",
                           data={"card_id": card.id, "version": card.version, "rating": 1, "duration_ms": 900})
    assert response.status_code == 302
    (log,) = db.session.scalars(select(ReviewLog).where(ReviewLog.card_id == card.id)).all()
    assert (log.kind, log.rating, log.duration_ms, log.reviewed_at) == ("cram", 1, 900, FIXED_NOW)
    assert _fields(card) == before
    # A second submit of the same shown card records nothing.
    client.post(f"/drill/cram/{posting.id}/rate", data={"card_id": card.id, "version": log.card_version, "rating": 3})
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 1


def test_cram_is_skipped_by_undo_limits_and_the_optimiser(cram_setup, clock):
    user, card, _posting_ = cram_setup
    due_today = db.session.scalar(select(Card).where(Card.user_id == user.id, Card.id != card.id))
    rating.rate(user, rating.Answer(due_today.id, due_today.version, 3), FIXED_NOW)
    db.session.commit()
    review_before = _fields(due_today)
    assert cramming.cram(user, rating.Answer(card.id, card.version, 2), FIXED_NOW + timedelta(minutes=1)).recorded
    db.session.commit()
    day = queue_queries.study_day(user, FIXED_NOW)
    assert queue_queries.done_today(user, day) == queue.DoneToday(new=0, reviews=1)
    assert [r.card_id for r in optimize_service.reviews_for(user)] == [due_today.id]
    assert optimize_service.review_count(user) == 1
    assert rating.last_review(user).card_id == due_today.id
    undone = rating.undo_last(user)
    db.session.commit()
    assert undone.id == due_today.id and _fields(due_today) != review_before
    kinds = db.session.scalars(select(ReviewLog.kind)).all()
    assert kinds == ["cram"]
    assert rating.undo_last(user) is None and not rating.has_review(user)


def test_cram_of_another_users_posting_is_404(cram_setup, make_user, client, login, clock):
    user, card, posting = cram_setup
    login(make_user())
    assert client.get(f"/drill/cram/{posting.id}").status_code == 404
    response = client.post(f"/drill/cram/{posting.id}/rate", data={"card_id": card.id, "version": card.version,
                                                                   "rating": 3})
    assert response.status_code == 404
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 0


def test_cram_of_another_users_card_is_404(cram_setup, make_user, make_question, client, login, clock):
    user, card, _posting_ = cram_setup
    other = make_user()
    mine = _posting(other, [make_question()])
    login(other)
    response = client.post(f"/drill/cram/{mine.id}/rate", data={"card_id": card.id, "version": card.version,
                                                                "rating": 3})
    assert response.status_code == 404
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 0


def test_cram_rate_needs_a_csrf_token(csrf_app, cram_setup, clock):
    user, card, posting = cram_setup
    client = csrf_app.test_client()
    login_page = client.get("/login").get_data(as_text=True)
    client.post("/login", data={"email": user.email, "password": PASSWORD, "csrf_token": csrf_token_from(login_page)})
    data = {"card_id": card.id, "version": card.version, "rating": 3}
    assert client.post(f"/drill/cram/{posting.id}/rate", data=data).status_code == 400
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 0
    token = csrf_token_from(client.get(f"/drill/cram/{posting.id}?card={card.id}&show=1").get_data(as_text=True))
    assert client.post(f"/drill/cram/{posting.id}/rate", data={**data, "csrf_token": token}).status_code == 302
    assert db.session.scalars(select(ReviewLog.kind)).all() == ["cram"]
