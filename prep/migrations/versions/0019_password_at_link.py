"""pending_registrations: the password (and name, time zone) is chosen when the emailed link is
followed, so a pending registration no longer holds them

Revision ID: 0019_password_at_link
Revises: 0018_posting_forecasts
"""
from alembic import op
import sqlalchemy as sa


revision = "0019_password_at_link"
down_revision = "0018_posting_forecasts"
branch_labels = None
depends_on = None


def upgrade():
    # A pending registration made before keeps its link: following it now asks for the password.
    with op.batch_alter_table("pending_registrations", schema=None) as batch_op:
        batch_op.drop_column("password_hash")
        batch_op.drop_column("display_name")
        batch_op.drop_column("timezone")


def downgrade():
    # The links made since cannot be completed the old way (they hold no password): drop them.
    op.execute("DELETE FROM pending_registrations")
    with op.batch_alter_table("pending_registrations", schema=None) as batch_op:
        batch_op.add_column(sa.Column("password_hash", sa.String(length=255), nullable=False, server_default=""))
        batch_op.add_column(sa.Column("display_name", sa.String(length=80), nullable=False, server_default=""))
        batch_op.add_column(sa.Column("timezone", sa.String(length=64), nullable=False, server_default="UTC"))
