"""Migrations: a database made by the first migration, with data in it, upgrades to head with
nothing lost; and the migrated schema matches the models (nothing left to autogenerate)."""
from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade
from sqlalchemy import create_engine, inspect, text

from prep.extensions import db
from tests.support.app import make_app


def _fresh_app(tmp_path: Path, database_url: str):
    app = make_app(tmp_path, SQLALCHEMY_DATABASE_URI=database_url)
    with app.app_context():
        db.drop_all()  # make_app creates everything; start from an empty database instead
        with db.engine.begin() as conn:
            conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    return app


def test_first_migration_with_data_upgrades_to_head(tmp_path, database_url):
    app = _fresh_app(tmp_path, database_url)
    with app.app_context():
        upgrade(revision="0001_core")
        with db.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO users (id, email, display_name, password_hash, role, created_at, session_version,"
                " timezone, day_start_hour, new_per_day, reviews_per_day, desired_retention, learning_steps,"
                " relearning_steps, maximum_interval) VALUES (1, 'old@example.com', '', 'x', 'candidate',"
                " '2026-01-01 00:00:00', 1, 'Asia/Shanghai', 4, 20, 200, 0.9, '1m 10m', '10m', 36500)"))
            conn.execute(text("INSERT INTO questions (id, text, norm, lang, source, created_at) VALUES"
                              " (1, 'What is RDMA?', 'whatisrdma', 'en', 'content', '2026-01-01 00:00:00')"))
            conn.execute(text(
                "INSERT INTO cards (id, user_id, question_id, state, step, due, reps, lapses, version, suspended,"
                " note, added_at) VALUES (1, 1, 1, 'new', 0, '2026-01-01 00:00:00', 0, 0, 0, false, 'kept',"
                " '2026-01-01 00:00:00')"))
        upgrade()
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT email, timezone FROM users")).all() == [
                ("old@example.com", "Asia/Shanghai")]
            assert conn.execute(text("SELECT note FROM cards")).scalar() == "kept"
            assert conn.execute(text("SELECT language FROM users")).scalar() is None
        tables = set(inspect(db.engine).get_table_names())
        assert set(db.metadata.tables) <= tables
        db.session.remove()
        db.engine.dispose()


def test_migrated_schema_matches_the_models(tmp_path, database_url):
    app = _fresh_app(tmp_path, database_url)
    with app.app_context():
        upgrade()
        with db.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, db.metadata)
        assert diff == []
        db.session.remove()
        db.engine.dispose()


def test_init_twice_on_a_new_database_keeps_data(tmp_path):
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    engine = create_engine(url)
    engine.dispose()
    app = _fresh_app(tmp_path, url)
    runner = app.test_cli_runner()
    with app.app_context():
        assert runner.invoke(args=["init"]).exit_code == 0
        assert runner.invoke(args=["users", "create", "k@example.com", "--password", "a good long passphrase"]
                             ).exit_code == 0
        result = runner.invoke(args=["init"])
        assert result.exit_code == 0, result.output
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM users")).scalar() == 1
        db.session.remove()
        db.engine.dispose()


RDMA_FILE = "---\ntitle: RDMA\nquestions:\n  - What is RDMA?\n---\nRemote memory, no CPU.   \n"


