"""What a question is about: the skills to tag it with.

Pure module: no Flask, no database. A question's skills are

* the skills its text names (the taxonomy's names and aliases, see :mod:`.taxonomy`), except by a
  short spelling another word of the question gives a different meaning ("DP" in a dynamic
  programming task; "数据并行" there still names data parallelism);
* the skills its words belong to without naming them (``strong`` cues of ``question_cues.yaml``:
  "warp divergence" is CUDA, a vtable is C++);
* the skills a confidently linked explanation lists that the question hints at (``weak`` cues:
  "shared memory" is CUDA in a question answered by a CUDA page, not in one about processes).

Never the skills of the posting the question came from: a coding task from an NCCL posting is
about its algorithm, not about NCCL. A question about nothing in the taxonomy gets no skill.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from .taxonomy import Taxonomy, TaxonomyError, load_taxonomy, parse_taxonomy

DEFAULT_CUES_PATH = Path(__file__).with_name("question_cues.yaml")
#: At most this many skills per question (the question form's limit on tags).
MAX_QUESTION_SKILLS = 10


@dataclass(frozen=True)
class Cue:
    """One entry of the cue data: the skills it is evidence for and a matcher for its terms
    (a small :class:`Taxonomy` whose two "skills" are the tiers ``strong`` and ``weak``)."""

    skills: tuple[str, ...]
    matcher: Taxonomy | None
    unless: Taxonomy | None

    def tiers(self, text: str) -> set[str]:
        """Which tiers (``strong``, ``weak``) have a term in ``text``."""
        return set(self.matcher.find_skills(text)) if self.matcher is not None else set()

    def vetoed(self, text: str) -> bool:
        """Whether ``text`` has a word that gives these skills' spelling another meaning."""
        return self.unless is not None and bool(self.unless.find_skills(text))


def parse_cues(data: object, taxonomy: Taxonomy) -> list[Cue]:
    """The cue entries of ``data`` (``{"cues": [{"skills", "strong", "weak", "strong_cs",
    "weak_cs", "unless"}]}``). Raises :class:`~.taxonomy.TaxonomyError` listing every problem: a skill the
    taxonomy lacks, a field that is not a list, a term listed twice in one entry."""
    if not isinstance(data, dict) or not isinstance(data.get("cues"), list):
        raise TaxonomyError(["cues must be a mapping with a 'cues' list"])
    problems: list[str] = []
    cues: list[Cue] = []
    for index, entry in enumerate(data["cues"]):
        if not isinstance(entry, dict):
            problems.append(f"entry {index} is not a mapping")
            continue
        fields = {}
        for key in ("skills", "strong", "weak", "strong_cs", "weak_cs", "unless"):
            raw = entry.get(key) or []
            if not isinstance(raw, list):
                problems.append(f"entry {index}: '{key}' must be a list")
                raw = []
            fields[key] = [str(term).strip() for term in raw if str(term).strip()]
        unknown = [name for name in fields["skills"] if name not in taxonomy.skills]
        if not fields["skills"] or unknown:
            problems.append(f"entry {index}: unknown or missing skills {unknown}")
            continue
        tiers = [{"name": tier, "category": "cue", "aliases": fields[tier], "case_sensitive": fields[f"{tier}_cs"]}
                 for tier in ("strong", "weak") if fields[tier] or fields[f"{tier}_cs"]]
        try:
            matcher = parse_taxonomy({"skills": tiers}) if tiers else None
            unless = (parse_taxonomy({"skills": [{"name": "unless", "category": "cue", "aliases": fields["unless"]}]})
                      if fields["unless"] else None)
        except ValueError as err:
            problems.append(f"entry {index}: {err}")
            continue
        cues.append(Cue(tuple(fields["skills"]), matcher, unless))
    if problems:
        raise TaxonomyError(problems)
    return cues


@lru_cache(maxsize=4)
def load_cues(path: str | Path | None = None) -> tuple[Cue, ...]:
    """Load and cache the cue file (the shipped one by default), checked against the shipped taxonomy."""
    with open(path or DEFAULT_CUES_PATH, encoding="utf-8") as fh:
        return tuple(parse_cues(yaml.safe_load(fh), load_taxonomy()))


def question_skills(text: str, explanation_skills: Iterable[str] = (), *, taxonomy: Taxonomy | None = None,
                    cues: Iterable[Cue] | None = None) -> list[str]:
    """The skills question ``text`` is about, those it names first (in order of mention), then
    those its words imply; at most :data:`MAX_QUESTION_SKILLS`.

    ``explanation_skills``: the skills of the explanations the question is confidently linked to
    (only those the question hints at are taken).
    """
    taxonomy = taxonomy or load_taxonomy()
    cues = load_cues() if cues is None else tuple(cues)
    confirmed = set(explanation_skills)
    vetoed: set[str] = set()
    implied: dict[str, None] = {}
    for cue in cues:
        if cue.vetoed(text):
            vetoed.update(cue.skills)
        tiers = cue.tiers(text)
        if "strong" in tiers:
            implied.update(dict.fromkeys(cue.skills))
        elif "weak" in tiers:
            implied.update(dict.fromkeys(s for s in cue.skills if s in confirmed))
    named = [name for start, end, name in taxonomy.skill_spans(text)
             if not (name in vetoed and text[start:end] in taxonomy.skills[name].case_sensitive)]
    out = list(dict.fromkeys([*named, *(s for s in implied if s not in vetoed)]))
    return out[:MAX_QUESTION_SKILLS]
