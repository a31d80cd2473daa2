"""translation groups: a question's wordings in other languages share one card per candidate

Adds questions.translation_of (the group's root question). No group exists when this runs, so
no card needs merging here: linking two wordings (prep.questions.translations.link, the bank's
instructor action, a content sync of paired question lists) merges each candidate's duplicate
cards in that group then (prep.questions.card_merge: the card with more reviews is kept, every
review log is kept).

Revision ID: 0013_translation_groups
Revises: 0012_interview_mode
"""
from alembic import op
import sqlalchemy as sa


revision = "0013_translation_groups"
down_revision = "0012_interview_mode"
branch_labels = None
depends_on = None


def upgrade():
    # A plain ADD COLUMN (no batch): on SQLite a batch rebuild of questions would drop the table
    # and, with foreign keys on, cascade-delete every card and link pointing at it. No ON DELETE:
    # a group never spans owners and public questions are not deleted, so a user's deletion
    # removes whole groups in one statement.
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE questions ADD COLUMN translation_of INTEGER REFERENCES questions (id)")
    else:
        op.add_column("questions", sa.Column("translation_of", sa.Integer(), nullable=True))
        op.create_foreign_key("questions_translation_of_fkey", "questions", "questions", ["translation_of"], ["id"])
    op.create_index("ix_questions_translation_of", "questions", ["translation_of"])


def downgrade():
    op.drop_index("ix_questions_translation_of", table_name="questions")
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint("questions_translation_of_fkey", "questions", type_="foreignkey")
    op.drop_column("questions", "translation_of")
