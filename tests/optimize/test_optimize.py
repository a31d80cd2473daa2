"""Parameter optimisation: training items by study day, the time split, and on a simulated learner
who forgets faster than the defaults assume (fixed seed, real scheduler), a fit that improves log
loss on the held-back later reviews; apply only when better, roll back, the page and its limits."""
from __future__ import annotations

import importlib.util
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from prep.drill import scheduling
from prep.extensions import db
from prep.optimize import fit
from prep.optimize import service as optimize_service
from prep.optimize.models import OptimizationRun
from prep.stats.simulate import simulate
from tests.support.cpu import least_cpu_seconds

UTC = timezone.utc
START = datetime(2025, 12, 1, tzinfo=UTC)


def _reviews(sim):
    return [fit.Review(card_id=r.card_index, reviewed_at=r.reviewed_at, rating=r.rating) for r in sim.reviews]


def test_items_use_study_days_and_skip_same_day_reviews():
    t0 = datetime(2026, 1, 1, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai
    reviews = [fit.Review(1, t0, 3), fit.Review(1, t0 + timedelta(minutes=10), 3),
               fit.Review(1, t0 + timedelta(days=2), 1), fit.Review(1, t0 + timedelta(days=2, hours=1), 3),
               fit.Review(1, t0 + timedelta(days=5), 3)]
    items = fit.build_items(reviews, "Asia/Shanghai", 4)
    assert [list(i.steps) for i in items] == [
        [(3, 0), (3, 0), (1, 2)],
        [(3, 0), (3, 0), (1, 2), (3, 0), (3, 3)],
    ]
    assert [i.at for i in items] == [reviews[2].reviewed_at, reviews[4].reviewed_at]


def test_items_follow_the_day_start_hour():
    # 03:00 and 05:00 local on the same calendar date are different study days when the day starts at 04:00.
    a, b = datetime(2026, 1, 1, 19, 0, tzinfo=UTC), datetime(2026, 1, 1, 21, 0, tzinfo=UTC)
    (item,) = fit.build_items([fit.Review(1, a - timedelta(days=1), 3), fit.Review(1, a, 3), fit.Review(1, b, 3)],
                              "Asia/Shanghai", 4)[1:]
    assert [d for _r, d in item.steps] == [0, 1, 1]


def test_too_few_reviews_is_refused():
    sim = simulate(start=START, days=10, n_cards=10, seed=1)
    with pytest.raises(fit.OptimizeError, match="at least 400 reviews"):
        fit.fit(_reviews(sim))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fit_improves_log_loss_on_the_later_reviews(seed):
    sim = simulate(start=START, days=90, n_cards=80, new_per_day=4, seed=seed)
    reviews = _reviews(sim)
    assert len(reviews) >= 400
    result = fit.fit(reviews)
    assert result.improved and result.after.log_loss < result.before.log_loss
    assert result.after.rmse_bins < result.before.rmse_bins
    # Trained on the past only: the split is at three quarters of the reviews, by time.
    times = sorted(r.reviewed_at for r in reviews)
    assert result.split_at == times[int(len(times) * 0.75)]
    assert result.test_items > 0 and result.train_items > result.test_items
    # The learner forgets faster: the fitted initial stability for Good is below the default's.
    assert result.parameters[2] < fit.DEFAULT_PARAMETERS[2]
    # py-fsrs accepts them, so they can feed the scheduler.
    scheduling.make_scheduler(scheduling.SchedulerSettings(parameters=result.parameters))


def test_clamp_keeps_parameters_in_bounds():
    wild = [500.0] * 4 + [-3.0] * 17
    clamped = fit.clamp(wild)
    scheduling.make_scheduler(scheduling.SchedulerSettings(parameters=clamped))
    assert clamped[0] == 100.0 and clamped[4] == 1.0


def test_optimise_applies_and_rolls_back(simulated, login, client, clock):
    user, sim = simulated(n_cards=80, days=90)
    assert optimize_service.review_count(user) == len(sim.reviews) >= 400
    login(user)
    page = client.get("/stats/optimize").get_data(as_text=True)
    assert "Optimise my schedule" in page and "not-enough" not in page

    response = client.post("/stats/optimize")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'data-metric="log-loss-before"' in html and "now in use" in html
    db.session.refresh(user)
    run = db.session.scalar(db.select(OptimizationRun).where(OptimizationRun.user_id == user.id))
    assert run.applied and run.log_loss_after < run.log_loss_before and run.old_parameters is None
    params = json.loads(user.fsrs_parameters)
    assert params == json.loads(run.new_parameters) and len(params) == 21
    # The new parameters feed the user's scheduler.
    assert scheduling.make_scheduler(scheduling.settings_for_user(user)).parameters == tuple(params)

    response = client.post("/stats/optimize/rollback", follow_redirects=True)
    assert "Previous parameters restored." in response.get_data(as_text=True)
    db.session.refresh(user)
    db.session.refresh(run)
    assert user.fsrs_parameters is None and run.rolled_back_at is not None
    response = client.post("/stats/optimize/rollback", follow_redirects=True)
    assert "no optimisation to roll back" in response.get_data(as_text=True)


def test_not_applied_when_not_better(simulated, login, client, clock, monkeypatch):
    user, _ = simulated(n_cards=80, days=90)
    before = json.dumps([0.3] + list(fit.DEFAULT_PARAMETERS[1:]))
    user.fsrs_parameters = before
    db.session.commit()
    worse = fit.FitResult(parameters=fit.DEFAULT_PARAMETERS, before=fit.Metrics(0.30, 0.05),
                          after=fit.Metrics(0.31, 0.04), train_items=300, test_items=100, split_at=clock.now)
    monkeypatch.setattr(fit, "fit", lambda *a, **k: worse)
    login(user)
    html = client.post("/stats/optimize").get_data(as_text=True)
    assert "your schedule is unchanged" in html
    db.session.refresh(user)
    assert user.fsrs_parameters == before
    run = db.session.scalar(db.select(OptimizationRun).where(OptimizationRun.user_id == user.id))
    assert not run.applied


def test_page_explains_the_minimum(make_user, login, client, clock):
    user = make_user()
    login(user)
    html = client.get("/stats/optimize").get_data(as_text=True)
    assert "needs at least 400 reviews; you have 0" in html
    response = client.post("/stats/optimize")
    assert response.status_code == 400
    assert "at least 400 reviews" in response.get_data(as_text=True)
    db.session.refresh(user)
    assert user.fsrs_parameters is None
    assert db.session.scalar(db.select(db.func.count(OptimizationRun.id))) == 0


def test_optimise_needs_login_and_csrf(app, make_user, login, client):
    assert client.get("/stats/optimize").status_code == 302
    login(make_user())
    app.config["WTF_CSRF_ENABLED"] = True
    assert client.post("/stats/optimize").status_code == 400  # no CSRF token
    assert db.session.scalar(db.select(db.func.count(OptimizationRun.id))) == 0


def test_migration_builds_the_table_the_model_describes(tmp_path):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from alembic.operations import Operations
    from sqlalchemy import MetaData, create_engine

    migration = _revision("0004_optimization_runs")

    engine = create_engine(f"sqlite:///{tmp_path / 'migrated.sqlite3'}")
    with engine.begin() as conn:
        db.metadata.tables["users"].create(conn)
        with Operations.context(MigrationContext.configure(conn)):
            migration.upgrade()
        wanted = MetaData()
        for name in ("users", "optimization_runs"):
            db.metadata.tables[name].to_metadata(wanted)
        assert compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), wanted) == []
        with Operations.context(MigrationContext.configure(conn)):
            migration.downgrade()
    engine.dispose()


