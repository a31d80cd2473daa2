"""review_logs.request_id: the rating's one-time id, so a resent rating is told apart from another tab's

Revision ID: 0015_review_request_id
Revises: 0014_explanation_cache_indexes
"""
from alembic import op
import sqlalchemy as sa


revision = "0015_review_request_id"
down_revision = "0014_explanation_cache_indexes"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("review_logs") as batch:
        batch.add_column(sa.Column("request_id", sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table("review_logs") as batch:
        batch.drop_column("request_id")
