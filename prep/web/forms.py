"""Forms shared by every feature."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SubmitField


class EmptyForm(FlaskForm):
    """The form of every button-only POST (undo, bury, delete, dismiss, …): its CSRF token and a
    submit button, nothing else."""

    submit = SubmitField()
