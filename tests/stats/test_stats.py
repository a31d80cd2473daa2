"""Statistics: day buckets in SQL match the study day, chart maths, the /stats page on a simulated
history (fixed seed, real scheduler), a fixed number of queries, leeches, and instructors' per-question view."""
from __future__ import annotations

from collections import Counter
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import event, select

from prep.accounts.models import Role
from prep.drill import queue, queue_queries
from prep.drill.models import Card, CardState, ReviewLog
from prep.extensions import db
from prep.stats import compute, queries
from prep.stats.rows import store
from prep.stats.simulate import simulate
from tests.support.clock import FIXED_NOW

UTC = timezone.utc


# ---- pure maths -----------------------------------------------------------------------------

@pytest.mark.parametrize("value, expected", [(0, 1), (0.3, 0.5), (1, 1), (7, 10), (12, 20), (45, 50), (101, 200)])
def test_nice_max(value, expected):
    assert compute.nice_max(value) == expected


@pytest.mark.parametrize("count, max_count, expected", [(0, 10, 0), (1, 10, 1), (3, 10, 1), (4, 10, 2),
                                                        (10, 10, 4), (5, 0, 0)])
def test_heat_level(count, max_count, expected):
    assert compute.level(count, max_count) == expected


def test_heatmap_layout():
    today = date(2026, 3, 10)  # a Tuesday
    h = compute.heatmap({today: 5, today - timedelta(days=1): 10, today - timedelta(days=200): 99}, today)
    assert len(h.cells) == 90 and h.cells[-1].day == today and h.cells[0].day == today - timedelta(days=89)
    assert (h.total, h.max_count, h.active_days) == (15, 10, 2)
    last = h.cells[-1]
    assert last.y == 20 + today.weekday() * 17 and last.level == 2
    assert h.cells[-2].level == 4
    assert len({c.x for c in h.cells}) == h.weeks


def test_forecast_folds_overdue_into_today():
    today = date(2026, 3, 10)
    due = compute.forecast({today - timedelta(days=3): 2, today: 1, today + timedelta(days=2): 4,
                            today + timedelta(days=40): 9}, today)
    assert len(due) == 30 and due[0] == (today, 3) and due[2] == (today + timedelta(days=2), 4)
    assert sum(n for _, n in due) == 7


def test_state_counts_put_suspended_apart():
    counts = compute.state_counts([("new", False, 3), ("review", False, 5), ("review", True, 2),
                                   ("relearning", False, 1), ("learning", True, 1)])
    assert counts.items() == [("new", 3), ("learning", 0), ("review", 5), ("relearning", 1), ("suspended", 3)]
    assert counts.total == 12


def test_retention_weeks_and_chart():
    today = date(2026, 3, 10)
    weeks = compute.retention_weeks([(0, False, 8, 10), (0, True, 9, 10), (2, True, 1, 2), (40, True, 1, 1)], today)
    assert len(weeks) == 12 and weeks[-1].start == today - timedelta(days=6)
    assert (weeks[-1].young, weeks[-1].mature) == (0.8, 0.9)
    assert weeks[-3].mature == 0.5 and weeks[-3].young is None
    chart = compute.retention_chart(weeks, 0.9)
    assert len(chart.series["mature"]) == 2 and len(chart.series["young"]) == 1
    assert chart.series["mature"][-1][1] == chart.target_y  # 90 % sits on the desired line


def test_answer_buttons_by_day_and_age():
    today = date(2026, 3, 10)
    n = compute.day_number(today)
    buttons = compute.answer_buttons([(n, "young", 1, 2), (n, "young", 3, 6), (n - 1, "mature", 4, 1),
                                      (n, "learning", 2, 3), (n - 30, "young", 3, 50),   # before the window
                                      (n, "young", 7, 5), (n, "cram", 3, 5)], today)  # no such button or age
    ages = dict(buttons.by_age)
    assert ages["young"].counts == (2, 0, 6, 0) and ages["young"].correct == 6 and ages["young"].share == 0.75
    assert ages["learning"].counts == (0, 3, 0, 0) and ages["mature"].counts == (0, 0, 0, 1)
    assert buttons.by_day[-1] == (today, compute.ButtonCounts((2, 3, 6, 0))) and buttons.total == 12
    assert buttons.by_day[0][0] == today - timedelta(days=29)
    age_chart = compute.buttons_by_age_chart(buttons)
    assert [label for label, _x, _bars in age_chart.groups] == ["learning", "young", "mature"]
    tallest = max((b for _l, _x, bars in age_chart.groups for b in bars), key=lambda b: b.height)
    assert (tallest.button, tallest.value, tallest.y + tallest.height) == ("good", 6, age_chart.baseline)
    day_chart = compute.buttons_by_day_chart(buttons)
    stack = day_chart.groups[-1][2]
    assert [b.button for b in stack] == ["again", "hard", "good"]       # Again at the bottom, no empty segment
    assert stack[0].y + stack[0].height == day_chart.baseline
    assert all(abs(stack[i].y - (stack[i + 1].y + stack[i + 1].height)) < 0.02 for i in range(2))


