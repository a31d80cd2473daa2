"""Readiness per posting, against hand-computed cases."""
from __future__ import annotations

from datetime import date

import pytest

from prep.postings.readiness import QuestionState, assess, pace_per_day


def q(i, r=0.0, reviewed=True, lapses=0, reviews=None):
    return QuestionState(question_id=i, text=f"q{i}", studied=True, reviewed=reviewed, retrievability=r,
                         lapses=lapses, reviews=(3 if reviewed else 0) if reviews is None else reviews)


def test_share_weakest_and_projection():
    states = [q(1, 0.95), q(2, 0.91), q(3, 0.80, lapses=2), q(4, 0.80, lapses=5), q(5, reviewed=False),
              q(6, reviewed=False), q(7, 0.60)]
    result = assess(states, 0.90, today=date(2026, 3, 1), interview_date=date(2026, 3, 3), pace_per_day=1.0)
    assert (result.total, result.ready, result.unseen) == (7, 2, 2)
    assert round(result.share, 4) == round(2 / 7, 4)
    # Lowest retrievability first; on a tie, more lapses first; unseen last.
    assert [s.question_id for s in result.weakest] == [7, 4, 3, 5, 6]
    p = result.projection
    assert (p.days_left, p.unseen, p.needed_per_day) == (2, 2, 1)
    assert p.on_track  # 1 a day × 2 days covers 2 unseen


def test_behind_pace():
    states = [q(i, reviewed=False) for i in range(10)]
    p = assess(states, 0.9, today=date(2026, 3, 1), interview_date=date(2026, 3, 5), pace_per_day=2.0).projection
    assert (p.days_left, p.needed_per_day, p.on_track) == (4, 3, False)  # ceil(10/4)=3 > 2


def test_interview_today_or_past_and_empty():
    today = assess([q(1, reviewed=False)], 0.9, today=date(2026, 3, 5), interview_date=date(2026, 3, 5))
    assert (today.projection.days_left, today.projection.needed_per_day, today.projection.on_track) == (0, 1, False)
    past = assess([q(1, reviewed=False)], 0.9, today=date(2026, 3, 5), interview_date=date(2026, 3, 1))
    assert past.projection is None and past.interview_over == date(2026, 3, 1)  # "how did it go?", not a plan
    done = assess([q(1, 0.99)], 0.9, today=date(2026, 3, 5), interview_date=date(2026, 3, 5)).projection
    assert done.on_track
    empty = assess([], 0.9, today=date(2026, 3, 5))
    assert empty.share == 0.0 and empty.projection is None


def test_a_question_reviewed_once_is_not_ready():
    """Minutes after the first review recall is near 1: that is not readiness (issue 21)."""
    result = assess([q(1, 0.99, reviews=1), q(2, 0.99, reviews=2), q(3, reviewed=False)], 0.9, today=date(2026, 3, 5))
    assert (result.ready, result.unseen, result.once_recalled) == (1, 1, 1)
    # Not weak either: recalled at 99 %, it waits for its second review (counted apart).
    assert [s.question_id for s in result.weakest] == [3]


def test_recall_now_is_the_mean_over_the_same_questions():
    states = [q(1, 0.95), q(2, 0.91), q(3, 0.40), q(4, reviewed=False)]
    result = assess(states, 0.9, today=date(2026, 3, 5))
    assert round(result.recall_now, 4) == round((0.95 + 0.91 + 0.40) / 4, 4)
    assert result.recall_now >= result.ready * 0.9 / result.total  # never below what the ready ones give
    assert result.recall_of == {1: 0.95, 2: 0.91, 3: 0.40, 4: 0.0}
    assert [s.question_id for s in result.weakest] == [3, 4]


@pytest.mark.parametrize(("introduced", "first", "expected"), [
    (7, date(2026, 3, 5), 7.0),      # started today: 7 a day, not 7 / 14
    (14, date(2026, 3, 4), 7.0),     # two days
    (28, date(2026, 2, 1), 2.0),     # the first one is older than the window: 14 days
    (0, None, 0.0),
])
def test_pace_counts_the_days_since_the_first_new_card(introduced, first, expected):
    assert pace_per_day(introduced, first, date(2026, 3, 5), 14) == expected


def test_posting_page_shows_readiness_and_saves_interview_date(client, login, make_user, clock):
    from sqlalchemy import select

    from prep.drill import rating
    from prep.drill.models import Card
    from prep.extensions import db
    from prep.postings.models import Posting
    from prep.postings.service import import_posting

    user = make_user()
    text = ("Acme GPU\nGPU 通信工程师\n职位详情\n负责 NCCL 优化。\n面试指南\n"
            "- 请解释Ring AllReduce的两个阶段\n- RDMA与TCP/IP相比有何优势？\n")
    posting = import_posting(user, text, clock.now).posting
    db.session.commit()
    login(user)
    page = client.get(f"/postings/{posting.id}").get_data(as_text=True)
    assert 'id="readiness"' not in page  # nothing studied yet
    client.post(f"/postings/{posting.id}/study")
    card = db.session.scalars(select(Card)).first()
    rating.rate(user, rating.Answer(card.id, card.version, 4), clock.now)  # Easy: recalled now
    db.session.commit()
    page = client.get(f"/postings/{posting.id}").get_data(as_text=True)
    # One review is not readiness (issue 21): 0 of 2 ready, 1 not reviewed yet.
    assert 'id="readiness"' in page and "0 of 2" in page and "1 not reviewed yet" in page
    r = client.post(f"/postings/{posting.id}/interview", data={"interview_date": "2026-09-26"})
    assert r.status_code == 302
    assert db.session.get(Posting, posting.id).interview_date.isoformat() == "2026-09-26"
    page = client.get(f"/postings/{posting.id}").get_data(as_text=True)
    assert "2026-09-26" in page and ("target reached" in page or "below the target" in page)  # the plan's one verdict
    refused = client.post(f"/postings/{posting.id}/interview", data={"interview_date": "not a date"})
    assert refused.status_code == 400 and "Enter the date as YYYY-MM-DD." in refused.get_data(as_text=True)
    assert db.session.get(Posting, posting.id).interview_date.isoformat() == "2026-09-26"
    other = make_user()
    client.post("/logout")
    login(other)
    assert client.post(f"/postings/{posting.id}/interview", data={"interview_date": "2026-04-02"}).status_code == 404


def test_dashboard_lists_the_nearest_interview_first(client, login, make_user, clock):
    from datetime import date

    from prep.extensions import db
    from prep.postings.service import import_posting

    user = make_user()
    now = clock.now
    far = import_posting(user, "Far Corp\nFar role\n职位详情\n负责 CUDA。\n", now).posting
    near = import_posting(user, "Near Corp\nNear role\n职位详情\n负责 RDMA。\n", now).posting
    past = import_posting(user, "Old Corp\nOld role\n职位详情\n负责 MPI。\n", now).posting
    far.interview_date, near.interview_date, past.interview_date = date(2026, 9, 1), date(2026, 4, 1), date(2000, 1, 1)
    db.session.commit()
    login(user)
    html = client.get("/dashboard").get_data(as_text=True)
    assert "Upcoming interviews" in html
    assert html.index("Apr 1, 2026") < html.index("Sep 1, 2026") and "Jan 1, 2000" not in html  # dates in the locale
