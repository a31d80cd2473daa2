"""A question and its translations are one card, shown in the user's language:
grouping, one card per group, merging duplicate cards (nothing lost), the bank action, content
files with paired question lists, and the drill page in both languages."""
from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from prep.accounts.models import Role
from prep.content.sync import sync_tree
from prep.drill import rating
from prep.drill.cards import add_to_study
from prep.drill.models import Card, PlannedReview, ReviewLog
from prep.extensions import db
from prep.questions import translations
from prep.questions.card_merge import CardRow, keeper, merge_duplicate_cards
from prep.questions.models import Question
from tests.support.clock import FIXED_NOW
from tests.support.pages import csrf_token_from

EN = "What does an RDMA queue pair consist of?"
ZH = "RDMA 的队列对（QP）由哪几部分组成？"


@pytest.fixture
def pair(make_question):
    return make_question(EN, lang="en"), make_question(ZH, lang="zh")


def _log(user, card: Card, minutes: int) -> None:
    """A review log row as a rating leaves it (version = the card's, then the card moves on)."""
    db.session.add(ReviewLog(card_id=card.id, user_id=user.id, card_version=card.version, rating=3,
                             reviewed_at=FIXED_NOW + timedelta(minutes=minutes), state_before="new",
                             state_after="learning", card_before={}))
    card.version += 1
    card.reps += 1
    db.session.commit()


# --- grouping ------------------------------------------------------------------------------------

def test_linking_makes_one_group_and_wording_follows_the_language(app, pair, make_question):
    en, zh = pair
    assert en.group_id != zh.group_id
    translations.link(en, zh)
    db.session.commit()
    assert en.group_id == zh.group_id == en.id
    assert en.wording("zh") is zh and zh.wording("en") is en
    assert en.wording("en") is en and en.wording(None) is en
    # A third wording joins through either member; linking two groups joins them whole.
    other = make_question("RDMA QP 包括哪些组成部分？", lang="zh")
    third = make_question("Which parts make up an RDMA queue pair?", lang="en")
    translations.link(other, third)
    translations.link(zh, third)
    db.session.commit()
    assert {q.group_id for q in (en, zh, other, third)} == {en.id}
    with pytest.raises(translations.NotTranslatable):
        translations.link(en, other)  # already one question


def test_only_questions_of_one_owner_are_linked(app, make_user, make_question):
    user = make_user()
    public = make_question(EN, lang="en")
    own = make_question(ZH, lang="zh", owner_id=user.id)
    with pytest.raises(translations.NotTranslatable):
        translations.link(public, own)


def test_link_pairs_links_each_pair_once_and_only_within_one_owner(app, pair, make_user, make_question):
    en, zh = pair
    third = make_question("Which parts make up an RDMA queue pair?", lang="en")
    own = make_question("RDMA QP 包括哪些组成部分？", lang="zh", owner_id=make_user().id)
    ids = en.id, zh.id, third.id, own.id
    # (zh, third) joins third into en's group through zh; (en, third) is then one question already.
    pairs = [(en.id, zh.id), (zh.id, third.id), (en.id, third.id), (en.id, own.id), (en.id, 10_000)]
    assert translations.link_pairs(pairs) == 2
    db.session.commit()
    groups = dict(db.session.execute(select(Question.id, Question.group_of()).where(Question.id.in_(ids))).all())
    assert groups == {ids[0]: ids[0], ids[1]: ids[0], ids[2]: ids[0], ids[3]: ids[3]}
    assert translations.link_pairs(pairs) == 0


def test_unlink_keeps_the_rest_of_the_group(app, pair, make_question):
    en, zh = pair
    third = make_question("RDMA QP 包括哪些组成部分？", lang="zh")
    translations.link(en, zh)
    translations.link(en, third)
    translations.unlink(en)  # the root leaves: the next wording becomes the root
    db.session.commit()
    assert en.group_id == en.id and zh.group_id == third.group_id == zh.id


def test_a_candidate_gets_one_card_per_group(app, pair, make_user):
    en, zh = pair
    translations.link(en, zh)
    user = make_user()
    assert add_to_study(user, [en.id, zh.id], FIXED_NOW) == 1
    assert add_to_study(user, [zh.id], FIXED_NOW) == 0
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == user.id)) == 1


# --- merging -------------------------------------------------------------------------------------

def test_keeper_prefers_reviews_then_reps_then_the_older_card():
    assert keeper([CardRow(1, 0, 5, 0, ""), CardRow(2, 1, 0, 0, "")]).id == 2
    assert keeper([CardRow(1, 2, 1, 0, ""), CardRow(2, 2, 3, 0, "")]).id == 2
    assert keeper([CardRow(3, 0, 0, 0, ""), CardRow(2, 0, 0, 0, "")]).id == 2