def test_explanations_links_and_cards_survive_and_each_gets_one_revision(tmp_path, database_url):
    """0010 keeps every explanation, link and card, and writes the current text of
    each explanation as revision 1, rebuilt from the stored fields so that it parses back to the same
    explanation; the next sync replaces it with the unchanged file's exact bytes."""
    import hashlib

    from prep.content.document import parse_document

    from prep.content.sync import sync_tree

    content = tmp_path / "content"
    (content / "networking").mkdir(parents=True)
    (content / "networking" / "rdma.md").write_text(RDMA_FILE, encoding="utf-8")
    digest = hashlib.sha256(RDMA_FILE.encode()).hexdigest()
    app = _fresh_app(tmp_path, database_url)
    with app.app_context():
        upgrade(revision="0009_pending_registrations")
        with db.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO users (id, email, display_name, password_hash, role, created_at, session_version,"
                " timezone, day_start_hour, new_per_day, reviews_per_day, desired_retention, learning_steps,"
                " relearning_steps, maximum_interval) VALUES (1, 'old@example.com', '', 'x', 'candidate',"
                " '2026-01-01 00:00:00', 1, 'Asia/Shanghai', 4, 20, 200, 0.9, '1m 10m', '10m', 36500)"))
            conn.execute(text("INSERT INTO questions (id, text, norm, lang, source, created_at) VALUES"
                              " (1, 'What is RDMA?', 'whatisrdma', 'en', 'content', '2026-01-01 00:00:00')"))
            explanation = (
                "INSERT INTO explanations (id, slug, lang, title, path, area, tags, skills, related, questions,"
                " difficulty, body_md, html, toc, content_hash, updated_at) VALUES (:id, :slug, :lang, :title,"
                " :path, :area, :tags, '[]', '[]', :questions, :difficulty, :body, :html, '[]', :hash,"
                " '2026-01-02 00:00:00')")
            conn.execute(text(explanation), dict(
                id=1, slug="rdma", lang="en", title="RDMA", path="networking/rdma.md", area="networking", tags="[]",
                questions='["What is RDMA?"]', difficulty=None, body="Remote memory, no CPU.   \n",
                html="<p>Remote memory, no CPU.</p>", hash=digest))
            conn.execute(text(explanation), dict(  # its file is not on this host
                id=2, slug="ecmp", lang="zh", title='ECMP: "等价" 多路径', path="networking/ecmp.zh.md",
                area="networking", tags='["路由", "L3"]', questions='["什么是 ECMP？", "How: does it hash?"]',
                difficulty=3, body="## 概念\n\n按流哈希。\n", html="<h2>概念</h2>", hash="0" * 64))
            conn.execute(text("INSERT INTO question_explanations (id, question_id, slug, score, origin, rejected,"
                              " created_at) VALUES (1, 1, 'rdma', 1.0, 'content', false, '2026-01-01 00:00:00')"))
            conn.execute(text(
                "INSERT INTO cards (id, user_id, question_id, state, step, due, reps, lapses, version, suspended,"
                " note, added_at) VALUES (1, 1, 1, 'new', 0, '2026-01-01 00:00:00', 0, 0, 0, false, 'kept',"
                " '2026-01-01 00:00:00')"))
        upgrade()
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT note FROM cards")).scalar() == "kept"
            assert conn.execute(text("SELECT slug FROM question_explanations")).scalar() == "rdma"
            rows = conn.execute(text("SELECT e.id, e.source, e.origin, e.revision, e.file_hash, r.number, r.source,"
                                     " r.origin, r.html FROM explanations e JOIN explanation_revisions r"
                                     " ON r.explanation_id = e.id ORDER BY e.id")).all()
        assert len(rows) == 2
        for row in rows:  # rebuilt from the fields, the same text in the row and its revision 1
            assert row[1] == row[6] and row[2:4] == ("migration", 1) and row[5] == 1 and row[7] == "migration"
        assert rows[0][4] == digest and rows[0][8] == "<p>Remote memory, no CPU.</p>"
        rebuilt = parse_document(rows[1][1], "networking/ecmp.zh.md").doc
        assert rebuilt is not None and (rebuilt.title, rebuilt.tags, rebuilt.questions, rebuilt.difficulty,
                                        rebuilt.body) == ('ECMP: "等价" 多路径', ["路由", "L3"],
                                                          ["什么是 ECMP？", "How: does it hash?"], 3,
                                                          "## 概念\n\n按流哈希。\n")
        rdma = parse_document(rows[0][1], "networking/rdma.md").doc
        assert rdma is not None and rdma.body == "Remote memory, no CPU.   \n"
        # The sync that `prep init` runs next puts in the unchanged file's exact bytes (no new revision).
        report = sync_tree(content)
        db.session.commit()
        assert not report.added and not report.updated
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT e.source, r.source, r.number FROM explanations e JOIN"
                                     " explanation_revisions r ON r.explanation_id = e.id WHERE e.id = 1")).all() == [
                (RDMA_FILE, RDMA_FILE, 1)]
        db.session.remove()
        db.engine.dispose()