def _memory_states(user):
    from prep.drill.models import Card

    return {c.id: (c.stability, c.difficulty, c.due, c.state, c.step)
            for c in db.session.scalars(db.select(Card).where(Card.user_id == user.id))}


def _replayed(user, parameters):
    """Each card's (stability, difficulty) from replaying its scheduled reviews with ``parameters``."""
    from prep.drill.models import ReviewLog

    scheduler = scheduling.make_scheduler(scheduling.SchedulerSettings(parameters=parameters, enable_fuzzing=False))
    logs = db.session.scalars(db.select(ReviewLog).where(ReviewLog.user_id == user.id, ReviewLog.kind == "review")
                              .order_by(ReviewLog.reviewed_at, ReviewLog.id)).all()
    out = {}
    for card_id in {r.card_id for r in logs}:
        mine = [r for r in logs if r.card_id == card_id]
        row = optimize_service.replay(scheduler, mine[0].card_before, [(r.rating, r.reviewed_at) for r in mine])
        out[card_id] = (row.stability, row.difficulty)
    return out


def test_applied_parameters_recompute_memory_states_and_rollback_restores(simulated, login, client, clock):
    from prep.drill.models import ReviewLog
    from tests.support.queries import count_statements

    user, sim = simulated(n_cards=80, days=90)
    # One cram review: not memory evidence, so it is not replayed.
    some_card = db.session.scalar(db.select(ReviewLog.card_id).where(ReviewLog.user_id == user.id).limit(1))
    db.session.add(ReviewLog(card_id=some_card, user_id=user.id, card_version=999, rating=1, kind="cram",
                             reviewed_at=clock.now, state_before="review", state_after="review",
                             card_before={"state": "new"}))
    db.session.commit()
    original = _memory_states(user)
    # The stored states are those the default parameters give.
    assert {k: v[:2] for k, v in original.items() if k in _replayed(user, None)} == _replayed(user, None)

    login(user)
    assert client.post("/stats/optimize").status_code == 200
    db.session.expire_all()
    params = tuple(json.loads(user.fsrs_parameters))
    after = _memory_states(user)
    replayed = _replayed(user, params)
    assert {k: v[:2] for k, v in after.items() if k in replayed} == replayed
    changed = [k for k in replayed if after[k][:2] != original[k][:2]]
    assert len(changed) >= len(replayed) // 2  # the fitted learner forgets faster: most states move
    # Due dates, states and steps are left as they were (no "reschedule on change" option).
    assert {k: v[2:] for k, v in after.items()} == {k: v[2:] for k, v in original.items()}
    # New cards (no reviews) are untouched.
    assert all(after[k] == original[k] for k in original if k not in replayed)

    response = client.post("/stats/optimize/rollback")
    assert response.status_code == 302
    db.session.expire_all()
    assert user.fsrs_parameters is None
    assert _memory_states(user) == original

    # Bounded: the same four statements for 80 cards as for one.
    with count_statements() as counter:
        optimize_service.recompute_memory_states(user)
    assert counter["n"] <= 5, counter["n"]


