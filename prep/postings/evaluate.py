"""Score the extraction engine against a labelled corpus: precision, recall and F1.

A corpus is a folder of documents as candidates bring them (``<id>.txt``, ``<id>.md`` or
``<id>.html``), each with a golden ``<id>.json`` beside it::

    {
      "category": "report" | "posting_with_questions" | "posting_without_questions" | "noise",
      "lang": "zh" | "en",
      "doc_kind": "report" | "posting",
      "company": "字节跳动" | null,          # null: not checked
      "title": "..." | null,                 # null: not checked
      "questions": [{"text": "...", "kind": "concept|coding|design|behavioural", "round": "一面" | null}],
      "skills": ["NCCL", "RDMA"],            # taxonomy names (or aliases: "TCP" is "TCP/IP") that must be found
      "forbidden_skills": ["Java"],          # must not be found
      "not_questions": ["Why join us?"]      # lines that look like questions and must not be taken
    }

Matching is lenient about wording the engine may trim: texts are compared after NFKC, case
folding and removing whitespace and punctuation; a found question matches an expected one when
the two are equal, or one contains the other and the shorter is at least 70 % of the longer
(so "问了RDMA和TCP的区别" matches "RDMA和TCP的区别"); also once a bracketed remark at the end of
either is set aside ("…的区别 (聚簇索引)" matches "…的区别"), and when the found question opens with
the whole expected one (of at least 20 characters) and goes on with the details its author gave
("Implement a memory pool. It should …"). Each expected question matches at most one
found question. A found question that matches a ``not_questions`` entry, or any question found in
a ``noise`` document whose ``questions`` is empty, is a *noise hit*.

Pure module: documents in, figures out (reading the folder is :func:`load_corpus`'s only I/O).
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from prep.chinese_script import simplified_characters
from prep.skills.taxonomy import load_taxonomy

from .canonical_company import canonical
from .decode import read_posting_file
from .extract import ExtractionResult, extract_posting
from .names import brand
from .sentence_model import match_key

DOCUMENT_SUFFIXES = (".txt", ".md", ".html", ".htm")
MIN_CONTAINED_RATIO = 0.7
#: A found question that opens with the whole expected one (and goes on with the task's details)
#: matches when the expected one is at least this long (its match key, in characters).
MIN_PREFIX_CHARS = 20


def texts_match(found: str, expected: str) -> bool:
    found, expected = (_LINK.sub(r"\1", t) if "](" in t else t for t in (found, expected))  # a link's words, not its address
    # an inline tag copied from a page's source ("<code>www.example.com</code>"): its words, as the reader gives them
    found, expected = (_INLINE_TAG.sub("", t) if "<" in t else t for t in (found, expected))
    if _keys_match(match_key(found), match_key(expected)):
        return True
    # a bracketed remark after the question, kept by one side and trimmed by the other
    # ("static变量存放在哪里？(这里我就详细说了说)")
    return _keys_match(match_key(_TRAILING_REMARK.sub("", found)), match_key(_TRAILING_REMARK.sub("", expected)))


#: A Markdown link in a label copied from a page's source: "[memcached](https://…)".
_LINK = re.compile(r"\[([^\[\]]{1,300})\]\([^()\s]{1,2000}\)")
_INLINE_TAG = re.compile(r"</?(?:code|b|i|em|strong|kbd|tt|mark|sup|sub|u|s)>", re.IGNORECASE)
#: A bracketed remark at the end of a question: "（需要写测试用例）", "(not Nth position)".
_TRAILING_REMARK = re.compile(r"\s{0,3}[(（][^()（）]{1,200}[)）][。.;；]?\s{0,3}$")


def _keys_match(a: str, b: str) -> bool:
    if not a or not b:
        return False
    if a == b or (len(b) >= MIN_PREFIX_CHARS and a.startswith(b)):
        return True  # (found ``a`` is the expected question ``b`` and the details its author gave after it)
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return short in long_ and len(short) >= MIN_CONTAINED_RATIO * len(long_)


@dataclass(frozen=True)
class CorpusDocument:
    name: str
    text: str
    golden: dict


@dataclass
class DocumentScore:
    name: str
    category: str
    expected: int
    found: int
    matched: int
    missed: list[str] = field(default_factory=list)
    spurious: list[str] = field(default_factory=list)
    noise_hits: list[str] = field(default_factory=list)
    skills_expected: int = 0
    skills_found: int = 0
    skills_missed: list[str] = field(default_factory=list)
    forbidden_found: list[str] = field(default_factory=list)
    kind_right: int = 0
    company_ok: bool | None = None
    title_ok: bool | None = None
    doc_kind_ok: bool | None = None

    @property
    def f1(self) -> float:
        """This document's question F1 (0 when it finds none of its questions)."""
        precision = self.matched / self.found if self.found else 0.0
        recall = self.matched / self.expected if self.expected else 0.0
        return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


