"""reminder_channels: each user's settings per reminder channel (the email and in-app switches
move there from reminder_settings, kept as they were); reminder_log holds one claim per user,
local day and channel (a day claimed for email and in-app becomes two rows)

Revision ID: 0023_reminder_channels
Revises: 0022_interview_plans
"""
from alembic import op
import sqlalchemy as sa


revision = "0023_reminder_channels"
down_revision = "0022_interview_plans"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "reminder_channels",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=16), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("destination", sa.String(length=2048), nullable=True),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "channel"),
    )
    for channel in ("email", "in_app"):
        op.execute(
            "INSERT INTO reminder_channels (user_id, channel, enabled, destination, options, updated_at) "
            f"SELECT user_id, '{channel}', {channel}, NULL, '{{}}', updated_at FROM reminder_settings")
    with op.batch_alter_table("reminder_settings") as batch:
        batch.drop_column("email")
        batch.drop_column("in_app")

    with op.batch_alter_table("reminder_log") as batch:
        batch.add_column(sa.Column("channel", sa.String(length=16), nullable=True))
        batch.drop_constraint("uq_reminder_user_day", type_="unique")
    # A day's claim was for email (and maybe in-app) or for in-app alone; its status and
    # attempts were the email's. A day claimed for both gets an in-app row, sent when claimed.
    op.execute("UPDATE reminder_log SET channel = CASE WHEN channels LIKE '%email%' THEN 'email' ELSE 'in_app' END")
    op.execute(
        "INSERT INTO reminder_log (user_id, local_date, channel, channels, status, due_count, attempts, claimed_at,"
        " lease_until, next_attempt_at, expires_at, sent_at, last_error) "
        "SELECT user_id, local_date, 'in_app', 'in_app', 'sent', due_count, 0, claimed_at, NULL, NULL, expires_at,"
        " claimed_at, NULL FROM reminder_log WHERE channel = 'email' AND channels LIKE '%in_app%'")
    with op.batch_alter_table("reminder_log") as batch:
        batch.alter_column("channel", existing_type=sa.String(length=16), nullable=False)
        batch.create_unique_constraint("uq_reminder_user_day_channel", ["user_id", "local_date", "channel"])
        batch.drop_column("channels")


def downgrade():
    with op.batch_alter_table("reminder_log") as batch:
        batch.add_column(sa.Column("channels", sa.String(length=32), nullable=True))
    op.execute(
        "UPDATE reminder_log SET channels = CASE WHEN channel = 'email' AND EXISTS (SELECT 1 FROM reminder_log o"
        " WHERE o.user_id = reminder_log.user_id AND o.local_date = reminder_log.local_date"
        " AND o.channel = 'in_app') THEN 'email,in_app' ELSE channel END")
    op.execute(
        "DELETE FROM reminder_log WHERE channel <> 'email' AND EXISTS (SELECT 1 FROM reminder_log o"
        " WHERE o.user_id = reminder_log.user_id AND o.local_date = reminder_log.local_date"
        " AND o.channel = 'email')")
    op.execute("DELETE FROM reminder_log WHERE channel NOT IN ('email', 'in_app')")
    with op.batch_alter_table("reminder_log") as batch:
        batch.alter_column("channels", existing_type=sa.String(length=32), nullable=False)
        batch.drop_constraint("uq_reminder_user_day_channel", type_="unique")
        batch.create_unique_constraint("uq_reminder_user_day", ["user_id", "local_date"])
        batch.drop_column("channel")

    with op.batch_alter_table("reminder_settings") as batch:
        batch.add_column(sa.Column("email", sa.Boolean(), nullable=False, server_default=sa.true()))
        batch.add_column(sa.Column("in_app", sa.Boolean(), nullable=False, server_default=sa.true()))
    for channel in ("email", "in_app"):
        op.execute(
            f"UPDATE reminder_settings SET {channel} = COALESCE((SELECT enabled FROM reminder_channels c"
            f" WHERE c.user_id = reminder_settings.user_id AND c.channel = '{channel}'), {channel})")
    op.drop_table("reminder_channels")
