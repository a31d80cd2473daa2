"""questions.publication and bank_events: a public question reaches other accounts only once an
instructor approved it, and an instructor can withdraw it (restorably, with its history)

Existing data: nothing is published by this migration. A public question that may have become
public only because enough accounts imported it goes back to ``pending`` (the instructors' review
queue shows it, with its importers; nobody else sees it until it is approved), with a
``bank_events`` row saying so (no actor). That is every public question with source ``posting``

- that no shipped sample posting (a posting without an owner, loaded by the operator) asks, and
- whose wording has no "approved" instructor decision in ``bank_decisions``.

Content questions (from explanations) and sample questions stay published. An instructor's
earlier approval with an edited wording left no decision under the new wording, so such a
question goes back to the queue too and needs approving again: that errs on the side of review.
Cards and postings that point to a question are kept either way.

Revision ID: 0020_bank_publication
Revises: 0019_password_at_link
"""
from alembic import op
import sqlalchemy as sa


revision = "0020_bank_publication"
down_revision = "0019_password_at_link"
branch_labels = None
depends_on = None

REASON = "Public only because enough accounts imported it: back to review."


def upgrade():
    with op.batch_alter_table("questions") as batch:
        batch.add_column(sa.Column("publication", sa.String(16), nullable=False, server_default="published"))
    op.create_table(
        "bank_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("question_id", sa.Integer(), sa.ForeignKey("questions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("actor_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
    )
    op.create_index("ix_bank_events_question_id", "bank_events", ["question_id"])
    op.execute(sa.text(
        "UPDATE questions SET publication = 'pending' "
        "WHERE owner_id IS NULL AND source = 'posting' "
        "AND norm NOT IN (SELECT norm FROM bank_decisions WHERE decision = 'approved') "
        "AND id NOT IN (SELECT pq.question_id FROM posting_questions pq "
        "               JOIN postings p ON p.id = pq.posting_id WHERE p.user_id IS NULL)"))
    op.execute(sa.text(
        "INSERT INTO bank_events (question_id, action, actor_id, at, reason) "
        "SELECT id, 'pending', NULL, CURRENT_TIMESTAMP, :reason FROM questions WHERE publication = 'pending'"
    ).bindparams(reason=REASON))


def downgrade():
    op.drop_index("ix_bank_events_question_id", table_name="bank_events")
    op.drop_table("bank_events")
    with op.batch_alter_table("questions") as batch:
        batch.drop_column("publication")
