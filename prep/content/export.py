"""``prep content export DIR``: every current explanation written back as its file (front matter
and Markdown, byte for byte as stored), so browser work can be committed to git and synced on
another host. Each file is written atomically and never through a symbolic link."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select

from ..extensions import db
from .editor import UnsafePathError, write_inside
from .models import Explanation, live


class ExportRefused(Exception):
    """The target is not an empty folder or a content tree: nothing was written."""


@dataclass
class ExportReport:
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    #: Files in the target that no current explanation has (left as they are).
    others: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        line = f"export: {len(self.written)} written, {self.unchanged} unchanged"
        if self.others:
            line += f", {len(self.others)} other file(s) left as they are"
        if self.problems:
            line += f", {len(self.problems)} problem(s)"
        return line


def _visible_files(root: Path) -> list[str]:
    """The files under ``root`` outside hidden folders (such as .git), as relative paths."""
    out = []
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if not any(part.startswith(".") for part in rel.parts) and (path.is_file() or path.is_symlink()) \
                and not path.is_dir():
            out.append(rel.as_posix())
    return sorted(out)


def check_target(root: Path, *, force: bool) -> list[str]:
    """The files already in ``root``. Refuses (:class:`ExportRefused`) a file, or a folder holding
    anything but Markdown files (a home folder, a project checkout), unless ``force``."""
    if root.exists() and not root.is_dir():
        raise ExportRefused(f"{root} is a file, not a folder")
    existing = _visible_files(root) if root.is_dir() else []
    strangers = [p for p in existing if not p.endswith(".md")]
    if strangers and not force:
        shown = ", ".join(strangers[:5]) + (f" and {len(strangers) - 5} more" if len(strangers) > 5 else "")
        raise ExportRefused(f"{root} holds files that are not explanations ({shown}); it does not look like a "
                            "content folder, so nothing was written. Export into an empty folder or a content "
                            "folder, or pass --force to write the explanations there anyway (other files are "
                            "never deleted).")
    return existing


def export_tree(root: Path | str, *, force: bool = False) -> ExportReport:
    """Write every current (not removed) explanation's text at its path under ``root``."""
    root = Path(root)
    existing = set(check_target(root, force=force))
    report = ExportReport()
    rows = db.session.execute(select(Explanation.path, Explanation.source).where(live())
                              .order_by(Explanation.path)).all()
    mine = {path for path, _source in rows}
    report.others = sorted(p for p in existing if p not in mine)
    root.mkdir(parents=True, exist_ok=True)
    for path, source in rows:
        data = source.encode("utf-8", "surrogatepass")
        target = root / path
        if path in existing and not target.is_symlink():
            try:
                if target.read_bytes() == data:
                    report.unchanged += 1
                    continue
            except OSError:
                pass
        try:
            write_inside(root, path, source, exact=True)
        except UnsafePathError as err:
            report.problems.append(f"{path}: not written ({err})")
            continue
        except OSError as err:
            report.problems.append(f"{path}: could not be written ({err.strerror or err}); the old file is whole")
            continue
        report.written.append(path)
    return report
