"""interview_plans: each candidate's stored interview plan, made off the request path (a
background job) and read by the pages; when a change asked for a new one and when it was made

Revision ID: 0022_interview_plans
Revises: 0021_secret_key_hosts
"""
from alembic import op
import sqlalchemy as sa


revision = "0022_interview_plans"
down_revision = "0021_secret_key_hosts"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "interview_plans",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("rebook", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("nothing_today_on", sa.Date(), nullable=True),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("made_for", sa.DateTime(timezone=True), nullable=True),
        sa.Column("made_on", sa.Date(), nullable=True),
        sa.Column("cpu_ms", sa.Integer(), nullable=True),
        sa.Column("plan", sa.JSON(), nullable=True),
    )
    op.create_index("ix_interview_plans_requested_at", "interview_plans", ["requested_at"])


def downgrade():
    op.drop_index("ix_interview_plans_requested_at", table_name="interview_plans")
    op.drop_table("interview_plans")