@pytest.mark.parametrize("tz, day_start", [("UTC", 4), ("Asia/Shanghai", 4), ("America/New_York", 0),
                                           ("Europe/Berlin", 4), ("Asia/Kolkata", 5)])
def test_offset_segments_match_study_day(tz, day_start):
    start, end = datetime(2026, 2, 20, tzinfo=UTC), datetime(2026, 4, 10, tzinfo=UTC)
    segments = compute.offset_segments(tz, day_start, start, end)
    t = start
    while t < end:
        shift = [s for since, s in segments if since is None or since <= t][-1]
        n = (int(t.timestamp()) + shift) // 86400
        assert compute.from_day_number(n) == queue.study_day(t, tz, day_start).day, t
        t += timedelta(minutes=37)


# ---- SQL aggregates ----------------------------------------------------------------------------

@pytest.mark.parametrize("tz", ["America/New_York", "Asia/Kolkata"])
def test_daily_activity_groups_by_local_study_day(make_user, make_question, tz):
    user = make_user(timezone=tz, day_start_hour=4)
    card = Card(user_id=user.id, question_id=make_question().id, due=FIXED_NOW, added_at=FIXED_NOW)
    db.session.add(card)
    db.session.flush()
    # Around the US DST change (8 March 2026) and around the 04:00 local day start.
    times = [datetime(2026, 3, 7, 8, 59, tzinfo=UTC), datetime(2026, 3, 7, 9, 1, tzinfo=UTC),
             datetime(2026, 3, 8, 7, 59, tzinfo=UTC), datetime(2026, 3, 8, 8, 1, tzinfo=UTC),
             datetime(2026, 3, 9, 22, 30, 15, 123456, tzinfo=UTC), datetime(2026, 3, 9, 23, 0, tzinfo=UTC),
             datetime(2026, 3, 10, 11, 0, tzinfo=UTC)]
    for v, t in enumerate(times):
        db.session.add(ReviewLog(card_id=card.id, user_id=user.id, card_version=v, rating=3, reviewed_at=t,
                                 duration_ms=1000 * (v + 1), state_before="review", state_after="review",
                                 card_before={}))
    db.session.commit()
    today = queue_queries.study_day(user, FIXED_NOW)
    first = queue.day_bounds(today.day - timedelta(days=10), ZoneInfo(tz), 4)
    got = queries.daily_activity(user, first, today)
    expected: Counter = Counter(queue.study_day(t, tz, 4).day for t in times)
    assert {d: a.reviews for d, a in got.items()} == dict(expected)
    assert sum(a.duration_ms for a in got.values()) == sum(1000 * (v + 1) for v in range(len(times)))


def test_aggregates_match_the_simulated_history(simulated, clock):
    user, sim = simulated()
    tz, hour = user.timezone, user.day_start_hour
    today = queue_queries.study_day(user, FIXED_NOW)
    first = queue.day_bounds(today.day - timedelta(days=89), ZoneInfo(tz), hour)
    activity = queries.daily_activity(user, first, today)
    expected = Counter(queue.study_day(r.reviewed_at, tz, hour).day for r in sim.reviews
                       if r.reviewed_at >= first.start)
    assert {d: a.reviews for d, a in activity.items()} == dict(expected)
    assert sum(expected.values()) > 300

    # Forecast: each card on its due study day, overdue ones today.
    due = dict(compute.forecast(queries.due_by_day(user, today), today.day))
    want: Counter = Counter()
    for c in sim.cards:
        d = max(queue.study_day(c.due, tz, hour).day, today.day)
        if c.state is not CardState.new and d < today.day + timedelta(days=30):
            want[d] += 1
    assert {d: n for d, n in due.items() if n} == dict(want)

    # True retention, young vs mature by the scheduled interval before each review.
    rows = queries.retention_rows(user, today)
    start = today.start - timedelta(days=83)
    want_r: Counter = Counter()
    for r in sim.reviews:
        if r.state_before != "review" or not (start <= r.reviewed_at < today.end):
            continue
        ago = (today.day - queue.study_day(r.reviewed_at, tz, hour).day).days // 7
        interval = (datetime.fromisoformat(r.card_before["due"])
                    - datetime.fromisoformat(r.card_before["last_review"])).total_seconds() / 86400
        mature = interval >= 21
        want_r[(ago, mature, "passed")] += r.rating > 1
        want_r[(ago, mature, "total")] += 1
    got_r: Counter = Counter()
    for ago, mature, passed, total in rows:
        got_r[(ago, mature, "passed")] += passed
        got_r[(ago, mature, "total")] += total
    assert +got_r == +want_r
    assert any(m for (_, m, _k) in want_r), "the history should reach mature cards"

    states = compute.state_counts(queries.state_rows(user))
    assert states.total == len(sim.cards)

    # Answer buttons per day and per card age (Anki's: learning, young, mature at 21 days).
    first30 = queue.day_bounds(today.day - timedelta(days=29), ZoneInfo(tz), hour)
    buttons = compute.answer_buttons(queries.answer_button_rows(user, first30, today), today.day)
    want_age: Counter = Counter()
    want_day: Counter = Counter()
    for r in sim.reviews:
        if not (first30.start <= r.reviewed_at < today.end):
            continue
        interval = ((datetime.fromisoformat(r.card_before["due"]) - datetime.fromisoformat(r.card_before["last_review"]))
                    .total_seconds() / 86400 if r.state_before == "review" else 0)
        age = "learning" if r.state_before != "review" else "mature" if interval >= 21 else "young"
        want_age[(age, r.rating)] += 1
        want_day[(queue.study_day(r.reviewed_at, tz, hour).day, r.rating)] += 1
    assert {(a, i + 1): n for a, c in buttons.by_age for i, n in enumerate(c.counts) if n} == dict(want_age)
    assert {(d, i + 1): n for d, c in buttons.by_day for i, n in enumerate(c.counts) if n} == dict(want_day)
    assert len(buttons.by_day) == 30 and buttons.by_day[-1][0] == today.day
    assert all(buttons.by_age[i][1].total for i in range(3)), "the history should reach all three ages"