def test_recompute_is_a_no_op_without_reviews(make_user, app):
    from tests.support.queries import count_statements

    user = make_user()
    with count_statements() as counter:
        assert optimize_service.recompute_memory_states(user) == 0
    assert counter["n"] <= 2  # the user's row (expired by the commit) and the log query


def _one_card(n: int, card_id: int = 1, end: datetime = datetime(2026, 3, 1, tzinfo=UTC)) -> list[fit.Review]:
    """``n`` daily reviews of one card, ending at ``end`` (ratings in a fixed pattern)."""
    return [fit.Review(card_id=card_id, reviewed_at=end - timedelta(days=n - i, hours=(i * 7) % 24 / 24),
                       rating=(1, 3, 3, 4, 3)[i % 5]) for i in range(n)]


def _background(cards: int = 300) -> list[fit.Review]:
    """A few reviews each of many cards in the last months: enough to train and to test on."""
    out = []
    for c in range(cards):
        at, gap = datetime(2026, 3, 1, tzinfo=UTC) - timedelta(days=60 + c % 240), 1
        for k in range(7):
            out.append(fit.Review(card_id=1000 + c, reviewed_at=at, rating=(3, 1, 3, 4, 3, 3, 2)[(c + k) % 7]))
            at += timedelta(days=gap, hours=5)
            gap = gap * 2 + 1
    return out


def test_a_long_history_is_capped_and_linear():
    """12,000 reviews of one card took 26 s and 1.8 GB (every item held the whole history);
    only the most recent MAX_HISTORY_PER_CARD reviews of a card are used now."""
    from prep.optimize.fit import MAX_HISTORY_PER_CARD, build_items

    def cost(n: int) -> float:
        history = _one_card(n)
        items = build_items(history)
        assert len(items) <= MAX_HISTORY_PER_CARD
        assert all(len(i.steps) <= MAX_HISTORY_PER_CARD for i in items)
        assert items[-1].at == history[-1].reviewed_at  # the most recent ones are kept
        return least_cpu_seconds(lambda: build_items(history), runs=3)

    small, large = cost(3_000), cost(12_000)
    assert large < 3.0
    assert large <= 8 * max(small, 0.002)  # linear in the reviews read, not quadratic


def test_building_items_is_linear_within_the_cap():
    """A card's items share its history: 4x the reviews (all inside the cap) cost about 4x, not
    16x (each item used to copy the history up to it)."""
    small_history, large_history = _one_card(1_500), _one_card(6_000)
    small = least_cpu_seconds(lambda: fit.build_items(small_history, max_history=10_000), runs=3)
    large = least_cpu_seconds(lambda: fit.build_items(large_history, max_history=10_000), runs=3)
    assert large <= 8 * max(small, 0.002), (small, large)


