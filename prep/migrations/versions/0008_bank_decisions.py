"""bank_decisions: instructors' rejections of privately imported questions

Revision ID: 0008_bank_decisions
Revises: 0007_attempt_counters
"""
from alembic import op
import sqlalchemy as sa


revision = "0008_bank_decisions"
down_revision = "0007_attempt_counters"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "bank_decisions",
        sa.Column("norm", sa.String(length=500), nullable=False),
        sa.Column("decision", sa.String(length=20), nullable=False),
        sa.Column("decided_by", sa.Integer(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["decided_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("norm"),
    )


def downgrade():
    op.drop_table("bank_decisions")
