"""End to end, in English and in Chinese: reports other candidates shared make a company's page.

Three interview reports of one company under two of its names (字节跳动 and ByteDance) are shared
and published by an instructor; a fourth waits for review. Another candidate finds the company by
either name, reads its questions ranked by how many reports asked them (the waiting report adds
nothing), studies the top 5, and sees the counts fall when an author withdraws a report."""
from __future__ import annotations

import json

import pytest

from tests.support.browser import INSTRUCTOR_PASSWORD
from tests.support.live import sign_in

pytestmark = pytest.mark.browser

SLOW_MS = 120_000  # a cold server builds its linker on the first request that needs it
PASSWORD = "shared reports e2e password"
# Questions the shipped explanations list, so each is the bank's (only the bank's questions of a
# shared report count for other candidates).
Q1 = "什么情况下延迟项主导，什么情况下带宽项主导？"
Q2 = "AllReduce 可以怎样由其他集合通信操作组合而成？"
Q3 = "MPI和NCCL有什么区别？在GPU集群中它们如何配合使用？"
Q4 = "What is GSPMD, and how does XLA decide where to insert collectives?"
Q5 = "How is an NCCL communicator created across processes?"
Q6 = "What is CUDA-aware MPI and how is it different from NCCL's stream semantics?"
WAITING_ONLY = "What is the alpha-beta cost model and how do you use it to compare collective algorithms?"
REPORTS = {
    "r1.txt": f"字节跳动 AI Infra 一面面经\n一面\n1. {Q1}\n2. {Q2}\n3. {Q3}\n",
    "r2.txt": f"ByteDance GPU communication interview\nRound 1\n1. {Q1}\n2. {Q2}\n3. {Q4}\n",
    "r3.txt": f"字节跳动 通信库 二面面经\n二面\n1. {Q1}\n2. {Q5}\n3. {Q6}\n",
}
WAITING = f"字节跳动 集合通信 面经\n一面\n1. {WAITING_ONLY}\n2. {Q1}\n"
WORDS = {"en": {"study": "Study the top questions", "added": "Added 5 of the top 5 questions"},
         "zh": {"study": "学习排名靠前的题目", "added": "已将前 5 道题中的 5 道加入学习"}}


def _import(server, email: str, *files) -> list[dict]:
    """``prep postings import --json`` for one candidate: what was stored, a dict per file."""
    out = json.loads(server.prep("postings", "import", "--json", "--user", email, *map(str, files)).stdout)
    return out if isinstance(out, list) else [out]


def _share(page, url: str) -> None:
    """Share the signed-in candidate's report at ``url`` as previewed."""
    page.goto(url)
    page.click("#share-report")
    page.click("#share-form button[type=submit]")
    page.wait_for_selector("#share-state[data-status=pending]")


def _ranked(page, server) -> list[str]:
    page.goto(server.url + "/companies/bytedance")
    page.wait_for_selector("#ranked-questions")
    items = page.locator("#ranked-questions > li")
    return [items.nth(i).get_attribute("data-reports") for i in range(items.count())]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_shared_reports_make_the_company_page(instructor_server, browser, tmp_path, lang):
    server, words = instructor_server, WORDS[lang]
    for name, text in {**REPORTS, "waiting.txt": WAITING}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    for email in ("author@example.com", "second@example.com", "reader@example.com"):
        server.prep("users", "create", email, "--password", PASSWORD)
    stored = _import(server, "author@example.com", *(tmp_path / n for n in REPORTS))
    waiting = _import(server, "second@example.com", tmp_path / "waiting.txt")
    assert [s["kind"] for s in stored + waiting] == ["report"] * 4
    assert all(s["company"] in ("字节跳动", "ByteDance") for s in stored + waiting), stored + waiting
    url = {s["file"].rsplit("/", 1)[-1]: f"{server.url}/postings/{s['posting_id']}" for s in stored + waiting}

    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US") for _ in range(4)]
    author, second, teacher, reader = (c.new_page() for c in contexts)
    for page in (author, second, teacher, reader):
        page.set_default_timeout(SLOW_MS)
    try:
        sign_in(author, server, "author@example.com", PASSWORD)
        for name in REPORTS:
            _share(author, url[name])
        sign_in(teacher, server, "teach@example.com", INSTRUCTOR_PASSWORD)
        for _ in REPORTS:  # publish every report waiting for review
            teacher.goto(server.url + "/instructor/pending")
            teacher.click("#pending-shares a")
            teacher.click("#review form.inline button[type=submit]")
            teacher.wait_for_selector(".flash")
        teacher.goto(server.url + "/instructor/pending")
        assert teacher.locator("#pending-shares a").count() == 0
        sign_in(second, server, "second@example.com", PASSWORD)  # a fourth report, left waiting
        _share(second, url["waiting.txt"])

        sign_in(reader, server, "reader@example.com", PASSWORD, lang=lang)
        for name in ("字节", "ByteDance"):  # found by either name from the header search
            box = reader.locator("header #site-search")
            box.fill(name)
            box.press("Enter")
            reader.wait_for_url("**/search?q=*")
            assert reader.locator("#search-companies a[href='/companies/bytedance']").count() == 1, name
        # Q1 in three reports, Q2 in two, Q3 to Q6 in one; the waiting report adds nothing (neither
        # a seventh question nor a fourth report for Q1).
        assert _ranked(reader, server) == ["3", "2", "1", "1", "1", "1"]
        reader.fill("#n", "5")
        reader.get_by_role("button", name=words["study"]).click()
        reader.wait_for_selector(f"text={words['added']}")
        assert reader.locator("#ranked-questions [data-state=new]").count() == 5

        # The author withdraws the report that asked Q5 and Q6: their counts go, Q1 falls to two.
        author.goto(url["r3.txt"])
        author.click("#withdraw-share")
        author.click("#withdraw-share-form button[type=submit]")
        author.wait_for_selector("#share-state[data-status=withdrawn]")
        assert _ranked(reader, server) == ["2", "2", "1", "1"]
    finally:
        for context in contexts:
            context.close()
