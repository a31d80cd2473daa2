"""users.language (UI language) and the job lease table

Revision ID: 0005_language_leases
Revises: 0004_optimization_runs
"""
from alembic import op
import sqlalchemy as sa


revision = "0005_language_leases"
down_revision = "0004_optimization_runs"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("users") as batch_op:
        batch_op.add_column(sa.Column("language", sa.String(length=8), nullable=True))
    op.create_table(
        "leases",
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("holder", sa.String(length=200), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade():
    op.drop_table("leases")
    with op.batch_alter_table("users") as batch_op:
        batch_op.drop_column("language")
