"""posting_forecasts: the recall on the interview day the candidate's last stored interview plan
predicted for a posting (the daily reminder reads it)

Revision ID: 0018_posting_forecasts
Revises: 0017_interview_ahead_on
"""
from alembic import op
import sqlalchemy as sa


revision = "0018_posting_forecasts"
down_revision = "0017_interview_ahead_on"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "posting_forecasts",
        sa.Column("posting_id", sa.Integer(), sa.ForeignKey("postings.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("recall_on_day", sa.Float(), nullable=False),
        sa.Column("target", sa.Float(), nullable=False),
        sa.Column("met", sa.Boolean(), nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_posting_forecasts_user_id", "posting_forecasts", ["user_id"])


def downgrade():
    op.drop_index("ix_posting_forecasts_user_id", table_name="posting_forecasts")
    op.drop_table("posting_forecasts")
