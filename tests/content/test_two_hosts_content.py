"""Two `prep serve` processes with different content folders on one PostgreSQL database: an
explanation written in the browser through host A is served by host B, survives
`prep init` on B (whose folder holds only the git content), and either host exports it."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from prep.accounts.models import Role
from prep.accounts.service import create_user
from prep.extensions import db
from tests.support.app import PASSWORD
from tests.support.live import Browser, LiveServer

GIT = {"gpu/alpha.md": "---\ntitle: Alpha\nquestions: ['What is alpha?']\n---\nAlpha from git.\n",
       "gpu/beta.md": "---\ntitle: Beta\nquestions: ['What is beta?']\n---\nBeta from git.\n"}
NEW = "---\ntitle: Delta written in the browser\nslug: delta\nquestions: ['What is delta?']\n---\nDelta body.\n"


@pytest.fixture
def pg_app(tmp_path, postgres_url):
    from tests.support.app import app_on

    yield from app_on(tmp_path, postgres_url)


def _checkout(root: Path) -> Path:
    for rel, text in GIT.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.md"))}


def test_browser_work_on_one_host_is_served_kept_and_exported_by_the_other(pg_app, postgres_url, tmp_path):
    create_user("teach@example.com", PASSWORD, role=Role.instructor)
    db.session.commit()
    servers = []
    for name in ("a", "b"):
        root = tmp_path / name
        root.mkdir()
        servers.append(LiveServer(root, content_dir=_checkout(root / "content"),
                                  env={"PREP_DATABASE_URL": postgres_url}))
    a, b = servers
    try:
        for server in servers:
            server.start()  # `prep init` then serve, each with its own folder
        on_a = Browser(a.url)
        on_a.login("teach@example.com")
        form = on_a.get("/explanations/new")
        assert on_a.post("/explanations/new", {"csrf_token": Browser.token(form), "area": "gpu", "text": NEW,
                                               "save": "1"}) == 200
        edited = GIT["gpu/alpha.md"].replace("from git", "edited on host A")
        form = on_a.get("/explanations/alpha/edit?lang=en")
        assert on_a.post("/explanations/alpha/edit?lang=en", {"csrf_token": Browser.token(form), "area": "gpu",
                                                              "text": edited, "save": "1"}) == 200
        assert not (a.root / "content" / "gpu" / "delta.md").exists()  # the database holds it, not A's disk

        on_b = Browser(b.url)
        on_b.login("teach@example.com")
        assert "Delta body." in on_b.get("/explanations/delta")
        assert "edited on host A" in on_b.get("/explanations/alpha")
        result = b.prep("init")  # a redeploy of B from git: its folder never had delta
        assert "0 removed" in result.stdout, result.stdout
        assert "Delta body." in on_b.get("/explanations/delta")
        assert "edited on host A" in on_b.get("/explanations/alpha")

        exports = []
        for server in servers:
            out = server.root / "export"
            server.prep("content", "export", str(out))
            exports.append(_tree(out))
        assert exports[0] == exports[1] == {"gpu/alpha.md": edited, "gpu/beta.md": GIT["gpu/beta.md"],
                                            "gpu/delta.md": NEW}
        # The export, committed to git and synced on B, changes nothing (it is the current text).
        shutil.rmtree(b.root / "content")
        shutil.copytree(b.root / "export", b.root / "content")
        result = b.prep("content", "sync")
        assert "0 added, 0 updated, 0 removed" in result.stdout and "conflict" not in result.stdout, result.stdout
        assert "edited on host A" in on_b.get("/explanations/alpha")
    finally:
        for server in servers:
            server.stop()
