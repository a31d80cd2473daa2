"""translation groups: a question's wordings in other languages share one card per candidate

Adds questions.translation_of (the group's root question) and merges any duplicate cards a
candidate has within one group (the card with more reviews is kept; every review log is kept).

Revision ID: 0013_translation_groups
Revises: 0012_interview_mode
"""
from alembic import op
import sqlalchemy as sa

from prep.questions.card_merge import merge_duplicate_cards


revision = "0013_translation_groups"
down_revision = "0012_interview_mode"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("questions") as batch:
        batch.add_column(sa.Column("translation_of", sa.Integer(), nullable=True))
        batch.create_index("ix_questions_translation_of", ["translation_of"])
        batch.create_foreign_key("fk_questions_translation_of", "questions", ["translation_of"], ["id"],
                                 ondelete="SET NULL")
    merge_duplicate_cards(op.get_bind())


def downgrade():
    with op.batch_alter_table("questions") as batch:
        batch.drop_constraint("fk_questions_translation_of", type_="foreignkey")
        batch.drop_index("ix_questions_translation_of")
        batch.drop_column("translation_of")
