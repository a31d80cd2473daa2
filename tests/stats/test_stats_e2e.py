"""End to end: a candidate with a few months of reviews (simulated through the real scheduler,
fixed seed) opens /stats and sees every chart; screenshot in test-artifacts/stats.png."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import select

from tests.support.live import register, screenshot

pytestmark = pytest.mark.browser

CHARTS = ("chart-heatmap", "chart-forecast", "chart-retention", "chart-buttons-age", "chart-buttons-day",
          "chart-states", "chart-time")


def _seed_history(server, email: str) -> int:
    """Write ~100 days of simulated reviews for ``email`` straight into the live server's database."""
    from prep import create_app
    from prep.accounts.models import User
    from prep.drill.models import Card
    from prep.extensions import db
    from prep.questions.models import Source
    from prep.questions.service import add_question
    from prep.stats.rows import store
    from prep.stats.simulate import simulate

    app = create_app({"SQLALCHEMY_DATABASE_URI": server.env["PREP_DATABASE_URL"],
                      "INSTANCE_PATH": str(server.root / "instance"), "SECRET_KEY": "live-test-secret",
                      "SCHEDULER_ENABLED": False})
    with app.app_context():
        user = db.session.scalar(select(User).where(User.email == email))
        questions = [add_question(f"Simulated interview question {i}: explain collective pattern {i}.",
                                  source=Source.content, tags=("simulated",)) for i in range(60)]
        now = datetime.now(timezone.utc)
        sim = simulate(start=now - timedelta(days=100), days=100, n_cards=60, new_per_day=4, seed=11,
                       tz_name=user.timezone, day_start_hour=user.day_start_hour)
        store(db.session, user.id, [q.id for q in questions], sim)
        # One card suspended so every state bar has something to show.
        db.session.scalars(select(Card).where(Card.user_id == user.id).limit(1)).one().suspended = True
        db.session.commit()
        count = len(sim.reviews)
        db.session.remove()
        db.engine.dispose()
    return count


def test_stats_page_shows_every_chart(live_server, page):
    register(page, live_server)
    reviews = _seed_history(live_server, "cand@example.com")
    assert reviews > 400

    page.goto(live_server.url + "/dashboard")
    page.click("nav >> text=Stats")
    page.wait_for_url("**/stats")
    for chart in CHARTS:
        svg = page.locator(f"svg#{chart}")
        assert svg.is_visible()
        assert svg.locator("title").first.text_content()
        box = svg.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 50
    assert page.locator("svg#chart-heatmap rect[data-count]").count() == 90
    assert page.locator("svg#chart-heatmap rect.heat-4").count() >= 1
    assert page.locator("svg#chart-forecast rect.bar").count() == 30
    assert page.locator("svg#chart-retention polyline").count() == 2
    assert page.locator("td[data-state=suspended]").text_content() == "1"
    assert page.locator("svg#chart-buttons-age rect.bar").count() == 12  # 3 card ages × 4 buttons
    assert page.locator("svg#chart-buttons-day rect.button-good").count() >= 10
    assert page.locator("#buttons-by-age tr[data-age=mature] td[data-button=good]").text_content() != "0"
    # The table alternative opens without any script.
    page.click("#reviews-section summary")
    assert page.locator("#reviews-section table").is_visible()
    page.click("#reviews-section summary")
    assert page.js_errors == []
    screenshot(page, "stats")
