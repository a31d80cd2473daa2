"""planned_reviews.priority: the order the drill offers a day's booked cards in (the candidate's
own questions first: asked in a report of the company, then listed in the posting, then likely)

Revision ID: 0024_booking_priority
Revises: 0023_reminder_channels
"""
from alembic import op
import sqlalchemy as sa


revision = "0024_booking_priority"
down_revision = "0023_reminder_channels"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("planned_reviews") as batch:
        batch.add_column(sa.Column("priority", sa.SmallInteger(), nullable=False, server_default="0"))


def downgrade():
    with op.batch_alter_table("planned_reviews") as batch:
        batch.drop_column("priority")
