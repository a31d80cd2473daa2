"""optimization_runs: fitted FSRS parameters with before/after metrics, for rollback

Revision ID: 0004_optimization_runs
Revises: 0003_reminders
"""
from alembic import op
import sqlalchemy as sa

revision = "0004_optimization_runs"
down_revision = "0003_reminders"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "optimization_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("review_count", sa.Integer(), nullable=False),
        sa.Column("train_items", sa.Integer(), nullable=False),
        sa.Column("test_items", sa.Integer(), nullable=False),
        sa.Column("split_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("log_loss_before", sa.Float(), nullable=False),
        sa.Column("log_loss_after", sa.Float(), nullable=False),
        sa.Column("rmse_before", sa.Float(), nullable=False),
        sa.Column("rmse_after", sa.Float(), nullable=False),
        sa.Column("old_parameters", sa.String(length=1000), nullable=True),
        sa.Column("new_parameters", sa.String(length=1000), nullable=False),
        sa.Column("applied", sa.Boolean(), nullable=False),
        sa.Column("rolled_back_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("optimization_runs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_optimization_runs_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("optimization_runs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_optimization_runs_user_id"))
    op.drop_table("optimization_runs")
