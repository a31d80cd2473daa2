"""interview_settings.ahead_on: the study day a candidate chose to study ahead of the interview
plan (the drill's budget stop leaves that day's bookings alone)

Revision ID: 0017_interview_ahead_on
Revises: 0016_planned_review_hold
"""
from alembic import op
import sqlalchemy as sa


revision = "0017_interview_ahead_on"
down_revision = "0016_planned_review_hold"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("interview_settings") as batch:
        batch.add_column(sa.Column("ahead_on", sa.Date(), nullable=True))


def downgrade():
    with op.batch_alter_table("interview_settings") as batch:
        batch.drop_column("ahead_on")
