"""Interview mode on the web: the service that gathers a candidate's cards, postings and settings
and makes the plan; the drill offering the cards the plan books for today (ordinary reviews, read
by the optimiser as such); the plan page and its settings form; the posting page and dashboard
figures; "how did it go?" after the interview."""
from __future__ import annotations

import time
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from prep.drill import queue_queries, rating
from prep.drill.cards import add_to_study
from prep.drill.models import Card, CardState, PlannedReview, ReviewLog
from prep.extensions import db
from prep.interview import jobs, service
from prep.interview.models import InterviewOutcome, InterviewSettings, StoredPlan
from prep.optimize import service as optimize
from tests.support.interview import candidate, make_posting, review_card  # noqa: F401 (a fixture)


@pytest.fixture
def setup(app, candidate, make_question, clock):
    now = clock.now
    questions = [make_question() for _ in range(8)]
    cards = [review_card(candidate, q, now=now, days_ago=10, stability=12.0) for q in questions[:4]]
    posting = make_posting(candidate, questions, days_ahead=10, now=now)
    return candidate, questions, cards, posting


@pytest.fixture
def planned(setup, clock):
    """The setup with its plan made and stored, as the plan job does after a date is set."""
    service.refresh_bookings(setup[0], clock.now)
    db.session.commit()
    return setup


# --- the service --------------------------------------------------------------------------------

def test_plan_for_gathers_the_postings_cards_and_settings(setup, clock):
    user, questions, cards, posting = setup
    found = service.plan_for(user, clock.now)
    assert found is not None and set(found.postings) == {posting.id}
    forecast = found.forecast(posting.id)
    assert {c.card_id for c in forecast.cards} == {q.id for q in questions}
    assert forecast.recall_on_day > forecast.recall_now  # the unseen half counts 0 now
    assert found.plan.target == 0.90 and found.plan.budget_minutes == 20
    assert found.plan.seconds_per_review == 30.0  # no history: the stated default
    assert len(found.plan.days) == 10


def test_no_interview_ahead_no_plan_and_no_bookings(app, candidate, make_question, clock):
    q = make_question()
    make_posting(candidate, [q], days_ahead=None, now=clock.now)
    assert service.plan_for(candidate, clock.now) is None
    assert service.refresh_bookings(candidate, clock.now) == 0


def test_bookings_are_stored_once_per_card_and_day(setup, clock):
    user, questions, cards, posting = setup
    stored = service.refresh_bookings(user, clock.now)
    db.session.commit()
    rows = db.session.execute(select(PlannedReview.card_id, PlannedReview.day).where(
        PlannedReview.hold.is_(False))).all()
    assert stored == len(rows) > 0 and len(set(rows)) == len(rows)
    assert service.refresh_bookings(user, clock.now) == stored  # recomputed, not added to


def test_every_asked_card_is_held_until_its_interview(setup, clock):
    """Besides its bookings, each asked card gets a hold row on its interview day (the plan, not
    FSRS, decides its reviews until then); the holds go with the interview."""
    user, questions, cards, posting = setup
    service.refresh_bookings(user, clock.now)
    db.session.commit()
    holds = dict(db.session.execute(select(PlannedReview.card_id, PlannedReview.day).where(
        PlannedReview.hold.is_(True))).all())
    asked = set(db.session.scalars(select(Card.id).where(Card.user_id == user.id)))
    assert set(holds) == asked and set(holds.values()) == {posting.interview_date}
    posting.interview_date = None
    service.refresh_bookings(user, clock.now)
    db.session.commit()
    assert db.session.scalar(select(func.count(PlannedReview.id))) == 0


def test_booked_cards_are_offered_today_though_fsrs_schedules_them_later(setup, clock):
    user, questions, cards, posting = setup
    service.refresh_bookings(user, clock.now)
    db.session.commit()
    today = queue_queries.study_day(user, clock.now)
    booked = set(db.session.scalars(select(PlannedReview.card_id).where(PlannedReview.day == today.day)))
    assert booked, "ten days out, with half the questions unseen, the plan books something today"
    user.new_per_day = 0  # booked introductions come even past the new-card limit
    db.session.commit()
    card = queue_queries.next_card(user, clock.now)
    assert card is not None and card.id in booked
    assert card.state is CardState.new or card.due >= today.end


