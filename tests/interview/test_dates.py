"""Every date a candidate gives is range-checked: an interview date is today (the candidate's
study day) to a year ahead, on the posting page's form, in the import's review and in
``import_posting`` itself; ``prep remind --now`` takes 2000-01-01 to a year past the clock. A date
stored before the check (9999-12-31, 0026-12-16) breaks no page."""
from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import func, select

from prep.extensions import db
from prep.interview.models import InterviewSettings
from prep.postings import interview_dates
from prep.postings.errors import InterviewDateError, PostingInputError
from prep.postings.importing import Review, ReviewedQuestion
from prep.postings.models import Posting
from prep.postings.service import import_posting
from tests.support.htmlforms import review_and_save
from tests.support.interview import candidate, make_posting  # noqa: F401 (a fixture)

TODAY = date(2026, 3, 10)  # the study day of FIXED_NOW (12:00 UTC) for a candidate in UTC
ZH = {"Accept-Language": "zh-CN,zh;q=0.9"}
REFUSED = {"9999-12-31": date(9999, 12, 31), "0026-12-16": date(26, 12, 16),
           "yesterday": TODAY - timedelta(days=1), "today+366": TODAY + timedelta(days=366)}
ACCEPTED = {"today": TODAY, "today+365": TODAY + timedelta(days=365)}
EN_MESSAGE = "Choose a day from today (Mar 10, 2026) to a year ahead (Mar 10, 2027)."
ZH_MESSAGE = "请选择从今天（2026年3月10日）到一年后（2027年3月10日）之间的日期。"
POSTING = "Acme GPU\nGPU 通信工程师\n职位详情\n负责 NCCL 优化。\n面试指南\n- 请解释Ring AllReduce的两个阶段\n"


@pytest.mark.parametrize("day", REFUSED.values(), ids=REFUSED.keys())
def test_out_of_range_dates_are_refused(day):
    with pytest.raises(InterviewDateError) as caught:
        interview_dates.check(day, TODAY)
    assert (caught.value.first, caught.value.last) == (TODAY, date(2027, 3, 10))


@pytest.mark.parametrize("day", [*ACCEPTED.values(), None], ids=[*ACCEPTED.keys(), "none"])
def test_today_to_a_year_ahead_is_accepted(day):
    interview_dates.check(day, TODAY)


def test_a_study_day_before_the_day_start_is_still_yesterday(clock, candidate):
    """At 02:00 with the day starting at 04:00 the study day is the day before: that day is "today"."""
    from prep.drill import queue_queries

    assert queue_queries.study_day(candidate, clock.now.replace(hour=2)).day == TODAY - timedelta(days=1)
    interview_dates.check(TODAY - timedelta(days=1), queue_queries.study_day(candidate, clock.now.replace(hour=2)).day)


def _studied(client, user, now) -> Posting:
    posting = import_posting(user, POSTING, now).posting
    db.session.commit()
    assert client.post(f"/postings/{posting.id}/study").status_code == 302  # the date form shows with readiness
    return posting


@pytest.mark.parametrize("text", REFUSED, ids=REFUSED.keys())
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_posting_form_refuses_a_date_out_of_range_next_to_the_field(clock, client, candidate, text, lang):
    posting = _studied(client, candidate, clock.now)
    value = REFUSED[text].isoformat()  # 0026-12-16 for year 26
    r = client.post(f"/postings/{posting.id}/interview", data={"interview_date": value}, headers=ZH if lang == "zh" else {})
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    error = html[html.index('id="interview_date-error"'):]
    assert (ZH_MESSAGE if lang == "zh" else EN_MESSAGE) in error[:400]
    assert 'aria-invalid="true"' in html and 'max="2027-03-10"' in html and 'min="2026-03-10"' in html
    assert db.session.get(Posting, posting.id).interview_date is None
    assert db.session.get(InterviewSettings, candidate.id) is None  # nothing planned either