def test_questions_public_only_by_the_importer_count_go_back_to_review(tmp_path, database_url):
    """0020 publishes nothing: a public posting question that no shipped sample asks and no
    instructor approved (so public only through the importer count) goes back to pending, with a
    history row; content, sample and approved questions stay published."""
    from prep.postings.bank import pending_questions

    app = _fresh_app(tmp_path, database_url)
    with app.app_context():
        upgrade(revision="0020_bank_publication-1")
        with db.engine.begin() as conn:
            for user_id in (1, 2):
                conn.execute(text(
                    "INSERT INTO users (id, email, display_name, password_hash, role, created_at, session_version,"
                    " timezone, day_start_hour, new_per_day, reviews_per_day, desired_retention, learning_steps,"
                    " relearning_steps, maximum_interval) VALUES (:id, :email, '', 'x', 'candidate',"
                    " '2026-01-01 00:00:00', 1, 'UTC', 4, 20, 200, 0.9, '1m 10m', '10m', 36500)"),
                    {"id": user_id, "email": f"u{user_id}@example.com"})
            for qid, words, source, owner in [(1, "What is RDMA?", "content", None),
                                              (2, "Why is the sky green on rings?", "posting", None),
                                              (3, "Why is the sky green on rings?", "posting", 1),
                                              (4, "What does a sample ask?", "posting", None),
                                              (5, "What did an instructor approve?", "posting", None)]:
                conn.execute(text("INSERT INTO questions (id, text, norm, lang, source, owner_id, created_at)"
                                  " VALUES (:id, :text, :norm, 'en', :source, :owner, '2026-01-01 00:00:00')"),
                             {"id": qid, "text": words, "norm": "".join(ch for ch in words.lower() if ch.isalnum()),
                              "source": source, "owner": owner})
            for pid, owner, qid in [(1, None, 4), (2, 2, 2)]:  # a shipped sample; user 2's posting asking 2
                conn.execute(text(
                    "INSERT INTO postings (id, user_id, raw_text, content_hash, sections, skills, recognised_sections,"
                    " created_at) VALUES (:id, :owner, 'x', :hash, '{}', '[]', true, '2026-01-01 00:00:00')"),
                    {"id": pid, "owner": owner, "hash": str(pid) * 64})
                conn.execute(text("INSERT INTO posting_questions (posting_id, question_id, section, position, text)"
                                  " VALUES (:pid, :qid, '', 0, 'x')"), {"pid": pid, "qid": qid})
            conn.execute(text("INSERT INTO bank_decisions (norm, decision, decided_at) VALUES"
                              " ('whatdidaninstructorapprove', 'approved', '2026-01-01 00:00:00')"))
        upgrade()
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT id, publication FROM questions ORDER BY id")).all() == [
                (1, "published"), (2, "pending"), (3, "published"), (4, "published"), (5, "published")]
            assert conn.execute(text("SELECT question_id, action, actor_id FROM bank_events")).all() == [
                (2, "pending", None)]
        [waiting], total = pending_questions()
        assert total == 1 and (waiting.question_id, waiting.accounts) == (2, 2)  # user 1's copy, user 2's posting
        db.session.remove()
        db.engine.dispose()


def test_company_keys_are_backfilled_and_init_completes_them(tmp_path, database_url):
    """0025 stores each posting's company slug for the names it knows and a Latin name's own
    words; ``rekey_postings`` (run by ``prep init``) gives the rest (pinyin, divisions, roles)."""
    from prep.postings.service import rekey_postings

    app = _fresh_app(tmp_path, database_url)
    with app.app_context():
        upgrade(revision="0024_booking_priority")
        with db.engine.begin() as conn:
            for pid, company, title in [(1, "字节", "AI 网络通信库研发工程师"), (2, "ByteDance", None),
                                        (3, "Acme GPU Labs", "LLM serving engineer"), (4, "文远知行", None),
                                        (5, "腾讯TEG", None), (6, None, None)]:
                conn.execute(text(
                    "INSERT INTO postings (id, user_id, company, title, raw_text, content_hash, sections, skills,"
                    " recognised_sections, created_at) VALUES (:id, NULL, :company, :title, 'x', :hash, '{}', '[]',"
                    " true, '2026-01-01 00:00:00')"),
                    {"id": pid, "company": company, "title": title, "hash": str(pid) * 64})
        upgrade()
        keys = "SELECT id, company_key, role_key FROM postings ORDER BY id"
        with db.engine.connect() as conn:
            assert conn.execute(text(keys)).all() == [
                (1, "bytedance", None), (2, "bytedance", None), (3, "acme-gpu-labs", None), (4, None, None),
                (5, None, None), (6, None, None)]
        assert rekey_postings() == "company and role keys: 4 postings updated"
        db.session.commit()
        with db.engine.connect() as conn:
            assert conn.execute(text(keys)).all() == [
                (1, "bytedance", "gpu-communication"), (2, "bytedance", None), (3, "acme-gpu-labs", "llm-inference"),
                (4, "wen-yuan-zhi-xing", None), (5, "tencent", None), (6, None, None)]
        assert rekey_postings() == "company and role keys: 0 postings updated"
        db.session.remove()
        db.engine.dispose()
