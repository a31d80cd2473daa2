"""Content sync into the database: hashes, removal, stable question ids, links, CLI."""
from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from prep.content.models import Explanation
from prep.content.sync import current_linker, linker_key_query, sync_tree
from prep.drill import rating
from prep.drill.cards import add_to_study
from prep.drill.models import Card, ReviewLog
from prep.extensions import db
from prep.postings import bank
from prep.postings import service as postings_service
from prep.questions.models import LinkOrigin, Question, QuestionExplanation
from tests.support.clock import FIXED_NOW

DOC = """---
title: Ring AllReduce
tags: [NCCL, 集合通信]
skills: [NCCL]
questions:
  - How does ring AllReduce work?
  - 环形AllReduce分为哪两个阶段？
related: [{related}]
---
## Idea

Reduce-scatter, then all-gather. See [[{related}]].

```python
print("hi")
```
"""

OTHER = """---
title: Tree AllReduce
skills: [NCCL]
questions:
  - When does tree AllReduce beat ring?
---
Trees have logarithmic latency.
"""


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_sync_adds_renders_links_and_skips_unchanged(app, tmp_path):
    root = tmp_path / "content"
    write(root, "collectives/ring-allreduce.md", DOC.format(related="tree-allreduce"))
    write(root, "collectives/tree-allreduce.md", OTHER)
    report = sync_tree(root)
    db.session.commit()
    assert sorted(report.added) == ["collectives/ring-allreduce.md", "collectives/tree-allreduce.md"]
    ring = db.session.scalar(select(Explanation).where(Explanation.slug == "ring-allreduce"))
    assert 'class="highlight"' in ring.html and 'href="/explanations/tree-allreduce"' in ring.html
    assert ring.toc[0]["text"] == "Idea"
    q = db.session.scalar(select(Question).where(Question.text == "环形AllReduce分为哪两个阶段？"))
    assert [(lk.slug, lk.origin) for lk in q.links] == [("ring-allreduce", LinkOrigin.content)]
    again = sync_tree(root)
    assert again.unchanged == 2 and not again.changed and again.rendered == 0


def test_edit_keeps_question_ids_and_history(app, tmp_path, make_user):
    root = tmp_path / "content"
    write(root, "c/ring-allreduce.md", DOC.format(related="tree-allreduce"))
    write(root, "c/tree-allreduce.md", OTHER)
    sync_tree(root)
    db.session.commit()
    user = make_user()
    q = db.session.scalar(select(Question).where(Question.text == "How does ring AllReduce work?"))
    add_to_study(user, [q.id], FIXED_NOW)
    db.session.commit()
    card = db.session.scalar(select(Card))
    rating.rate(user, rating.Answer(card.id, 0, 3), FIXED_NOW)
    db.session.commit()
    # Fix the phrasing in place and edit the body.
    edited = DOC.format(related="tree-allreduce").replace("How does ring AllReduce work?",
                                                           "How does ring AllReduce work, step by step?")
    write(root, "c/ring-allreduce.md", edited.replace("Reduce-scatter", "First reduce-scatter"))
    report = sync_tree(root)
    db.session.commit()
    assert report.updated == ["c/ring-allreduce.md"]
    renamed = db.session.get(Question, q.id)
    assert renamed.text == "How does ring AllReduce work, step by step?"
    assert db.session.scalar(select(func.count(ReviewLog.id))) == 1
    assert db.session.get(Card, card.id).question_id == q.id


def test_deleted_file_removed_broken_file_keeps_old_version(app, tmp_path):
    root = tmp_path / "content"
    write(root, "c/ring-allreduce.md", DOC.format(related="tree-allreduce"))
    write(root, "c/tree-allreduce.md", OTHER)
    sync_tree(root)
    db.session.commit()
    write(root, "c/ring-allreduce.md", "---\ntitle: [broken\n---\nbody")
    (root / "c/tree-allreduce.md").unlink()
    report = sync_tree(root)
    db.session.commit()
    assert report.removed == ["c/tree-allreduce.md"]
    assert any("ring-allreduce.md" in p for p in report.problems)
    ring = db.session.scalar(select(Explanation).where(Explanation.slug == "ring-allreduce"))
    assert ring.title == "Ring AllReduce"  # the previous good version stays
    assert db.session.scalar(select(func.count(QuestionExplanation.id)).where(
        QuestionExplanation.slug == "tree-allreduce")) == 0


