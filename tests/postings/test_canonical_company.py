"""Canonical companies and role families: one company whatever name a document gives it."""
from __future__ import annotations

import tomllib

import pytest

from prep.postings import canonical_company
from prep.postings.canonical_company import by_slug, canonical, company_key, known_companies, matching_companies
from prep.postings.importing import role_choices
from prep.postings.role_family import FAMILY_KEYS, role_family


@pytest.mark.parametrize(("name", "slug"), [
    ("字节跳动", "bytedance"), ("字节", "bytedance"), ("ByteDance", "bytedance"), ("bytedance", "bytedance"),
    ("ＢｙｔｅＤａｎｃｅ", "bytedance"), ("Byte Dance", "bytedance"), ("北京字节跳动科技有限公司", "bytedance"),
    ("字节跳动-AML", "bytedance"), ("抖音", "bytedance"), ("Advanced Micro Devices, Inc", "amd"),
    ("腾讯", "tencent"), ("Tencent", "tencent"), ("TEG", "tencent"), ("腾讯TEG", "tencent"), ("腾讯 TEG", "tencent"),
    ("騰訊", "tencent"),
    ("英伟达", "nvidia"), ("NVIDIA", "nvidia"), ("Nvidia", "nvidia"), ("NVIDIA Corporation", "nvidia"),
    ("阿里", "alibaba"), ("阿里巴巴", "alibaba"), ("Alibaba", "alibaba"), ("阿里云", "alibaba"),
    ("阿里巴巴集团", "alibaba"),
    ("Google Cloud", "google"), ("谷歌", "google"), ("Google中国", "google"),
    ("华为云", "huawei"), ("华为海思", "huawei"), ("京东科技", "jd"),
    ("Microsoft Research Asia", "microsoft"), ("微软", "microsoft"),
    ("月之暗面", "moonshot-ai"), ("Moonshot AI", "moonshot-ai"), ("深度求索", "deepseek"), ("DeepSeek", "deepseek"),
    ("上海人工智能实验室", "shanghai-ai-lab"), ("01.AI", "01-ai"), ("小红书", "xiaohongshu"),
])
def test_a_known_company_under_any_of_its_names(name, slug):
    company = canonical(name)
    assert company is not None and company.slug == slug
    assert company_key(name) == slug


@pytest.mark.parametrize("name", [
    "京东方",          # BOE, not 京东: a Chinese name runs on only into a division word
    "Metabase",       # a Latin name is a whole word
    "Googleplex", "Intellifusion", "文远知行", "Acme GPU Labs", "", "   ", None, "---",
])
def test_a_name_prep_does_not_know_is_no_known_company(name):
    assert canonical(name) is None


@pytest.mark.parametrize(("name", "key"), [
    ("文远知行", "wen-yuan-zhi-xing"), ("Acme GPU Labs", "acme-gpu-labs"), ("Acme GPU Labs, Inc.", "acme-gpu-labs"),
    ("京东方", "jing-dong-fang"), ("---", None), ("", None), (None, None),
])
def test_an_unknown_company_gets_a_stable_slug_of_its_own_words(name, key):
    assert company_key(name) == key


def test_the_data_file_is_consistent():
    data = tomllib.loads(canonical_company.DATA_FILE.read_text(encoding="utf-8"))["company"]
    slugs = [entry["slug"] for entry in data]
    assert len(slugs) == len(set(slugs)) >= 40
    for company in known_companies():
        assert company.slug.isascii() and company.slug == company.slug.casefold()
        assert all(canonical(name) is company for name in company.names), company.slug
        assert by_slug(company.slug) is company
    assert by_slug("no-such-company") is None


def test_names_are_searched_in_both_languages():
    assert [c.slug for c in matching_companies("字节")] == ["bytedance"]
    assert [c.slug for c in matching_companies("ByteDance")] == ["bytedance"]
    assert [c.slug for c in matching_companies("bytedance")] == ["bytedance"]
    assert "alibaba" in [c.slug for c in matching_companies("阿里")]
    assert matching_companies("") == [] and matching_companies("zzzz-nothing") == []
    assert by_slug("bytedance").name("zh") == "字节跳动" and by_slug("bytedance").name("en") == "ByteDance"


