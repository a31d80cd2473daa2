"""Coverage as a loop: the interview questions (the field set) that no explanation answers, by
topic and most asked first, in `prep content coverage` and first on the instructors' unanswered page;
an explanation that lands takes its questions off the list."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from prep.accounts.models import Role
from prep.content.coverage import FieldQuestion, TopicMiss, field_misses
from prep.content import field
from prep.content.errors import FieldSetError
from prep.content.field import SHIPPED_MISSES, load_field_questions
from prep.content.linker import Link
from prep.content.models import Explanation
from prep.extensions import db
from scripts.field_misses import FIELD, misses, render

QUESTIONS = [
    FieldQuestion("What is a virtual destructor for?", "cpp: virtual functions", 1),
    FieldQuestion("为什么基类析构函数要是虚函数?", "cpp: virtual functions", 2),
    FieldQuestion("How does the vtable pointer get set?", "cpp: virtual functions", 2),
    FieldQuestion("Explain RoPE.", "ml: position encoding", 3),
    FieldQuestion("What is TIME_WAIT?", "networking: TIME_WAIT", 4),
]
RANKS = {
    "What is a virtual destructor for?": [Link("pointers", 0.4)],
    "How does the vtable pointer get set?": [Link("pointers", 0.3), Link("other", 0.3)],
    "What is TIME_WAIT?": [Link("tcp-time-wait", 0.9)],
}


def test_field_misses_are_the_questions_without_a_confident_link_by_topic_most_asked_first() -> None:
    gaps = field_misses(QUESTIONS, lambda text: RANKS.get(text, []), 0.65)
    assert gaps == [
        TopicMiss("cpp: virtual functions", 3, 2, (QUESTIONS[0].text, QUESTIONS[1].text, QUESTIONS[2].text), "pointers"),
        TopicMiss("ml: position encoding", 1, 1, ("Explain RoPE.",), None),
    ]
    assert gaps[0].example_lang == "en" and TopicMiss("t", 1, 1, ("死锁是什么?",), None).example_lang == "zh"
    assert field_misses(QUESTIONS, lambda text: [Link("x", 0.99)], 0.65) == []


def test_a_field_file_is_read_without_off_topic_questions_and_a_bad_one_is_named(tmp_path: Path) -> None:
    good = tmp_path / "field.json"
    good.write_text(json.dumps({"questions": [
        {"q": "What is TIME_WAIT?", "topic": "networking", "source": 1, "page": None},
        {"q": "How do MySQL indexes work?", "topic": "off-topic", "source": 2},
        {"q": "  ", "topic": "empty"}]}), encoding="utf-8")
    assert load_field_questions(good) == [FieldQuestion("What is TIME_WAIT?", "networking", 1)]
    for text in ["not json", json.dumps({"items": []}), json.dumps({"questions": [{"topic": "no text"}]})]:
        bad = tmp_path / "bad.json"
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(FieldSetError, match="bad.json"):
            load_field_questions(bad)


def test_the_shipped_misses_are_the_field_sets_questions_without_a_page() -> None:
    """scripts/field_misses.py writes them; run it after relabelling the field set."""
    field = json.loads(FIELD.read_text(encoding="utf-8"))
    assert SHIPPED_MISSES.read_text(encoding="utf-8") == render(misses(field))
    assert load_field_questions(SHIPPED_MISSES) == [
        FieldQuestion(item["q"], item["topic"], item["source"]) for item in misses(field)]  # none, once all have a page


def _field_file(tmp_path: Path) -> Path:
    path = tmp_path / "field.json"
    path.write_text(json.dumps({"questions": [
        {"q": "讲讲 TIME_WAIT 和 2MSL", "topic": "networking: TIME_WAIT", "source": 1},
        {"q": "为什么 TIME_WAIT 要等 2MSL?", "topic": "networking: TIME_WAIT", "source": 2},
        {"q": "What is a virtual destructor for?", "topic": "cpp: virtual functions", "source": 1},
        {"q": "Why should a base class destructor be virtual?", "topic": "cpp: virtual functions", "source": 2},
        {"q": "When must a destructor be virtual?", "topic": "cpp: virtual functions", "source": 3},
    ]}, ensure_ascii=False), encoding="utf-8")
    return path


def _explanation(slug: str, title: str, questions: list[str], tags: list[str]) -> Explanation:
    return Explanation(slug=slug, title=title, area="x", lang="en", path=f"x/{slug}.md", body_md=title, html=title,
                       content_hash=slug.ljust(64, "0")[:64], questions=questions, tags=tags)


def test_coverage_command_lists_interview_questions_without_an_explanation(app, runner, tmp_path: Path) -> None:
    path = _field_file(tmp_path)
    db.session.add(_explanation("unrelated", "Ring AllReduce", ["How does ring allreduce work?"], ["allreduce"]))
    db.session.commit()
    data = json.loads(runner.invoke(args=["content", "coverage", "--json", "--field", str(path)]).output)
    assert [(m["topic"], m["asked"], m["reports"]) for m in data["field"]] == [
        ("cpp: virtual functions", 3, 3), ("networking: TIME_WAIT", 2, 2)]
    assert data["field_total"] == 5

    db.session.add(_explanation("tcp-time-wait", "TIME_WAIT, MSL and why 2MSL", ["Why does TIME_WAIT last 2MSL?",
                                                                              "TIME_WAIT 为什么要等 2MSL?"],
                                ["TIME_WAIT", "MSL", "2MSL"]))
    db.session.commit()
    text = runner.invoke(args=["content", "coverage", "--field", str(path)]).output
    assert "interview questions no explanation answers: 3 in 1 topic(s)" in text
    assert "cpp: virtual functions" in text and "networking: TIME_WAIT" not in text


def test_coverage_command_names_a_bad_field_file(app, runner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    result = runner.invoke(args=["content", "coverage", "--field", str(bad)])
    assert result.exit_code == 2 and "bad.json" in result.output and "Traceback" not in result.output


def test_the_unanswered_page_shows_the_most_asked_interview_topics_first(app, client, make_user, login, tmp_path: Path,
                                                                          monkeypatch) -> None:
    # The shipped misses shrink as pages land (to none at all), so the page reads a field file of its own here.
    monkeypatch.setattr(field, "SHIPPED_MISSES", _field_file(tmp_path))
    login(make_user("teach@example.com", role=Role.instructor))
    html = client.get("/instructor/unanswered").get_data(as_text=True)
    assert 'id="field-misses"' in html
    first, second = "cpp: virtual functions", "networking: TIME_WAIT"  # asked 3 times, then 2
    assert first in html and html.index(first) < html.index(second)
    assert html.index('id="field-misses"') < html.index("</table>")  # before the bank's questions


def test_the_unanswered_page_leaves_the_interview_section_out_when_every_question_has_a_page(
        app, client, make_user, login, tmp_path: Path, monkeypatch) -> None:
    empty = tmp_path / "none.json"
    empty.write_text(json.dumps({"questions": []}), encoding="utf-8")
    monkeypatch.setattr(field, "SHIPPED_MISSES", empty)
    login(make_user("teach@example.com", role=Role.instructor))
    response = client.get("/instructor/unanswered")
    assert response.status_code == 200 and 'id="field-misses"' not in response.get_data(as_text=True)