def test_manual_link_survives_resync(app, tmp_path):
    root = tmp_path / "content"
    write(root, "c/ring-allreduce.md", DOC.format(related="tree-allreduce"))
    write(root, "c/tree-allreduce.md", OTHER)
    sync_tree(root)
    db.session.commit()
    q = db.session.scalar(select(Question).where(Question.text == "When does tree AllReduce beat ring?"))
    q.links.append(QuestionExplanation(slug="ring-allreduce", score=1.0, origin=LinkOrigin.manual))
    db.session.commit()
    write(root, "c/tree-allreduce.md", OTHER + "\nMore text.\n")
    sync_tree(root)
    db.session.commit()
    q = db.session.get(Question, q.id)
    assert ("ring-allreduce", LinkOrigin.manual) in [(lk.slug, lk.origin) for lk in q.links]


def test_init_is_safe_twice_and_loads_content(app, runner, tmp_path):
    root = Path(app.config["CONTENT_DIR"])
    write(root, "c/tree-allreduce.md", OTHER)
    first = runner.invoke(args=["init"])
    second = runner.invoke(args=["init"])
    assert first.exit_code == 0 and "1 added" in first.output
    assert second.exit_code == 0 and "1 unchanged" in second.output
    assert db.session.scalar(select(func.count(Explanation.id))) == 1


def test_shipped_content_loads_without_problems(app):
    root = Path(__file__).resolve().parents[2] / "content"
    report = sync_tree(root)
    db.session.commit()
    assert report.problems == []
    assert len(report.added) >= 24


def _statements(fn):
    from sqlalchemy import event

    seen: list[str] = []

    def record(_conn, _cursor, statement, *_rest):
        seen.append(" ".join(statement.split()))

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        fn()
    finally:
        event.remove(db.engine, "before_cursor_execute", record)
    return seen


def test_unchanged_resync_reads_only_paths_and_hashes(app, tmp_path):
    root = tmp_path / "content"
    write(root, "collectives/ring-allreduce.md", DOC.format(related="tree-allreduce"))
    write(root, "collectives/tree-allreduce.md", OTHER)
    sync_tree(root)
    db.session.commit()
    db.session.expire_all()
    reports = []
    seen = _statements(lambda: reports.append(sync_tree(root)))
    assert reports[0].unchanged == 2 and not reports[0].changed
    selects = [s for s in seen if s.upper().startswith("SELECT")]
    assert len(selects) == 1 and "explanations.html" not in selects[0] and "content_hash" in selects[0]
    # A changed file still goes the full way.
    write(root, "collectives/tree-allreduce.md", OTHER.replace("logarithmic", "log-depth"))
    again = sync_tree(root)
    assert again.updated == ["collectives/tree-allreduce.md"] and again.unchanged == 1


def _synced_one_doc(tmp_path, related: str):
    """A content tree with the ring-allreduce explanation, synced and committed, and its linker."""
    root = tmp_path / "content"
    write(root, "collectives/ring-allreduce.md", DOC.format(related=related))
    sync_tree(root)
    db.session.commit()
    return root, current_linker()


def test_linker_is_reused_until_the_explanations_change(app, tmp_path):
    root, first = _synced_one_doc(tmp_path, "tree-allreduce")
    assert current_linker() is first
    assert not any(s.upper().startswith("SELECT EXPLANATIONS.ID") for s in _statements(current_linker))
    write(root, "collectives/tree-allreduce.md", OTHER)  # added
    sync_tree(root)
    db.session.commit()
    second = current_linker()
    assert second is not first and [lk.slug for lk in second.rank("When does tree AllReduce beat ring?")][0] \
        == "tree-allreduce"
    write(root, "collectives/tree-allreduce.md", OTHER.replace("When does tree AllReduce beat ring?",
                                                                "Why do trees beat rings at small sizes?"))
    sync_tree(root)  # edited in place: same count and ids
    db.session.commit()
    third = current_linker()
    assert third is not second and current_linker() is third
    (root / "collectives/tree-allreduce.md").unlink()  # removed
    sync_tree(root)
    db.session.commit()
    assert current_linker() is not third


