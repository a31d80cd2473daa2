"""Forms shared by every feature."""
from __future__ import annotations

from flask import current_app
from flask_wtf import FlaskForm
from wtforms import SubmitField


class EmptyForm(FlaskForm):
    """The form of every button-only POST (undo, bury, delete, dismiss, …): its CSRF token and a
    submit button, nothing else."""

    submit = SubmitField()


class ButtonForm:
    """Stands in for :class:`EmptyForm` on a page that only shows buttons (the ``post_button``
    macro reads ``form.csrf_token is defined`` and calls ``csrf_token()`` itself): the same markup
    without building a WTForms form per button on the hot pages. Views validate a real EmptyForm."""

    def __init__(self) -> None:
        if current_app.config.get("WTF_CSRF_ENABLED", True):  # FlaskForm.Meta.csrf's default
            self.csrf_token = True
