"""attempt_counters: atomic login and registration limits shared by every worker

Revision ID: 0007_attempt_counters
Revises: 0006_posting_kinds
"""
from alembic import op
import sqlalchemy as sa


revision = "0007_attempt_counters"
down_revision = "0006_posting_kinds"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "attempt_counters",
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade():
    op.drop_table("attempt_counters")
