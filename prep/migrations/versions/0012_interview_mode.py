"""interview mode: settings, "how did it go", and the drill's planned reviews

Revision ID: 0012_interview_mode
Revises: 0009_pending_registrations
"""
from alembic import op
import sqlalchemy as sa


revision = "0012_interview_mode"
down_revision = "0011_key_points"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "interview_settings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("target", sa.Float(), nullable=False),
        sa.Column("budget_minutes", sa.Integer(), nullable=False),
        sa.Column("planned_on", sa.Date(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_table(
        "interview_outcomes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("posting_id", sa.Integer(), nullable=False),
        sa.Column("came_up", sa.JSON(), nullable=False),
        sa.Column("other_questions", sa.Text(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["posting_id"], ["postings.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("posting_id", name="uq_interview_outcome_posting"),
    )
    op.create_index("ix_interview_outcomes_user_id", "interview_outcomes", ["user_id"])
    op.create_table(
        "planned_reviews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(["card_id"], ["cards.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "card_id", "day", name="uq_planned_review"),
    )
    op.create_index("ix_planned_reviews_card_id", "planned_reviews", ["card_id"])
    op.create_index("ix_planned_reviews_user_day", "planned_reviews", ["user_id", "day"])


def downgrade():
    op.drop_table("planned_reviews")
    op.drop_table("interview_outcomes")
    op.drop_table("interview_settings")
