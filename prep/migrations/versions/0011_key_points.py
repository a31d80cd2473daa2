"""key points: explanations.key_points (the drill's self-grading checklist) and
review_logs.key_points_ticked (the points ticked for a rating)

Revision ID: 0011_key_points
Revises: 0009_pending_registrations
"""
from alembic import op
import sqlalchemy as sa

revision = "0011_key_points"
# 0010 (revisions) is written on another branch at the same time: whichever merges second
# points its down_revision at the other, so the chain stays linear.
down_revision = "0010_explanation_revisions"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("explanations") as batch_op:
        batch_op.add_column(sa.Column("key_points", sa.JSON(), nullable=False, server_default="[]"))
    with op.batch_alter_table("review_logs") as batch_op:
        batch_op.add_column(sa.Column("key_points_ticked", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("review_logs") as batch_op:
        batch_op.drop_column("key_points_ticked")
    with op.batch_alter_table("explanations") as batch_op:
        batch_op.drop_column("key_points")
