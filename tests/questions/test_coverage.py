"""Coverage: skills postings ask for that no explanation covers, and bank
questions with no explanation, in `prep content coverage` and on the instructor's page."""
from __future__ import annotations

import json

from prep.accounts.models import Role
from prep.content.coverage import SkillGap, skill_gaps
from prep.content.models import Explanation
from prep.extensions import db
from prep.postings.models import Posting
from prep.questions.models import Source
from prep.questions.service import add_question


def test_skill_gaps_count_each_posting_once_and_skip_covered_skills() -> None:
    postings = [["NCCL", "RDMA", "Kafka"], ["kafka", "Kafka", "PFC"], ["PFC", "NCCL"], []]
    covered = [["NCCL"], ["rdma"]]
    assert skill_gaps(postings, covered) == [SkillGap("Kafka", 2), SkillGap("PFC", 2)]
    assert skill_gaps(postings, covered, min_postings=3) == []
    assert skill_gaps([], covered) == []


def _world() -> None:
    db.session.add_all([
        Posting(raw_text="a", content_hash="a" * 64, skills=["NCCL", "DCQCN", "Kafka"]),
        Posting(raw_text="b", content_hash="b" * 64, skills=["DCQCN", "NCCL"]),
        Explanation(slug="nccl-x", title="NCCL", area="collectives", lang="en", path="collectives/nccl-x.md",
                    body_md="x", html="x", content_hash="c" * 64, skills=["NCCL"]),
    ])
    add_question("How do you size PFC headroom?", source=Source.user)
    db.session.commit()


def test_coverage_command_lists_gaps_most_asked_first(app, runner) -> None:
    _world()
    result = runner.invoke(args=["content", "coverage", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["skills"] == [{"skill": "DCQCN", "postings": 2}, {"skill": "Kafka", "postings": 1}]
    assert [q["text"] for q in data["questions"]] == ["How do you size PFC headroom?"]
    text = runner.invoke(args=["content", "coverage", "--min-postings", "2"]).output
    assert "DCQCN" in text and "Kafka" not in text and "PFC headroom" in text
    assert runner.invoke(args=["content", "coverage", "--limit", "0"]).exit_code == 2  # a clear usage error


def test_instructor_page_shows_the_skill_gaps(app, client, make_user, login) -> None:
    _world()
    login(make_user("teach@example.com", role=Role.instructor))
    html = client.get("/instructor/unanswered").get_data(as_text=True)
    assert 'id="skill-gaps"' in html and "DCQCN" in html and "2 postings" in html
    assert "How do you size PFC headroom?" in html
