"""SQL statements per request on the hot paths: the drill page, a rating and a posting
import, pinned so a change that adds a query per card, per rating or per imported question
shows up here (counts are robust on a busy machine, unlike timings; speed is in bench/)."""
from __future__ import annotations

from sqlalchemy import select

from prep.drill import service
from prep.drill.models import Card
from prep.extensions import db
from prep.postings.service import import_posting
from prep.questions.models import Question
from tests.support.clock import FIXED_NOW
from tests.support.queries import count_statements

# The drill page with only new cards: user, the queue tally with today's logs (one query: h20q folded
# them in), the queue's picks until one finds a card (learning, review, planned, new: 4 here; one
# UNION of them measured slower on SQLite), its question's links and tags, undo, the reminder banner
# (14 before issue 20, 12 before h20q, 11 before h20pb left out the streak, which the page does not
# show; the interview plan's staleness is read on the
# first page of a study day only; a question shown in another language's wording adds one query for
# its group, not the two lazy loads of its translation objects).
DRILL_PAGE_STATEMENTS = 10
# A rating: user, the locked card (its siblings due today and the interview check, "an interview
# ahead?", read with it as two columns), the load balancer's day counts, UPDATE, INSERT (Core);
# the queue check only with an interview ahead. 4 for a new card (no balancing); 6 before (siblings
# and the interview lookup as statements of their own), 8 before that.
RATING_STATEMENTS = 4
# The JSON rating: the same, plus the queue counts after it (the tally and today's logs in one
# statement; two before).
RATING_JSON_STATEMENTS = 5


def _learner(make_user, make_question, n: int = 6):
    user = make_user()
    questions = [make_question(f"Question {i} about NCCL rings and all-reduce?", tags=("NCCL",)) for i in range(n)]
    service.add_to_study(user, [q.id for q in questions], FIXED_NOW)
    db.session.commit()
    return user


def test_drill_page_and_rating_statements(client, login, make_user, make_question):
    user = _learner(make_user, make_question)
    c = login(user)
    assert c.get("/drill").status_code == 200  # warm: first-request work is not counted
    with count_statements() as page:
        assert c.get("/drill").status_code == 200
    card = db.session.scalar(select(Card).where(Card.user_id == user.id).order_by(Card.added_at, Card.id))
    with count_statements() as rating:
        response = c.post("/drill/rate", data={"card_id": card.id, "version": card.version, "rating": 3,
                                                "duration_ms": 4000})
    assert response.status_code == 302
    assert page["n"] <= DRILL_PAGE_STATEMENTS, "\n".join(page["statements"])
    assert rating["n"] <= RATING_STATEMENTS, "\n".join(rating["statements"])
    with count_statements() as after:  # a rating today: the undo button needs no query of its own
        html = c.get("/drill").get_data(as_text=True)
    assert "Undo last rating" in html
    assert after["n"] <= DRILL_PAGE_STATEMENTS - 1, "\n".join(after["statements"])


def test_json_rating_statements(client, login, make_user, make_question):
    user = _learner(make_user, make_question)
    c = login(user)
    assert c.get("/drill").status_code == 200  # warm
    cards = db.session.execute(select(Card.id, Card.version).where(Card.user_id == user.id)
                               .order_by(Card.added_at, Card.id)).all()
    body = c.post("/drill/rate.json", json={"card_id": cards[0].id, "version": cards[0].version, "rating": 3}).get_json()
    assert body["status"] == "recorded"  # warm: the JSON view's first call
    with count_statements() as rating:
        body = c.post("/drill/rate.json", json={"card_id": cards[1].id, "version": cards[1].version, "rating": 3,
                                                 "duration_ms": 4000}).get_json()
    assert body["status"] == "recorded" and body["counts"]["remaining"] >= 1, body
    assert rating["n"] <= RATING_JSON_STATEMENTS, "\n".join(rating["statements"])


def test_a_reminder_banner_adds_no_statement(client, login, make_user, make_question):
    """With today's reminder the banner shows, from the note's one statement (its open count in
    it) and the page's own queue counts: no second tally, no second read of today's logs."""
    from prep import clock
    from prep.reminders import timing
    from prep.reminders.models import Notification

    user = _learner(make_user, make_question)
    c = login(user)
    assert c.get("/drill").status_code == 200
    with count_statements() as plain:
        assert c.get("/drill").status_code == 200
    db.session.add(Notification(user_id=user.id, kind="daily_review", due_count=6, message="Time to drill",
                                local_date=timing.zone_clock(clock.now(), user.timezone).local_date))
    db.session.commit()
    with count_statements() as page:
        html = c.get("/drill").get_data(as_text=True)
    assert 'id="reminder-banner"' in html and "6 cards to review today." in html
    assert page["n"] <= plain["n"] <= DRILL_PAGE_STATEMENTS, "\n".join(page["statements"])


def test_a_question_in_the_other_language_adds_one_statement(client, login, make_user, make_question):
    """The card's question is Chinese with an English translation: the page shows the English
    wording from one query for the group (h20q), not lazy loads of the translation objects."""
    user = make_user()
    zh = make_question("请解释 NCCL 环形全归约的通信开销是多少？")
    en = make_question("What is the communication cost of NCCL ring all-reduce?")
    db.session.execute(Question.__table__.update().where(Question.id == en.id).values(translation_of=zh.id))
    service.add_to_study(user, [zh.id], FIXED_NOW)
    db.session.commit()
    c = login(user)
    assert c.get("/drill").status_code == 200
    with count_statements() as page:
        html = c.get("/drill").get_data(as_text=True)
    assert 'lang="en" tabindex="-1">What is the communication cost of NCCL ring all-reduce?</h1>' in html
    assert page["n"] <= DRILL_PAGE_STATEMENTS + 1, "\n".join(page["statements"])


