"""reminders: settings, the once-per-local-day claim log, attempts, in-app notifications (issue 5)

Revision ID: 0003_reminders
Revises: 0002_postings
"""
from prep.reminders.migration import downgrade, upgrade  # noqa: F401

revision = "0003_reminders"
down_revision = "0002_postings"
branch_labels = None
depends_on = None