def test_linking_merges_duplicate_cards_and_keeps_every_review(app, pair, make_user):
    en, zh = pair
    user, bystander = make_user(), make_user()
    add_to_study(user, [en.id, zh.id], FIXED_NOW)
    add_to_study(bystander, [en.id], FIXED_NOW)
    db.session.commit()
    cards = {c.question_id: c for c in db.session.scalars(select(Card).where(Card.user_id == user.id))}
    en_card, zh_card = cards[en.id], cards[zh.id]
    _log(user, en_card, 0)
    for minutes in (1, 2):
        _log(user, zh_card, minutes)
    zh_card.note = "Queue pair = send queue + receive queue."
    en_card.note = "RC vs UD"
    db.session.add_all([PlannedReview(user_id=user.id, card_id=en_card.id, day=FIXED_NOW.date()),
                        PlannedReview(user_id=user.id, card_id=zh_card.id, day=FIXED_NOW.date()),
                        PlannedReview(user_id=user.id, card_id=zh_card.id, day=FIXED_NOW.date() + timedelta(days=1))])
    db.session.commit()
    zh_id, en_id = zh_card.id, en_card.id

    assert translations.link(en, zh) == 1
    db.session.commit()
    left = db.session.scalars(select(Card).where(Card.user_id == user.id)).all()
    assert [c.id for c in left] == [zh_id]  # the card with more reviews stays
    kept = left[0]
    logs = db.session.scalars(select(ReviewLog).where(ReviewLog.user_id == user.id)).all()
    assert len(logs) == 3 and {lg.card_id for lg in logs} == {zh_id}
    versions = [lg.card_version for lg in logs]
    assert len(set(versions)) == 3 and max(versions) < kept.version  # unique, and older than the card
    assert "send queue" in kept.note and "RC vs UD" in kept.note
    days = sorted(p.day for p in db.session.scalars(select(PlannedReview).where(PlannedReview.user_id == user.id)))
    assert days == [FIXED_NOW.date(), FIXED_NOW.date() + timedelta(days=1)]
    assert db.session.get(Card, en_id) is None
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == bystander.id)) == 1


def test_merge_over_a_whole_database_touches_only_duplicates(app, pair, make_user, make_question):
    en, zh = pair
    single = make_question("Why is RoCE sensitive to packet loss?")
    user = make_user()
    add_to_study(user, [en.id, zh.id, single.id], FIXED_NOW)
    db.session.commit()
    assert merge_duplicate_cards(db.session.connection()) == 0  # no group yet: nothing merged
    db.session.execute(Question.__table__.update().where(Question.id == zh.id).values(translation_of=en.id))
    assert merge_duplicate_cards(db.session.connection()) == 1
    db.session.commit()
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == user.id)) == 2


# --- pages ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("language", "shown", "hidden"), [("en", EN, ZH), ("zh", ZH, EN)])
def test_the_drill_shows_the_card_in_the_users_language(app, client, login, pair, make_user, language, shown,
                                                        hidden):
    en, zh = pair
    translations.link(en, zh)
    user = make_user(language=language)
    add_to_study(user, [en.id], FIXED_NOW)  # the card is on the English wording
    db.session.commit()
    login(user)
    page = client.get("/drill").get_data(as_text=True)
    assert shown in page and hidden not in page
    cards_page = client.get("/cards").get_data(as_text=True)
    assert shown in cards_page and hidden not in cards_page


def test_an_instructor_links_translations_in_the_bank(app, client, login, pair, make_user):
    en, zh = pair
    candidate = make_user()
    add_to_study(candidate, [en.id, zh.id], FIXED_NOW)
    instructor = make_user(role=Role.instructor, language="zh")
    db.session.commit()
    login(instructor)
    page = client.get(f"/questions/{en.id}").get_data(as_text=True)
    response = client.post(f"/questions/{en.id}/translation",
                           data={"other": zh.id, "csrf_token": csrf_token_from(page)})
    assert response.status_code == 302
    db.session.expire_all()
    assert db.session.get(Question, zh.id).translation_of == en.id
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == candidate.id)) == 1
    page = client.get(f"/questions/{zh.id}").get_data(as_text=True)
    assert EN in page  # the translation is listed


def test_a_candidate_cannot_link(app, client, login, pair, make_user):
    en, zh = pair
    login(make_user())
    page = client.get(f"/questions/{en.id}").get_data(as_text=True)
    response = client.post(f"/questions/{en.id}/translation", data={"other": zh.id,
                                                                     "csrf_token": csrf_token_from(page)})
    assert response.status_code in (403, 404)
    assert db.session.get(Question, zh.id).translation_of is None