# ---- the page ---------------------------------------------------------------------------------------

CHART_IDS = ("chart-heatmap", "chart-forecast", "chart-retention", "chart-buttons-age", "chart-buttons-day",
             "chart-states", "chart-time")


def test_stats_page_draws_every_chart_with_a_table(simulated, login, client, clock):
    user, sim = simulated()
    login(user)
    html = client.get("/stats").get_data(as_text=True)
    for chart in CHART_IDS:
        assert f'id="{chart}"' in html
        assert f'id="{chart}-title"' in html and f'id="{chart}-desc"' in html
    assert html.count("<details>") == 6 and html.count("<table") >= 6
    assert 'href="/static/css/stats.css"' in html
    assert "<script" not in html.split("<main", 1)[1]  # no chart script: pure SVG


def test_stats_page_for_a_new_user(make_user, login, client, clock):
    login(make_user())
    response = client.get("/stats")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "0 reviews on 0 of 90 days" in html and "No leeches" in html
    assert 'id="buttons-empty"' in html and "Each card you rate in the drill adds its button here" in html
    assert 'id="chart-buttons-age"' not in html
    # Every chart with nothing to show says what will fill it (the heatmap keeps its empty grid).
    for empty, words, chart in (("reviews-empty", "Each day you drill colours its square here", None),
                                ("forecast-empty", "are scheduled here day by day", "chart-forecast"),
                                ("retention-empty", "It fills in once the cards you have learnt come back",
                                 "chart-retention"),
                                ("states-empty", "No cards in your study yet", "chart-states"),
                                ("time-empty", "The time you spend answering cards in the drill", "chart-time")):
        assert f'id="{empty}"' in html and words in html, empty
        assert chart is None or f'id="{chart}"' not in html


def test_the_empty_charts_speak_the_readers_language(make_user, login, client, clock):
    login(make_user(language="zh"))
    html = client.get("/stats").get_data(as_text=True)
    assert "学过的卡片在初学几天后回来复习时，这里就会有数据。" in html and "过去 30 天没有学习时间" in html


def test_a_new_card_fills_the_states_and_the_forecast_says_when_it_counts(make_user, make_question, login, client,
                                                                        clock):
    user = make_user()
    login(user)
    from prep.drill.cards import add_to_study
    from prep.extensions import db

    add_to_study(user, [make_question().id], clock.now)
    db.session.commit()
    html = client.get("/stats").get_data(as_text=True)
    assert 'id="chart-states"' in html and 'id="states-empty"' not in html
    assert "New cards are counted here once you first answer them in the drill" in html  # the forecast
    assert 'id="retention-empty"' in html and 'id="reviews-empty"' in html


def test_stats_page_needs_login(client):
    response = client.get("/stats")
    assert response.status_code == 302 and "/login" in response.headers["Location"]


def _count_queries(app, fn):
    statements = []

    def before(conn, cursor, statement, *args):
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", before)
    try:
        fn()
    finally:
        event.remove(db.engine, "before_cursor_execute", before)
    return [s for s in statements if s.lstrip().upper().startswith("SELECT")]