def test_planned_review_is_an_ordinary_review_the_optimiser_reads(setup, clock):
    user, questions, cards, posting = setup
    card = cards[0]
    db.session.add(PlannedReview(user_id=user.id, card_id=card.id, day=clock.now.date()))
    db.session.commit()
    before = card.stability
    assert queue_queries.next_card(user, clock.now).id == card.id
    rating.rate(user, rating.Answer(card.id, card.version, 3, 20_000), clock.now)
    db.session.commit()
    log = db.session.scalar(select(ReviewLog).where(ReviewLog.card_id == card.id))
    assert log.kind == "review" and log.state_before == "review"
    assert card.stability > before and card.due > clock.now + timedelta(days=1)  # memory updated, not cram
    reviews = optimize.reviews_for(user)
    assert [(r.card_id, r.rating) for r in reviews] == [(card.id, 3)]
    # answered today: not offered again by the booking
    assert queue_queries.next_card(user, clock.now) is None or queue_queries.next_card(user, clock.now).id != card.id


def test_the_rating_that_ends_a_session_plans_again(setup, client, clock, make_question):
    user, questions, cards, posting = setup
    card = cards[0]
    db.session.add(PlannedReview(user_id=user.id, card_id=card.id, day=clock.now.date()))
    db.session.commit()
    response = client.post("/drill/rate", data={"card_id": card.id, "version": card.version, "rating": 3})
    assert response.status_code == 302
    # the queue was empty after it: the plan was made again, its unseen questions got their cards
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == user.id)) == len(questions)
    assert db.session.scalar(select(func.count(PlannedReview.id))) > 0
    assert db.session.get(InterviewSettings, user.id).planned_on == clock.now.date()
    other = review_card(user, make_question(), now=clock.now, days_ago=30)  # a card no interview asks
    other.due = clock.now - timedelta(hours=1)  # due now (new cards wait: with an interview ahead they are the plan's)
    db.session.commit()
    assert not service.after_rating(user, clock.now)  # cards left: nothing planned again


def test_after_rating_needs_an_interview_ahead(app, candidate, make_question, clock):
    """No posting with an interview after today (none, one today, one past): nothing planned and no
    queue check, even with the queue empty; an interview ahead plans again."""
    from tests.support.queries import count_statements

    question = make_question()
    make_posting(candidate, [question], days_ahead=0, now=clock.now, title="today")
    make_posting(candidate, [question], days_ahead=-3, now=clock.now, title="past")
    assert queue_queries.next_card(candidate, clock.now) is None
    with count_statements() as lookup:
        assert not service.after_rating(candidate, clock.now)
    assert lookup["n"] <= 2 and not any("FROM cards" in st for st in lookup["statements"]), lookup["statements"]
    assert db.session.get(InterviewSettings, candidate.id) is None
    make_posting(candidate, [question], days_ahead=1, now=clock.now, title="tomorrow")
    assert service.after_rating(candidate, clock.now)
    db.session.commit()  # the plan asked for is made after the commit
    assert db.session.get(InterviewSettings, candidate.id).planned_on == clock.now.date()


def test_pages_do_not_write(setup, client):
    for url in ("/dashboard", "/drill", "/plan", f"/postings/{setup[3].id}"):
        assert client.get(url).status_code == 200
    assert db.session.scalar(select(func.count(PlannedReview.id))) == 0
    assert db.session.get(InterviewSettings, setup[0].id) is None


def test_after_the_interview_the_cards_return_to_plain_fsrs(setup, clock):
    user, questions, cards, posting = setup
    assert service.refresh_bookings(user, clock.now) > 0
    db.session.commit()
    clock.shift(timedelta(days=11))
    assert service.refresh_bookings(user, clock.now) == 0
    db.session.commit()
    assert db.session.scalar(select(func.count(PlannedReview.id))) == 0


