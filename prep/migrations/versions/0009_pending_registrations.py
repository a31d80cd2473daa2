"""pending_registrations: a registration waits for its emailed link

Revision ID: 0009_pending_registrations
Revises: 0008_bank_decisions
"""
from alembic import op
import sqlalchemy as sa


revision = "0009_pending_registrations"
down_revision = "0008_bank_decisions"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "pending_registrations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("display_name", sa.String(length=80), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    with op.batch_alter_table("pending_registrations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_pending_registrations_created_at"), ["created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_pending_registrations_email"), ["email"], unique=False)


def downgrade():
    with op.batch_alter_table("pending_registrations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_pending_registrations_email"))
        batch_op.drop_index(batch_op.f("ix_pending_registrations_created_at"))
    op.drop_table("pending_registrations")
