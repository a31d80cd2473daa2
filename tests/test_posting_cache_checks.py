"""A posting import checks its process-wide caches (the merge candidates, the linker) with one
statement (issue 20, helper h20i), and still never uses a stale linker or candidate list."""
from __future__ import annotations

from prep.content.sync import current_linker, linker_key_query, sync_tree
from prep.extensions import db
from prep.postings import bank
from prep.postings import service as postings
from tests.support.clock import FIXED_NOW
from tests.test_sync import DOC, OTHER, _statements, write


def _posting(company: str, question: str) -> str:
    return f"{company}\nEngineer\nBeijing\n\nInterview questions\n- {question}\n"


def test_an_import_reads_the_explanations_once_and_reuses_the_cached_linker(app, tmp_path):
    root = tmp_path / "content"
    write(root, "collectives/ring-allreduce.md", DOC.format(related="ring-allreduce"))
    sync_tree(root)
    db.session.commit()
    first = current_linker()
    db.session.commit()
    seen = _statements(lambda: postings.import_posting(
        None, _posting("Acme", "What limits NVLink bandwidth between GPUs in practice?"), FIXED_NOW))
    db.session.commit()
    assert sum("FROM explanations" in s for s in seen) == 1, seen  # the one check, both caches
    assert not any(s.upper().startswith("SELECT EXPLANATIONS.ID") for s in seen)  # no rebuild
    assert current_linker() is first


def test_an_import_after_a_sync_in_the_same_transaction_sees_the_new_explanation(app, tmp_path):
    root = tmp_path / "content"
    write(root, "collectives/ring-allreduce.md", DOC.format(related="ring-allreduce"))
    sync_tree(root)
    db.session.commit()
    first = current_linker()
    postings.import_posting(None, _posting("Acme", "How would you shard a model across GPUs?"), FIXED_NOW)
    db.session.commit()  # both caches filled
    write(root, "collectives/tree-allreduce.md", OTHER)
    sync_tree(root)  # not committed: the import below runs in the same transaction
    outcome = postings.import_posting(None, _posting("Zenith", "Why would a tree AllReduce beat a ring one?"),
                                      FIXED_NOW)
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
