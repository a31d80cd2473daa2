"""The company pages' reads: only ever over the postings the viewer may read
(:meth:`Posting.readable_by`) and the questions they may see (:meth:`Question.visible_to`).

A document imported more than once (the same ``content_hash``: two candidates, or a sample and a
copy) counts once, and a question's wordings (its translation group) are one question. Each
function is a fixed number of statements (GROUP BYs with LIMITs), whatever the data; ``today``
is passed in (an interview date after it has not happened yet, so it is not when a question was
last asked).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, Date, Select, and_, case, distinct, func, or_, select

from ..content.models import Explanation, live
from ..drill.cards import cards_for
from ..drill.models import CardState
from ..extensions import db
from ..postings.canonical_company import by_slug, canonical, company_key, fold, matching_companies
from ..postings.role_family import role_family
from ..postings.models import Posting, PostingQuestion, SharedReport, display_name as posting_name
from ..questions.models import Question, QuestionExplanation
from .filters import Filters

#: Companies the index reads at most (most reported first); its search narrows them.
MAX_COMPANIES = 500
COMPANIES_PER_PAGE = 50
QUESTIONS_PER_PAGE = 30
#: Rounds the filter offers at most (the most asked first), and documents the page lists.
MAX_ROUNDS = 20
MAX_DOCUMENTS = 20


def seen_on(user_id: int, today: date) -> ColumnElement[date]:
    """When a document's questions were asked: for the user's own and the samples, its interview
    date once that day has come, else the day it was imported; for a report another candidate
    shared, the day it was published (its author's days are not shared). The statement joins
    :class:`SharedReport` (:func:`with_shares`)."""
    mine = or_(Posting.user_id == user_id, Posting.user_id.is_(None))
    return case((and_(mine, Posting.interview_date <= today), Posting.interview_date),
                (mine, func.date(Posting.created_at, type_=Date)),
                else_=func.date(SharedReport.published_at, type_=Date))


def with_shares(stmt: Select[Any]) -> Select[Any]:
    """``stmt`` (over postings) with each posting's share, when another candidate shared it."""
    return stmt.outerjoin(SharedReport, SharedReport.posting_id == Posting.id)


def _report_hashes() -> ColumnElement[Any]:
    return func.count(distinct(case((Posting.kind == "report", Posting.content_hash))))


def _posting_hashes() -> ColumnElement[Any]:
    return func.count(distinct(case((Posting.kind != "report", Posting.content_hash))))


def display_name(key: str, stored_name: str | None, lang: str) -> str:
    """A company's name for a reader of ``lang``: the known company's, else a name its documents give."""
    company = by_slug(key)
    return company.name(lang) if company is not None else (stored_name or key)


@dataclass(frozen=True)
class CompanyRow:
    key: str
    name: str
    reports: int
    postings: int
    questions: int
    latest: date | None


def company_index(user_id: int, *, lang: str, today: date, query: str = "",
                  role: str | None = None) -> list[CompanyRow]:
    """The companies of the documents the user can read, most reports first; those ``query``
    names (any of a known company's names, or part of a stored one) when it is given; those
    with a document of the role family ``role`` when it is given."""
    conditions = [Posting.readable_by(user_id), Posting.company_key.is_not(None)]
    if role is not None:
        conditions.append(Posting.role_key == role)
    rows = db.session.execute(with_shares(
        select(Posting.company_key, func.min(Posting.company).label("name"), _report_hashes().label("reports"),
               _posting_hashes().label("postings"), func.max(seen_on(user_id, today)).label("latest")))
        .where(*conditions)
        .group_by(Posting.company_key)
        .order_by(_report_hashes().desc(), _posting_hashes().desc(), Posting.company_key)
        .limit(MAX_COMPANIES)).all()
    if query.strip():
        named = {c.slug for c in matching_companies(query)} | {company_key(query)}
        wanted = fold(query).replace(" ", "")
        rows = [r for r in rows if r.company_key in named or wanted in fold(r.name or "").replace(" ", "")]
    questions = _question_counts(user_id, [r.company_key for r in rows])
    return [CompanyRow(r.company_key, display_name(r.company_key, r.name, lang), r.reports, r.postings,
                       questions.get(r.company_key, 0), r.latest) for r in rows]


@dataclass(frozen=True)
class SearchHits:
    """What the header search shows above the questions: the companies the query names, and the
    role family it names with the companies that have documents of it."""

    companies: list[CompanyRow]
    role: str | None
    role_companies: list[CompanyRow]


#: Companies the header search shows at most (each list).
SEARCH_COMPANIES = 5


def search_hits(user_id: int, query: str, *, lang: str, today: date) -> SearchHits:
    """The companies and the role ``query`` names, for the header search ("字节", "ByteDance" and
    "bytedance" name one company; a company prep knows is shown even before the user has a
    report of it, so its page can say how to get one)."""
    if not query.strip():
        return SearchHits([], None, [])
    rows = company_index(user_id, lang=lang, today=today, query=query)[:SEARCH_COMPANIES]
    named = canonical(query)
    if named is not None and all(r.key != named.slug for r in rows):
        rows.append(CompanyRow(named.slug, named.name(lang), 0, 0, 0, None))
    role = role_family(query)
    with_role = company_index(user_id, lang=lang, today=today, role=role)[:SEARCH_COMPANIES] if role else []
    return SearchHits(rows, role, with_role)


def _question_counts(user_id: int, keys: list[str]) -> dict[str, int]:
    if not keys:
        return {}
    return dict(db.session.execute(
        select(Posting.company_key, func.count(distinct(Question.group_of())))
        .select_from(PostingQuestion).join(Posting, PostingQuestion.posting_id == Posting.id)
        .join(Question, PostingQuestion.question_id == Question.id)
        .where(Posting.readable_by(user_id), Posting.company_key.in_(keys), Posting.kind == "report",
               Question.visible_to(user_id))
        .group_by(Posting.company_key)).all())


@dataclass(frozen=True)
class Document:
    """A report or posting of the company: the viewer's own or a sample (``share_id`` None), or
    one another candidate shared (read on its shared page, under the names it was shared with)."""

    id: int
    share_id: int | None
    name: str
    kind: str
    seen: date


@dataclass(frozen=True)
class CompanySummary:
    key: str
    name: str
    known: bool
    reports: int
    postings: int
    since: date | None
    latest: date | None
    roles: list[tuple[str | None, str | None, int]]  # (family, a title, documents), most first
    rounds: list[str]
    documents: list[Document]

    @property
    def empty(self) -> bool:
        return not (self.reports or self.postings)


def company_summary(user_id: int, key: str, *, lang: str, today: date) -> CompanySummary | None:
    """What the user can read about the company ``key``: None for a company prep does not know
    and the user has no document of (the page is a 404, like any missing one)."""
    readable = (Posting.readable_by(user_id), Posting.company_key == key)
    seen = case((Posting.kind == "report", seen_on(user_id, today)))
    counts = db.session.execute(with_shares(
        select(_report_hashes(), _posting_hashes(), func.min(Posting.company), func.min(seen), func.max(seen)))
        .where(*readable)).one()
    reports, postings, stored_name, since, latest = counts
    if not (reports or postings) and by_slug(key) is None:
        return None
    roles = db.session.execute(
        select(Posting.role_key, func.min(Posting.title), func.count(distinct(Posting.content_hash)).label("n"))
        .where(*readable).group_by(Posting.role_key).order_by(func.count(distinct(Posting.content_hash)).desc())
        .limit(MAX_ROUNDS)).all()
    rounds = db.session.scalars(
        select(PostingQuestion.round).join(Posting, PostingQuestion.posting_id == Posting.id)
        .where(*readable, PostingQuestion.round.is_not(None))
        .group_by(PostingQuestion.round).order_by(func.count().desc(), PostingQuestion.round).limit(MAX_ROUNDS)).all()
    theirs = and_(Posting.user_id != user_id, Posting.user_id.is_not(None))
    documents = [Document(r.id, r.share_id, posting_name(r.company, r.title, r.id), r.kind, r.seen)
                 for r in db.session.execute(with_shares(
                     select(Posting.id, case((theirs, SharedReport.id)).label("share_id"),
                            case((theirs, SharedReport.company), else_=Posting.company).label("company"),
                            case((theirs, SharedReport.role), else_=Posting.title).label("title"), Posting.kind,
                            seen_on(user_id, today).label("seen")))
                     .where(*readable).order_by(seen_on(user_id, today).desc(), Posting.id.desc())
                     .limit(MAX_DOCUMENTS))]
    return CompanySummary(key=key, name=display_name(key, stored_name, lang), known=by_slug(key) is not None,
                          reports=reports, postings=postings, since=since, latest=latest,
                          roles=[(r.role_key, r[1], r.n) for r in roles], rounds=list(rounds), documents=documents)


def _ranking(user_id: int, key: str, filters: Filters, today: date):
    """(group, reports asking it, last seen) of the company's report questions, as a subquery."""
    group = Question.group_of().label("grp")
    conditions = [Posting.readable_by(user_id), Posting.company_key == key, Posting.kind == "report",
                  Question.visible_to(user_id)]
    if filters.round:
        conditions.append(PostingQuestion.round == filters.round)
    if filters.kind:
        conditions.append(PostingQuestion.kind == filters.kind)
    if filters.lang:
        conditions.append(Question.lang == filters.lang)
    if filters.role:
        conditions.append(Posting.role_key == filters.role)
    return with_shares(
        select(group, func.count(distinct(Posting.content_hash)).label("reports"),
               func.max(seen_on(user_id, today)).label("last_seen"))
        .select_from(PostingQuestion).join(Posting, PostingQuestion.posting_id == Posting.id)
        .join(Question, PostingQuestion.question_id == Question.id)).where(*conditions).group_by(group).subquery()


def _ranked(ranking: Any, limit: int, offset: int = 0) -> list[Any]:
    return db.session.execute(
        select(ranking.c.grp, ranking.c.reports, ranking.c.last_seen)
        .order_by(ranking.c.reports.desc(), ranking.c.last_seen.desc(), ranking.c.grp)
        .limit(limit).offset(offset)).all()


def top_question_ids(user_id: int, key: str, filters: Filters, n: int, *, today: date) -> list[int]:
    """The ``n`` most asked questions of the company (each as its translation group's first
    wording), in rank order: what "study the top N" adds."""
    return [row.grp for row in _ranked(_ranking(user_id, key, filters, today), n)]


@dataclass(frozen=True)
class RankedQuestion:
    id: int
    text: str
    lang: str
    reports: int
    last_seen: date | None
    explanation: tuple[str, str, str] | None  # (slug, language, title)
    state: str                                 # "new" | "learning" | "known" | "" (not studying)
    suspended: bool


@dataclass(frozen=True)
class QuestionPage:
    questions: list[RankedQuestion]
    total: int
    page: int
    pages: int

    @property
    def offset(self) -> int:
        """How many questions the pages before this one hold (the first rank here is one more)."""
        return (self.page - 1) * QUESTIONS_PER_PAGE


def ranked_questions(user_id: int, key: str, filters: Filters, *, lang: str, today: date,
                     page: int = 1) -> QuestionPage:
    """One page of the company's questions, most reports first, then most recently asked; each
    in the reader's language when a wording in it exists, with its explanation and the reader's card."""
    ranking = _ranking(user_id, key, filters, today)
    total = db.session.scalar(select(func.count()).select_from(ranking)) or 0
    pages = max(1, -(-total // QUESTIONS_PER_PAGE))
    page = min(max(1, page), pages)
    rows = _ranked(ranking, QUESTIONS_PER_PAGE, (page - 1) * QUESTIONS_PER_PAGE)
    groups = [row.grp for row in rows]
    wordings = _wordings(user_id, groups, lang)
    explanations = _explanations(groups, lang)
    cards = cards_for(user_id, [w.id for w in wordings.values()])
    out = []
    for row in rows:
        wording = wordings.get(row.grp)
        if wording is None:
            continue
        card = cards.get(wording.id)
        out.append(RankedQuestion(
            id=wording.id, text=wording.text, lang=wording.lang, reports=row.reports, last_seen=row.last_seen,
            explanation=explanations.get(row.grp), state=_state(card.state) if card else "",
            suspended=bool(card and card.suspended)))
    return QuestionPage(out, total, page, pages)


def _state(state: CardState) -> str:
    if state is CardState.new:
        return "new"
    return "known" if state is CardState.review else "learning"


def _wordings(user_id: int, groups: list[int], lang: str) -> dict[int, Any]:
    """Group -> the wording to show: in ``lang`` when there is one, else the group's first."""
    if not groups:
        return {}
    best: dict[int, Any] = {}
    for row in db.session.execute(
            select(Question.id, Question.text, Question.lang, Question.group_of().label("grp"))
            .where(Question.group_of().in_(groups), Question.visible_to(user_id)).order_by(Question.id)):
        kept = best.get(row.grp)
        if kept is None or (kept.lang != lang and row.lang == lang):
            best[row.grp] = row
    return best


def _explanations(groups: list[int], lang: str) -> dict[int, tuple[str, str, str]]:
    """Group -> (slug, language, title) of its best linked explanation (a link on any of its
    wordings), in ``lang`` when that language's explanation exists."""
    if not groups:
        return {}
    slug_of: dict[int, str] = {}
    for group, slug in db.session.execute(
            select(Question.group_of(), QuestionExplanation.slug)
            .join(QuestionExplanation, QuestionExplanation.question_id == Question.id)
            .where(Question.group_of().in_(groups), QuestionExplanation.rejected.is_(False))
            .order_by(QuestionExplanation.score.desc(), QuestionExplanation.id)):
        slug_of.setdefault(group, slug)
    titles: dict[str, tuple[str, str]] = {}
    for slug, explanation_lang, title in db.session.execute(
            select(Explanation.slug, Explanation.lang, Explanation.title)
            .where(Explanation.slug.in_(set(slug_of.values())), live()).order_by(Explanation.id)):
        if slug not in titles or explanation_lang == lang:
            titles[slug] = (explanation_lang, title)
    return {group: (slug, *titles[slug]) for group, slug in slug_of.items() if slug in titles}