def test_the_fit_on_a_huge_card_costs_about_what_a_small_one_does():
    """The whole fit: 12,000 reviews of one card (beside 300 ordinary cards) costs about what
    3,000 do (least of three runs; generous ratio), and the card's many reviews do not push
    every other review into the training part (the split is taken over the reviews used)."""
    background = _background()
    small_reviews, large_reviews = _one_card(3_000) + background, _one_card(12_000) + background
    result = fit.fit(large_reviews)
    assert result.test_items >= 100 and result.train_items >= 100
    small = least_cpu_seconds(lambda: fit.fit(small_reviews), runs=3)
    large = least_cpu_seconds(lambda: fit.fit(large_reviews), runs=3)
    assert large < 3.0 and large <= 4 * max(small, 0.01), (small, large)


def test_many_long_histories_stay_within_the_step_budget(monkeypatch):
    """Many capped cards could still hold cards x cap²/2 steps: the cap is lowered for the fit
    until the items hold at most MAX_TRAINING_STEPS."""
    assert fit.affordable_history([10] * 5, 1000, 10**6) == 1000
    cap = fit.affordable_history([1000] * 60, 1000, 4_000_000)
    assert 60 * cap * (cap + 1) // 2 <= 4_000_000 < 60 * (cap + 1) * (cap + 2) // 2
    assert fit.affordable_history([5000], 1000, 0) == 1
    monkeypatch.setattr(fit, "MAX_TRAINING_STEPS", 200_000)
    seen = {}
    real = fit.build_items

    def spy(reviews, *args, **kwargs):
        items = real(reviews, *args, **kwargs)
        seen["steps"] = sum(len(i.steps) for i in items)
        return items

    monkeypatch.setattr(fit, "build_items", spy)
    fit.fit([r for c in range(20) for r in _one_card(600, card_id=c)] + _background())
    assert 0 < seen["steps"] <= 200_000


def test_the_cap_is_a_setting_and_applied_in_the_query(simulated, app, monkeypatch):
    """``OPTIMIZE_MAX_HISTORY_PER_CARD``: each card's most recent reviews are chosen by the
    database (a huge history is never read whole) and the fit is told the same cap."""
    from collections import Counter

    from prep.config import ConfigError, from_environ

    user, _sim = simulated(n_cards=10, days=60)
    everything = optimize_service.reviews_for(user)
    recent = optimize_service.reviews_for(user, most_recent=3)
    per_card = Counter(r.card_id for r in everything)
    assert max(per_card.values()) > 3
    assert Counter(r.card_id for r in recent) == {c: min(n, 3) for c, n in per_card.items()}
    for card_id in per_card:
        mine = [r for r in everything if r.card_id == card_id]
        assert [r for r in recent if r.card_id == card_id] == mine[-3:]
    assert [r.reviewed_at for r in recent] == sorted(r.reviewed_at for r in recent)

    app.config["OPTIMIZE_MAX_HISTORY_PER_CARD"] = 4
    seen = {}

    def fake_fit(reviews, *args, **kwargs):
        seen["most"] = max(Counter(r.card_id for r in reviews).values())
        seen["cap"] = kwargs.get("max_history")
        raise fit.OptimizeError("stop here")

    monkeypatch.setattr(fit, "fit", fake_fit)
    with pytest.raises(fit.OptimizeError):
        optimize_service.optimise(user, datetime(2026, 3, 10, tzinfo=UTC))
    assert seen == {"most": 4, "cap": 4}
    assert from_environ({"PREP_OPTIMIZE_MAX_HISTORY_PER_CARD": "250"}) == {"OPTIMIZE_MAX_HISTORY_PER_CARD": 250}
    with pytest.raises(ConfigError, match="PREP_OPTIMIZE_MAX_HISTORY_PER_CARD"):
        from_environ({"PREP_OPTIMIZE_MAX_HISTORY_PER_CARD": "0"})


def test_the_fit_runs_outside_the_transaction(simulated, login, client, clock, monkeypatch):
    from prep.extensions import db
    from prep.optimize import fit as fit_module

    user, _sim = simulated(n_cards=30, days=60)
    login(user)
    seen = {}
    real = fit_module.fit

    def watching(*args, **kwargs):
        seen["in_transaction"] = db.session().in_transaction()
        return real(*args, **kwargs)

    monkeypatch.setattr(fit_module, "fit", watching)
    client.post("/stats/optimize")
    assert seen == {"in_transaction": False}


def _revision(name: str):
    """A revision file of prep/migrations/versions, loaded as a module."""
    path = Path(__file__).resolve().parents[2] / "prep" / "migrations" / "versions" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"revision_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
