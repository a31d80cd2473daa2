"""Study histories for tests: a candidate with ~100 simulated days of reviews (``simulated``),
and the same plus notes, suspended and buried cards, an own question and custom settings
(``rich_user``)."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import select

from prep.drill.models import Card
from prep.extensions import db
from prep.questions.models import Source
from prep.questions.service import add_question
from prep.stats.rows import store
from prep.stats.simulate import simulate

from .clock import FIXED_NOW


@pytest.fixture
def simulated(make_user):
    """A candidate (Asia/Shanghai) with ~100 days of reviews of 60 questions, simulated through
    the real scheduler with a fixed seed, ending just before FIXED_NOW."""
    def build(email: str = "sim@example.com", seed: int = 3, n_cards: int = 60, days: int = 100, **settings):
        user = make_user(email, timezone="Asia/Shanghai", **settings)
        questions = [add_question(f"Simulated question {seed}-{i}: how does collective {i} work?",
                                  source=Source.content, tags=("sim",)) for i in range(n_cards)]
        sim = simulate(start=FIXED_NOW - timedelta(days=days), days=days, n_cards=n_cards, new_per_day=4,
                       seed=seed, tz_name=user.timezone, day_start_hour=user.day_start_hour)
        store(db.session, user.id, [q.id for q in questions], sim)
        db.session.commit()
        return user, sim
    return build


@pytest.fixture
def rich_user(simulated):
    """A simulated history plus a note, a suspended and buried card, an own question, custom settings."""
    user, sim = simulated(n_cards=12, days=40)
    cards = db.session.scalars(select(Card).where(Card.user_id == user.id).order_by(Card.id)).all()
    cards[0].note = "Remember: reduce-scatter then all-gather.\n第二行"
    cards[1].suspended = True
    cards[2].buried_until = FIXED_NOW + timedelta(hours=5)
    own = add_question("我自己的问题：NVLink 带宽是多少？", source=Source.user, owner_id=user.id, tags=("mine", "GPU"))
    db.session.add(Card(user_id=user.id, question_id=own.id, due=FIXED_NOW, added_at=FIXED_NOW))
    user.desired_retention = 0.85
    user.learning_steps = "2m 15m"
    user.fsrs_parameters = json.dumps([0.3, 1.2, 2.3, 8.0] + [5.0, 1.0, 1.0, 0.01, 1.5, 0.1, 1.0, 1.8, 0.1,
                                                               0.3, 2.0, 0.2, 3.0, 0.5, 0.6, 0.1, 0.2])
    db.session.commit()
    return user
