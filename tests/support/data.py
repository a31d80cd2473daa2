"""Where the tests' data files are: tests/data/ (golden files, corpora, the DoS corpus) and the
seed postings, copied into tests/data/seeds/ with their names."""
from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
#: The project's acceptance examples for posting extraction (see seeds/README.md).
SEEDS = DATA / "seeds"
