"""optimization_runs: fitted FSRS parameters with before/after metrics, for rollback (issue 6)

Revision ID: 0004_optimization_runs
Revises: 0003_reminders
"""
from prep.optimize.migration import downgrade, upgrade  # noqa: F401

revision = "0004_optimization_runs"
down_revision = "0003_reminders"
branch_labels = None
depends_on = None
