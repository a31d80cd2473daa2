"""What the run's forked ``prep`` processes (:mod:`.forked`: live servers, ``prep`` commands) build
once for each other, in the folder the run's workers share.

Each live server is a new process over a copy of one initialised database, and its first requests
paid, in every test, for what the previous server had just built:

- the linker's index over the shipped explanations (seconds of CPU: every page's body is analysed).
  Here it is kept as a file named by a digest of everything the index is made of (each explanation's
  slug, language, title, tags, skills, questions and body, the taxonomy's names, the linker's
  options), so an edited page or another taxonomy is a new file, never a stale index;
- the compiled templates, in Jinja's own file cache (keyed by template name and a checksum of its
  source).

A pickle is fine here: the files are written and read by this test run's own processes, in a
folder made for the run and removed after it. The app itself is not patched.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path
from typing import Any

from jinja2 import FileSystemBytecodeCache

from . import compiled

SHARED_FOLDER = "PREP_TEST_SHARED_DIR"  # set by tests/conftest.py; forked processes inherit it


def _digest(docs: list[Any], taxonomy: Any, options: dict[str, Any]) -> str:
    digest = hashlib.sha256()
    for doc in docs:
        fields = (doc.slug, getattr(doc, "lang", ""), doc.title, list(doc.tags), list(doc.skills),
                  list(doc.questions), doc.body)
        digest.update(repr(fields).encode("utf-8", "surrogatepass") + b"\0")
    terms = sorted(taxonomy.terms().items()) if taxonomy is not None else None
    digest.update(repr((terms, sorted(options.items()))).encode())
    return digest.hexdigest()


def _shared_linker(folder: Path, build: Any) -> Any:
    def linker(docs: Any, taxonomy: Any = None, **options: Any) -> Any:
        docs = list(docs)
        path = folder / f"linker-{_digest(docs, taxonomy, options)}.pickle"
        try:
            return pickle.loads(path.read_bytes())
        except (OSError, pickle.UnpicklingError, EOFError):
            pass
        built = build(docs, taxonomy, **options)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        partial.write_bytes(pickle.dumps(built, protocol=pickle.HIGHEST_PROTOCOL))
        partial.replace(path)  # atomic: another process reads a whole file or none
        return built

    return linker


def share_with_other_forked_processes() -> None:
    """In a forked ``prep`` process: reuse (and offer) the run's templates and linker indexes."""
    shared = os.environ.get(SHARED_FOLDER)
    if not shared:
        return
    folder = Path(shared) / "warm"
    folder.mkdir(exist_ok=True)
    (folder / "jinja").mkdir(exist_ok=True)
    compiled.keep_compiled_code(FileSystemBytecodeCache(str(folder / "jinja")))
    from prep.content import sync

    sync.Linker = _shared_linker(folder, sync.Linker)  # type: ignore[assignment, misc]
