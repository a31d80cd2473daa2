"""The import form (a CSRF-protected file upload)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileAllowed, FileField, FileRequired, FileSize
from wtforms import BooleanField, SubmitField

MAX_IMPORT_BYTES = 2 * 1024 * 1024


class ImportForm(FlaskForm):
    MAX_BYTES = MAX_IMPORT_BYTES

    file = FileField(_l("Export file (.json)"), validators=[
        FileRequired(_l("Choose a .json file exported from prep.")),
        FileAllowed(["json"], _l("Only a prep .json export can be imported.")),
        FileSize(max_size=MAX_IMPORT_BYTES, message=_l("The file is larger than 2 MB.")),
    ])
    restore_settings = BooleanField(_l("Also restore my study settings from the file"), default=True)
    submit = SubmitField(_l("Import"))