def test_stats_page_runs_a_fixed_number_of_queries(app, simulated, login, client, clock):
    small, _ = simulated("small@example.com", seed=1, n_cards=5, days=20)
    big, _ = simulated("big@example.com", seed=2, n_cards=60, days=100)
    counts = []
    for user in (small, big):
        c = app.test_client()
        login(user, c)
        counts.append(len(_count_queries(app, lambda: c.get("/stats"))))
    assert counts[0] == counts[1] and counts[1] <= 10


# ---- leeches --------------------------------------------------------------------------------------

def test_leeches_are_flagged(make_user, make_question, login, client, clock):
    user = make_user()
    q_leech, q_ok = make_question("Which leech question?"), make_question("Which fine question?")
    for q, lapses in ((q_leech, 8), (q_ok, 7)):
        db.session.add(Card(user_id=user.id, question_id=q.id, state=CardState.review, stability=2.0,
                            difficulty=8.0, due=FIXED_NOW + timedelta(days=1), last_review=FIXED_NOW - timedelta(days=1),
                            reps=20, lapses=lapses, step=None))
    db.session.commit()
    assert [c.text for c in queries.leeches(user)] == ["Which leech question?"]
    assert compute.is_leech(8) and not compute.is_leech(7)
    login(user)
    html = client.get("/stats").get_data(as_text=True)
    leeches = html.split('id="leeches"', 1)[1]
    assert "Which leech question?" in leeches and "Which fine question?" not in leeches


# ---- instructors ---------------------------------------------------------------------------------------

@pytest.fixture
def cohort(make_user, make_question):
    """Three candidates study question A (lapses 0, 2, 10 over 10 reps each); two study question B."""
    qa, qb = make_question("Question A about rings?"), make_question("Question B about trees?")
    users = [make_user(f"c{i}@example.com") for i in range(3)]
    for i, (user, lapses) in enumerate(zip(users, (0, 2, 10))):
        db.session.add(Card(user_id=user.id, question_id=qa.id, state=CardState.review, stability=10.0, difficulty=5.0,
                            due=FIXED_NOW + timedelta(days=3), last_review=FIXED_NOW - timedelta(days=10),
                            reps=10, lapses=lapses, step=None))
        if i < 2:
            db.session.add(Card(user_id=user.id, question_id=qb.id, state=CardState.review, stability=1.0,
                                difficulty=9.0, due=FIXED_NOW, last_review=FIXED_NOW - timedelta(days=1),
                                reps=5, lapses=5, step=None))
    db.session.commit()
    return qa, qb, users


def test_question_difficulty_aggregates(cohort):
    qa, qb, users = cohort
    rows, total = queries.question_difficulty(FIXED_NOW, 1)
    assert total == 1 and [r.question_id for r in rows] == [qa.id]  # B has only two learners
    (row,) = rows
    assert (row.learners, row.reviews, row.lapses, row.leeches) == (3, 30, 12, 1)
    assert row.lapse_rate == pytest.approx(0.4)
    # Each card: stability 10, 10 days since review → R = 0.9 under the default curve.
    assert row.average_retrievability == pytest.approx(0.9, abs=1e-6)


def test_hard_questions_page_is_for_instructors_only(cohort, make_user, login, app):
    qa, _qb, users = cohort
    candidate = app.test_client()
    login(users[0], candidate)
    assert candidate.get("/stats/questions").status_code == 403
    anonymous = app.test_client()
    assert anonymous.get("/stats/questions").status_code == 302
    instructor = app.test_client()
    login(make_user("teach@example.com", role=Role.instructor), instructor)
    html = instructor.get("/stats/questions").get_data(as_text=True)
    assert "Question A about rings?" in html and "Question B about trees?" not in html
    assert 'data-lapse-rate="0.4000"' in html and "40.0%" in html
    assert not any(u.email in html for u in users)


def test_hard_questions_are_paginated(make_user, make_question, login, client):
    users = [make_user(f"p{i}@example.com") for i in range(3)]
    questions = [make_question(f"Paged question {i}?") for i in range(30)]
    for i, q in enumerate(questions):
        for u in users:
            db.session.add(Card(user_id=u.id, question_id=q.id, state=CardState.review, stability=5.0, difficulty=5.0,
                                due=FIXED_NOW, last_review=FIXED_NOW - timedelta(days=2), reps=10, lapses=i % 10,
                                step=None))
    db.session.commit()
    login(make_user("admin@example.com", role=Role.admin))
    first = client.get("/stats/questions").get_data(as_text=True)
    second = client.get("/stats/questions?page=2").get_data(as_text=True)
    assert first.count("data-question=") == 25 and second.count("data-question=") == 5
    assert "Page 1 of 2" in first
    rates = [float(x) for x in __import__("re").findall(r'data-lapse-rate="([\d.]+)"', first + second)]
    assert rates == sorted(rates, reverse=True)
