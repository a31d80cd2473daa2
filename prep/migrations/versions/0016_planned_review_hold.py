"""planned_reviews.hold: a row that marks when interview mode's hold on a card ends (its last
interview), so a card reviewed for the last time before the interview is not offered again as an
ordinary due review before the day

Revision ID: 0016_planned_review_hold
Revises: 0015_review_request_id
"""
from alembic import op
import sqlalchemy as sa


revision = "0016_planned_review_hold"
down_revision = "0015_review_request_id"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("planned_reviews") as batch:
        batch.add_column(sa.Column("hold", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade():
    with op.batch_alter_table("planned_reviews") as batch:
        batch.drop_column("hold")