def _posting(company: str, questions: list[str]) -> str:
    lines = [f"{company} — Senior ML Infrastructure Engineer", "", "Interview questions:"]
    return "\n".join(lines + [f"- {q}" for q in questions]) + "\n"


def test_import_statements_do_not_grow_per_merged_question(app, make_question):
    texts = [f"How would you debug a slow NCCL all-reduce across {n} nodes in production?" for n in range(2, 10)]
    for text in texts:
        make_question(text)
    counts = []
    for company, asked in (("Acme", texts[:2]), ("Zenith", texts)):
        with count_statements() as counter:
            outcome = import_posting(None, _posting(company, asked), FIXED_NOW)
            db.session.commit()
        assert outcome.created and len(outcome.merged_questions) == len(asked), outcome.summary()
        counts.append(counter["n"])
    # Merging into questions already in the bank: one INSERT per posting question, no lookups per question.
    assert counts[1] - counts[0] <= len(texts) - 2, counts


def test_explanation_cache_checks_read_an_index(app, make_question):
    """The linker's and the merge candidates' cache checks (every import runs them) read the
    explanations' indexes, not every row with its text (SQLite's plan; PostgreSQL picks by size)."""
    from sqlalchemy import event

    from prep.content.sync import current_linker
    from prep.postings.bank import explanations_fingerprint

    if db.engine.dialect.name != "sqlite":
        return
    captured: list[tuple[str, object]] = []

    def grab(conn, cursor, statement, params, context, executemany):
        if "FROM explanations" in statement and "count(" in statement:
            captured.append((statement, params))

    event.listen(db.engine, "before_cursor_execute", grab)
    try:
        current_linker()
        explanations_fingerprint()
    finally:
        event.remove(db.engine, "before_cursor_execute", grab)
    assert len(captured) == 2
    for statement, params in captured:
        plan = " ".join(str(row[-1]) for row in
                        db.session.connection().exec_driver_sql("EXPLAIN QUERY PLAN " + statement, params).all())
        assert "COVERING INDEX" in plan or "USING INDEX" in plan, (statement, plan)


# The card-batch JSON: user, interview settings, the queue tally with today's logs (one query since
# h20q: 11 before), the queue's picks until the batch is full (reading the cards with their
# questions: a separate query for them before h20pb, 10), their links, their tags, the other-language
# wordings (one query for all): none per card (main before h20j: 15 for one card, 27 for five, one per
# card for its translation group).
BATCH_STATEMENTS = 9


def test_batch_json_statements_do_not_grow_per_card(client, login, make_user, make_question):
    user = make_user()
    ids = []
    for i in range(6):
        zh = make_question(f"请解释第{i}种 NCCL 环形全归约的通信开销是多少？")
        en = make_question(f"What is the communication cost of NCCL ring all-reduce variant {i}?")
        db.session.execute(Question.__table__.update().where(Question.id == en.id).values(translation_of=zh.id))
        ids.append(zh.id)
    service.add_to_study(user, ids, FIXED_NOW)
    db.session.commit()
    c = login(user)
    counts = []
    for n in (1, 5):
        assert c.get(f"/drill/batch.json?n={n}").status_code == 200  # warm
        with count_statements() as batch:
            body = c.get(f"/drill/batch.json?n={n}").get_json()
        assert len(body["cards"]) == n and all(card["lang"] == "en" for card in body["cards"]), body["cards"]
        counts.append(batch["n"])
    assert counts[0] == counts[1] <= BATCH_STATEMENTS, counts


# An import of new questions (h20c): the duplicate check, the posting, the exact-match
# lookup, the tags, the linker's and the merge candidates' cache checks, then ONE flush for every
# new question with its tags and links and one for the posting's questions. PostgreSQL sends each
# flush's rows as multi-row INSERTs; SQLite (in-process, no round trips) as one INSERT a row.
IMPORT_NEW_STATEMENTS = 14


def test_import_statements_do_not_grow_per_new_question(app, make_question):
    make_question("How would you shard the optimizer state of a large model?")  # a bank to merge against
    topics = ["NCCL ring all-reduce", "RDMA over Converged Ethernet", "ZeRO stage 3 sharding", "CUDA graphs",
              "tensor parallel MLP layers", "pipeline bubbles in 1F1B", "FP8 loss scaling", "KV cache paging",
              "NVLink topology", "gradient checkpointing", "flash attention tiling"]
    counts = []
    for company, chosen in (("Warm", topics[:1]), ("Acme", topics[1:3]), ("Zenith", topics[3:])):
        asked = [f"How does {topic} work, and when would you avoid it?" for topic in chosen]
        with count_statements() as counter:
            outcome = import_posting(None, _posting(company, asked), FIXED_NOW)
            db.session.commit()
        assert outcome.created and len(outcome.new_questions) == len(asked), outcome.summary()
        counts.append(counter)
    few, many = counts[1], counts[2]  # after a first import (the linker is built once, then cached)

    def lookups(counter):
        return [s for s in counter["statements"] if not s.startswith("INSERT")]

    assert len(lookups(many)) == len(lookups(few)), "\n".join(lookups(many))  # no query per new question
    if db.engine.dialect.name == "postgresql":
        assert many["n"] == few["n"], "\n".join(many["statements"])
        assert many["n"] <= IMPORT_NEW_STATEMENTS, "\n".join(many["statements"])