def test_mode_off_books_nothing(setup, clock):
    user, *_ = setup
    service.save_settings(user, enabled=False, target=0.9, budget_minutes=20, now=clock.now)
    db.session.commit()
    assert db.session.scalar(select(func.count(PlannedReview.id))) == 0
    forecast = service.forecast_for(user, setup[3], clock.now)
    assert forecast is not None and forecast.recall_on_day < forecast.recall_now + 1e-9


def test_seconds_per_review_and_calibration_come_from_history(setup, make_question, clock):
    user, questions, cards, posting = setup
    card = cards[0]
    for i in range(12):
        db.session.add(ReviewLog(card_id=card.id, user_id=user.id, card_version=100 + i, rating=3,
                                 reviewed_at=clock.now - timedelta(days=30 - i), duration_ms=40_000,
                                 state_before="review", state_after="review",
                                 card_before={"stability": 5.0, "last_review": (clock.now - timedelta(days=40)).isoformat()}))
    db.session.commit()
    for card in cards:  # introduced 50 days ago with two answers that day
        for i, state in enumerate(("new", "learning")):
            db.session.add(ReviewLog(card_id=card.id, user_id=user.id, card_version=200 + i, rating=3,
                                     reviewed_at=clock.now - timedelta(days=50, minutes=10 - i), duration_ms=40_000,
                                     state_before=state, state_after="learning", card_before={}))
    for n, q in enumerate(questions[4:] + [make_question() for _ in range(2)]):  # and six more, two forgotten
        new = Card(user_id=user.id, question_id=q.id, state=CardState.review, due=clock.now + timedelta(days=9),
                   stability=3.0, difficulty=5.0, last_review=clock.now - timedelta(days=45), step=None)
        db.session.add(new)
        db.session.flush()
        for i, state in enumerate(("new", "learning")):
            db.session.add(ReviewLog(card_id=new.id, user_id=user.id, card_version=i, rating=1 if n < 2 and i == 0 else 3,
                                     reviewed_at=clock.now - timedelta(days=45, minutes=10 - i), duration_ms=40_000,
                                     state_before=state, state_after="learning", card_before={}))
    db.session.commit()
    settings = service.plan_settings(user, service.settings_of(user))
    assert settings.seconds_per_review == 40.0
    assert settings.answers_per_new == 2.0
    assert settings.first_ratings == pytest.approx((0.2, 0.0, 0.8, 0.0))  # first answers: 2 of 10 Again
    assert settings.stability_scale != 1.0  # recalled after long gaps: the model is corrected


def test_the_plan_is_cheap_to_make(setup, make_question, clock):
    """60 questions over two interviews: one plan (the drill's recompute) in thread CPU time."""
    user, questions, cards, posting = setup
    more = [make_question() for _ in range(52)]
    make_posting(user, questions[:4] + more[:30], days_ahead=14, now=clock.now, title="Second")
    make_posting(user, more[30:], days_ahead=21, now=clock.now, title="Third")
    start = time.thread_time()
    service.refresh_bookings(user, clock.now)
    spent = time.thread_time() - start
    db.session.commit()
    assert spent < 5.0, spent


# --- pages ----------------------------------------------------------------------------------------

def test_plan_page_shows_the_calendar_and_verdict(planned, client):
    html = client.get("/plan").get_data(as_text=True)
    assert 'id="plan-calendar"' in html and "<caption" in html and 'scope="row"' in html
    assert "predicted on the day" in html
    assert 'id="on-track"' in html or 'id="shortfall"' in html


