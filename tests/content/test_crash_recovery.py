"""A crash (SIGKILL) in the middle of `prep content sync`: the next run completes with nothing lost
and nothing duplicated (the sync is one transaction; a killed run leaves the previous state)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import func, select

from prep.content.models import Explanation
from prep.extensions import db
from prep.questions.models import Question

ROOT = Path(__file__).resolve().parents[2]
FILES = 400


def _write_tree(root: Path) -> None:
    for i in range(FILES):
        area = root / f"area{i % 8}"
        area.mkdir(parents=True, exist_ok=True)
        (area / f"topic-{i:04d}.md").write_text(
            f"---\ntitle: Topic {i}\ntags: [t{i % 13}]\nquestions:\n  - How does mechanism {i} work?\n---\n"
            f"# Topic {i}\n\nMechanism {i} moves data between ranks. " + "Detail sentence. " * 40 + "\n"
            "```python\nprint('x')\n```\n", encoding="utf-8")


def _sync(env: dict[str, str], content: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "prep", "content", "sync", str(content)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_killed_sync_then_rerun_loses_and_duplicates_nothing(app, database_url, tmp_path):
    content = tmp_path / "tree"
    _write_tree(content)
    db.session.close()  # the test holds no transaction (no SQLite lock) while prep runs
    env = {**os.environ, "PREP_DATABASE_URL": database_url, "PREP_INSTANCE_DIR": str(tmp_path / "instance"),
           "PREP_SECRET_KEY": "crash-test", "PREP_CONTENT_DIR": str(content)}

    killed = 0
    for delay in (1.5, 2.5, 3.5):
        proc = _sync(env, content)
        time.sleep(delay)  # let the separate `prep` process get partway, then kill it: real time
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            killed += 1
        proc.communicate(timeout=60)
    assert killed >= 1, "every sync finished before the kill; the test needs more files"

    final = _sync(env, content)
    out, _ = final.communicate(timeout=300)
    assert final.returncode == 0, out

    db.session.expire_all()
    slugs = db.session.scalars(select(Explanation.slug)).all()
    assert sorted(slugs) == sorted(f"topic-{i:04d}" for i in range(FILES))  # all there, once each
    texts = db.session.scalars(select(Question.norm)).all()
    assert len(texts) == len(set(texts))
    assert db.session.scalar(select(func.count(Question.id))) >= FILES
    for explanation in db.session.scalars(select(Explanation).limit(5)):
        assert explanation.html and "Mechanism" in explanation.html

    # And one more run changes nothing.
    db.session.close()
    again = _sync(env, content)
    out, _ = again.communicate(timeout=300)
    assert again.returncode == 0, out
    db.session.expire_all()
    assert db.session.scalar(select(func.count(Explanation.id))) == FILES
