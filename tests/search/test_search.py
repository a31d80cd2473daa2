"""Search (/search): English and Chinese substring matching, AND of terms, grouping by explanation
(title hits above body hits, unlinked questions last), the searcher's card states, paging,
visibility of private questions, escaping, empty states, and a statement count that does not grow."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlalchemy import select

from prep.content.models import Explanation
from prep.content.render import render_markdown
from prep.drill.cards import add_to_study
from prep.drill.models import Card, CardState
from prep.extensions import db
from prep.questions.models import LinkOrigin, QuestionExplanation, Source
from prep.questions.service import add_question
from prep.search import matching, service
from prep.search.plaintext import plain_text
from tests.support.clock import FIXED_NOW
from tests.support.queries import count_statements

ZH = {"Accept-Language": "zh-CN,zh;q=0.9"}


# --- pure parts -------------------------------------------------------------------------------

def test_terms_split_on_any_whitespace_dedupe_and_cap():
    assert matching.parse_terms("  Ring\u3000环形  ring RING  ") == ["Ring", "环形"]
    assert matching.parse_terms("") == []
    assert len(matching.parse_terms(" ".join(f"t{i}" for i in range(20)))) == matching.MAX_TERMS
    assert matching.parse_terms("x" * 500) == ["x" * matching.MAX_QUERY]


def test_segments_mark_hits_case_insensitively():
    assert matching.segments("Ring AllReduce 环形算法", ["allreduce", "环形"]) == [
        ("Ring ", False), ("AllReduce", True), (" ", False), ("环形", True), ("算法", False)]
    assert matching.segments("a.b", ["."]) == [("a", False), (".", True), ("b", False)]  # regex-escaped
    assert matching.segments("", ["x"]) == []


def test_snippet_is_cut_around_the_first_hit():
    body = "intro " * 40 + "the NCCL ring\nalgorithm " + "outro " * 40
    text = matching.snippet(body, ["ring"], width=20)
    assert text.startswith("…") and text.endswith("…") and "NCCL ring algorithm" in text
    assert len(text) <= 2 + 20 * 2 + len("ring")
    assert matching.snippet(body, ["absent"]) == ""


def test_latin_terms_match_words_not_substrings():
    assert matching.matches("RC queue pairs are reliable", ["rc"])
    assert not matching.matches("the source of the error", ["rc"])        # not inside a word
    assert matching.matches("two rings and a tree", ["ring"])            # plural
    assert not matching.matches("a string of bytes", ["ring"])
    assert matching.matches("the NCCL_IB_HCA variable", ["NCCL_IB_HCA"])  # identifiers whole
    assert matching.segments("string ring", ["ring"]) == [("string ", False), ("ring", True)]


def test_quoted_phrases_and_cjk_bigrams():
    assert matching.parse_terms('"ring  allreduce" bandwidth') == ["ring allreduce", "bandwidth"]
    assert matching.matches("a ring\nallreduce step", ["ring allreduce"])
    assert not matching.matches("allreduce on a ring", ["ring allreduce"])
    # a Chinese query is cut at its function words: it need not appear verbatim
    terms = matching.parse_terms("环形算法的通信量")
    assert terms == ["环形算法", "通信量"]
    assert matching.matches("环形算法中每张卡的通信量约为 2(N-1)/N 倍", terms)
    assert not matching.matches("树形算法的通信量", terms)
    assert matching.parse_terms("「环形算法的通信量」") == ["环形算法的通信量"]  # quoted: as written
    assert matching.parse_terms("环形 AllReduce") == ["环形", "AllReduce"]


def test_snippets_are_the_text_a_reader_sees():
    html = render_markdown("**Ring** all-reduce costs $2(N-1)/N \\cdot S$ per rank; see `ncclAllReduce`.\n\n"
                           "[link](https://example.org)").html
    text = plain_text(html)
    assert "**" not in text and "\\cdot" not in text and "$" not in text and "](" not in text
    assert "Ring all-reduce costs" in text and "ncclAllReduce" in text and "link" in text
    assert matching.snippet(text, ["rank"]).startswith("Ring all-reduce costs …")


def test_plain_text_keeps_what_a_browser_shows_however_the_html_is_shaped():
    assert plain_text("") == plain_text("  \n") == ""
    assert plain_text("bare <b>words</b> and a <i>tail") == "bare words and a tail"
    assert plain_text("<p>a<!-- hidden -->b</p><script>x()</script><style>p{}</style>"
                      "<template><p>later</p></template>c") == "ab c"
    assert plain_text('<p>is <span class="katex math inline">x^2</span> &amp; <code>&lt;T&gt;</code></p>') == "is … & <T>"
    # The renderer escapes raw HTML and nests at most a few dozen levels; past libxml2's default limit (256):
    deep = "<blockquote>" * 1000 + "deep" + "</blockquote>" * 1000
    assert plain_text(deep) == "deep"


def test_grouping_ranks_title_hits_over_body_hits_and_unlinked_last():
    rows = [matching.ExplanationRow(1, "body", "en", "Body only", True, 0),
            matching.ExplanationRow(2, "title", "en", "Title", True, 1),
            matching.ExplanationRow(3, "title", "zh", "标题", False, 0),
            matching.ExplanationRow(4, "via", "en", "Via a question", False, 0),
            matching.ExplanationRow(5, "nothing", "en", "Unrelated", False, 0)]
    questions = [matching.QuestionHit(10, "q linked to via", "en", False, ("gone", "via")),
                 matching.QuestionHit(11, "q unlinked", "en", True, ()),
                 matching.QuestionHit(12, "q linked to a missing slug", "en", False, ("gone",))]
    groups = matching.group_results(rows, questions, "zh")
    assert [g.explanation.slug if g.explanation else None for g in groups] == ["title", "body", "via", None]
    assert groups[0].explanation.lang == "en"  # the version that matched, not the reader's language
    assert [q.id for q in groups[2].questions] == [10]
    assert [q.id for q in groups[3].questions] == [11, 12]
    # Both versions match: the one whose title holds the term is shown, whatever the UI language.
    both = [matching.ExplanationRow(1, "ring", "en", "Ring AllReduce", True, 0),
            matching.ExplanationRow(2, "ring", "zh", "环形 AllReduce", True, 1)]
    assert matching.group_results(both, [], "en")[0].explanation.lang == "zh"
    assert matching.group_results([both[0], both[1].__class__(2, "ring", "zh", "环形", True, 0)], [],
                                  "zh")[0].explanation.lang == "zh"  # a tie: the reader's language
    shown, page, pages = matching.paginate(groups, 7, per_page=3)
    assert (page, pages, len(shown)) == (2, 2, 1)


# --- on the database --------------------------------------------------------------------------

def _explanation(slug: str, lang: str, title: str, body: str) -> Explanation:
    rendered = render_markdown(body)  # as a sync stores it: search reads the text a reader sees
    row = Explanation(slug=slug, lang=lang, title=title, body_md=body, html=rendered.html,
                      content_hash=f"{slug}-{lang}-{len(body)}", path=f"{slug}.{lang}.md")
    db.session.add(row)
    return row


def _link(question, slug: str) -> None:
    question.links.append(QuestionExplanation(slug=slug, score=1.0, origin=LinkOrigin.content))


@pytest.fixture
def world(app, make_user):
    a, b = make_user("a@example.com"), make_user("b@example.com")
    _explanation("ring-allreduce", "en", "Ring AllReduce", "Reduce-scatter, then all-gather around the ring.")
    _explanation("ring-allreduce", "zh", "环形 AllReduce", "环形算法分两个阶段：先 reduce-scatter，再 all-gather。")
    _explanation("rdma-verbs", "en", "RDMA verbs", "Queue pairs post work requests to a ring buffer.")
    _explanation("cuda-streams", "en", "CUDA streams", "Kernels and copies overlap.")
    en = add_question("What are the two phases of ring allreduce?", source=Source.content, lang="en")
    zh = add_question("请解释环形 AllReduce 的两个阶段", source=Source.posting, lang="zh")
    other = add_question("Why does a ring topology scale with the number of GPUs?", source=Source.posting)
    mine = add_question("My own ring question for A?", source=Source.user, owner_id=a.id)
    secret = add_question("B's secret ring question?", source=Source.user, owner_id=b.id)
    _link(en, "ring-allreduce")
    _link(zh, "ring-allreduce")
    rejected = QuestionExplanation(slug="cuda-streams", score=2.0, origin=LinkOrigin.auto, rejected=True)
    other.links.append(rejected)
    db.session.commit()
    add_to_study(a, [en.id, zh.id, other.id], FIXED_NOW)
    add_to_study(b, [secret.id], FIXED_NOW)
    db.session.commit()
    cards = {c.question_id: c for c in db.session.scalars(select(Card).where(Card.user_id == a.id))}
    review = cards[zh.id]
    review.state, review.stability, review.difficulty, review.step = CardState.review, 4.0, 5.0, None
    review.due, review.last_review = FIXED_NOW + timedelta(days=3), FIXED_NOW - timedelta(days=1)
    cards[other.id].suspended = True
    db.session.commit()
    return {"a": a, "b": b, "en": en.id, "zh": zh.id, "other": other.id, "mine": mine.id, "secret": secret.id,
            "cards": {qid: c.id for qid, c in cards.items()}}


def _groups(results):
    return [(g.explanation.slug if g.explanation else None, [q.id for q in g.questions])
            for g in results.page.groups]


def test_english_query_groups_by_explanation(world):
    results = service.search(world["a"].id, "ring")
    assert _groups(results) == [
        ("ring-allreduce", [world["en"]]),               # title hit first
        ("rdma-verbs", []),                              # body hit only
        (None, [world["mine"], world["other"]]),         # linked to no explanation (the link is rejected)
    ]
    assert results.page.total_explanations == 2 and results.page.total_questions == 3
    assert results.snippets[results.page.groups[1].explanation.id].endswith("ring buffer.")
    assert service.search(world["a"].id, "RING").page.total_questions == 3  # case-insensitive


def test_chinese_substring_query_shows_the_chinese_explanation(world):
    results = service.search(world["a"].id, "环形")
    assert _groups(results) == [("ring-allreduce", [world["zh"]])]
    assert results.page.groups[0].explanation.lang == "zh"
    # Terms are ANDed: "allreduce" (any case) and "阶段" are both only in the Chinese question.
    assert _groups(service.search(world["a"].id, "allreduce 阶段")) == [("ring-allreduce", [world["zh"]])]
    body = service.search(world["a"].id, "REDUCE-scatter 阶段")  # both only in the Chinese body
    assert _groups(body) == [("ring-allreduce", [])] and body.page.groups[0].explanation.lang == "zh"
    assert "两个阶段" in body.snippets[body.page.groups[0].explanation.id]
    assert _groups(service.search(world["a"].id, "ring 阶段")) == []  # each document must hold every term
    assert service.search(world["a"].id, "ring 不存在").page.groups == []


def test_the_page_shows_card_states_and_links(world, login, client):
    login(world["a"])
    html = client.get("/search?q=ring").get_data(as_text=True)
    items = dict(re.findall(r'href="/questions/(\d+)".*?data-state="([a-z-]+)"', html, re.S))
    assert items == {str(world["en"]): "new", str(world["other"]): "suspended", str(world["mine"]): "not-studying"}
    assert f'href="/cards/{world["cards"][world["en"]]}"' in html and "due Mar 10, 2026" in html
    assert 'href="/explanations/ring-allreduce?lang=en"' in html and "<mark>Ring</mark> AllReduce" in html
    assert f'action="/questions/{world["mine"]}/study"' in html  # not studied yet: add it from here
    assert f'action="/questions/{world["en"]}/study"' not in html
    assert "secret" not in html
    zh = client.get("/search?q=环形", headers=ZH).get_data(as_text=True)
    assert dict(re.findall(r'href="/questions/(\d+)".*?data-state="([a-z-]+)"', zh, re.S)) == {
        str(world["zh"]): "review"}
    assert f'href="/cards/{world["cards"][world["zh"]]}"' in zh and "2026年3月13日" in zh
    assert 'href="/explanations/ring-allreduce?lang=zh"' in zh and "<mark>环形</mark> AllReduce" in zh
    assert "复习" in zh  # the card state in Chinese


def test_private_questions_of_others_never_match(world, login, client):
    assert world["secret"] not in {q.id for g in service.search(world["a"].id, "secret").page.groups
                                    for q in g.questions}
    login(world["a"])
    html = client.get("/search?q=secret").get_data(as_text=True)
    assert "Nothing matches" in html and f'href="/questions/{world["secret"]}"' not in html
    client.post("/logout")
    login(world["b"])
    html = client.get("/search?q=secret").get_data(as_text=True)
    assert "<mark>secret</mark> ring question" in html
    assert "My own ring question" not in client.get("/search?q=ring").get_data(as_text=True)


def test_pages_of_twenty_groups(app, make_user, login, client):
    user = make_user()
    for i in range(25):
        _explanation(f"paging-{i:02d}", "en", f"Paging topic {i:02d}", "body")
    db.session.commit()
    login(user)
    first = client.get("/search?q=paging").get_data(as_text=True)
    assert first.count('class="search-group"') == 20 and 'rel="next"' in first and 'rel="prev"' not in first
    assert "Page 1 of 2" in first and "paging-00" in first and "paging-19" in first
    second = client.get("/search?q=paging&page=2").get_data(as_text=True)
    assert second.count('class="search-group"') == 5 and 'rel="prev"' in second and "paging-24" in second
    assert 'href="/search?page=1&amp;q=paging"' in second or 'href="/search?q=paging&amp;page=1"' in second
    assert client.get("/search?q=paging&page=99").get_data(as_text=True).count('class="search-group"') == 5
    assert client.get("/search?q=paging&page=abc").status_code == 200


def test_query_is_escaped_and_wildcards_are_literal(app, make_user, make_question, login, client):
    user = make_user()
    make_question("Is 100% utilisation of NVLink realistic?")
    make_question("What does the NCCL_ALGO variable choose?")
    make_question("A plain question with no symbols?")
    login(user)
    html = client.get("/search", query_string={"q": "<script>alert(1)</script>"}).get_data(as_text=True)
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert service.search(user.id, "%").page.total_questions == 1
    assert service.search(user.id, "_").page.total_questions == 1
    assert service.search(user.id, "\\").page.total_questions == 0


def test_empty_query_and_no_results(app, make_user, login, client):
    login(make_user())
    html = client.get("/search").get_data(as_text=True)
    assert "Type a few words" in html and "search-results" not in html
    assert "Type a few words" in client.get("/search?q=+++").get_data(as_text=True)
    html = client.get("/search?q=nowhere").get_data(as_text=True)
    assert "Nothing matches “nowhere”." in html and 'href="/questions"' in html
    zh = client.get("/search?q=nowhere", headers=ZH).get_data(as_text=True)
    assert "没有与“nowhere”匹配的结果。" in zh


def test_search_needs_login_and_the_header_has_the_box(app, make_user, login, client):
    response = client.get("/search?q=ring")
    assert response.status_code == 302 and "/login" in response.headers["Location"]
    assert 'role="search"' not in client.get("/login").get_data(as_text=True)
    login(make_user())
    html = client.get("/dashboard").get_data(as_text=True)
    form = re.search(r'<form role="search" method="get" action="/search"[^>]*>(.*?)</form>', html, re.S)
    assert form and '<label for="site-search"' in form.group(1) and 'id="site-search" name="q"' in form.group(1)
    assert "csrf_token" not in form.group(1)  # GET: nothing changes, no token needed


def _searcher_with(make_user, n: int):
    user = make_user()
    ids = []
    for i in range(n):
        _explanation(f"topic-{user.id}-{i}", "en", f"Scaling topic {i}", "On scaling collectives.")
        q = add_question(f"Scaling question {user.id}-{i}?", source=Source.user, owner_id=user.id)
        _link(q, f"topic-{user.id}-{i}")
        ids.append(q.id)
        ids.append(add_question(f"Unlinked scaling question {user.id}-{i}?", source=Source.user,
                                owner_id=user.id).id)
    db.session.commit()
    add_to_study(user, ids, FIXED_NOW)
    db.session.commit()
    return user


def test_statement_count_does_not_grow_with_results(app, make_user, login, client):
    counts = []
    for n in (2, 30):
        user = _searcher_with(make_user, n)
        login(user)
        with count_statements() as counter:
            response = client.get("/search?q=scaling")
        assert response.status_code == 200
        assert response.get_data(as_text=True).count('data-state="new"') >= 2 * min(n, 10)
        counts.append(counter["n"])
        client.post("/logout")
    assert counts[0] == counts[1], counts
    assert counts[1] <= 12, counts  # an N+1 guard with headroom (the candidate's cards: two indexed statements)


def test_the_plain_text_cache_is_keyed_by_revision(app):
    """A new revision is read again; a change that is not a revision (the path) keeps the cached text."""
    row = _explanation("ecmp-cache", "en", "ECMP", "Hashing five-tuples onto uplinks.")
    db.session.commit()
    assert "five-tuples" in service._texts([row.id])[row.id]
    key = (row.id, row.revision, row.content_hash)
    service._TEXT[key] = "cached five-tuples"  # what the cache holds is what a search reads
    row.path = "networking/ecmp-cache.md"
    db.session.commit()
    assert service._texts([row.id])[row.id] == "cached five-tuples"
    rendered = render_markdown("Adaptive routing sprays packets.")
    row.html, row.body_md, row.revision, row.content_hash = rendered.html, "Adaptive routing sprays packets.", 2, "new"
    db.session.commit()
    assert "sprays" in service._texts([row.id])[row.id]
