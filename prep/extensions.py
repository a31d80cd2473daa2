"""Flask extensions, created once and bound to the app in :func:`prep.create_app`."""
from __future__ import annotations

from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for every model."""


db = SQLAlchemy(model_class=Base)
login_manager = LoginManager()
csrf = CSRFProtect()
migrate = Migrate()
# Storage is chosen in create_app: Redis when PREP_REDIS_URL is set (shared by every worker),
# else process memory (fine for one process).
limiter = Limiter(key_func=get_remote_address)
