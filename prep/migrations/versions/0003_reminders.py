"""reminders: settings, the once-per-local-day claim log, attempts, in-app notifications

Revision ID: 0003_reminders
Revises: 0002_postings
"""
from alembic import op
import sqlalchemy as sa

revision = "0003_reminders"
down_revision = "0002_postings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reminder_settings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("remind_minute", sa.Integer(), nullable=False),
        sa.Column("email", sa.Boolean(), nullable=False),
        sa.Column("in_app", sa.Boolean(), nullable=False),
        sa.Column("calendar_token", sa.String(length=64), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id"),
        sa.UniqueConstraint("calendar_token"),
    )
    op.create_table(
        "reminder_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("local_date", sa.Date(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("channels", sa.String(length=32), nullable=False),
        sa.Column("due_count", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "local_date", name="uq_reminder_user_day"),
    )
    op.create_index("ix_reminder_log_status", "reminder_log", ["status", "next_attempt_at"])
    op.create_table(
        "reminder_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("log_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("transport", sa.String(length=16), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["log_id"], ["reminder_log.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("log_id", "number", name="uq_reminder_attempt"),
    )
    op.create_index("ix_reminder_attempts_log_id", "reminder_attempts", ["log_id"])
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("local_date", sa.Date(), nullable=False),
        sa.Column("due_count", sa.Integer(), nullable=False),
        sa.Column("message", sa.String(length=300), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("dismissed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("user_id", "local_date", "kind", name="uq_notification_user_day_kind"),
    )
    op.create_index("ix_notifications_user_open", "notifications", ["user_id", "dismissed_at"])


def downgrade() -> None:
    op.drop_index("ix_notifications_user_open", table_name="notifications")
    op.drop_table("notifications")
    op.drop_index("ix_reminder_attempts_log_id", table_name="reminder_attempts")
    op.drop_table("reminder_attempts")
    op.drop_index("ix_reminder_log_status", table_name="reminder_log")
    op.drop_table("reminder_log")
    op.drop_table("reminder_settings")
