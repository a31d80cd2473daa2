"""SQL statements per request on the hot paths (the drill page, a rating, the card batch, a
posting import): guards against a query per card, per sibling, per rated card or per imported
question. Each test compares a small case with a large one (the count must not grow) and holds
the count under a ceiling with headroom, so adding one query to a path stays easy while a loop
of queries fails here (counts are robust on a busy machine, unlike timings; speed is in bench/)."""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from prep.drill.cards import add_to_study
from prep.drill.models import Card, CardState
from prep.extensions import db
from prep.postings.service import import_posting
from prep.questions.models import LinkOrigin, Question, QuestionExplanation
from tests.support.clock import FIXED_NOW
from tests.support.queries import count_statements

# The drill page: the user, the queue's counts, the picks until one finds a card, the card's
# question with its links and tags, the undo button, the reminder banner (about ten today).
DRILL_PAGE_CEILING = 16
# A rating: the user, the locked card, its siblings, the load balancer's day counts (a review),
# UPDATE, INSERT, burying the siblings, interview mode's lookup (about six to eight today).
RATING_CEILING = 12
# The card batch: the user, interview settings, the queue's counts, the picks until the batch is
# full (cards with their questions), their links, their tags, other-language wordings (about nine).
BATCH_CEILING = 14
# An import of new questions: the duplicate check, the posting, the exact-match lookup, the
# tags, the linker's and merge candidates' cache checks, one flush for the posting with its new
# questions, their tags and links (about ten on PostgreSQL).
IMPORT_NEW_CEILING = 14


def _learner(make_user, make_question, n: int = 6):
    user = make_user()
    questions = [make_question(f"Question {i} about NCCL rings and all-reduce?", tags=("NCCL",)) for i in range(n)]
    add_to_study(user, [q.id for q in questions], FIXED_NOW)
    db.session.commit()
    return user


def _page_statements(c) -> dict:
    assert c.get("/drill").status_code == 200  # warm: first-request work is not counted
    with count_statements() as page:
        assert c.get("/drill").status_code == 200
    return page


def _first_card(user):
    return db.session.scalar(select(Card).where(Card.user_id == user.id).order_by(Card.added_at, Card.id))


def _rate_statements(c, card, rating: int = 3) -> dict:
    with count_statements() as counted:
        response = c.post("/drill/rate", data={"card_id": card.id, "version": card.version, "rating": rating,
                                                "duration_ms": 4000})
    assert response.status_code == 302
    return counted


def _family(make_user, make_question, siblings: int):
    """A user whose first card's question shares an explanation with ``siblings`` others, all new."""
    user = make_user()
    questions = [make_question(f"Family {siblings}: how does the ring all-reduce step {i} work?") for i in
                 range(siblings + 1)]
    for q in questions:
        db.session.add(QuestionExplanation(question_id=q.id, slug=f"ring-{siblings}", origin=LinkOrigin.manual,
                                           rejected=False, created_at=FIXED_NOW))
    add_to_study(user, [q.id for q in questions], FIXED_NOW)
    db.session.commit()
    return user


def test_drill_page_statements_do_not_grow_with_the_cards(client, login, make_user, make_question):
    few, many = _learner(make_user, make_question, 3), _learner(make_user, make_question, 40)
    counts = []
    for user in (few, many):
        with client.session_transaction() as session:
            session.clear()
        counts.append(_page_statements(login(user)))
    assert counts[0]["n"] == counts[1]["n"] <= DRILL_PAGE_CEILING, "\n".join(counts[1]["statements"])


def test_rating_statements_do_not_grow_with_the_cards_or_the_siblings(client, login, make_user, make_question):
    """Rating a new card in a small and a large deck, then one with 2 and one with 12 siblings
    (buried with it): the same statements each time."""
    decks = [_learner(make_user, make_question, 3), _learner(make_user, make_question, 40)]
    families = [_family(make_user, make_question, 2), _family(make_user, make_question, 12)]
    counts = []
    for user in decks + families:
        with client.session_transaction() as session:
            session.clear()
        c = login(user)
        assert c.get("/drill").status_code == 200  # warm
        counts.append(_rate_statements(c, _first_card(user)))
    assert counts[0]["n"] == counts[1]["n"] <= RATING_CEILING, "\n".join(counts[1]["statements"])
    assert counts[2]["n"] == counts[3]["n"] <= RATING_CEILING, "\n".join(counts[3]["statements"])
    buried = db.session.scalars(select(Card.buried_until).where(Card.user_id == families[1].id)).all()
    assert sum(b is not None for b in buried) == 12