@dataclass
class CorpusScore:
    documents: list[DocumentScore]

    def _sum(self, attr: str) -> int:
        return sum(getattr(d, attr) for d in self.documents)

    @property
    def precision(self) -> float:
        found = self._sum("found")
        return self._sum("matched") / found if found else 1.0

    @property
    def recall(self) -> float:
        expected = self._sum("expected")
        return self._sum("matched") / expected if expected else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def mean_f1(self) -> float:
        """The mean of each document's question F1, over the documents that hold questions (a short
        document counts as much as a long one: what a candidate pasting one report meets)."""
        scores = [d.f1 for d in self.documents if d.expected]
        return sum(scores) / len(scores) if scores else 1.0

    @property
    def skill_recall(self) -> float:
        expected = self._sum("skills_expected")
        return self._sum("skills_found") / expected if expected else 1.0

    @property
    def kind_accuracy(self) -> float:
        matched = self._sum("matched")
        return self._sum("kind_right") / matched if matched else 1.0

    @property
    def noise_hits(self) -> list[str]:
        return [f"{d.name}: {hit}" for d in self.documents for hit in d.noise_hits]

    @property
    def forbidden_skills(self) -> list[str]:
        return [f"{d.name}: {s}" for d in self.documents for s in d.forbidden_found]

    def _rate(self, attr: str) -> tuple[int, int]:
        checked = [getattr(d, attr) for d in self.documents if getattr(d, attr) is not None]
        return sum(1 for ok in checked if ok), len(checked)

    def summary(self) -> dict[str, object]:
        company = self._rate("company_ok")
        title = self._rate("title_ok")
        doc_kind = self._rate("doc_kind_ok")
        return {
            "documents": len(self.documents),
            "questions_expected": self._sum("expected"),
            "questions_found": self._sum("found"),
            "questions_matched": self._sum("matched"),
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
            "mean_f1": round(self.mean_f1, 4),
            "documents_with_questions": sum(1 for d in self.documents if d.expected),
            "kind_accuracy": round(self.kind_accuracy, 4),
            "skill_recall": round(self.skill_recall, 4),
            "forbidden_skills": self.forbidden_skills,
            "noise_hits": self.noise_hits,
            "company": f"{company[0]}/{company[1]}",
            "title": f"{title[0]}/{title[1]}",
            "doc_kind": f"{doc_kind[0]}/{doc_kind[1]}",
        }


def load_corpus(folder: Path) -> list[CorpusDocument]:
    """Every document of ``folder`` that has a golden JSON file, sorted by name."""
    documents = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in DOCUMENT_SUFFIXES:
            continue
        golden_path = path.with_suffix(".json")
        if not golden_path.is_file():
            continue
        golden = json.loads(golden_path.read_text(encoding="utf-8"))
        documents.append(CorpusDocument(name=path.name, text=read_posting_file(path), golden=golden))
    return documents


def _same_name(found: str | None, expected: str) -> bool:
    """The same name, the same employer written with and without its legal form or city
    ("沐曦集成电路（上海）有限公司" and "沐曦集成电路", "Acme Inc." and "Acme"), or one known company
    under two of its names ("腾讯" and "Tencent": one company page holds both)."""
    if found is None:
        return False
    found, expected = (name.translate(simplified_characters()) for name in (found, expected))  # "阿裡" is "阿里"
    if match_key(found) == match_key(expected) or match_key(brand(found)) == match_key(brand(expected)):
        return True
    known = canonical(found)
    if known is not None and known == canonical(expected):
        return True
    # the name and its corporate tail ("Juniper" and "Juniper Networks", "Arista" and "Arista Networks, Inc.")
    short, long_ = sorted((brand(found), brand(expected)), key=len)
    words = long_.split()  # "End Point Corporation" is "End Point"
    while len(words) > 1 and words[-1].casefold().strip(".,") in _CORPORATE_WORDS:
        words.pop()
        if match_key(" ".join(words)) == match_key(short):
            return True
    return False