def test_plan_settings_bad_input_changes_nothing(setup, client):
    response = client.post("/plan", data={"enabled": "y", "target": "120", "budget": "20"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert 'id="target-error"' in html and "between 50 and 99" in html
    assert db.session.get(InterviewSettings, setup[0].id) is None or db.session.get(
        InterviewSettings, setup[0].id).target == 0.9


def test_plan_settings_small_budget_shows_the_shortfall(setup, client):
    response = client.post("/plan", data={"enabled": "y", "target": "95", "budget": "1"})
    assert response.status_code == 302
    row = db.session.get(InterviewSettings, setup[0].id)
    assert (row.enabled, row.target, row.budget_minutes) == (True, 0.95, 1)
    html = client.get("/plan").get_data(as_text=True)
    assert 'id="shortfall"' in html and "cannot reach" in html and 'class="drop-first"' in html


def test_posting_page_and_dashboard_show_recall_on_the_day(planned, client):
    user, questions, cards, posting = planned
    html = client.get(f"/postings/{posting.id}").get_data(as_text=True)
    assert 'id="on-the-day"' in html and html.count('class="question-recall"') == len(questions)
    html = client.get("/dashboard").get_data(as_text=True)
    assert "predicted recall on the day" in html and 'id="see-plan"' in html


def test_how_did_it_go(setup, app, clock, make_user, login):
    user, questions, cards, posting = setup
    clock.shift(timedelta(days=11))
    client = login(user, app.test_client())  # a fresh session: the first one has expired meanwhile
    html = client.get("/dashboard").get_data(as_text=True)
    assert f"/postings/{posting.id}/outcome" in html
    response = client.post(f"/postings/{posting.id}/outcome", data={"came_up": [str(questions[0].id)]})
    assert response.status_code == 400 and 'id="rating-error"' in response.get_data(as_text=True)
    assert db.session.scalar(select(func.count(InterviewOutcome.id))) == 0
    response = client.post(f"/postings/{posting.id}/outcome", data={
        "came_up": [str(questions[0].id), str(questions[2].id)], "other_questions": "What is <b>MoE</b>?",
        "rating": "4"})
    assert response.status_code == 302
    row = db.session.scalar(select(InterviewOutcome))
    assert (row.came_up, row.rating) == ([questions[0].id, questions[2].id], 4)
    html = client.get(f"/postings/{posting.id}/outcome").get_data(as_text=True)
    assert 'id="import-report"' in html and "Q3: What is &lt;b&gt;MoE&lt;/b&gt;?" in html
    assert f"/postings/{posting.id}/outcome" not in client.get("/dashboard").get_data(as_text=True)
    other = make_user("other@example.com")
    client = login(other, app.test_client())
    assert client.get(f"/postings/{posting.id}/outcome").status_code == 404
    assert client.post(f"/postings/{posting.id}/outcome", data={"rating": "1"}).status_code == 404


def test_forms_need_the_csrf_token(setup, csrf_app, client):
    assert client.post("/plan", data={"enabled": "y", "target": "80", "budget": "20"}).status_code == 400
    assert db.session.get(InterviewSettings, setup[0].id) is None
    assert client.post(f"/postings/{setup[3].id}/outcome", data={"rating": "3"}).status_code == 400


def test_changing_or_deleting_the_posting_plans_again(setup, client, clock):
    user, questions, cards, posting = setup
    client.post(f"/postings/{posting.id}/interview", data={"interview_date": str(clock.now.date() + timedelta(days=5))})
    assert db.session.scalar(select(func.count(PlannedReview.id))) > 0
    assert db.session.get(InterviewSettings, user.id).planned_on is not None
    assert client.post(f"/postings/{posting.id}/delete", data={}).status_code == 302
    assert db.session.scalar(select(func.count(PlannedReview.id))) == 0


def test_a_new_study_day_makes_the_plan_again_in_the_sweep(setup, app, clock):
    user, questions, cards, posting = setup
    service.refresh_bookings(user, clock.now)
    db.session.commit()
    assert jobs.sweep(app, clock.now) == 0  # planned today: nothing to do
    later = clock.now + timedelta(days=1)
    assert jobs.sweep(app, later) == 1  # the next study day: its plan
    db.session.expire_all()
    assert db.session.get(InterviewSettings, user.id).planned_on == queue_queries.study_day(user, later).day
    assert db.session.get(StoredPlan, user.id).made_on == queue_queries.study_day(user, later).day
    assert jobs.sweep(app, later) == 0
    days = set(db.session.scalars(select(PlannedReview.day)))
    assert days and min(days) >= queue_queries.study_day(user, later).day


def test_the_first_page_of_a_new_day_hands_the_plan_to_the_thread(setup, app, client, clock):
    """The first page of a new day reads yesterday's plan (saying its age), writes nothing, and
    hands the day's plan to the background thread, which makes it."""
    user, questions, cards, posting = setup
    app.config["SESSION_IDLE_MINUTES"] = 3 * 24 * 60  # still signed in the next day
    service.refresh_bookings(user, clock.now)
    db.session.commit()
    app.config["PLAN_RUNNER"] = "thread"
    clock.shift(timedelta(days=1))
    html = client.get("/plan").get_data(as_text=True)
    assert 'id="plan-stale"' in html and 'id="plan-calendar"' in html
    app.extensions["prep.plan_thread"].executor.shutdown(wait=True)  # the thread's plan is made
    db.session.expire_all()
    assert db.session.get(InterviewSettings, user.id).planned_on == queue_queries.study_day(user, clock.now).day


def test_a_card_on_the_translation_is_the_asked_questions_card(app, candidate, make_question, clock):
    """Translations are one card: a posting asking the English wording plans with the candidate's
    card on the Chinese one (recall now from its memory), books it, and makes no second card."""
    from prep.questions import translations
    en = make_question("What does an RDMA queue pair consist of?", lang="en")
    zh = make_question("RDMA 的队列对（QP）由哪几部分组成？", lang="zh")
    translations.link(en, zh)
    db.session.commit()
    card = review_card(candidate, zh, now=clock.now, days_ago=10, stability=12.0)
    posting = make_posting(candidate, [en], days_ahead=10, now=clock.now)
    found = service.plan_for(candidate, clock.now)
    assert found.card_ids == {en.id: card.id}
    assert found.forecast(posting.id).recall_now > 0  # not counted as unseen
    service.refresh_bookings(candidate, clock.now)
    db.session.commit()
    assert db.session.scalar(select(func.count()).select_from(Card).where(Card.user_id == candidate.id)) == 1
    assert set(db.session.scalars(select(PlannedReview.card_id))) <= {card.id}


def test_new_cards_the_plan_introduces_later_wait_for_their_day(app, candidate, make_question, clock):
    """With a new-card limit above 0 (the default is 20), an asked question the plan introduces
    on a later day is neither offered today as an ordinary new card nor counted as new: the plan,
    not the new-card limit, decides when it comes. With an interview ahead the day's new cards
    are the plan's: a new card no interview asks waits too (the plan's "study ahead" adds more),
    and on its booked day the held card is offered."""
    from prep.drill import session

    now = clock.now
    asked = [make_question() for _ in range(30)]
    make_posting(candidate, asked, days_ahead=10, now=now)
    other = make_question()
    add_to_study(candidate, [other.id], now)
    candidate.new_per_day = 20
    db.session.commit()
    service.refresh_bookings(candidate, now)
    db.session.commit()
    today = queue_queries.study_day(candidate, now).day
    days: dict[int, set] = {}
    for card_id, day in db.session.execute(select(PlannedReview.card_id, PlannedReview.day).where(
            PlannedReview.hold.is_(False))):
        days.setdefault(card_id, set()).add(day)
    later = {c for c, d in days.items() if min(d) > today}
    first_day = {c for c, d in days.items() if today in d}
    assert later and first_day, "30 unseen questions over 10 days: introductions spread over the days"
    other_card = db.session.scalar(select(Card.id).where(Card.question_id == other.id))
    offered = set(session.next_card_ids(candidate, now, 50))
    assert not offered & later
    assert other_card not in offered and first_day <= offered
    new_total = queue_queries.tally_and_done(candidate, now)[0].new
    assert new_total == len(first_day) == len({c for c in db.session.scalars(select(Card.id).where(
        Card.user_id == candidate.id, Card.state == CardState.new))} - later - {other_card})
    # On its first booked day the held card is offered (the clock moves; no new plan is made).
    card = min(later, key=lambda c: min(days[c]))
    day = min(days[card])
    moved = now + timedelta(days=(day - today).days)
    assert card in set(session.next_card_ids(candidate, moved, 50))
