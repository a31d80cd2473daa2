"""Schema change for the optimisation log, for an Alembic revision in ``prep/migrations/versions``.

The revision file the lead adds only names the revision and delegates here::

    from prep.optimize.migration import downgrade, upgrade  # noqa: F401

    revision = "000N_optimization_runs"
    down_revision = "<the current head>"

``tests/test_optimize.py`` checks that :func:`upgrade` builds exactly the table the model describes.
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from ..dbtypes import UTCDateTime


def upgrade() -> None:
    op.create_table(
        "optimization_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("review_count", sa.Integer(), nullable=False),
        sa.Column("train_items", sa.Integer(), nullable=False),
        sa.Column("test_items", sa.Integer(), nullable=False),
        sa.Column("split_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("log_loss_before", sa.Float(), nullable=False),
        sa.Column("log_loss_after", sa.Float(), nullable=False),
        sa.Column("rmse_before", sa.Float(), nullable=False),
        sa.Column("rmse_after", sa.Float(), nullable=False),
        sa.Column("old_parameters", sa.String(length=1000), nullable=True),
        sa.Column("new_parameters", sa.String(length=1000), nullable=False),
        sa.Column("applied", sa.Boolean(), nullable=False),
        sa.Column("rolled_back_at", UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("optimization_runs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_optimization_runs_user_id"), ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("optimization_runs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_optimization_runs_user_id"))
    op.drop_table("optimization_runs")