def test_a_long_name_is_read_in_bounded_time():
    assert canonical("字节 " + "x" * 100_000).slug == "bytedance"
    key = company_key("a " * 100_000)
    assert key is not None and len(key) <= 60 and set(key) <= {"a", "-"}


@pytest.mark.parametrize(("title", "family"), [
    ("AI 网络通信库研发工程师", "gpu-communication"), ("集合通信开发工程师", "gpu-communication"),
    ("Senior Software Engineer - Collective Communication Libraries", "gpu-communication"),
    ("NCCL 通信库 (CUDA)", "gpu-communication"),
    ("LLM serving engineer", "llm-inference"), ("大模型推理引擎研发", "llm-inference"),
    ("Inference Systems Engineer", "llm-inference"), ("推理框架开发", "llm-inference"),
    ("CUDA kernel engineer", "cuda-kernels"), ("GPU 算子开发", "cuda-kernels"),
    ("RDMA network engineer (InfiniBand, RoCE)", "rdma-networking"), ("高性能网络研发", "rdma-networking"),
    ("分布式训练框架工程师", "distributed-training"), ("Distributed training engineer", "distributed-training"),
    ("后端开发工程师", None), ("AI Infra 工程师", None), ("Software Engineer", None), (None, None), ("", None),
])
def test_role_families_are_conservative(title, family):
    assert role_family(title) == family


def test_every_role_family_is_a_shipped_target_role():
    assert set(FAMILY_KEYS) == {slug for slug, _title in role_choices()}
    for slug, title in role_choices():
        assert role_family(title) == slug


def test_an_import_stores_the_company_and_role_the_review_confirmed(app, make_user):
    from prep.extensions import db
    from prep.postings.service import Review, import_posting
    from tests.support.clock import FIXED_NOW

    user = make_user()
    text = "字节跳动 AI 网络通信库 一面\n一面\n- 请解释 Ring AllReduce 的两个阶段？\n"
    stored = import_posting(user, text, FIXED_NOW, review=Review(
        company="ByteDance", title="AI 网络通信库研发", kind="report", questions=[])).posting
    db.session.commit()
    assert (stored.company, stored.company_key, stored.role_key) == ("ByteDance", "bytedance", "gpu-communication")
    renamed = import_posting(user, text + "- 追问：RDMA 与 TCP 的区别？\n", FIXED_NOW, review=Review(
        company="文远知行", title=None, kind="report", questions=[])).posting
    assert (renamed.company_key, renamed.role_key) == ("wen-yuan-zhi-xing", None)


@pytest.mark.parametrize(("name", "slug"), [
    ("理想", "li-auto"), ("理想汽车", "li-auto"), ("大疆", "dji"), ("Arm China", "arm"),
])
def test_companies_found_in_the_field_documents(name, slug):
    assert canonical(name).slug == slug


@pytest.mark.parametrize("name", ["理想主义", "Armv8", "Armada"])
def test_their_names_do_not_swallow_other_words(name):
    assert canonical(name) is None


def test_an_interview_counts_the_reports_of_its_company_under_any_name(app, make_user):
    from prep.drill import planned
    from prep.extensions import db
    from prep.postings.service import Review, ReviewedQuestion, import_posting
    from prep.postings.study import question_set
    from tests.support.clock import FIXED_NOW

    user = make_user()

    def imported(company, kind, question):
        posting = import_posting(user, f"{company} {kind}\n- {question}", FIXED_NOW, review=Review(
            company=company, title="AI 网络通信库研发", kind=kind, questions=[ReviewedQuestion(question)])).posting
        db.session.commit()
        return posting

    posting = imported("ByteDance", "posting", "What are the two phases of ring AllReduce?")
    imported("字节", "report", "NCCL 什么时候用 tree 算法？")
    imported("京东方", "report", "What does a display panel factory test?")
    wanted = {q.text: q.priority for q in question_set(user, posting)}
    assert wanted == {"NCCL 什么时候用 tree 算法？": planned.OWN_REPORT,
                      "What are the two phases of ring AllReduce?": planned.OWN_POSTING}