def test_rating_a_review_card_statements_do_not_grow_with_the_due_cards(client, login, make_user, make_question):
    """A review card's rating reads the load balancer's day counts: one statement whether few or
    many cards fall due in its window."""
    counts = []
    for n in (3, 40):
        user = _learner(make_user, make_question, n)
        for i, card in enumerate(db.session.scalars(select(Card).where(Card.user_id == user.id))):
            card.state, card.step, card.stability, card.difficulty = CardState.review, None, 30.0, 5.0
            card.last_review = FIXED_NOW - timedelta(days=30)
            card.due = FIXED_NOW + timedelta(days=25 + i % 10) if i else FIXED_NOW - timedelta(hours=1)
        db.session.commit()
        with client.session_transaction() as session:
            session.clear()
        c = login(user)
        assert c.get("/drill").status_code == 200  # warm
        card = db.session.scalar(select(Card).where(Card.user_id == user.id, Card.due <= FIXED_NOW))
        counts.append(_rate_statements(c, card))
    assert counts[0]["n"] == counts[1]["n"] <= RATING_CEILING, "\n".join(counts[1]["statements"])


def test_json_rating_statements_do_not_grow_with_the_cards(client, login, make_user, make_question):
    """The JSON rating: a rating, plus the queue counts after it."""
    counts = []
    for n in (3, 40):
        user = _learner(make_user, make_question, n)
        with client.session_transaction() as session:
            session.clear()
        c = login(user)
        assert c.get("/drill").status_code == 200  # warm
        cards = db.session.execute(select(Card.id, Card.version).where(Card.user_id == user.id)
                                   .order_by(Card.added_at, Card.id)).all()
        body = c.post("/drill/rate.json", json={"card_id": cards[0].id, "version": cards[0].version,
                                                "rating": 3}).get_json()
        assert body["status"] == "recorded"  # warm: the JSON view's first call
        with count_statements() as rating:
            body = c.post("/drill/rate.json", json={"card_id": cards[1].id, "version": cards[1].version, "rating": 3,
                                                     "duration_ms": 4000}).get_json()
        assert body["status"] == "recorded" and body["counts"]["remaining"] >= 1, body
        counts.append(rating)
    assert counts[0]["n"] == counts[1]["n"] <= RATING_CEILING + 2, "\n".join(counts[1]["statements"])


def test_a_reminder_banner_adds_no_statement(client, login, make_user, make_question):
    """With today's reminder the banner shows, from the note's one statement (its open count in
    it) and the page's own queue counts: no second tally, no second read of today's logs."""
    from prep import clock
    from prep.reminders import timing
    from prep.reminders.models import Notification

    user = _learner(make_user, make_question)
    c = login(user)
    plain = _page_statements(c)
    db.session.add(Notification(user_id=user.id, kind="daily_review", due_count=6, message="Time to drill",
                                local_date=timing.zone_clock(clock.now(), user.timezone).local_date))
    db.session.commit()
    with count_statements() as page:
        html = c.get("/drill").get_data(as_text=True)
    assert 'id="reminder-banner"' in html and "6 cards to review today." in html
    assert page["n"] <= plain["n"] <= DRILL_PAGE_CEILING, "\n".join(page["statements"])


def test_a_question_in_the_other_language_adds_one_statement(client, login, make_user, make_question):
    """The card's question is Chinese with an English translation: the page shows the English
    wording from one query for the group, not lazy loads of the translation objects."""
    user = make_user()
    zh = make_question("请解释 NCCL 环形全归约的通信开销是多少？")
    en = make_question("What is the communication cost of NCCL ring all-reduce?")
    db.session.execute(Question.__table__.update().where(Question.id == en.id).values(translation_of=zh.id))
    add_to_study(user, [zh.id], FIXED_NOW)
    db.session.commit()
    same = _learner(make_user, make_question, 1)
    plain = _page_statements(login(same))
    with client.session_transaction() as session:
        session.clear()
    c = login(user)
    assert c.get("/drill").status_code == 200
    with count_statements() as page:
        html = c.get("/drill").get_data(as_text=True)
    assert 'lang="en" tabindex="-1">What is the communication cost of NCCL ring all-reduce?</h1>' in html
    assert page["n"] <= plain["n"] + 1, "\n".join(page["statements"])


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


def test_batch_json_statements_do_not_grow_per_card(client, login, make_user, make_question):
    user = make_user()
    ids = []
    for i in range(6):
        zh = make_question(f"请解释第{i}种 NCCL 环形全归约的通信开销是多少？")
        en = make_question(f"What is the communication cost of NCCL ring all-reduce variant {i}?")
        db.session.execute(Question.__table__.update().where(Question.id == en.id).values(translation_of=zh.id))
        ids.append(zh.id)
    add_to_study(user, ids, FIXED_NOW)
    db.session.commit()
    c = login(user)
    counts = []
    for n in (1, 5):
        assert c.get(f"/drill/batch.json?n={n}").status_code == 200  # warm
        with count_statements() as batch:
            body = c.get(f"/drill/batch.json?n={n}").get_json()
        assert len(body["cards"]) == n and all(card["lang"] == "en" for card in body["cards"]), body["cards"]
        counts.append(batch["n"])
    assert counts[0] == counts[1] <= BATCH_CEILING, counts


# PostgreSQL sends each flush's rows as multi-row INSERTs; SQLite (in-process, no round trips) as
# one INSERT a row, so only PostgreSQL's whole count is held still.
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
        assert many["n"] <= IMPORT_NEW_CEILING, "\n".join(many["statements"])