def test_content_files_with_paired_questions_are_one_question(app, tmp_path):
    root = tmp_path / "content" / "networking"
    root.mkdir(parents=True)
    body = "\n\nAn explanation long enough to be stored.\n"
    points = "key_points:\n  - one point\n  - two points\n  - three points\n"
    (root / "qp.md").write_text(f"---\ntitle: Queue pairs\nquestions:\n  - {EN}\n  - What is a UD transport?\n"
                                f"{points}---{body}", encoding="utf-8")
    (root / "qp.zh.md").write_text(f"---\ntitle: 队列对\nslug: qp\nquestions_paired: true\nquestions:\n  - {ZH}\n"
                                   f"  - 什么是 UD 传输？\n{points}---{body}", encoding="utf-8")
    report = sync_tree(tmp_path / "content", relink=False)
    db.session.commit()
    assert not report.problems, report.problems
    by_text = {q.text: q for q in db.session.scalars(select(Question))}
    assert by_text[EN].group_id == by_text[ZH].group_id
    assert by_text["What is a UD transport?"].group_id == by_text["什么是 UD 传输？"].group_id
    assert by_text[EN].group_id != by_text["What is a UD transport?"].group_id


# --- the other places a card is looked up by its question ------------------------------------------

def test_a_card_on_a_translation_counts_on_the_posting_search_and_cram(app, pair, make_user):
    from prep.drill.cards import cards_for
    from prep.questions.models import Question as Q

    en, zh = pair
    translations.link(en, zh)
    user = make_user()
    add_to_study(user, [en.id], FIXED_NOW)
    db.session.commit()
    card = db.session.scalar(select(Card).where(Card.user_id == user.id))
    assert {qid: c.id for qid, c in cards_for(user.id, [en.id, zh.id]).items()} == {en.id: card.id, zh.id: card.id}
    assert set(db.session.scalars(Q.wordings_of([zh.id]))) == {en.id, zh.id}
    assert cards_for(make_user().id, [en.id, zh.id]) == {}


def test_restoring_a_backup_with_both_wordings_keeps_one_card_and_every_review(app, pair, make_user):
    from prep.export.dump import build_export
    from prep.export.restore import import_export

    en, zh = pair
    user = make_user()
    add_to_study(user, [en.id, zh.id], FIXED_NOW)
    db.session.commit()
    for i, c in enumerate(db.session.scalars(select(Card).where(Card.user_id == user.id)).all()):
        rating.rate(user, rating.Answer(c.id, c.version, 3), FIXED_NOW + timedelta(minutes=i))
    db.session.commit()
    data = build_export(user, FIXED_NOW)
    translations.link(en, zh)  # the backup was made before the two wordings were linked
    db.session.commit()
    fresh = make_user()
    import_export(fresh, data)
    db.session.commit()
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == fresh.id)) == 1
    assert db.session.scalar(select(func.count(ReviewLog.id)).where(ReviewLog.user_id == fresh.id)) == 2


def test_a_posting_asking_a_known_translation_is_that_question(app, pair, make_user):
    from prep.postings.service import import_posting

    en, zh = pair
    translations.link(en, zh)
    db.session.commit()
    user = make_user()
    text = "\n".join(["Acme", "Communication Engineer", "Beijing", "", "About the role", "Work on RDMA.", "",
                      "Interview questions", f"- {ZH}", f"- {EN}", "- Why is RoCE sensitive to packet loss?"]) + "\n"
    outcome = import_posting(user, text, FIXED_NOW)
    db.session.commit()
    asked = [pq.question_id for pq in outcome.posting.questions]
    assert asked[0] == zh.id and en.id not in asked  # the English wording is the same question
    assert len(asked) == 2
    add_to_study(user, asked, FIXED_NOW)
    assert db.session.scalar(select(func.count(Card.id)).where(Card.user_id == user.id)) == 2


def test_the_card_list_loads_every_wording_at_once(app, client, login, make_user, make_question):
    from tests.support.queries import count_statements

    user = make_user(language="zh")

    def add(start: int, end: int) -> None:
        for i in range(start, end):
            en = make_question(f"What does RDMA verb number {i} do exactly?", lang="en")
            zh = make_question(f"RDMA 第 {i} 个 verb 到底做什么？", lang="zh")
            translations.link(en, zh)
            add_to_study(user, [en.id], FIXED_NOW)
        db.session.commit()

    add(0, 2)
    login(user)
    client.get("/cards")
    with count_statements() as few:
        client.get("/cards")
    add(2, 8)
    with count_statements() as more:
        page = client.get("/cards").get_data(as_text=True)
    assert "RDMA 第 7 个 verb" in page and "verb number 7" not in page
    assert more["n"] == few["n"]  # the same statements for 2 cards and for 8
