"""postings.kind (posting or interview report), rounds and skill weights; posting_questions.kind and round

Revision ID: 0006_posting_kinds
Revises: 0005_language_leases
"""
from alembic import op
import sqlalchemy as sa

revision = "0006_posting_kinds"
down_revision = "0005_language_leases"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("postings") as batch_op:
        batch_op.add_column(sa.Column("kind", sa.String(length=20), nullable=False, server_default="posting"))
        batch_op.add_column(sa.Column("rounds", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("skill_weights", sa.JSON(), nullable=True))
    with op.batch_alter_table("posting_questions") as batch_op:
        batch_op.add_column(sa.Column("kind", sa.String(length=20), nullable=False, server_default="concept"))
        batch_op.add_column(sa.Column("round", sa.String(length=60), nullable=True))


def downgrade():
    with op.batch_alter_table("posting_questions") as batch_op:
        batch_op.drop_column("round")
        batch_op.drop_column("kind")
    with op.batch_alter_table("postings") as batch_op:
        batch_op.drop_column("skill_weights")
        batch_op.drop_column("rounds")
        batch_op.drop_column("kind")