@pytest.mark.parametrize("day", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_the_posting_form_takes_today_to_a_year_ahead(clock, client, candidate, day):
    posting = _studied(client, candidate, clock.now)
    r = client.post(f"/postings/{posting.id}/interview", data={"interview_date": day.isoformat()})
    assert r.status_code == 302
    assert db.session.get(Posting, posting.id).interview_date == day


def test_an_unreadable_date_says_how_to_write_one(clock, client, candidate):
    posting = _studied(client, candidate, clock.now)
    r = client.post(f"/postings/{posting.id}/interview", data={"interview_date": "99999-01-01"}, headers=ZH)
    assert r.status_code == 400 and "请按 YYYY-MM-DD 格式输入日期。" in r.get_data(as_text=True)


@pytest.mark.parametrize("text", REFUSED, ids=REFUSED.keys())
def test_the_import_review_refuses_a_date_out_of_range(clock, client, candidate, text):
    value = REFUSED[text].isoformat()  # 0026-12-16 for year 26
    r = review_and_save(client, client.post("/postings/new", data={"text": POSTING}), {"interview_date": value})
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and EN_MESSAGE in html[html.index('id="interview_date-error"'):]
    assert db.session.scalar(select(func.count(Posting.id))) == 0


def test_the_import_review_takes_a_year_ahead_and_offers_the_range(clock, client, candidate):
    review = client.post("/postings/new", data={"text": POSTING})
    assert 'min="2026-03-10"' in review.get_data(as_text=True) and 'max="2027-03-10"' in review.get_data(as_text=True)
    r = review_and_save(client, review, {"interview_date": "2027-03-10"})
    assert r.status_code == 302
    assert db.session.scalar(select(Posting.interview_date)) == date(2027, 3, 10)


@pytest.mark.parametrize("day", REFUSED.values(), ids=REFUSED.keys())
def test_import_posting_itself_refuses_the_date(clock, candidate, day):
    """Every way in (a future API or command) goes through import_posting, which checks again."""
    review = Review(company="Acme", title="GPU", kind="posting", questions=[ReviewedQuestion("What is RDMA?", "concept")],
                    interview_date=day)
    with pytest.raises(PostingInputError, match="today to a year ahead"):
        import_posting(candidate, POSTING, clock.now, review=review)
    db.session.rollback()
    assert db.session.scalar(select(func.count(Posting.id))) == 0


def _stored(candidate, make_question, clock, day: date, *, mode: bool = True) -> Posting:
    posting = make_posting(candidate, [make_question()], days_ahead=30, now=clock.now)
    if not mode:
        db.session.add(InterviewSettings(user_id=candidate.id, enabled=False, target=0.9, budget_minutes=30))
    posting.interview_date = day  # written directly, as a row stored before dates were checked
    db.session.commit()
    return posting


@pytest.mark.parametrize("day", [date(9999, 12, 31), date(26, 12, 16)], ids=["9999-12-31", "0026-12-16"])
def test_a_stored_date_out_of_range_breaks_no_page_without_a_plan(clock, client, candidate, make_question, day):
    """Interview mode off (no plan made): the pages work and the posting page asks for a new date
    (/plan plans whatever the mode: the test below)."""
    posting = _stored(candidate, make_question, clock, day, mode=False)
    client.post(f"/postings/{posting.id}/study")
    for url in ("/dashboard", f"/postings/{posting.id}", "/postings", f"/postings/{posting.id}/outcome"):
        assert client.get(url).status_code == 200, url
    html = client.get(f"/postings/{posting.id}").get_data(as_text=True)
    if day.year == 9999:
        assert "Dec 31, 9999 is more than a year ahead, so nothing is planned for it." in html
        assert EN_MESSAGE in html and 'id="interview_date-error"' in html
        assert "On track" not in html and "Behind" not in html  # no countdown to it
    else:
        assert 'id="interview_date-error"' not in html  # an interview that took place


def test_a_stored_date_out_of_range_breaks_no_page(clock, client, candidate, make_question):
    """Interview mode on: the pages read the stored plan, and none overflows on the date."""
    posting = _stored(candidate, make_question, clock, date(9999, 12, 31))
    client.post(f"/postings/{posting.id}/study")
    for url in ("/dashboard", "/plan", f"/postings/{posting.id}"):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("value", ["9999-12-31T23:00:00Z", "9999-12-31", "0001-01-01T00:00:00+01:00",
                                   "0026-12-16", "1999-12-31T23:59:59Z", "2027-03-12T00:00:00Z"])
def test_remind_now_out_of_range_is_refused(clock, runner, value):
    result = runner.invoke(args=["remind", "--dry-run", "--now", value])
    assert result.exit_code == 2, result.output
    assert "is outside 2000-01-01 to 2027-03-11" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("value", ["2000-01-01T00:00:00Z", "2026-03-09T01:05:00Z", "2027-03-11T11:00:00Z"])
def test_remind_now_in_range_runs(clock, runner, value):
    result = runner.invoke(args=["remind", "--dry-run", "--now", value])
    assert result.exit_code == 0, result.output


# --- the JSON twin of the form and the command ---------------------------------------------

@pytest.mark.parametrize("text", REFUSED, ids=REFUSED.keys())
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_json_date_refuses_out_of_range_with_the_fields_message(clock, client, candidate, text, lang):
    posting = _studied(client, candidate, clock.now)
    r = client.post(f"/postings/{posting.id}/interview.json", json={"interview_date": REFUSED[text].isoformat()},
                    headers=ZH if lang == "zh" else {})
    assert r.status_code == 400
    assert r.get_json() == {"errors": {"interview_date": [ZH_MESSAGE if lang == "zh" else EN_MESSAGE]}}
    assert db.session.get(Posting, posting.id).interview_date is None
    assert db.session.get(InterviewSettings, candidate.id) is None


@pytest.mark.parametrize("body", [[], {"interview_date": 20261216}, {"day": "2026-04-01"}, {"interview_date": "12/16/26"},
                                  {"interview_date": "2026-04-01" * 10}, "2026-04-01"])
def test_an_unreadable_json_date_changes_nothing(clock, client, candidate, body):
    posting = _studied(client, candidate, clock.now)
    r = client.post(f"/postings/{posting.id}/interview.json", json=body, headers=ZH)
    assert r.status_code == 400 and r.get_json()["errors"]["interview_date"]
    assert all("\u4e00" <= ch <= "\u9fff" for ch in r.get_json()["errors"]["interview_date"][0][:1])  # in Chinese
    assert db.session.get(Posting, posting.id).interview_date is None


@pytest.mark.parametrize("day", [*ACCEPTED.values(), None], ids=[*ACCEPTED.keys(), "clear"])
def test_the_json_date_takes_today_to_a_year_ahead_and_plans(clock, client, candidate, day):
    posting = _studied(client, candidate, clock.now)
    posting.interview_date = TODAY + timedelta(days=3)
    db.session.commit()
    r = client.post(f"/postings/{posting.id}/interview.json", json={"interview_date": day and day.isoformat()})
    assert r.status_code == 200 and r.get_json() == {"interview_date": day and day.isoformat()}
    assert db.session.get(Posting, posting.id).interview_date == day


def test_another_candidates_posting_is_a_404_in_json(clock, client, candidate, make_user):
    other = make_user("other@example.com")
    posting = import_posting(other, POSTING, clock.now).posting
    db.session.commit()
    r = client.post(f"/postings/{posting.id}/interview.json", json={"interview_date": TODAY.isoformat()})
    assert r.status_code == 404 and db.session.get(Posting, posting.id).interview_date is None


@pytest.mark.parametrize("text", [*REFUSED, "12/16/26", "soon"])
def test_the_date_command_refuses_out_of_range(clock, runner, candidate, text):
    posting = import_posting(candidate, POSTING, clock.now).posting
    db.session.commit()
    value = REFUSED[text].isoformat() if text in REFUSED else text
    result = runner.invoke(args=["interview", "date", str(posting.id), value, "--user", "cand@example.com"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    expected = "is not between today (2026-03-10) and a year ahead (2027-03-10)" if text in REFUSED else "YYYY-MM-DD"
    assert expected in result.output
    db.session.expire_all()
    assert db.session.get(Posting, posting.id).interview_date is None


@pytest.mark.parametrize("value", ["2026-03-10", "2027-03-10", "none"])
def test_the_date_command_sets_today_to_a_year_ahead(clock, runner, candidate, value):
    posting = import_posting(candidate, POSTING, clock.now).posting
    posting.interview_date = TODAY + timedelta(days=5)
    db.session.commit()
    result = runner.invoke(args=["interview", "date", str(posting.id), value, "--user", "cand@example.com"])
    assert result.exit_code == 0, result.output
    db.session.expire_all()
    assert db.session.get(Posting, posting.id).interview_date == (None if value == "none" else date.fromisoformat(value))


def test_the_date_command_refuses_another_candidates_posting(clock, runner, candidate, make_user):
    other = make_user("other@example.com")
    posting = import_posting(other, POSTING, clock.now).posting
    db.session.commit()
    result = runner.invoke(args=["interview", "date", str(posting.id), "2026-04-01", "--user", "cand@example.com"])
    assert result.exit_code == 2 and "has no posting" in result.output


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_past_interview_asks_how_it_went_instead_of_a_plan(clock, client, candidate, lang):
    posting = _studied(client, candidate, clock.now)
    posting.interview_date = TODAY - timedelta(days=2)  # set before the day, now past
    db.session.commit()
    html = client.get(f"/postings/{posting.id}", headers=ZH if lang == "zh" else {}).get_data(as_text=True)
    assert f'href="/postings/{posting.id}/outcome"' in html and 'id="how-did-it-go"' in html
    assert ("面试已于" if lang == "zh" else "The interview was on Mar 8, 2026") in html
    for plan_word in ("On track", "Behind", "The interview is today", "按计划", "落后"):
        assert plan_word not in html
