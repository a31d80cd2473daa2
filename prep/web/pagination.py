"""One page of a list: Flask-SQLAlchemy's ``db.paginate`` with the app's bounded ``?page=``."""
from __future__ import annotations

from typing import Any

from flask_sqlalchemy.pagination import Pagination
from sqlalchemy import Select

from ..extensions import db
from .args import page_arg


def paginate(stmt: Select[Any], per_page: int, *, clamp: bool = False) -> Pagination:
    """The page ``?page=`` names (1 when absent or out of bounds) of ``stmt``'s scalars.

    A page past the end is shown empty, or, with ``clamp``, as the last page. Templates take
    ``page.pages or 1``: an empty list still has one (empty) page.
    """
    page = db.paginate(stmt, page=page_arg(), per_page=per_page, max_per_page=per_page, error_out=False)
    if clamp and page.page > max(1, page.pages):
        page = db.paginate(stmt, page=max(1, page.pages), per_page=per_page, max_per_page=per_page,
                           error_out=False)
    return page