_CORPORATE_WORDS = frozenset("networks systems technologies technology labs lab inc corporation corp group holdings software "
                             "semiconductor semiconductors computing co ltd llc".split())


def score_document(document: CorpusDocument, result: ExtractionResult) -> DocumentScore:
    golden = document.golden
    expected = list(golden.get("questions", []))
    found = list(result.questions)
    unmatched = list(range(len(expected)))
    score = DocumentScore(name=document.name, category=golden.get("category", ""),
                          expected=len(expected), found=len(found), matched=0)
    not_questions = golden.get("not_questions", [])
    for question in found:
        hit = next((i for i in unmatched if texts_match(question.text, expected[i]["text"])), None)
        if hit is None:
            score.spurious.append(question.text)
            if any(texts_match(question.text, nq) for nq in not_questions) or (
                    golden.get("category") == "noise" and not expected):
                score.noise_hits.append(question.text)
            continue
        unmatched.remove(hit)
        score.matched += 1
        if expected[hit].get("kind") in (None, question.kind):
            score.kind_right += 1
    score.missed = [expected[i]["text"] for i in unmatched]
    skills = set(result.skills)
    taxonomy = load_taxonomy()  # a label may name a skill by an alias ("TCP" for "TCP/IP", "gdb" for "GDB")
    wanted = [taxonomy.canonical(s) or s for s in golden.get("skills", [])]
    score.skills_expected = len(wanted)
    score.skills_found = sum(1 for s in wanted if s in skills)
    score.skills_missed = [s for s in wanted if s not in skills]
    score.forbidden_found = [s for s in (taxonomy.canonical(f) or f for f in golden.get("forbidden_skills", []))
                             if s in skills]
    if golden.get("company"):
        score.company_ok = _same_name(result.company, golden["company"])
    if golden.get("title"):
        score.title_ok = _same_name(result.title, golden["title"])
    if golden.get("doc_kind"):
        score.doc_kind_ok = result.doc_kind == golden["doc_kind"]
    return score


def evaluate(documents: Iterable[CorpusDocument],
             extract: Callable[[str], ExtractionResult] = extract_posting) -> CorpusScore:
    """Run ``extract`` over every document and score it against its golden file."""
    return CorpusScore([score_document(doc, extract(doc.text)) for doc in documents])


def format_report(score: CorpusScore, verbose: bool = False) -> str:
    """The figures as lines of text (``prep extract --eval``), with each document's misses."""
    s = score.summary()
    lines = [
        f"documents: {s['documents']}",
        f"questions: expected {s['questions_expected']}, found {s['questions_found']}, "
        f"matched {s['questions_matched']}",
        f"precision {s['precision']:.3f}  recall {s['recall']:.3f}  F1 {s['f1']:.3f}  "
        f"kind accuracy {s['kind_accuracy']:.3f}",
        f"mean question F1 {s['mean_f1']:.3f} over the {s['documents_with_questions']} documents holding questions",
        f"skill recall {s['skill_recall']:.3f}; forbidden skills found: {len(score.forbidden_skills)}",
        f"company {s['company']}  title {s['title']}  document kind {s['doc_kind']}",
        f"questions taken from noise: {len(score.noise_hits)}",
    ]
    for doc in score.documents:
        problems = []
        if doc.missed:
            problems.append("missed: " + " | ".join(doc.missed))
        if doc.spurious:
            problems.append("spurious: " + " | ".join(doc.spurious))
        if doc.skills_missed:
            problems.append("skills missed: " + ", ".join(doc.skills_missed))
        if doc.forbidden_found:
            problems.append("forbidden skills: " + ", ".join(doc.forbidden_found))
        if doc.company_ok is False:
            problems.append("company wrong")
        if doc.title_ok is False:
            problems.append("title wrong")
        if doc.doc_kind_ok is False:
            problems.append("document kind wrong")
        if problems and verbose:
            lines.append(f"  {doc.name}:")
            lines.extend(f"    {p}" for p in problems)
    return "\n".join(lines)
