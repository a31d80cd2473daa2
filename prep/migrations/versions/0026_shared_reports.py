"""shared_reports and share_events: a candidate shares an anonymised interview report; an
instructor approves it (every candidate reads it) or returns it with a reason; the author can
withdraw it. Every change is a share_events row (who, when, why).

Revision ID: 0026_shared_reports
Revises: 0025_company_keys
"""
from alembic import op
import sqlalchemy as sa


revision = "0026_shared_reports"
down_revision = "0025_company_keys"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "shared_reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("posting_id", sa.Integer(), sa.ForeignKey("postings.id", ondelete="SET NULL"), nullable=True,
                  unique=True),
        sa.Column("author_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        sa.Column("company", sa.String(200), nullable=True),
        sa.Column("role", sa.String(300), nullable=True),
        sa.Column("rounds", sa.JSON(), nullable=True),
        sa.Column("interview_month", sa.String(7), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("shared_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_shared_reports_author_id", "shared_reports", ["author_id"])
    op.create_index("ix_shared_reports_content_hash", "shared_reports", ["content_hash"])
    op.create_index("ix_shared_reports_status", "shared_reports", ["status"])
    op.create_table(
        "share_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("share_id", sa.Integer(), sa.ForeignKey("shared_reports.id", ondelete="CASCADE"), nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("actor_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
    )
    op.create_index("ix_share_events_share_id", "share_events", ["share_id"])


def downgrade():
    op.drop_index("ix_share_events_share_id", table_name="share_events")
    op.drop_table("share_events")
    op.drop_index("ix_shared_reports_status", table_name="shared_reports")
    op.drop_index("ix_shared_reports_content_hash", table_name="shared_reports")
    op.drop_index("ix_shared_reports_author_id", table_name="shared_reports")
    op.drop_table("shared_reports")
