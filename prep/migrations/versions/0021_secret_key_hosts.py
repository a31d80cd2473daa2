"""secret_key_hosts: each host's secret key fingerprint (a hash, never the key), so that a host
without PREP_SECRET_KEY refuses to serve a database another host signs with a different key

Revision ID: 0021_secret_key_hosts
Revises: 0020_bank_publication
"""
from alembic import op
import sqlalchemy as sa


revision = "0021_secret_key_hosts"
down_revision = "0020_bank_publication"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "secret_key_hosts",
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("host"),
    )


def downgrade():
    op.drop_table("secret_key_hosts")