def test_posting_imports_reuse_the_bank_candidates_and_see_new_questions(app, make_user, monkeypatch):
    """The near-duplicate search's candidate list is cached between imports, topped up with the
    questions added since, and loaded again when a question is gone or content changed."""
    from prep.postings import bank
    from prep.postings import service as postings

    loads: list[tuple] = []
    real = bank._load_candidates
    monkeypatch.setattr(bank, "_load_candidates", lambda *where: loads.append(where) or real(*where))
    bank._CANDIDATE_CACHE.clear()
    # Shared samples: their new questions join the public bank at once (a candidate's stay
    # private until admitted, see test_postings_merge), which is what the cache holds.

    def posting(company: str, question: str) -> str:
        return f"{company}\nEngineer\nBeijing\n\nInterview questions\n- {question}\n"

    a = postings.import_posting(None, posting("Acme", "How would you overlap computation and communication "
                                                       "in FSDP training jobs?"), FIXED_NOW)
    db.session.commit()
    b = postings.import_posting(None, posting("Zenith", "How would you overlap computation and communication "
                                                         "in FSDP training job?"), FIXED_NOW)
    db.session.commit()
    assert len(a.new_questions) == 1 and b.merged_questions == a.new_questions  # the topped-up list saw it
    assert [len(w) for w in loads] == [0, 1]  # a full load, then only the newer rows
    c = postings.import_posting(None, posting("Initech", "What limits NVLink bandwidth between GPUs in practice?"),
                                FIXED_NOW)
    db.session.commit()
    assert len(c.new_questions) == 1 and [len(w) for w in loads] == [0, 1]  # nothing new: the cached list
    db.session.delete(a.posting)
    db.session.delete(db.session.get(Question, a.new_questions[0].id))
    db.session.commit()
    d = postings.import_posting(None, posting("Hooli", "How would you overlap computation and communication "
                                                       "in FSDP training job?"), FIXED_NOW)
    db.session.commit()
    assert len(d.new_questions) == 1 and len(loads) == 3 and loads[-1] == ()  # a question gone: loaded again
    bank._CANDIDATE_CACHE.clear()


# A posting import checks its process-wide caches (the merge candidates, the linker) with one
# statement (helper h20i), and still never uses a stale linker or candidate list.

def _one_question_posting(company: str, question: str) -> str:
    return f"{company}\nEngineer\nBeijing\n\nInterview questions\n- {question}\n"


def test_an_import_reads_the_explanations_once_and_reuses_the_cached_linker(app, tmp_path):
    root, first = _synced_one_doc(tmp_path, "ring-allreduce")
    db.session.commit()
    seen = _statements(lambda: postings_service.import_posting(
        None, _one_question_posting("Acme", "What limits NVLink bandwidth between GPUs in practice?"), FIXED_NOW))
    db.session.commit()
    assert sum("FROM explanations" in s for s in seen) == 1, seen  # the one check, both caches
    assert not any(s.upper().startswith("SELECT EXPLANATIONS.ID") for s in seen)  # no rebuild
    assert current_linker() is first


def test_an_import_after_a_sync_in_the_same_transaction_sees_the_new_explanation(app, tmp_path):
    root, first = _synced_one_doc(tmp_path, "ring-allreduce")
    postings_service.import_posting(None, _one_question_posting("Acme", "How would you shard a model across GPUs?"),
                                    FIXED_NOW)
    db.session.commit()  # both caches filled
    write(root, "collectives/tree-allreduce.md", OTHER)
    sync_tree(root)  # not committed: the import below runs in the same transaction
    outcome = postings_service.import_posting(
        None, _one_question_posting("Zenith", "Why would a tree AllReduce beat a ring one?"), FIXED_NOW)
    question = (outcome.new_questions + outcome.merged_questions)[0]
    assert "tree-allreduce" in [link.slug for link in question.links]  # merged into it, or linked to it
    assert current_linker() is not first
    db.session.commit()


def test_the_combined_check_agrees_with_the_separate_ones(app, tmp_path):
    root = tmp_path / "content"
    write(root, "collectives/ring-allreduce.md", DOC.format(related="tree-allreduce"))
    write(root, "collectives/tree-allreduce.md", OTHER)
    sync_tree(root)
    db.session.commit()
    (root / "collectives/tree-allreduce.md").unlink()
    sync_tree(root)  # removed softly: the live count differs from the count of all
    db.session.commit()
    bank._CANDIDATE_CACHE.clear()
    for _ in range(2):  # without a cached list, then with one (its highest id's text read too)
        check = bank.bank_check()
        assert check.linker_key == tuple(db.session.execute(linker_key_query()).one())
        assert check.content == bank.explanations_fingerprint()
        assert check.content[0] == check.linker_key[0] + 1
        assert check.bank == bank.questions_fingerprint(*bank._bank_filter())
        if check.since_id is not None:
            assert check.since_norm == check.bank[2]
        bank.bank_candidates(check)
    bank._CANDIDATE_CACHE.clear()
