"""The browser editor on a large pack: live preview and save of an edit,
checked against the explanations in the database (four short columns), not by re-reading and
re-checking every file. Medians over repeated runs, in milliseconds, with SQL statement counts."""
from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import select

from prep.content import drafts
from prep.content.check import check_tree
from prep.content.models import Explanation
from prep.content.render import render_markdown
from prep.content.revisions import live_slugs
from prep.extensions import db

from .offline import counting

RUNS = 15


def measure_editor(app: Flask, content_root: Path | None = None, runs: int = RUNS) -> dict[str, Any]:
    """Preview (what POST /explanations/preview does) and save (what the edit form's Save does)
    of one explanation among all the stored ones; the database must hold them already. With
    ``content_root``, also one re-check of the whole tree: what each preview cost before."""
    out: dict[str, Any] = {}
    if content_root is not None:
        t0 = time.perf_counter()
        check_tree(content_root)
        out["editor_tree_recheck_ms"] = round(1000 * (time.perf_counter() - t0), 1)
    with app.app_context():
        row = db.session.scalar(select(Explanation).order_by(Explanation.id).limit(1))
        area = row.area or row.path.split("/", 1)[0]
        preview_ms, save_ms, preview_q, save_q = [], [], [], []
        for i in range(runs):
            text = row.source.replace("\n## ", f"\nEdit {i}.\n\n## ", 1)
            with counting(db.engine) as counter:
                t0 = time.perf_counter()
                check = drafts.check(text, area=area, explanation=row)
                render_markdown(check.doc.body, slug_exists=live_slugs().__contains__)
                preview_ms.append(1000 * (time.perf_counter() - t0))
            preview_q.append(counter.count)
            assert check.ok, check.problems
            with counting(db.engine) as counter:
                t0 = time.perf_counter()
                check = drafts.check(text, area=area, explanation=row)
                drafts.save(check, row, author_id=None, now=row.updated_at)
                db.session.commit()
                save_ms.append(1000 * (time.perf_counter() - t0))
            save_q.append(counter.count)
        out["editor_explanations"] = db.session.query(Explanation).count()
        out["editor_preview_ms"] = round(statistics.median(preview_ms), 1)
        out["editor_save_ms"] = round(statistics.median(save_ms), 1)
        out["editor_preview_queries"] = int(statistics.median(preview_q))
        out["editor_save_queries"] = int(statistics.median(save_q))
    return out
